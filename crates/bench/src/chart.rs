//! Line charts of a benchmark's points, as in the seeds' figures: one line
//! per series (a case, or a system) against the thread count, written as
//! PNG and SVG. The font ships with the crate (DejaVu Sans, see
//! `assets/DejaVuSans-LICENSE.txt`), so no system font library is needed.
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if plotters::style::register_font("sans-serif", FontStyle::Normal, FONT).is_err() {
            eprintln!("lineardb bench: the chart font did not load");
        }
    });
}

/// One line: `(threads, value)` points, in thread order.
#[derive(Debug, Clone)]
pub struct Series {
    pub name: String,
    pub points: Vec<(usize, f64)>,
}

/// What the chart shows on its y axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Linear from 0 (ratios, speedups).
    Linear,
    /// Logarithmic (throughputs that differ by orders of magnitude).
    Log,
}

pub struct Chart<'a> {
    pub title: &'a str,
    pub y_label: &'a str,
    pub scale: Scale,
    /// A dashed `y = threads` line (perfect scaling of a speedup).
    pub ideal: bool,
    pub series: &'a [Series],
}

const SIZE: (u32, u32) = (900, 560);

/// Distinct, print-safe line colours (Tableau 10).
const COLORS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

impl Chart<'_> {
    /// Writes `<stem>.png` and `<stem>.svg`.
    pub fn write(&self, stem: &Path) -> anyhow::Result<()> {
        register_font();
        let png = stem.with_extension("png");
        let svg = stem.with_extension("svg");
        {
            let root = BitMapBackend::new(&png, SIZE).into_drawing_area();
            self.draw(&root)?;
            root.present()
                .map_err(|e| anyhow::anyhow!("{}: {e}", png.display()))?;
        }
        {
            let root = SVGBackend::new(&svg, SIZE).into_drawing_area();
            self.draw(&root)?;
            root.present()
                .map_err(|e| anyhow::anyhow!("{}: {e}", svg.display()))?;
        }
        Ok(())
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| anyhow::anyhow!("chart: {e:?}");
        root.fill(&WHITE).map_err(err)?;
        let threads: Vec<usize> = {
            let mut t: Vec<usize> = self
                .series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.0))
                .collect();
            t.sort_unstable();
            t.dedup();
            t
        };
        let values = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .filter(|v| v.is_finite() && *v > 0.0);
        let (lo, hi) = values.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        let (lo, hi) = if lo.is_finite() {
            (lo, hi)
        } else {
            (1.0, 10.0)
        };
        let max_threads = threads.last().copied().unwrap_or(1).max(2) as f64;
        // Threads on a log2 axis (1, 2, 4, ...), as in the seeds' figures.
        let x_range = (0.8f64..max_threads * 1.25).log_scale();
        let mut builder = ChartBuilder::on(root);
        builder
            .caption(self.title, ("sans-serif", 24))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(80);
        let x_labels = move |x: &f64| {
            let r = x.round();
            if (x - r).abs() < 1e-6 && r >= 1.0 && (r as u64).is_power_of_two() {
                format!("{}", r as u64)
            } else {
                String::new()
            }
        };
        let style = |i: usize| COLORS[i % COLORS.len()].stroke_width(3);
        macro_rules! plot {
            ($chart:expr) => {{
                let mut chart = $chart;
                chart
                    .configure_mesh()
                    .x_desc("threads")
                    .y_desc(self.y_label)
                    .x_labels(16)
                    .light_line_style(WHITE)
                    .x_label_formatter(&x_labels)
                    .y_label_formatter(&|y: &f64| human(*y))
                    .label_style(("sans-serif", 15))
                    .axis_desc_style(("sans-serif", 17))
                    .draw()
                    .map_err(err)?;
                if self.ideal {
                    let line: Vec<(f64, f64)> =
                        threads.iter().map(|&t| (t as f64, t as f64)).collect();
                    chart
                        .draw_series(DashedLineSeries::new(line, 6, 4, BLACK.stroke_width(1)))
                        .map_err(err)?
                        .label("linear")
                        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK));
                }
                for (i, s) in self.series.iter().enumerate() {
                    let pts: Vec<(f64, f64)> = s
                        .points
                        .iter()
                        .filter(|p| p.1.is_finite() && p.1 > 0.0)
                        .map(|&(t, v)| (t as f64, v))
                        .collect();
                    chart
                        .draw_series(LineSeries::new(pts.clone(), style(i)))
                        .map_err(err)?
                        .label(s.name.as_str())
                        .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], style(i)));
                    chart
                        .draw_series(pts.iter().map(|&p| Circle::new(p, 4, style(i).filled())))
                        .map_err(err)?;
                }
                chart
                    .configure_series_labels()
                    .position(SeriesLabelPosition::UpperLeft)
                    .label_font(("sans-serif", 15))
                    .background_style(WHITE.mix(0.85))
                    .border_style(BLACK)
                    .draw()
                    .map_err(err)?;
            }};
        }
        match self.scale {
            Scale::Linear => {
                let top = if self.ideal { hi.max(max_threads) } else { hi };
                plot!(builder
                    .build_cartesian_2d(x_range, 0.0..top * 1.15)
                    .map_err(err)?)
            }
            Scale::Log => plot!(builder
                .build_cartesian_2d(x_range, (lo / 1.6..hi * 1.6).log_scale())
                .map_err(err)?),
        }
        Ok(())
    }
}

/// 1234567 → "1.23M": axis labels stay short.
fn human(v: f64) -> String {
    let a = v.abs();
    let (x, unit) = if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let text = format!("{x:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}{unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_png_and_svg_with_legend_and_labels() {
        let dir = tempfile::tempdir().unwrap();
        let series = vec![
            Series {
                name: "pk_range_1000".into(),
                points: vec![(1, 30_000.0), (2, 61_000.0), (4, 61_500.0)],
            },
            Series {
                name: "noncovering_1000".into(),
                points: vec![(1, 1_200.0), (2, 2_300.0), (4, 2_350.0)],
            },
        ];
        let stem = dir.path().join("throughput");
        Chart {
            title: "seed001-scans: throughput",
            y_label: "scans/s",
            scale: Scale::Log,
            ideal: false,
            series: &series,
        }
        .write(&stem)
        .unwrap();
        let svg = std::fs::read_to_string(stem.with_extension("svg")).unwrap();
        for text in [
            "pk_range_1000",
            "noncovering_1000",
            "\nthreads\n",
            "scans/s",
        ] {
            assert!(svg.contains(text), "{text} missing from the SVG");
        }
        let png = std::fs::read(stem.with_extension("png")).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        assert!(png.len() < 200_000, "PNG of {} bytes", png.len());
        assert_eq!(human(61_500.0), "61.5k");
        assert_eq!(human(1_500_000.0), "1.5M");
        assert_eq!(human(10_000_000.0), "10M");
        assert_eq!(human(0.25), "0.25");
    }
}
