//! The golden files compile as Rust against the runtime (`xwire::bind`): every name resolves,
//! no type contains itself without a box, the derives apply.

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
