//! `hexBinary` and `base64Binary`.

/// Decodes `hexBinary`: pairs of hex digits, either case.
pub(crate) fn decode_hex(s: &str) -> Result<Vec<u8>, &'static str> {
    if s.len() % 2 != 0 {
        return Err("odd number of hex digits");
    }
    s.as_bytes()
        .chunks(2)
        .map(|p| match (hex_val(p[0]), hex_val(p[1])) {
            (Some(h), Some(l)) => Ok(h << 4 | l),
            _ => Err("not a hex digit"),
        })
        .collect()
}

fn hex_val(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// The canonical `hexBinary`: upper-case digits.
pub(crate) fn encode_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn b64_val(b: u8) -> Option<u8> {
    B64.iter().position(|&c| c == b).map(|p| p as u8)
}

/// Decodes `base64Binary` after whitespace collapsing, following Part 2's grammar: groups of
/// four characters, each optionally followed by one space; `=` padding only at the end, with
/// the character before one `=` in `B16` and the character before `==` in `B04`.
pub(crate) fn decode_base64(s: &str) -> Result<Vec<u8>, &'static str> {
    if s.contains("  ") || s.starts_with(' ') || s.ends_with(' ') {
        return Err("only single spaces between characters are allowed");
    }
    let chars: Vec<u8> = s.bytes().filter(|&b| b != b' ').collect();
    if chars.len() % 4 != 0 {
        return Err("the number of base64 characters is not a multiple of four");
    }
    let pad = chars.iter().rev().take_while(|&&b| b == b'=').count();
    if pad > 2 {
        return Err("more than two '=' padding characters");
    }
    let body = &chars[..chars.len() - pad];
    let mut vals = Vec::with_capacity(body.len());
    for &b in body {
        vals.push(
            b64_val(b).ok_or("a character outside the base64 alphabet (or '=' not at the end)")?,
        );
    }
    if let Some(&last) = vals.last() {
        if pad == 1 && last & 0b11 != 0 {
            return Err("the character before '=' must be one of AEIMQUYcgkosw048");
        }
        if pad == 2 && last & 0b1111 != 0 {
            return Err("the character before '==' must be one of AQgw");
        }
    }
    let mut out = Vec::with_capacity(vals.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for v in vals {
        acc = acc << 6 | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

/// The canonical `base64Binary`: the encoding with padding and no whitespace.
pub(crate) fn encode_base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.len();
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let v = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= n {
                out.push(B64[(v >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
