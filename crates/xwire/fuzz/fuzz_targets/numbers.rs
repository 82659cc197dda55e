//! XML Schema number lexical forms (`xwire::bytes`) on arbitrary bytes: the vector and word
//! checks agree with the grammar read in order, and an integer's value with `str::parse`,
//! read alone or in a document (every split of the input into the bytes before it and it).
#![no_main]

use libfuzzer_sys::fuzz_target;
use xwire::bytes::{is_xsd_number, xsd_integer, xsd_integer_in};

/// `(\+|-)?([0-9]+(\.[0-9]*)?|\.[0-9]+)`, then with `exponent` an optional
/// `[eE](\+|-)?[0-9]+`.
fn grammar(s: &[u8], exponent: bool) -> bool {
    let digits = |x: &[u8]| x.iter().all(u8::is_ascii_digit);
    let unsigned = |x: &'_ [u8]| -> Vec<u8> {
        match x.first() {
            Some(b'+' | b'-') => x[1..].to_vec(),
            _ => x.to_vec(),
        }
    };
    let mantissa = |m: &[u8]| {
        let m = unsigned(m);
        let (int, frac) = match m.iter().position(|&c| c == b'.') {
            Some(i) => (&m[..i], &m[i + 1..]),
            None => (&m[..], &[][..]),
        };
        digits(int) && digits(frac) && !(int.is_empty() && frac.is_empty())
    };
    match s.iter().position(|&c| c == b'e' || c == b'E') {
        Some(i) if exponent => {
            let e = unsigned(&s[i + 1..]);
            mantissa(&s[..i]) && !e.is_empty() && digits(&e)
        }
        Some(_) => false,
        None => mantissa(s),
    }
}

fuzz_target!(|data: &[u8]| {
    for exponent in [false, true] {
        assert_eq!(
            is_xsd_number(data, exponent),
            grammar(data, exponent),
            "{data:?} {exponent}"
        );
    }
    let body = match data.first() {
        Some(b'+' | b'-') => &data[1..],
        _ => data,
    };
    let want = if (1..=18).contains(&body.len()) && body.iter().all(u8::is_ascii_digit) {
        let s = std::str::from_utf8(data).expect("ASCII");
        Some(s.parse::<i64>().expect("at most 18 digits"))
    } else {
        None
    };
    assert_eq!(xsd_integer(data), want, "{data:?}");
    for start in 0..data.len() {
        assert_eq!(
            xsd_integer_in(data, start..data.len()),
            xsd_integer(&data[start..]),
            "{data:?} from {start}"
        );
    }
});
