//! Error reports with a caret under the offending column.

/// `file:line:column: message` followed by the source line and a caret, when the bytes are at
/// hand and valid enough to show.
pub fn error_with_caret(file: &str, e: &xwire::Error, bytes: Option<&[u8]>) -> String {
    let loc = e.location();
    let mut out = format!("{file}:{}:{}: error: {}", loc.line, loc.column, e.kind());
    if let Some(ent) = e.entity() {
        out.push_str(&format!(" (in entity '{ent}')"));
    }
    let Some(bytes) = bytes else { return out };
    let Some(line) = nth_line(bytes, loc.line) else {
        return out;
    };
    let text = String::from_utf8_lossy(line);
    let text = text.trim_end_matches(['\r', '\n']);
    // Show at most 100 characters around the column.
    let col = (loc.column as usize).saturating_sub(1);
    let chars: Vec<char> = text
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let start = col.saturating_sub(60);
    let end = (start + 100).min(chars.len());
    let shown: String = chars[start.min(chars.len())..end].iter().collect();
    let caret = col.saturating_sub(start);
    let prefix = if start > 0 { "..." } else { "" };
    out.push_str(&format!(
        "\n  {prefix}{shown}\n  {}{}^",
        " ".repeat(prefix.len()),
        " ".repeat(caret)
    ));
    out
}

fn nth_line(bytes: &[u8], line: u64) -> Option<&[u8]> {
    bytes
        .split(|&b| b == b'\n')
        .nth(line.checked_sub(1)? as usize)
}
