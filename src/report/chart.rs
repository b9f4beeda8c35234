//! Charts of the report pages as small inline SVG, each with its twin: the same
//! figures as a table. A chart is built from one [`Figures`] value, and both
//! the SVG and the table are drawn from it, so they cannot disagree.
//!
//! Hand-written rather than plotters: plotters' SVG backend lays out text
//! with font metrics (a font crate or system fonts) and writes no `<title>`
//! or data attributes; stacked bars, a cap line and a strip of run marks
//! are a few dozen lines here. Not for: choosing what to count (`status`,
//! `host`) or any wording (the catalogue).

use std::fmt::Write;

/// Width and height of every chart's drawing (the SVG scales to its box).
/// Narrow enough that the labels stay readable when a phone scales it down: at
/// 390 px the drawing is about 358 px wide, so its text of [`FONT`] units shows
/// at 12.5 px, above the 11 px floor.
const W: f64 = 400.0;
const H: f64 = 170.0;
/// The text size, in the drawing's units (the stylesheet says the same).
pub const FONT: f64 = 14.0;
/// An axis label's width, estimated from its characters (a sans-serif
/// digit or letter is about 0.6 of the font size wide), with a margin.
fn label_w(text: &str) -> f64 {
    text.chars().count() as f64 * 0.6 * FONT + 6.0
}
/// The widest a bar gets (a chart of two status codes is not two slabs).
const MAX_BAR: f64 = 36.0;
/// Room for the y-axis labels and the x-axis labels.
const LEFT: f64 = 52.0;
const BOTTOM: f64 = 26.0;
/// A second line of labels, when a few wide ones are staggered.
const LINE: f64 = 16.0;
const TOP: f64 = 10.0;

/// One series of a chart: a key (its CSS class and data attribute, never
/// shown), a label in the page's language, and one value per category.
#[derive(Debug, Clone)]
pub struct Series {
    pub key: String,
    pub label: String,
    pub values: Vec<u64>,
}

/// What a chart shows: categories along x, series stacked on each.
#[derive(Debug, Clone)]
pub struct Figures {
    /// The label of the categories' column in the table ("day", "host"…).
    pub category_label: String,
    pub categories: Vec<String>,
    pub series: Vec<Series>,
    /// A limit drawn as a dashed line, with its label (a daily cap).
    pub limit: Option<(String, u64)>,
    /// Leave categories where every series is zero out of the table (the
    /// days of a month without a request): the chart draws nothing for them.
    pub sparse: bool,
}

/// One row of a table twin: its category and one figure per column.
#[derive(Debug, Clone)]
pub struct Row {
    pub category: String,
    pub cells: Vec<String>,
}

/// A chart ready for a template: title, text summary, SVG and table twin.
#[derive(Debug, Clone)]
pub struct Chart {
    pub id: String,
    pub title: String,
    pub summary: String,
    pub svg: String,
    /// The table's columns after the category's: (series key, label).
    pub head: Vec<(String, String)>,
    /// The label of the category column.
    pub category_label: String,
    pub rows: Vec<Row>,
    /// (key, label) of each colour the chart uses.
    pub legend: Vec<(String, String)>,
}

/// XML text and attribute escaping for what goes into the SVG by hand.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A round top for the y axis: 1, 2 or 5 times a power of ten.
fn nice_max(v: u64) -> u64 {
    let mut step = 1u64;
    loop {
        for m in [1, 2, 5] {
            if step * m >= v.max(1) {
                return step * m;
            }
        }
        step *= 10;
    }
}

