//! `duration` and the seven date/time types.

use std::cmp::Ordering;

use super::decimal::Decimal;
use super::Builtin;

/// Which of the date/time primitives a [`DateTime`] belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TemporalKind {
    /// `dateTime`
    DateTime,
    /// `time`
    Time,
    /// `date`
    Date,
    /// `gYearMonth`
    GYearMonth,
    /// `gYear`
    GYear,
    /// `gMonthDay`
    GMonthDay,
    /// `gDay`
    GDay,
    /// `gMonth`
    GMonth,
}

/// A value of one of the date/time types. Fields a kind lacks hold reference values (year
/// 1972, January, day 1, midnight) so that values of one kind compare field by field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DateTime {
    /// The type.
    pub kind: TemporalKind,
    /// The year, never 0 (XML Schema 1.0 has no year zero: `-0001` is 1 BCE).
    pub year: i64,
    /// 1 to 12.
    pub month: u8,
    /// 1 to 31.
    pub day: u8,
    /// 0 to 23 (`24:00:00` is normalized to midnight of the next day).
    pub hour: u8,
    /// 0 to 59.
    pub minute: u8,
    /// 0 to 59.
    pub second: u8,
    /// The fractional seconds' digits, without trailing zeros.
    pub fraction: String,
    /// The timezone offset in minutes, if any.
    pub timezone: Option<i16>,
}

fn is_leap(year: i64) -> bool {
    // Proleptic Gregorian with 1 BCE as year 0.
    let y = if year < 0 { year + 1 } else { year };
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

fn days_in_month(year: i64, month: u8) -> u8 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (astronomical year numbering).
fn days_from_civil(y: i64, m: u8, d: u8) -> i64 {
    let (m, d) = (i64::from(m), i64::from(d));
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, u8, u8) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn to_astronomical(year: i64) -> i64 {
    if year < 0 {
        year + 1
    } else {
        year
    }
}

fn from_astronomical(year: i64) -> i64 {
    if year <= 0 {
        year - 1
    } else {
        year
    }
}

fn two_digits(s: &str) -> Option<u8> {
    digits2(s.as_bytes())
}

fn digits2(b: &[u8]) -> Option<u8> {
    match *b {
        [a @ b'0'..=b'9', b @ b'0'..=b'9'] => Some((a - b'0') * 10 + (b - b'0')),
        _ => None,
    }
}

/// The digits of `YYYY-MM-DD` with a four-digit year other than 0000, the common shape of a
/// date, read at fixed positions (anything else goes the general way).
fn fixed_date(s: &str) -> Option<(i64, u8, u8)> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let mut year = 0i64;
    for &c in &b[..4] {
        if !c.is_ascii_digit() {
            return None;
        }
        year = year * 10 + i64::from(c - b'0');
    }
    let month = digits2(&b[5..7])?;
    let day = digits2(&b[8..10])?;
    (year != 0).then_some((year, month, day))
}

/// Whether `lexical`, once trimmed of XML white space, is certainly a valid value of `ty`,
/// `date` or `dateTime` (`false` for every other type), by a check at fixed positions: no
/// value is built. It takes the common shapes (`YYYY-MM-DD`, then `Thh:mm:ss` with or
/// without a fraction, with or without a timezone) and says `false` for anything else,
/// valid or not (a longer or negative year, the hour 24): the parse then decides. `true`
/// implies that [`super::parse_plain`] gives a value, as [`super::is_plain_number`] does for
/// numbers.
pub fn is_plain_temporal(ty: Builtin, lexical: &str) -> bool {
    if !matches!(ty, Builtin::Date | Builtin::DateTime) {
        return false;
    }
    let Ok((body, _)) = parse_timezone(super::trim_xml(lexical)) else {
        return false;
    };
    let (date, time) = match ty {
        Builtin::Date => (body, None),
        _ => match body.split_at_checked(10) {
            Some((d, t)) => (d, t.strip_prefix('T')),
            None => return false,
        },
    };
    let date_ok = fixed_date(date)
        .is_some_and(|(y, m, d)| (1..=12).contains(&m) && d >= 1 && d <= days_in_month(y, m));
    match (ty, time.map(str::as_bytes)) {
        (Builtin::Date, _) => date_ok,
        (_, Some(&[h1, h2, b':', m1, m2, b':', s1, s2, ref fraction @ ..])) => {
            let fraction_ok = match fraction {
                [] => true,
                [b'.', digits @ ..] => !digits.is_empty() && digits.iter().all(u8::is_ascii_digit),
                _ => false,
            };
            date_ok
                && fraction_ok
                && digits2(&[h1, h2]).is_some_and(|h| h < 24)
                && digits2(&[m1, m2]).is_some_and(|m| m < 60)
                && digits2(&[s1, s2]).is_some_and(|s| s < 60)
        }
        _ => false,
    }
}

