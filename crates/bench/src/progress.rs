//! Progress bars for the long phases of an experiment (loading, the runs of
//! a matrix). Drawn on stderr only when it is a terminal, and only between
//! runs: nothing redraws while a run is measured.
use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` steps (runs) labelled `what`.
pub fn runs(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:24} [{bar:30}] {pos}/{len} runs, {elapsed} (~{eta} left)",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

/// A bar counting rows loaded out of about `total`.
pub fn rows(total: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:24} [{bar:30}] {human_pos}/{human_len} rows, {elapsed} (~{eta} left)",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}
