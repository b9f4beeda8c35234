//! The report's pages as a browser draws them. Where
//! Chromium is installed, `index.html` and one host page are rendered
//! headless at 390 px (a phone) and 1280 px (a laptop): the screenshot is
//! not blank, and nothing is wider than the window (no horizontal
//! scrollbar); chart text is at least 11 px at 390 px and the runs page's
//! column heads stay whole at 1280 px. Without Chromium
//! the test says so and skips.
use crate::common;

use common::{cityvibe, sample, workdir};
use std::path::{Path, PathBuf};
use std::process::Command;

const WIDTHS: [u32; 2] = [390, 1280];

/// Chromium's command, if one is installed.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |d| d.join(name)))
        .find(|p| p.is_file())
}

/// Chromium headless with no network of its own, a fresh profile, the given window.
fn browser(exe: &Path, profile: &Path, width: u32) -> Command {
    let mut c = Command::new(exe);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--run-all-compositor-stages-before-draw",
        "--virtual-time-budget=2000",
    ])
    .arg(format!("--user-data-dir={}", profile.display()))
    .arg(format!("--window-size={width},900"));
    c
}

/// The share of pixels that differ from the top-left one (the background).
fn ink(png_path: &Path) -> f64 {
    let bytes = std::fs::read(png_path).unwrap_or_else(|e| panic!("{}: {e}", png_path.display()));
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let px = info.color_type.samples();
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks(px).collect();
    let background = pixels[0];
    pixels.iter().filter(|p| **p != background).count() as f64 / pixels.len() as f64
}

/// A test-only page beside `page` that shows it in a frame exactly
/// `width` px wide: headless Chromium lays a window out at least 500 px
/// wide whatever `--window-size` says, a frame keeps the width asked for.
fn framed(page: &Path, shown: &str, width: u32, listen: bool) -> PathBuf {
    let listener = if listen {
        "<script>addEventListener('message', e => document.body.setAttribute('data-overflow', String(e.data)))</script>"
    } else {
        ""
    };
    let frame = page.with_file_name(format!("frame-{width}.html"));
    let html = format!(
        "<!DOCTYPE html><html><head><title>frame</title></head><body style=\"margin:0\">\
         <iframe src=\"{shown}\" style=\"border:0;display:block;width:{width}px;height:900px\"></iframe>{listener}</body></html>"
    );
    std::fs::write(&frame, html).unwrap();
    frame
}

/// A figure measured in the page as Chromium lays it out `width` px wide:
/// a copy of it with a test-only script (the pages carry none) computes
/// `expr` and tells the frame's parent, which writes it into the DOM
/// Chromium dumps.
fn measure(exe: &Path, profile: &Path, page: &Path, width: u32, expr: &str) -> f64 {
    let html = std::fs::read_to_string(page).unwrap();
    let probe = format!("<script>parent.postMessage(String({expr}), '*')</script></body>");
    let copy = page.with_file_name(format!("probe-{}", page.file_name().unwrap().to_string_lossy()));
    std::fs::write(&copy, html.replace("</body>", &probe)).unwrap();
    let frame = framed(page, &copy.file_name().unwrap().to_string_lossy(), width, true);
    let out = browser(exe, profile, width).arg("--dump-dom").arg(format!("file://{}", frame.display())).output().unwrap();
    std::fs::remove_file(&copy).unwrap();
    std::fs::remove_file(&frame).unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    let at =
        dom.find("data-overflow=\"").unwrap_or_else(|| panic!("no measure in the dump: {dom}\n{}", String::from_utf8_lossy(&out.stderr)));
    dom[at + 15..].split('"').next().unwrap().parse().unwrap_or_else(|e| panic!("{expr}: {e}: {dom}"))
}

/// How much wider than its frame the page is.
fn overflow(exe: &Path, profile: &Path, page: &Path, width: u32) -> i64 {
    measure(exe, profile, page, width, "document.documentElement.scrollWidth - document.documentElement.clientWidth") as i64
}

/// The smallest text of the page's charts, in CSS px as drawn (the font
/// size times the drawing's scale on screen).
const CHART_TEXT_PX: &str = "Math.min(...Array.from(document.querySelectorAll('svg text'), \
     t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))";

/// The most lines any column head of a table takes (1: none breaks).
const HEAD_LINES: &str = "Math.max(...Array.from(document.querySelectorAll('thead th'), \
     th => Math.round(th.getBoundingClientRect().height / parseFloat(getComputedStyle(th).lineHeight) - 0.3)))";

#[test]
fn the_pages_render_at_phone_and_laptop_width_without_overflow() {
    let Some(exe) = chromium() else {
        eprintln!("notice: skipping, Chromium is not installed (apt-get install chromium)");
        return;
    };
    let dir = workdir("[settings]\ntranslator = \"none\"\n\n[sources.madrid]\n");
    let d = dir.path();
    let samples = sample("");
    let out = cityvibe(d, &["--mirror", samples.to_str().unwrap(), "run", "--source", "madrid", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = cityvibe(d, &["report", "--out", "site", "--lang", "en"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pages = [d.join("site/index.html"), d.join("site/hosts/datos.madrid.es.fr.html")];
    for page in &pages {
        for width in WIDTHS {
            let profile = tempfile::tempdir().unwrap();
            let shot = d.join(format!("shot-{width}.png"));
            let frame = framed(page, &page.file_name().unwrap().to_string_lossy(), width, false);
            let out = browser(&exe, profile.path(), width)
                .arg(format!("--screenshot={}", shot.display()))
                .arg(format!("file://{}", frame.display()))
                .output()
                .unwrap();
            std::fs::remove_file(&frame).unwrap();
            assert!(shot.is_file(), "{} at {width}: no screenshot: {}", page.display(), String::from_utf8_lossy(&out.stderr));
            let share = ink(&shot);
            assert!(share > 0.01, "{} at {width} px: a blank screenshot ({:.3} % ink)", page.display(), share * 100.0);
            let wider = overflow(&exe, profile.path(), page, width);
            assert!(wider <= 0, "{} at {width} px: {wider} px wider than the window", page.display());
        }
    }
    // Chart text at least 11 px on a 390 px phone.
    for page in &pages {
        let profile = tempfile::tempdir().unwrap();
        let px = measure(&exe, profile.path(), page, 390, CHART_TEXT_PX);
        assert!(px >= 11.0, "{}: chart text of {px:.1} px at 390 px", page.display());
    }
    // A day's runs readable at 1280 px, a failed run's
    // long message beside them: no column head breaks.
    let empty = tempfile::tempdir().unwrap();
    let out = cityvibe(d, &["--mirror", empty.path().to_str().unwrap(), "run", "--force", "--source", "madrid", "--json"]);
    assert!(!out.status.success(), "a run against an empty mirror fails");
    let out = cityvibe(d, &["report", "--out", "site", "--lang", "en"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let day = std::fs::read_dir(d.join("site/runs")).unwrap().next().unwrap().unwrap().path();
    let html = std::fs::read_to_string(&day).unwrap();
    assert!(html.contains("stored events kept"), "the failed run's message is on the page: {html}");
    let profile = tempfile::tempdir().unwrap();
    let lines = measure(&exe, profile.path(), &day, 1280, HEAD_LINES);
    assert_eq!(lines, 1.0, "{} at 1280 px: a column head takes {lines} lines", day.display());
}