/// The largest year magnitude accepted, so that day and second arithmetic cannot overflow.
const MAX_YEAR: i64 = 1_000_000_000_000;

fn parse_year(s: &str) -> Result<i64, &'static str> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.len() < 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("the year needs at least four digits");
    }
    if digits.len() > 4 && digits.starts_with('0') {
        return Err("a year of more than four digits has no leading zero");
    }
    let v: i64 = digits.parse().map_err(|_| "the year is too large")?;
    if v > MAX_YEAR {
        return Err("years beyond 10^12 are not supported");
    }
    if v == 0 {
        return Err("there is no year 0000");
    }
    Ok(if s.starts_with('-') { -v } else { v })
}

fn parse_timezone(s: &str) -> Result<(&str, Option<i16>), &'static str> {
    if let Some(rest) = s.strip_suffix('Z') {
        return Ok((rest, Some(0)));
    }
    let b = s.as_bytes();
    if b.len() >= 6 && matches!(b[b.len() - 6], b'+' | b'-') && b[b.len() - 3] == b':' {
        let tz = &s[s.len() - 6..];
        let h = two_digits(&tz[1..3]).ok_or("bad timezone hours")?;
        let m = two_digits(&tz[4..6]).ok_or("bad timezone minutes")?;
        if h > 14 || m > 59 || (h == 14 && m != 0) {
            return Err("the timezone must be between -14:00 and +14:00");
        }
        let v = i16::from(h) * 60 + i16::from(m);
        return Ok((
            &s[..s.len() - 6],
            Some(if b[b.len() - 6] == b'-' { -v } else { v }),
        ));
    }
    Ok((s, None))
}

