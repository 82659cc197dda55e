use super::*;

#[test]
fn names_round_trip() {
    for &t in Builtin::ALL {
        assert_eq!(Builtin::from_name(t.name()), Some(t));
    }
    assert_eq!(Builtin::ALL.len(), 45);
    assert_eq!(Builtin::from_name("anyType"), None);
}

#[test]
fn derivation() {
    assert_eq!(Builtin::AnySimpleType.base(), None);
    assert_eq!(Builtin::Byte.base(), Some(Builtin::Short));
    assert_eq!(Builtin::Byte.primitive(), Builtin::Decimal);
    assert_eq!(Builtin::Id.primitive(), Builtin::String);
    assert_eq!(Builtin::NmTokens.primitive(), Builtin::String);
    assert_eq!(Builtin::Date.primitive(), Builtin::Date);
    assert!(Builtin::UnsignedByte.derives_from(Builtin::NonNegativeInteger));
    assert!(!Builtin::Int.derives_from(Builtin::NonNegativeInteger));
    assert!(Builtin::Decimal.is_primitive());
    assert!(!Builtin::Integer.is_primitive());
    assert_eq!(Builtin::IdRefs.item_type(), Some(Builtin::IdRef));
    assert!(Builtin::Entities.is_list() && !Builtin::Entity.is_list());
    assert_eq!(Builtin::String.white_space(), WhiteSpace::Preserve);
    assert_eq!(Builtin::NormalizedString.white_space(), WhiteSpace::Replace);
    assert_eq!(Builtin::Token.white_space(), WhiteSpace::Collapse);
    assert_eq!(Builtin::Double.white_space(), WhiteSpace::Collapse);
}

#[test]
fn whitespace() {
    assert_eq!(WhiteSpace::Replace.apply("a\tb\n c\r"), "a b  c ");
    assert_eq!(WhiteSpace::Collapse.apply("  a\t\tb\n c  "), "a b c");
    assert_eq!(Builtin::String.parse(" a ").unwrap().canonical(), " a ");
    assert_eq!(Builtin::Token.parse(" a \n b ").unwrap().canonical(), "a b");
}

