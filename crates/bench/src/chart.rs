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
    /// The legend entry (a case, or a system).
    pub name: String,
    /// The panel the line belongs to (a case when systems are compared;
    /// empty for a chart of one panel).
    pub panel: String,
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

/// Size of a one-panel chart; a grid of panels gets `PANEL` per panel.
const SIZE: (u32, u32) = (900, 560);
const PANEL: (u32, u32) = (420, 320);
const GRID_TITLE: u32 = 44;

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
    /// The panels, in the order their lines first appear.
    fn panels(&self) -> Vec<&str> {
        let mut panels: Vec<&str> = Vec::new();
        for s in self.series {
            if !panels.contains(&s.panel.as_str()) {
                panels.push(&s.panel);
            }
        }
        panels
    }

    /// Panels per row and rows of the grid.
    fn grid(&self) -> (u32, u32) {
        let n = self.panels().len().max(1) as u32;
        let cols = if n == 1 {
            1
        } else if n <= 4 {
            2
        } else {
            3
        };
        (cols, n.div_ceil(cols))
    }

    fn size(&self) -> (u32, u32) {
        match self.grid() {
            (1, 1) => SIZE,
            (cols, rows) => (cols * PANEL.0, rows * PANEL.1 + GRID_TITLE),
        }
    }

    /// Writes `<stem>.png` and `<stem>.svg`.
    pub fn write(&self, stem: &Path) -> anyhow::Result<()> {
        register_font();
        let png = stem.with_extension("png");
        let svg = stem.with_extension("svg");
        {
            let root = BitMapBackend::new(&png, self.size()).into_drawing_area();
            self.draw(&root)?;
            root.present()
                .map_err(|e| anyhow::anyhow!("{}: {e}", png.display()))?;
        }
        {
            let root = SVGBackend::new(&svg, self.size()).into_drawing_area();
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
        // One colour per line name across all panels (a system keeps its
        // colour from panel to panel).
        let mut names: Vec<&str> = Vec::new();
        for s in self.series {
            if !names.contains(&s.name.as_str()) {
                names.push(&s.name);
            }
        }
        let color =
            |name: &str| COLORS[names.iter().position(|n| *n == name).unwrap_or(0) % COLORS.len()];
        let panels = self.panels();
        if panels.len() <= 1 {
            return self.draw_panel(root, self.title, self.series, &color, 1.0);
        }
        let (cols, rows) = self.grid();
        let (title, body) = root.split_vertically(GRID_TITLE);
        title.titled(self.title, ("sans-serif", 24)).map_err(err)?;
        for (area, panel) in body
            .split_evenly((rows as usize, cols as usize))
            .iter()
            .zip(&panels)
        {
            let series: Vec<Series> = self
                .series
                .iter()
                .filter(|s| s.panel == *panel)
                .cloned()
                .collect();
            self.draw_panel(area, panel, &series, &color, 0.75)?;
        }
        Ok(())
    }

    /// One chart of `series` in `area`; `scale` shrinks fonts and margins.
    fn draw_panel<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        title: &str,
        series: &[Series],
        color: &dyn Fn(&str) -> RGBColor,
        scale: f64,
    ) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| anyhow::anyhow!("chart: {e:?}");
        let px = |n: f64| (n * scale).round() as u32;
        let threads: Vec<usize> = {
            let mut t: Vec<usize> = series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.0))
                .collect();
            t.sort_unstable();
            t.dedup();
            t
        };
        let (lo, hi) = series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .filter(|v| v.is_finite() && *v > 0.0)
            .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        let (lo, hi) = if lo.is_finite() {
            (lo, hi)
        } else {
            (1.0, 10.0)
        };
        let max_threads = threads.last().copied().unwrap_or(1).max(2) as f64;
        // Threads on a log2 axis (1, 2, 4, ...), as in the seeds' figures:
        // x is log2(threads), labelled with the thread count at each power
        // of two.
        let x_max = max_threads.log2();
        let x_range = -0.25f64..x_max + 0.25;
        let mut builder = ChartBuilder::on(area);
        builder
            .caption(title, ("sans-serif", px(24.0)))
            .margin(px(16.0))
            .x_label_area_size(px(48.0))
            .y_label_area_size(px(80.0));
        let x_labels = |x: &f64| {
            let r = x.round();
            if (x - r).abs() < 1e-6 && r >= 0.0 {
                format!("{}", 1u64 << (r as u32).min(62))
            } else {
                String::new()
            }
        };
        let style = |name: &str| color(name).stroke_width(px(3.0).max(2));
        macro_rules! plot {
            ($chart:expr) => {{
                let mut chart = $chart;
                chart
                    .configure_mesh()
                    .x_desc("threads")
                    .y_desc(self.y_label)
                    .x_labels(x_max as usize + 2)
                    .y_labels(12)
                    .light_line_style(WHITE)
                    .x_label_formatter(&x_labels)
                    .y_label_formatter(&|y: &f64| {
                        if self.scale == Scale::Log && !one_two_five(*y) {
                            String::new()
                        } else {
                            human(*y)
                        }
                    })
                    .label_style(("sans-serif", px(15.0)))
                    .axis_desc_style(("sans-serif", px(17.0)))
                    .draw()
                    .map_err(err)?;
                if self.ideal {
                    let line: Vec<(f64, f64)> = threads
                        .iter()
                        .map(|&t| ((t as f64).log2(), t as f64))
                        .collect();
                    chart
                        .draw_series(DashedLineSeries::new(line, 6, 4, BLACK.stroke_width(1)))
                        .map_err(err)?
                        .label("linear")
                        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK));
                }
                for s in series {
                    let pts: Vec<(f64, f64)> = s
                        .points
                        .iter()
                        .filter(|p| p.1.is_finite() && p.1 > 0.0)
                        .map(|&(t, v)| ((t as f64).log2(), v))
                        .collect();
                    let st = style(&s.name);
                    chart
                        .draw_series(LineSeries::new(pts.clone(), st))
                        .map_err(err)?
                        .label(s.name.as_str())
                        .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], st));
                    chart
                        .draw_series(pts.iter().map(|&p| Circle::new(p, px(4.0), st.filled())))
                        .map_err(err)?;
                }
                chart
                    .configure_series_labels()
                    .position(SeriesLabelPosition::LowerRight)
                    .label_font(("sans-serif", px(15.0)))
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
                .build_cartesian_2d(x_range, (lo / 3.0..hi * 1.6).log_scale())
                .map_err(err)?),
        }
        Ok(())
    }
}