impl DateTime {
    /// Parses the lexical form of `kind` (already whitespace-collapsed).
    pub(crate) fn parse(kind: TemporalKind, s: &str) -> Result<DateTime, &'static str> {
        let (body, timezone) = parse_timezone(s)?;
        let mut v = DateTime {
            kind,
            year: 1972,
            month: 1,
            day: 1,
            hour: 0,
            minute: 0,
            second: 0,
            fraction: String::new(),
            timezone,
        };
        let mut day_check_year = None;
        match kind {
            TemporalKind::DateTime => {
                let (d, t) = body
                    .split_once('T')
                    .ok_or("missing 'T' between date and time")?;
                v.parse_date(d)?;
                v.parse_time(t)?;
                day_check_year = Some(v.year);
            }
            TemporalKind::Time => v.parse_time(body)?,
            TemporalKind::Date => {
                v.parse_date(body)?;
                day_check_year = Some(v.year);
            }
            TemporalKind::GYearMonth => {
                let (y, m) = body.rsplit_once('-').ok_or("expected YYYY-MM")?;
                v.year = parse_year(y)?;
                v.month = two_digits(m).ok_or("the month needs two digits")?;
            }
            TemporalKind::GYear => v.year = parse_year(body)?,
            TemporalKind::GMonthDay => {
                let r = body.strip_prefix("--").ok_or("expected --MM-DD")?;
                let (m, d) = r.split_once('-').ok_or("expected --MM-DD")?;
                v.month = two_digits(m).ok_or("the month needs two digits")?;
                v.day = two_digits(d).ok_or("the day needs two digits")?;
                day_check_year = Some(2000);
            }
            TemporalKind::GDay => {
                let d = body.strip_prefix("---").ok_or("expected ---DD")?;
                v.day = two_digits(d).ok_or("the day needs two digits")?;
            }
            TemporalKind::GMonth => {
                let m = body.strip_prefix("--").ok_or("expected --MM")?;
                v.month = two_digits(m).ok_or("the month needs two digits")?;
            }
        }
        if !(1..=12).contains(&v.month) {
            return Err("the month must be 01 to 12");
        }
        if v.day < 1 || v.day > 31 {
            return Err("the day must be 01 to 31");
        }
        if let Some(y) = day_check_year {
            if v.day > days_in_month(y, v.month) {
                return Err("the day is past the end of the month");
            }
        }
        if v.hour == 24 {
            v.hour = 0;
            if kind == TemporalKind::DateTime {
                let days = days_from_civil(to_astronomical(v.year), v.month, v.day) + 1;
                let (y, m, d) = civil_from_days(days);
                (v.year, v.month, v.day) = (from_astronomical(y), m, d);
            }
        }
        Ok(v)
    }

    fn parse_date(&mut self, s: &str) -> Result<(), &'static str> {
        if let Some((y, m, d)) = fixed_date(s) {
            (self.year, self.month, self.day) = (y, m, d);
            return Ok(());
        }
        let mut it = s.rsplitn(3, '-');
        let (d, m, y) = (it.next(), it.next(), it.next());
        let (Some(d), Some(m), Some(y)) = (d, m, y) else {
            return Err("expected YYYY-MM-DD");
        };
        self.year = parse_year(y)?;
        self.month = two_digits(m).ok_or("the month needs two digits")?;
        self.day = two_digits(d).ok_or("the day needs two digits")?;
        Ok(())
    }

    fn parse_time(&mut self, s: &str) -> Result<(), &'static str> {
        let mut it = s.splitn(3, ':');
        let (Some(h), Some(m), Some(sec)) = (it.next(), it.next(), it.next()) else {
            return Err("expected hh:mm:ss");
        };
        self.hour = two_digits(h).ok_or("the hour needs two digits")?;
        self.minute = two_digits(m).ok_or("the minutes need two digits")?;
        let (whole, frac) = match sec.split_once('.') {
            Some((w, f)) => {
                if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
                    return Err("fractional seconds need digits after the point");
                }
                (w, f.trim_end_matches('0'))
            }
            None => (sec, ""),
        };
        self.second = two_digits(whole).ok_or("the seconds need two digits")?;
        self.fraction = frac.to_owned();
        if self.minute > 59 || self.second > 59 {
            return Err("minutes and seconds must be below 60");
        }
        if self.hour > 24 || (self.hour == 24 && (self.minute, self.second, frac) != (0, 0, "")) {
            return Err("the hour must be 00 to 23 (or 24:00:00 exactly)");
        }
        Ok(())
    }

    /// Seconds since 1970-01-01T00:00:00 of the fields as written, before the timezone.
    fn local_seconds(&self) -> i128 {
        let days = days_from_civil(to_astronomical(self.year), self.month, self.day);
        i128::from(days) * 86_400
            + i128::from(self.hour) * 3600
            + i128::from(self.minute) * 60
            + i128::from(self.second)
    }

    /// This value moved to UTC (unchanged without a timezone). `time` wraps around midnight.
    pub fn to_utc(&self) -> DateTime {
        let Some(tz) = self.timezone else {
            return self.clone();
        };
        let mut out = self.clone();
        let secs = self.local_seconds() - i128::from(tz) * 60;
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400) as u32;
        out.hour = (rem / 3600) as u8;
        out.minute = (rem / 60 % 60) as u8;
        out.second = (rem % 60) as u8;
        if self.kind == TemporalKind::DateTime {
            let (y, m, d) = civil_from_days(days as i64);
            (out.year, out.month, out.day) = (from_astronomical(y), m, d);
        }
        out.timezone = Some(0);
        out
    }

    /// The order of XML Schema Part 2 section 3.2.7.4: `None` when the values are of different
    /// kinds or the order is indeterminate (one has a timezone, the other not, and they are
    /// within 14 hours).
    pub fn partial_cmp(&self, other: &DateTime) -> Option<Ordering> {
        if self.kind != other.kind {
            return None;
        }
        let key = |v: &DateTime, shift: i128| {
            let tz = i128::from(v.timezone.unwrap_or(0)) * 60;
            let mut at = v.local_seconds() - tz;
            if v.kind == TemporalKind::Time {
                // A time of day recurs daily: 01:00:00+03:00 is 22:00:00Z.
                at = at.rem_euclid(86_400);
            }
            (at + shift, v.fraction.clone())
        };
        match (self.timezone.is_some(), other.timezone.is_some()) {
            (true, true) | (false, false) => Some(key(self, 0).cmp(&key(other, 0))),
            (true, false) => {
                let p = key(self, 0);
                if p < key(other, -14 * 3600) {
                    Some(Ordering::Less)
                } else if p > key(other, 14 * 3600) {
                    Some(Ordering::Greater)
                } else {
                    None
                }
            }
            (false, true) => other.partial_cmp(self).map(Ordering::reverse),
        }
    }

    /// The canonical representation: `dateTime` and `time` with a timezone in UTC with `Z`.
    pub fn canonical(&self) -> String {
        match self.kind {
            TemporalKind::DateTime | TemporalKind::Time => self.to_utc().lexical(),
            _ => self.lexical(),
        }
    }

    /// A lexical form that reads back to this very value: the timezone as given (`Z` for
    /// +00:00), where [`DateTime::canonical`] moves `dateTime` and `time` to UTC.
    pub fn lexical(&self) -> String {
        let v = self;
        let year = if v.year < 0 {
            format!("-{:04}", -v.year)
        } else {
            format!("{:04}", v.year)
        };
        let time = || {
            let mut t = format!("{:02}:{:02}:{:02}", v.hour, v.minute, v.second);
            if !v.fraction.is_empty() {
                t.push('.');
                t.push_str(&v.fraction);
            }
            t
        };
        let mut s = match v.kind {
            TemporalKind::DateTime => {
                format!("{year}-{:02}-{:02}T{}", v.month, v.day, time())
            }
            TemporalKind::Time => time(),
            TemporalKind::Date => format!("{year}-{:02}-{:02}", v.month, v.day),
            TemporalKind::GYearMonth => format!("{year}-{:02}", v.month),
            TemporalKind::GYear => year,
            TemporalKind::GMonthDay => format!("--{:02}-{:02}", v.month, v.day),
            TemporalKind::GDay => format!("---{:02}", v.day),
            TemporalKind::GMonth => format!("--{:02}", v.month),
        };
        match v.timezone {
            None => {}
            Some(0) => s.push('Z'),
            Some(tz) => {
                let sign = if tz < 0 { '-' } else { '+' };
                let a = tz.unsigned_abs();
                s.push_str(&format!("{sign}{:02}:{:02}", a / 60, a % 60));
            }
        }
        s
    }
}