/// Each row: type, lexical, expected canonical form (`None` when the lexical is invalid).
const CASES: &[(Builtin, &str, Option<&str>)] = {
    use Builtin::*;
    &[
        (Boolean, "true", Some("true")),
        (Boolean, " 1 ", Some("true")),
        (Boolean, "0", Some("false")),
        (Boolean, "TRUE", None),
        (Boolean, "yes", None),
        (Boolean, "", None),
        (Decimal, "1.0", Some("1.0")),
        (Decimal, "+0012.500", Some("12.5")),
        (Decimal, "-.5", Some("-0.5")),
        (Decimal, "5.", Some("5.0")),
        (Decimal, "-0", Some("0.0")),
        (Decimal, "0.000100", Some("0.0001")),
        (
            Decimal,
            "123456789012345678901234567890.123456789",
            Some("123456789012345678901234567890.123456789"),
        ),
        (Decimal, "1e5", None),
        (Decimal, ".", None),
        (Decimal, "", None),
        (Decimal, "+-1", None),
        (Decimal, "1,5", None),
        (Integer, "007", Some("7")),
        (Integer, "+0", Some("0")),
        (Integer, "-0", Some("0")),
        (
            Integer,
            "-123456789012345678901234567890123456789012",
            Some("-123456789012345678901234567890123456789012"),
        ),
        (Integer, "1.0", None),
        (Integer, "1.", None),
        (Integer, "", None),
        (Long, "9223372036854775807", Some("9223372036854775807")),
        (Long, "9223372036854775808", None),
        (Long, "-9223372036854775808", Some("-9223372036854775808")),
        (Int, "2147483648", None),
        (Int, "-2147483648", Some("-2147483648")),
        (Short, "32767", Some("32767")),
        (Short, "-32769", None),
        (Byte, "-128", Some("-128")),
        (Byte, "128", None),
        (
            UnsignedLong,
            "18446744073709551615",
            Some("18446744073709551615"),
        ),
        (UnsignedLong, "18446744073709551616", None),
        (UnsignedInt, "-1", None),
        (UnsignedInt, "-0", Some("0")),
        (UnsignedShort, "65536", None),
        (UnsignedByte, "255", Some("255")),
        (UnsignedByte, "256", None),
        (PositiveInteger, "0", None),
        (PositiveInteger, "1", Some("1")),
        (NonNegativeInteger, "0", Some("0")),
        (NegativeInteger, "0", None),
        (NegativeInteger, "-1", Some("-1")),
        (NonPositiveInteger, "1", None),
        (Float, "1", Some("1.0E0")),
        (Float, "100", Some("1.0E2")),
        (Float, "-1.5e-3", Some("-1.5E-3")),
        (Float, "0.1", Some("1.0E-1")),
        (Float, "INF", Some("INF")),
        (Float, "-INF", Some("-INF")),
        (Float, "NaN", Some("NaN")),
        (Float, "0", Some("0.0E0")),
        (Float, "+INF", None),
        (Float, "inf", None),
        (Float, "nan", None),
        (Float, "1e", None),
        (Float, "e1", None),
        (Float, "1.5E+2", Some("1.5E2")),
        (Double, "12345.678E10", Some("1.2345678E14")),
        (Double, "Infinity", None),
        (Double, ".5", Some("5.0E-1")),
        (Double, "1.", Some("1.0E0")),
        (Double, "1.e2", Some("1.0E2")),
        (Double, "+.5E-1", Some("5.0E-2")),
        (Double, "-0", Some("-0.0E0")),
        (Double, ".", None),
        (Double, "+", None),
        (Double, "", None),
        (Double, "--1", None),
        (Double, "+-1", None),
        (Double, "1.5.5", None),
        (Double, "1e5.5", None),
        (Double, "1_0", None),
        (Double, "0x10", None),
        (Double, "-infinity", None),
        (Double, "-NaN", None),
        (Double, "+NaN", None),
        (Double, ".e1", None),
        (Duration, "P1Y2M3DT10H30M", Some("P1Y2M3DT10H30M")),
        (Duration, "-P120D", Some("-P120D")),
        (Duration, "PT36H", Some("P1DT12H")),
        (Duration, "PT1.50S", Some("PT1.5S")),
        (Duration, "P0Y", Some("PT0S")),
        (Duration, "P14M", Some("P1Y2M")),
        (Duration, "P", None),
        (Duration, "PT", None),
        (Duration, "P1DT", None),
        (Duration, "P-1D", None),
        (Duration, "P1M1Y", None),
        (Duration, "P1.5Y", None),
        (Duration, "PT1.S", None),
        (Duration, "1D", None),
        (DateTime, "2004-04-12T13:20:00", Some("2004-04-12T13:20:00")),
        (
            DateTime,
            "2004-04-12T13:20:00.500-05:00",
            Some("2004-04-12T18:20:00.5Z"),
        ),
        (
            DateTime,
            "2004-04-12T13:20:00+00:00",
            Some("2004-04-12T13:20:00Z"),
        ),
        (DateTime, "1999-12-31T24:00:00", Some("2000-01-01T00:00:00")),
        (
            DateTime,
            "2000-01-01T00:30:00+01:00",
            Some("1999-12-31T23:30:00Z"),
        ),
        (
            DateTime,
            "-0001-12-31T23:00:00-02:00",
            Some("0001-01-01T01:00:00Z"),
        ),
        (DateTime, "2004-02-29T00:00:00", Some("2004-02-29T00:00:00")),
        (DateTime, "2003-02-29T00:00:00", None),
        (DateTime, "1900-02-29T00:00:00", None),
        (DateTime, "2000-02-29T00:00:00", Some("2000-02-29T00:00:00")),
        (DateTime, "2004-04-12T24:00:01", None),
        (
            DateTime,
            "2004-04-12T24:00:00.0",
            Some("2004-04-13T00:00:00"),
        ),
        (DateTime, "2004-04-12T13:60:00", None),
        (DateTime, "2004-04-12T13:20:60", None),
        (DateTime, "2004-04-12T13:20", None),
        (DateTime, "2004-04-12", None),
        (DateTime, "0000-01-01T00:00:00", None),
        (DateTime, "02004-01-01T00:00:00", None),
        (
            DateTime,
            "12004-01-01T00:00:00",
            Some("12004-01-01T00:00:00"),
        ),
        (DateTime, "2004-04-12T13:20:00+14:01", None),
        (DateTime, "2004-04-12T13:20:00+15:00", None),
        (DateTime, "2004-04-12T13:20:00.", None),
        (DateTime, "2004-4-12T13:20:00", None),
        (Time, "13:20:00", Some("13:20:00")),
        (Time, "13:20:00-05:00", Some("18:20:00Z")),
        (Time, "01:00:00+03:00", Some("22:00:00Z")),
        (Time, "24:00:00", Some("00:00:00")),
        (Time, "25:00:00", None),
        (Time, "1:00:00", None),
        (Date, "2004-04-12", Some("2004-04-12")),
        (Date, "2004-04-12-05:00", Some("2004-04-12-05:00")),
        (Date, "2004-04-12Z", Some("2004-04-12Z")),
        (Date, "-0044-03-15", Some("-0044-03-15")),
        (Date, "2004-04-31", None),
        (Date, "2004-13-01", None),
        (Date, "2004-00-01", None),
        (GYearMonth, "2004-04", Some("2004-04")),
        (GYearMonth, "2004-4", None),
        (GYear, "2004", Some("2004")),
        (GYear, "-2004+01:00", Some("-2004+01:00")),
        (GYear, "04", None),
        (GMonthDay, "--02-29", Some("--02-29")),
        (GMonthDay, "--02-30", None),
        (GMonthDay, "--04-31", None),
        (GDay, "---31", Some("---31")),
        (GDay, "---32", None),
        (GDay, "--31", None),
        (GMonth, "--12", Some("--12")),
        (GMonth, "--13", None),
        (GMonth, "--12--", None),
        (HexBinary, "0fB7", Some("0FB7")),
        (HexBinary, "", Some("")),
        (HexBinary, "0FB", None),
        (HexBinary, "0G", None),
        (Base64Binary, "AAEC", Some("AAEC")),
        (Base64Binary, "QQ==", Some("QQ==")),
        (Base64Binary, "QUI=", Some("QUI=")),
        (Base64Binary, "Q Q = =", Some("QQ==")),
        (Base64Binary, " QUJD ", Some("QUJD")),
        (Base64Binary, "", Some("")),
        (Base64Binary, "QR==", None),
        (Base64Binary, "QUJ=", None),
        (Base64Binary, "QQ=", None),
        (Base64Binary, "QQ===", None),
        (Base64Binary, "Q=Q=", None),
        (Base64Binary, "QUJ", None),
        (Base64Binary, "QU!D", None),
        (Language, "en", Some("en")),
        (Language, "en-GB", Some("en-GB")),
        (Language, "x-klingon-1234", Some("x-klingon-1234")),
        (Language, "en_GB", None),
        (Language, "abcdefghi", None),
        (Language, "1en", None),
        (Language, "en-", None),
        (NmToken, "-12.a", Some("-12.a")),
        (NmToken, "a b", None),
        (NmTokens, " a  b\nc ", Some("a b c")),
        (NmTokens, "  ", None),
        (Name, "xs:element", Some("xs:element")),
        (Name, "_a-1", Some("_a-1")),
        (Name, "1a", None),
        (NcName, "a:b", None),
        (NcName, "élan", Some("élan")),
        (Id, "id1", Some("id1")),
        (IdRef, "1", None),
        (IdRefs, "a b", Some("a b")),
        (IdRefs, "a 1", None),
        (Entities, "e1", Some("e1")),
        (QName, "xml:lang", Some("xml:lang")),
        (QName, "local", Some("local")),
        (QName, "undeclared:x", None),
        (QName, "a:b:c", None),
        (Notation, "n", Some("n")),
        (
            AnyUri,
            "http://example.com/a b",
            Some("http://example.com/a b"),
        ),
        (String, "a\u{1}b", None),
        // Regression: sizes that would overflow the day, month or second arithmetic.
        (GYear, "999999999999", Some("999999999999")),
        (GYear, "9999999999999", None),
        (
            DateTime,
            "-999999999999-01-01T00:00:00Z",
            Some("-999999999999-01-01T00:00:00Z"),
        ),
        (Duration, "P999999999999999999999Y", None),
        (Duration, "P999999999999999999999999999999999999999D", None),
        (
            Duration,
            "P99999999999999999999D",
            Some("P99999999999999999999D"),
        ),
    ]
};