impl Figures {
    /// The table twin: one row per category, one column per series (and the limit).
    fn table(&self) -> (Vec<(String, String)>, Vec<Row>) {
        let mut head: Vec<(String, String)> = self.series.iter().map(|s| (s.key.clone(), s.label.clone())).collect();
        if let Some((label, _)) = &self.limit {
            head.push(("limit".into(), label.clone()));
        }
        let rows = self
            .categories
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.sparse || self.series.iter().any(|s| s.values[*i] > 0))
            .map(|(i, c)| {
                let mut cells: Vec<String> = self.series.iter().map(|s| s.values[i].to_string()).collect();
                if let Some((_, cap)) = &self.limit {
                    cells.push(cap.to_string());
                }
                Row { category: c.clone(), cells }
            })
            .collect();
        (head, rows)
    }

    /// Stacked vertical bars, one per category, and the limit as a dashed line.
    fn bars_svg(&self, id: &str, title: &str) -> String {
        let n = self.categories.len().max(1) as f64;
        let totals: Vec<u64> = (0..self.categories.len()).map(|i| self.series.iter().map(|s| s.values[i]).sum()).collect();
        let top = nice_max(totals.iter().copied().max().unwrap_or(0).max(self.limit.as_ref().map_or(0, |l| l.1)));
        let slot = (W - LEFT) / n;
        // Labels never overlap: every k-th category is labelled; a few wide
        // labels (the gap bins) are all kept, on two staggered lines.
        let widest = self.categories.iter().map(|c| label_w(short(c))).fold(0.0, f64::max);
        let stagger = widest > slot && widest <= 2.0 * slot && self.categories.len() <= 12;
        let every = if stagger { 1 } else { (widest / slot).ceil().max(1.0) as usize };
        let h = if stagger { H + LINE } else { H };
        let plot_h = H - TOP - BOTTOM;
        let y = |v: f64| TOP + plot_h - v / top as f64 * plot_h;
        let bar = (slot * 0.7).clamp(1.0, MAX_BAR);
        let mut s = svg_open(id, h, title);
        // The middle tick only where it is a whole number (5 has none).
        let mut ticks = vec![0, top / 2, top];
        if top % 2 == 1 {
            ticks.remove(1);
        }
        ticks.dedup();
        for v in ticks {
            let _ = write!(
                s,
                r#"<line class="grid" x1="{LEFT}" x2="{W}" y1="{0:.1}" y2="{0:.1}"/><text class="axis" x="{1}" y="{2:.1}" text-anchor="end">{v}</text>"#,
                y(v as f64),
                LEFT - 4.0,
                y(v as f64) + 4.0
            );
        }
        for (i, cat) in self.categories.iter().enumerate() {
            let x = LEFT + slot * i as f64 + (slot - bar) / 2.0;
            let mut base = 0u64;
            if totals[i] > 0 {
                let _ = write!(s, r#"<g data-cat="{}">"#, esc(cat));
            }
            for se in &self.series {
                let v = se.values[i];
                if v == 0 {
                    continue;
                }
                // Lean (no per-bar title): the table twin carries each figure in words.
                let _ = write!(
                    s,
                    r#"<rect class="k-{key}" x="{x:.0}" y="{y1:.0}" width="{bar:.0}" height="{h:.0}" data-v="{v}"/>"#,
                    key = esc(&se.key),
                    y1 = y((base + v) as f64),
                    h = (y(base as f64) - y((base + v) as f64)).max(1.0),
                );
                base += v;
            }
            if totals[i] > 0 {
                s.push_str("</g>");
            }
            // A label that would run past the drawing's right edge ends at
            // it where every category is labelled, else is left out.
            let (mut lx, mut anchor) = (x + bar / 2.0, "middle");
            if lx + label_w(short(cat)) / 2.0 > W + 3.0 {
                (lx, anchor) = if every == 1 { (W - 1.0, "end") } else { (f64::NAN, "") };
            }
            if i % every == 0 && !lx.is_nan() {
                let line = if stagger && i % 2 == 1 { LINE } else { 0.0 };
                let _ = write!(
                    s,
                    r#"<text class="axis" x="{lx:.1}" y="{:.1}" text-anchor="{anchor}">{}</text>"#,
                    H - 8.0 + line,
                    esc(short(cat))
                );
            }
        }
        if let Some((label, cap)) = &self.limit {
            let _ = write!(
                s,
                r#"<line class="limit" x1="{LEFT}" x2="{W}" y1="{0:.1}" y2="{0:.1}" data-series="limit" data-v="{cap}"><title>{1} {cap}</title></line>"#,
                y(*cap as f64),
                esc(label)
            );
        }
        s.push_str("</svg>");
        s
    }
}

/// A day `YYYY-MM-DD` is labelled `MM-DD` on the axis; anything else as it is.
fn short(cat: &str) -> &str {
    if cat.len() == 10 && cat.as_bytes()[4] == b'-' { &cat[5..] } else { cat }
}

/// An SVG whose accessible name is its `<title>`.
fn svg_open(id: &str, h: f64, title: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {h}" role="img" aria-labelledby="{id}-t"><title id="{id}-t">{}</title>"#,
        esc(title)
    )
}

impl Chart {
    /// Stacked bars of `figures`, with its table twin.
    pub fn bars(id: &str, title: String, summary: String, figures: &Figures) -> Chart {
        let svg = figures.bars_svg(id, &title);
        let (head, rows) = figures.table();
        let legend = figures.series.iter().map(|s| (s.key.clone(), s.label.clone())).collect();
        Chart { id: id.into(), title, summary, svg, head, category_label: figures.category_label.clone(), rows, legend }
    }

    /// A strip of marks per row (a source's runs, oldest left), each a link;
    /// the twin counts the marks of each row by their key.
    pub fn strips(
        id: &str,
        title: String,
        summary: String,
        strips: &[Strip],
        keys: &[(String, String)],
        row_label: &str,
        period: &Period,
    ) -> Chart {
        let svg = strips_svg(id, &title, strips, period);
        let rows = strips
            .iter()
            .map(|strip| Row {
                category: strip.label.clone(),
                cells: keys.iter().map(|(key, _)| strip.marks.iter().filter(|m| &m.key == key).count().to_string()).collect(),
            })
            .collect();
        Chart {
            id: id.into(),
            title,
            summary,
            svg,
            head: keys.to_vec(),
            category_label: row_label.to_string(),
            rows,
            legend: keys.to_vec(),
        }
    }
}

