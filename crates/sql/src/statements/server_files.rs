//! The server's own files, which LOAD DATA INFILE reads and SELECT … INTO
//! OUTFILE writes: each must lie within `secure_file_priv` where it is set
//! (1290), and their errors are MariaDB's.
use crate::error::{Result, SqlError};
use crate::session::Session;
use std::path::{Path, PathBuf};

impl Session {
    /// The server's file `name` (a relative name from the server's working
    /// directory), where `secure_file_priv` allows.
    pub(super) fn server_file(&self, name: &str) -> Result<std::fs::File> {
        let path = Path::new(name);
        self.within_secure_file_priv(path)?;
        std::fs::File::open(path).map_err(|e| read_error(name, &e))
    }

    /// The new server file `name` (a relative name from the server's
    /// working directory, as LOAD DATA reads it): its directory must exist
    /// and lie within `secure_file_priv` (1290), the file must not (1086).
    pub(super) fn new_server_file(&self, name: &str) -> Result<(PathBuf, std::fs::File)> {
        let given = Path::new(name);
        let path = if given.is_absolute() {
            given.to_path_buf()
        } else {
            std::env::current_dir()
                .map_err(|e| write_error(given, &e))?
                .join(given)
        };
        let directory = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("/"));
        // A directory that is not there is refused as one outside the
        // bound (MariaDB's 1290 either way).
        if !directory.is_dir() {
            return Err(outside_secure_file_priv());
        }
        self.within_secure_file_priv(directory)?;
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(f) => Ok((path, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(SqlError::new(
                1086,
                "HY000",
                format!("File '{}' already exists", path.display()),
            )),
            Err(e) => Err(write_error(&path, &e)),
        }
    }

    /// 1290 where `secure_file_priv` is set and `path` is not within it.
    fn within_secure_file_priv(&self, path: &Path) -> Result<()> {
        let allowed = self
            .variable("secure_file_priv")
            .and_then(|v| v.to_text())
            .filter(|dir| !dir.is_empty());
        let Some(allowed) = allowed else {
            return Ok(());
        };
        let inside = std::fs::canonicalize(path)
            .ok()
            .zip(std::fs::canonicalize(&allowed).ok())
            .is_some_and(|(p, a)| p.starts_with(a));
        if inside {
            Ok(())
        } else {
            Err(outside_secure_file_priv())
        }
    }
}

/// MariaDB's 1290 for a file outside `secure_file_priv`.
fn outside_secure_file_priv() -> SqlError {
    SqlError::new(
        1290,
        "HY000",
        "The MariaDB server is running with the --secure-file-priv option so it cannot \
         execute this statement",
    )
}

/// MariaDB's errors for a file that cannot be read: 13 (not found, no
/// permission), else 1105.
pub(super) fn read_error(name: &str, e: &std::io::Error) -> SqlError {
    match e.kind() {
        std::io::ErrorKind::NotFound => SqlError::new(
            13,
            "HY000",
            format!("Can't get stat of '{name}' (Errcode: 2 \"No such file or directory\")"),
        ),
        std::io::ErrorKind::PermissionDenied => SqlError::new(
            13,
            "HY000",
            format!("Can't get stat of '{name}' (Errcode: 13 \"Permission denied\")"),
        ),
        _ => SqlError::new(1105, "HY000", format!("Error reading file '{name}': {e}")),
    }
}

/// MariaDB's error 1 for a file that cannot be made or written.
pub(super) fn write_error(path: &Path, e: &std::io::Error) -> SqlError {
    let errno = e.raw_os_error().unwrap_or(5);
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text);
    SqlError::new(
        1,
        "HY000",
        format!(
            "Can't create/write to file '{}' (Errcode: {errno} \"{text}\")",
            path.display()
        ),
    )
}