/// Whether `v` is 1, 2 or 5 times a power of ten: the values a log axis
/// labels (the others between them crowd it).
fn one_two_five(v: f64) -> bool {
    if v <= 0.0 || !v.is_finite() {
        return false;
    }
    let m = v / 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .any(|d| (m - d).abs() < 1e-6 * d)
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

/// Seconds per query of each system: one point per query (x: the query's
/// number), a log y axis.
pub struct QueryChart<'a> {
    pub title: &'a str,
    pub series: &'a [Series],
}

impl QueryChart<'_> {
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
        let root = SVGBackend::new(&svg, SIZE).into_drawing_area();
        self.draw(&root)?;
        root.present()
            .map_err(|e| anyhow::anyhow!("{}: {e}", svg.display()))?;
        Ok(())
    }

    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| anyhow::anyhow!("chart: {e:?}");
        area.fill(&WHITE).map_err(err)?;
        let values = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .filter(|v| v.is_finite() && *v > 0.0);
        let (lo, hi) = values.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        let (lo, hi) = if lo.is_finite() {
            (lo / 2.0, hi * 2.0)
        } else {
            (0.001, 1.0)
        };
        let mut chart = ChartBuilder::on(area)
            .caption(self.title, ("sans-serif", 24))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(80)
            .build_cartesian_2d(0.5f64..22.5, (lo..hi).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("query")
            .y_desc("seconds")
            .x_labels(22)
            .x_label_formatter(&|x: &f64| format!("Q{}", x.round() as i64))
            .y_label_formatter(&|y: &f64| human(*y))
            .label_style(("sans-serif", 13))
            .light_line_style(WHITE)
            .draw()
            .map_err(err)?;
        for (i, s) in self.series.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            let points: Vec<(f64, f64)> = s
                .points
                .iter()
                .filter(|p| p.1.is_finite() && p.1 > 0.0)
                .map(|&(q, v)| (q as f64, v))
                .collect();
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 5, color.filled())))
                .map_err(err)?
                .label(s.name.clone())
                .legend(move |(x, y)| Circle::new((x + 10, y), 5, color.filled()));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .label_font(("sans-serif", 15))
            .draw()
            .map_err(err)?;
        Ok(())
    }
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
                panel: String::new(),
                points: vec![(1, 30_000.0), (2, 61_000.0), (4, 61_500.0)],
            },
            Series {
                name: "noncovering_1000".into(),
                panel: String::new(),
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
        assert!(one_two_five(20_000.0) && one_two_five(0.5) && one_two_five(1.0));
        assert!(!one_two_five(30_000.0) && !one_two_five(0.15));
    }
}
