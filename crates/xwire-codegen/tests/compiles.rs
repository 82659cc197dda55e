//! The golden files compile as Rust: every name resolves, no type contains itself without a
//! box, the derives apply. Types with parsers compile against the runtime itself
//! (`xwire::bind`); the schemas generated as types alone refer to runtime types that do not
//! exist yet (`AnyElement`, ...), stood in for here by unit structs of the same names.

macro_rules! runtime_stand_in {
    () => {
        runtime_stand_in! {
            Decimal Integer DateTime Time Date GYearMonth GYear GMonthDay GDay GMonth
            Duration QName AnyElement AnyAttribute Text
        }
    };
    ($($name:ident)+) => {
        #[allow(dead_code)]
        pub mod xwire {
            pub mod bind {
                $(#[derive(Clone, Debug, PartialEq)] pub struct $name;)+
            }
        }
    };
}

/// po.xsd's and ipo.xsd's parsers are generated too: they compile against the real runtime.
#[allow(dead_code)]
pub mod po {
    include!("golden/po.rs");
}

#[allow(dead_code)]
pub mod ipo {
    include!("golden/ipo.rs");
}

#[allow(dead_code)]
mod soap_encoding {
    runtime_stand_in!();
    include!("golden/soap_encoding.rs");
}

#[test]
fn generated_types_are_usable() {
    let item = po::Item {
        part_num: po::Sku("872-AA".into()),
        product_name: "Lawnmower".into(),
        quantity: 1,
        us_price: xwire::bind::value::decimal("148.95").unwrap(),
        comment: None,
        ship_date: None,
    };
    let items = po::Items { item: vec![item] };
    assert_eq!(items.item[0].quantity, 1u8);
    let state = ipo::UsState::Pa;
    assert_eq!(state.as_str(), "PA");
}