#[test]
fn lexical_table() {
    let mut failures = Vec::new();
    for &(ty, lexical, expected) in CASES {
        let got = ty.parse(lexical).map(|v| v.canonical());
        let ok = match (expected, &got) {
            (Some(e), Ok(g)) => e == g,
            (None, Err(_)) => true,
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "{ty} {lexical:?}: expected {expected:?}, got {got:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn canonical_round_trips() {
    for &(ty, lexical, expected) in CASES {
        if let (Some(c), Ok(v)) = (expected, ty.parse(lexical)) {
            let again = ty.parse(c).unwrap_or_else(|e| panic!("{ty} {c:?}: {e}"));
            assert_eq!(again.canonical(), c, "{ty} {lexical:?}");
            match v {
                Value::Float(_) | Value::Double(_) => {}
                Value::DateTime(_) => assert_eq!(
                    again.partial_cmp_value(&v),
                    Some(std::cmp::Ordering::Equal),
                    "{ty} {lexical:?}"
                ),
                _ => assert_eq!(again, v, "{ty} {lexical:?}"),
            }
        }
    }
}

#[test]
fn error_messages_say_what_is_wrong() {
    let e = Builtin::Byte.parse("300").unwrap_err();
    assert_eq!(
        e.message(),
        "'300' is not a valid byte: above the maximum 127"
    );
    let e = Builtin::Date.parse("2003-02-29").unwrap_err();
    assert!(e.to_string().contains("past the end of the month"), "{e}");
    let e = Builtin::QName.parse("p:x").unwrap_err();
    assert!(e.to_string().contains("'p' is not declared"), "{e}");
}

#[test]
fn qname_resolver() {
    let resolve = |p: &str| match p {
        "" => Some("urn:default".to_owned()),
        "a" => Some("urn:a".to_owned()),
        _ => None,
    };
    let v = Builtin::QName.parse_with(" a:x ", &resolve).unwrap();
    assert_eq!(
        v,
        Value::QName {
            namespace: "urn:a".into(),
            prefix: "a".into(),
            local: "x".into()
        }
    );
    let v = Builtin::QName.parse_with("y", &resolve).unwrap();
    assert!(matches!(v, Value::QName { ref namespace, .. } if namespace == "urn:default"));
    assert!(Builtin::QName.parse_with("b:y", &resolve).is_err());
}

fn p(ty: Builtin, s: &str) -> Value {
    ty.parse(s).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn length_facets() {
    use Builtin::*;
    let cases: &[(Value, Facet, bool)] = &[
        (p(String, "héllo"), Facet::Length(5), true),
        (p(String, "héllo"), Facet::MaxLength(4), false),
        (p(String, "héllo"), Facet::MinLength(6), false),
        (p(HexBinary, "0A0B0C"), Facet::Length(3), true),
        (p(Base64Binary, "QUJD"), Facet::Length(3), true),
        (p(Base64Binary, "QUJD"), Facet::MaxLength(2), false),
        (p(NmTokens, "a b c"), Facet::Length(3), true),
        (p(NmTokens, "a b c"), Facet::MinLength(4), false),
        (p(QName, "xml:lang"), Facet::Length(1), true),
    ];
    for (v, f, ok) in cases {
        assert_eq!(f.check(v).is_ok(), *ok, "{f:?} on {v:?}");
    }
}

#[test]
fn digit_facets() {
    use Builtin::*;
    let cases: &[(&str, Facet, bool)] = &[
        ("123.45", Facet::TotalDigits(5), true),
        ("123.45", Facet::TotalDigits(4), false),
        ("0.00123", Facet::TotalDigits(3), true),
        ("1000", Facet::TotalDigits(3), false),
        ("1.500", Facet::FractionDigits(1), true),
        ("1.55", Facet::FractionDigits(1), false),
        ("0", Facet::TotalDigits(1), true),
    ];
    for (s, f, ok) in cases {
        assert_eq!(f.check(&p(Decimal, s)).is_ok(), *ok, "{f:?} on {s}");
    }
    assert!(Facet::FractionDigits(0).check(&p(Integer, "12")).is_ok());
    assert!(Facet::TotalDigits(2).check(&p(String, "12")).is_err());
}

#[test]
fn range_facets() {
    use Builtin::*;
    let min = |ty, s| Facet::MinInclusive(p(ty, s));
    let cases: &[(Value, Facet, bool)] = &[
        (p(Decimal, "10.5"), min(Decimal, "10.5"), true),
        (p(Decimal, "10.49"), min(Decimal, "10.5"), false),
        (
            p(Integer, "-3"),
            Facet::MaxExclusive(p(Integer, "-3")),
            false,
        ),
        (
            p(Integer, "-4"),
            Facet::MaxExclusive(p(Integer, "-3")),
            true,
        ),
        (
            p(Integer, "11"),
            Facet::MaxInclusive(p(Decimal, "10.5")),
            false,
        ),
        (
            p(Float, "1e3"),
            Facet::MinExclusive(p(Float, "999.9")),
            true,
        ),
        (p(Float, "NaN"), min(Float, "-INF"), false),
        (
            p(Double, "INF"),
            Facet::MaxInclusive(p(Double, "INF")),
            true,
        ),
        (p(Date, "2004-01-01"), min(Date, "2003-12-31"), true),
        (
            p(DateTime, "2004-01-01T00:00:00Z"),
            min(DateTime, "2004-01-01T01:00:00+01:00"),
            true,
        ),
        (
            p(DateTime, "2004-01-01T00:00:00Z"),
            min(DateTime, "2004-01-01T00:00:01+01:00"),
            true,
        ),
        // Indeterminate: one value without a timezone within 14 hours of the other.
        (
            p(DateTime, "2004-01-01T12:00:00"),
            min(DateTime, "2004-01-01T00:00:00Z"),
            false,
        ),
        (
            p(DateTime, "2004-01-02T15:00:00"),
            min(DateTime, "2004-01-01T00:00:00Z"),
            true,
        ),
        (
            p(Time, "10:00:00.5"),
            Facet::MaxExclusive(p(Time, "10:00:00.49")),
            false,
        ),
        (
            p(Duration, "P1Y"),
            Facet::MinExclusive(p(Duration, "P364D")),
            true,
        ),
        (
            p(Duration, "P1Y"),
            Facet::MaxExclusive(p(Duration, "P367D")),
            true,
        ),
        (p(Duration, "P1M"), min(Duration, "P30D"), false),
        (p(Duration, "PT2H"), min(Duration, "PT90M"), true),
        (p(String, "b"), min(String, "a"), false),
        (
            p(Duration, "P768614336404564650Y"),
            min(Duration, "-P768614336404564650Y"),
            true,
        ),
        (
            p(Duration, "P99999999999999999999D"),
            min(Duration, "P1M"),
            true,
        ),
        (p(Integer, "1"), min(Float, "0"), false),
    ];
    for (v, f, ok) in cases {
        assert_eq!(f.check(v).is_ok(), *ok, "{f:?} on {v:?}");
    }
}

#[test]
fn decimal_order_and_digits() {
    let d = |s| super::Decimal::parse(s).unwrap();
    let sorted = [
        "-100", "-1.5", "-1.05", "0", "0.001", "0.01", "0.1", "1", "1.0001", "10",
    ];
    for w in sorted.windows(2) {
        assert!(d(w[0]) < d(w[1]), "{} < {}", w[0], w[1]);
    }
    assert_eq!(d("1.50"), d("01.5"));
    assert_eq!(d("-0.0"), d("0"));
    assert_eq!(d("12.340").fraction_digits(), 2);
    assert_eq!(d("12.340").total_digits(), 4);
    assert_eq!(d("-9223372036854775808").to_i128(), Some(i64::MIN.into()));
    assert_eq!(d("1.5").to_i128(), None);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Parsing never panics, whatever the type and the input.
        #[test]
        fn parse_never_panics(s in "\\PC{0,40}", i in 0usize..45) {
            let ty = Builtin::ALL[i];
            if let Ok(v) = ty.parse(&s) {
                let _ = v.canonical();
                let _ = v.partial_cmp_value(&v);
            }
        }

        /// Lexicals built from the characters dates and durations are made of never panic.
        #[test]
        fn temporal_never_panics(s in "[-+0-9:.TZPYMDHS]{0,30}") {
            for ty in [Builtin::DateTime, Builtin::Time, Builtin::Date, Builtin::GYearMonth,
                       Builtin::GYear, Builtin::GMonthDay, Builtin::GDay, Builtin::GMonth,
                       Builtin::Duration] {
                if let Ok(v) = ty.parse(&s) {
                    let c = v.canonical();
                    let again = ty.parse(&c).unwrap();
                    prop_assert_eq!(again.canonical(), c);
                    prop_assert_eq!(v.partial_cmp_value(&again), Some(std::cmp::Ordering::Equal));
                }
            }
        }

        /// Decimal order agrees with i128 order, and the canonical form round-trips.
        #[test]
        fn decimal_matches_i128(a in any::<i64>(), b in any::<i64>(), sa in 0u32..6, sb in 0u32..6) {
            let da = super::super::Decimal::from_i128(a.into());
            let db = super::super::Decimal::from_i128(b.into());
            prop_assert_eq!(da.cmp(&db), a.cmp(&b));
            // Shifting the point: a × 10^-sa vs b × 10^-sb, compared exactly in i128.
            let fa = Builtin::Decimal.parse(&shift(a, sa)).unwrap();
            let fb = Builtin::Decimal.parse(&shift(b, sb)).unwrap();
            let lhs = i128::from(a) * 10i128.pow(sb);
            let rhs = i128::from(b) * 10i128.pow(sa);
            prop_assert_eq!(fa.partial_cmp_value(&fb), Some(lhs.cmp(&rhs)));
            prop_assert_eq!(Builtin::Decimal.parse(&fa.canonical()).unwrap(), fa);
        }

        /// The scans that let the validator skip building a number never accept what the
        /// parse refuses, and an integer they read is the parse's value, within the same
        /// bounds.
        #[test]
        fn number_scans_imply_the_parse(s in "[ \t+\\-0-9.eEINFaN_]{0,24}", i in 0usize..45) {
            let ty = Builtin::ALL[i];
            if value::is_scanned_number(ty) && value::is_plain_number(ty, &s) {
                prop_assert!(value::parse_plain(ty, &s).is_some(), "{} {:?}", ty, &s);
            }
            if ty.derives_from(Builtin::Integer) {
                if let Some(v) = value::small_integer(&s) {
                    let (lo, hi) = value::i64_bounds(ty);
                    let expected = (lo <= v && v <= hi)
                        .then(|| Value::Integer(Decimal::from_i128(v.into())));
                    prop_assert_eq!(value::parse_plain(ty, &s), expected, "{} {:?}", ty, &s);
                }
            }
        }

        /// The fixed-position check of dates and times says yes only to what the parse
        /// takes.
        #[test]
        fn temporal_checks_imply_the_parse(
            s in "[ 0-9:.TZ+\\-]{0,30}|[0-9]{4}-[01][0-9]-[0-3][0-9](T[0-2][0-9]:[0-6][0-9]:[0-6][0-9](\\.[0-9]{0,3})?)?(Z|[+-]1[0-5]:[0-6][0-9])?",
        ) {
            for ty in [Builtin::Date, Builtin::DateTime] {
                if temporal::is_plain_temporal(ty, &s) {
                    prop_assert!(value::parse_plain(ty, &s).is_some(), "{} {:?}", ty, &s);
                }
            }
        }

        /// Every integer of up to 18 digits, written with padding, sign and leading zeros,
        /// is read by the scan as the parse reads it.
        #[test]
        fn small_integers_scan_as_they_parse(n in -999_999_999_999_999i64..=999_999_999_999_999, zeros in 0usize..4, plus in any::<bool>()) {
            let sign = if n < 0 { "-" } else if plus { "+" } else { "" };
            let s = format!(" {sign}{}{}\n", "0".repeat(zeros), n.unsigned_abs());
            prop_assert_eq!(value::small_integer(&s), Some(n));
            prop_assert_eq!(
                value::parse_plain(Builtin::Long, &s),
                Some(Value::Integer(Decimal::from_i128(n.into())))
            );
        }

        /// `from_i64` builds the normalized decimal the parse builds, at every magnitude.
        #[test]
        fn decimals_from_i64_are_the_parsed_ones(n in any::<i64>(), shift in 0u32..64) {
            let n = n >> shift;
            prop_assert_eq!(Decimal::from_i64(n), Decimal::from_i128(n.into()));
            prop_assert_eq!(Some(Decimal::from_i64(n)), Decimal::parse_integer(&n.to_string()));
        }

        #[test]
        fn base64_round_trips(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
            let v = Value::Base64Binary(bytes.clone());
            prop_assert_eq!(Builtin::Base64Binary.parse(&v.canonical()).unwrap(), v);
            let h = Value::HexBinary(bytes);
            prop_assert_eq!(Builtin::HexBinary.parse(&h.canonical()).unwrap(), h);
        }
    }

    fn shift(v: i64, scale: u32) -> String {
        let digits = v.unsigned_abs().to_string();
        let scale = scale as usize;
        let padded = format!("{digits:0>width$}", width = scale + 1);
        let (i, f) = padded.split_at(padded.len() - scale);
        format!("{}{i}.{f}", if v < 0 { "-" } else { "" })
    }
}

#[test]
fn trimmed_parse_shortcut_covers_only_types_without_inner_space() {
    for &t in Builtin::ALL {
        if t.derives_from(Builtin::Integer) {
            assert!(value::rejects_inner_space(t), "{t}");
        }
    }
    // Whitespace inside fails for these, so trimming is all the collapsing a valid value
    // needs; outside whitespace is dropped.
    for (t, inner) in [
        (Builtin::Int, "1 2"),
        (Builtin::Decimal, "1. 5"),
        (Builtin::Double, "1e 5"),
        (Builtin::Boolean, "tr ue"),
        (Builtin::Date, "2001-01- 01"),
        (Builtin::DateTime, "2001-01-01T10:00:00 Z"),
        (Builtin::Time, "10:00:00. 5"),
        (Builtin::GYear, "20 01"),
    ] {
        assert!(value::rejects_inner_space(t), "{t}");
        assert!(t.parse(inner).is_err(), "{t} {inner:?}");
        assert!(t.parse(&inner.replace(' ', "")).is_ok(), "{t} {inner:?}");
        let padded = format!("\n {}\t", inner.replace(' ', ""));
        let reusing = |s: &str| t.parse_reusing(WhiteSpace::Collapse, s, &|_| None, &mut None);
        assert_eq!(reusing(&padded), t.parse(&inner.replace(' ', "")), "{t}");
        assert_eq!(reusing(&format!(" {inner}\n")), t.parse(inner), "{t}");
    }
}

#[test]
fn fixed_width_dates_parse_as_the_general_way() {
    for s in [
        "2001-02-28",
        "2000-02-29",
        "0001-01-01",
        "9999-12-31",
        "2026-04-23Z",
    ] {
        let v = Builtin::Date.parse(s).unwrap();
        assert_eq!(v.canonical(), s);
    }
    for s in [
        "0000-01-01",
        "2001-02-29",
        "2001-13-01",
        "2001-00-10",
        "2001-1-01",
        "２001-01-01",
    ] {
        assert!(Builtin::Date.parse(s).is_err(), "{s}");
    }
}

#[test]
fn number_scan_edge_cases() {
    use Builtin::*;
    let yes = [
        (Decimal, "1."),
        (Decimal, ".5"),
        (Decimal, "-0"),
        (Decimal, " +12.50\n"),
        (Double, "1.e2"),
        (Double, "+.5E-1"),
        (Double, "-3.1094197354383014e-6"),
        (Double, "12345678901234567890.5"),
        (Float, "1e400"),
    ];
    for (t, s) in yes {
        assert!(value::is_plain_number(t, s), "{t} {s:?}");
        assert!(value::parse_plain(t, s).is_some(), "{t} {s:?}");
    }
    // Invalid, or valid but beyond the scan (INF, NaN): the parse decides.
    let no = [
        (Decimal, "."),
        (Decimal, "1e2"),
        (Decimal, "+-1"),
        (Decimal, "1 2"),
        (Decimal, ""),
        (Double, "1e"),
        (Double, "e2"),
        (Double, "1e+"),
        (Double, "1e2.5"),
        (Double, "INF"),
        (Double, "NaN"),
        (Double, "inf"),
    ];
    for (t, s) in no {
        assert!(!value::is_plain_number(t, s), "{t} {s:?}");
    }
    assert!(value::parse_plain(Double, "INF").is_some());

    let ints = [
        ("-2147483648", Some(-2147483648)),
        (" +0042 ", Some(42)),
        ("-0", Some(0)),
        ("999999999999999999", Some(999_999_999_999_999_999)),
        // 19 digits and more, even with leading zeros: the parse decides.
        ("1234567890123456789", None),
        ("0000000000000000001", None),
        ("1.", None),
        ("", None),
        ("-", None),
        ("+-1", None),
        ("1_0", None),
        // A wrong byte among the leading digits of a long number, or right after the sign.
        ("1a345678901", None),
        ("x23456789", None),
        ("-+23456789", None),
        ("+123456789012", Some(123_456_789_012)),
    ];
    for (s, v) in ints {
        assert_eq!(value::small_integer(s), v, "{s:?}");
        // As a slice of a document, after digits (which must not count), and not of it.
        for before in [0, 3, 15, 16, 40] {
            let doc = format!("{}{s}</i>", "7".repeat(before));
            let lexical = &doc[before..before + s.len()];
            assert_eq!(value::small_integer_in(lexical, doc.as_bytes()), v, "{s:?}");
            assert_eq!(value::small_integer_in(lexical, b"unrelated"), v, "{s:?}");
        }
    }
    assert_eq!(value::i64_bounds(Byte), (-128, 127));
    assert_eq!(value::i64_bounds(PositiveInteger), (1, i64::MAX));
    assert_eq!(value::i64_bounds(UnsignedLong), (0, i64::MAX));
    assert_eq!(value::i64_bounds(Integer), (i64::MIN, i64::MAX));
}

#[test]
fn temporal_check_edge_cases() {
    use Builtin::*;
    let plain = |ty, s: &str| temporal::is_plain_temporal(ty, s);
    for (ty, s) in [
        (Date, "2026-04-23"),
        (Date, " 2024-02-29\n"),
        (Date, "2026-12-31Z"),
        (Date, "2026-01-01+14:00"),
        (Date, "2026-01-01-05:30"),
        (DateTime, "2026-04-23T10:00:00"),
        (DateTime, "2026-04-23T23:59:59.125Z"),
        (DateTime, "2024-02-29T00:00:00-14:00"),
    ] {
        assert!(plain(ty, s), "{s:?}");
        assert!(value::parse_plain(ty, s).is_some(), "{s:?}");
    }
    // Invalid, or valid but beyond the check (longer or negative years, the hour 24, the
    // other kinds): the parse decides.
    for s in [
        "2023-02-29",
        "2026-04-31",
        "2026-13-01",
        "2026-00-10",
        "2026-01-00",
        "0000-01-01",
        "2026-01-01+14:01",
        "2026-01-01+15:00",
        "2026-1-01",
        "12026-01-01",
        "-2026-01-01",
        "2026-01-01T00:00:00",
        "",
        "2026-01-01 Z",
    ] {
        assert!(!plain(Date, s), "{s:?}");
    }
    for s in [
        "2026-01-01T24:00:00",
        "2026-01-01T10:60:00",
        "2026-01-01T10:00:60",
        "2026-01-01T10:00:00.",
        "2026-01-01T10:00",
        "2026-01-01t10:00:00",
        "2026-02-30T10:00:00",
        "2026-01-01T10:00:00.5x",
        "2026-01-01",
        "2026-01-01T1:00:00",
    ] {
        assert!(!plain(DateTime, s), "{s:?}");
    }
    assert!(value::parse_plain(DateTime, "2026-01-01T24:00:00").is_some());
    assert!(!plain(GYear, "2026"));
}

/// `is_plain_string` vouches for a text only when the general parse takes it as it is.
#[test]
fn plain_strings_are_their_own_values() {
    use Builtin::*;
    let cases = [
        (Token, "a b", true),
        (Token, " a", false),
        (Token, "a  b", false),
        (Token, "a\tb", false),
        (NmToken, "US", true),
        (NmToken, "U S", false),
        (NmToken, "a;b", false),
        (NcName, "a:b", false),
        (Name, "a:b", true),
        (NormalizedString, "a  b ", true),
        (NormalizedString, "a\nb", false),
        (Language, "en-GB", true),
        (Language, "english-", false),
        (AnyUri, "http://x/y", true),
        (Int, "1", false),
        (QName, "p:x", false),
        (NmTokens, "a b", false),
    ];
    for (ty, text, plain) in cases {
        assert_eq!(is_plain_string(ty, text), plain, "{ty:?} {text:?}");
        if plain {
            assert_eq!(ty.parse(text), Ok(Value::String(text.into())), "{ty:?}");
        }
    }
}