/// A `duration`: months and seconds, both with the sign of the duration.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Duration {
    /// Years × 12 + months.
    pub months: i64,
    /// Days × 86400 + hours × 3600 + minutes × 60 + seconds.
    pub seconds: Decimal,
}

impl Duration {
    /// Parses `-?PnYnMnDTnHnMnS` (already whitespace-collapsed).
    pub(crate) fn parse(s: &str) -> Result<Duration, &'static str> {
        let (neg, rest) = match s.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, s),
        };
        let rest = rest.strip_prefix('P').ok_or("a duration starts with 'P'")?;
        let (date, time) = match rest.split_once('T') {
            Some((d, t)) => {
                if t.is_empty() {
                    return Err("'T' must be followed by hours, minutes or seconds");
                }
                (d, Some(t))
            }
            None => (rest, None),
        };
        if date.is_empty() && time.is_none() {
            return Err("a duration needs at least one component");
        }
        let mut months: i128 = 0;
        let mut whole: i128 = 0;
        let mut fraction = String::new();
        let big = "a duration component is too large";
        let mut scan = |part: &str, units: &[u8], is_time: bool| -> Result<(), &'static str> {
            let mut pos = 0;
            let mut rest = part;
            while !rest.is_empty() {
                let n = rest
                    .bytes()
                    .take_while(|b| b.is_ascii_digit() || *b == b'.')
                    .count();
                let (num, after) = rest.split_at(n);
                let unit = *after.as_bytes().first().ok_or("a number without a unit")?;
                let idx = units[pos..]
                    .iter()
                    .position(|&u| u == unit)
                    .ok_or("components must be Y, M, D then H, M, S, each at most once")?
                    + pos;
                pos = idx + 1;
                let (int, frac) = match num.split_once('.') {
                    Some((i, f)) if is_time && unit == b'S' && !f.is_empty() => (i, Some(f)),
                    Some(_) => {
                        return Err("only seconds may have a fraction, with digits after the point")
                    }
                    None => (num, None),
                };
                if int.is_empty() || int.contains('.') || frac.is_some_and(|f| f.contains('.')) {
                    return Err("each component needs digits");
                }
                let v: i128 = int.parse().map_err(|_| big)?;
                let mul: i128 = match (is_time, unit) {
                    (false, b'Y') => 12,
                    (false, b'M') => 1,
                    (false, _) => 86_400,
                    (true, b'H') => 3600,
                    (true, b'M') => 60,
                    _ => 1,
                };
                let prod = v.checked_mul(mul).ok_or(big)?;
                if !is_time && unit != b'D' {
                    months = months.checked_add(prod).ok_or(big)?;
                } else {
                    whole = whole.checked_add(prod).ok_or(big)?;
                }
                if let Some(f) = frac {
                    fraction = f.to_owned();
                }
                rest = &after[1..];
            }
            Ok(())
        };
        scan(date, b"YMD", false)?;
        if let Some(t) = time {
            scan(t, b"HMS", true)?;
        }
        let months = i64::try_from(months).map_err(|_| big)?;
        let sign = if neg { "-" } else { "" };
        let seconds = Decimal::parse(&format!("{sign}{whole}.{fraction}0")).ok_or(big)?;
        let months = if neg { -months } else { months };
        Ok(Duration { months, seconds })
    }

    /// A canonical form: `-?PnYnMnDTnHnMnS` with zero components left out (`PT0S` for zero).
    pub fn canonical(&self) -> String {
        let neg = self.months < 0 || self.seconds.is_negative();
        let mut s = String::from(if neg { "-P" } else { "P" });
        let m = self.months.unsigned_abs();
        let secs = self.seconds.canonical_decimal();
        let secs = secs.trim_start_matches('-');
        let (int, frac) = secs.split_once('.').unwrap_or((secs, "0"));
        let total: u128 = int.parse().unwrap_or(0);
        let (d, h, mi, sec) = (
            total / 86_400,
            total / 3600 % 24,
            total / 60 % 60,
            total % 60,
        );
        for (v, u) in [
            (u128::from(m / 12), 'Y'),
            (u128::from(m % 12), 'M'),
            (d, 'D'),
        ] {
            if v != 0 {
                s.push_str(&format!("{v}{u}"));
            }
        }
        let has_frac = frac != "0";
        if h != 0 || mi != 0 || sec != 0 || has_frac {
            s.push('T');
            for (v, u) in [(h, 'H'), (mi, 'M')] {
                if v != 0 {
                    s.push_str(&format!("{v}{u}"));
                }
            }
            if sec != 0 || has_frac {
                s.push_str(&sec.to_string());
                if has_frac {
                    s.push('.');
                    s.push_str(frac);
                }
                s.push('S');
            }
        }
        if s.ends_with('P') {
            s.push_str("T0S");
        }
        s
    }

    /// The partial order of Part 2 section 3.2.6.2, approximated conservatively: `Some` only
    /// when the order holds whatever the month lengths (within a second of slack when both
    /// months and seconds differ).
    pub fn partial_cmp(&self, other: &Duration) -> Option<Ordering> {
        let dm = i128::from(self.months) - i128::from(other.months);
        if dm == 0 {
            return Some(self.seconds.cmp(&other.seconds));
        }
        // Saturating: magnitudes this large are far outside any real comparison.
        let ds = trunc(&self.seconds).saturating_sub(trunc(&other.seconds));
        let (lo, hi) = month_days(dm.unsigned_abs());
        let (lo, hi) = (lo.saturating_mul(86_400), hi.saturating_mul(86_400));
        if dm > 0 {
            if lo.saturating_add(ds) > 1 {
                return Some(Ordering::Greater);
            }
            if hi.saturating_add(ds) < -1 {
                return Some(Ordering::Less);
            }
        } else {
            if ds.saturating_sub(lo) < -1 {
                return Some(Ordering::Less);
            }
            if ds.saturating_sub(hi) > 1 {
                return Some(Ordering::Greater);
            }
        }
        None
    }
}

fn trunc(d: &Decimal) -> i128 {
    d.canonical_integer().parse().unwrap_or(0)
}

/// The fewest and most days that `m` consecutive months can have.
fn month_days(m: u128) -> (i128, i128) {
    const MIN: [i128; 12] = [0, 28, 59, 89, 120, 150, 181, 212, 242, 273, 303, 334];
    const MAX: [i128; 12] = [0, 31, 62, 92, 123, 153, 184, 215, 245, 276, 306, 337];
    let y = (m / 12) as i128;
    (
        y * 365 + MIN[(m % 12) as usize],
        y * 366 + MAX[(m % 12) as usize],
    )
}
