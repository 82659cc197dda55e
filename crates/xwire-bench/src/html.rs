//! The report as one self-contained HTML page.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::driver::Report;

/// Writes `index.html` (and `report.json` beside it) into `dir`; the page's path.
pub fn write(r: &Report, dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let page = dir.join("index.html");
    std::fs::write(&page, render(r)).map_err(|e| format!("{}: {e}", page.display()))?;
    let json = dir.join("report.json");
    std::fs::write(&json, crate::report::json(r))
        .map_err(|e| format!("{}: {e}", json.display()))?;
    Ok(page)
}

/// The page.
pub fn render(r: &Report) -> String {
    let mut out = String::from("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>xwire bench</title></head><body>\n<pre>\n");
    let _ = write!(out, "{}", escape(&crate::report::text(r)));
    out.push_str("</pre>\n</body></html>\n");
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