/// The strips' drawing: a row of marks per strip along the whole period,
/// each group of marks a link, the days along the bottom.
fn strips_svg(id: &str, title: &str, strips: &[Strip], period: &Period) -> String {
    let line = 22.0;
    let rows_h = TOP + line * strips.len().max(1) as f64;
    let h = rows_h + BOTTOM;
    // The whole period along x, as the other charts of the page: a run
    // sits at its moment, and a quiet stretch shows as a gap.
    let (from, to) = (period.from_ms, period.to_ms.max(period.from_ms + 1));
    let span = (to - from) as f64;
    let mut s = svg_open(id, h, title);
    // One mark drawn once and used for every run, and one link per
    // row and group (a day's runs share their page of details): a month
    // of cron of every source (a thousand marks) stays under 150 KB.
    let left = 90.0;
    // A mark per day (its worst run): as wide as most of a day's slot,
    // from 2 (a year) to 12 (a week or less).
    let mark_w = ((W - left - 6.0) / period.days.len().max(1) as f64 * 0.8).clamp(2.0, 12.0);
    let _ = write!(s, r#"<defs><rect id="{id}-m" width="{mark_w:.1}" height="16"/></defs>"#);
    for (i, strip) in strips.iter().enumerate() {
        let y = TOP + line * i as f64;
        let label = esc(&strip.label);
        let _ = write!(
            s,
            r#"<text class="axis" x="0" y="{:.1}">{label}</text><g data-cat="{label}" transform="translate(0 {y:.0})">"#,
            y + 13.0
        );
        let mut open: Option<&str> = None;
        for m in &strip.marks {
            if open != Some(m.href.as_str()) {
                if open.is_some() {
                    s.push_str("</a>");
                }
                let _ = write!(s, r#"<a href="{}">"#, esc(&m.href));
                open = Some(&m.href);
            }
            let x = left + (m.at_ms.clamp(from, to) - from) as f64 / span * (W - left - 6.0) - mark_w / 2.0;
            let _ = write!(s, r##"<use href="#{id}-m" x="{x:.0}" class="k-{}"/>"##, esc(&m.key));
        }
        if open.is_some() {
            s.push_str("</a>");
        }
        s.push_str("</g>");
    }
    // The days along the bottom, every k-th labelled as on the bar charts.
    let n = period.days.len().max(1) as f64;
    let widest = period.days.iter().map(|d| label_w(short(d))).fold(0.0, f64::max);
    let every = (widest / ((W - left - 6.0) / n)).ceil().max(1.0) as usize;
    for (i, day) in period.days.iter().enumerate().filter(|(i, _)| i % every == 0) {
        let x = left + (i as f64 + 0.5) / n * (W - left - 6.0);
        if x + label_w(short(day)) / 2.0 > W + 3.0 {
            continue;
        }
        let _ = write!(s, r#"<text class="axis" x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#, h - 8.0, esc(short(day)));
    }
    s.push_str("</svg>");
    s
}

/// The span a strip chart covers: from, to (ms) and its days (`YYYY-MM-DD`), oldest first.
#[derive(Debug, Clone)]
pub struct Period<'a> {
    pub from_ms: i64,
    pub to_ms: i64,
    pub days: &'a [String],
}

/// One row of marks of [`Chart::strips`].
#[derive(Debug, Clone)]
pub struct Strip {
    pub label: String,
    pub marks: Vec<Mark>,
}

/// One mark: when, its key (CSS class) and where it links (marks in a row
/// that link to the same page share one link).
#[derive(Debug, Clone)]
pub struct Mark {
    pub at_ms: i64,
    pub key: String,
    pub href: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures() -> Figures {
        Figures {
            category_label: "day".into(),
            categories: vec!["2026-11-30".into(), "2026-12-01".into()],
            series: vec![
                Series { key: "ok".into(), label: "OK <200>".into(), values: vec![3, 0] },
                Series { key: "err".into(), label: "error".into(), values: vec![1, 2] },
            ],
            limit: Some(("cap".into(), 10)),
            sparse: false,
        }
    }

    #[test]
    fn a_bar_per_nonzero_value_and_a_twin_row_per_category() {
        let c = Chart::bars("c1", "Requests & co".into(), "sum".into(), &figures());
        assert_eq!(c.svg.matches("<rect ").count(), 3);
        assert!(c.svg.contains(r#"<g data-cat="2026-12-01"><rect class="k-err""#) && c.svg.contains(r#"data-v="2""#));
        assert!(c.svg.contains("Requests &amp; co"));
        assert_eq!(c.category_label, "day");
        assert_eq!(c.head.iter().map(|h| h.1.as_str()).collect::<Vec<_>>(), ["OK <200>", "error", "cap"]);
        assert_eq!(c.rows[1].cells, ["0", "2", "10"]);
    }

    #[test]
    fn the_axis_top_is_round() {
        assert_eq!(nice_max(0), 1);
        assert_eq!(nice_max(3), 5);
        assert_eq!(nice_max(11), 20);
        assert_eq!(nice_max(500), 500);
    }
}
