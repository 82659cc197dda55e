use super::*;

#[test]
fn names_round_trip() {
    for &t in Builtin::ALL {
        assert_eq!(Builtin::from_name(t.name()), Some(t));
    }
    assert_eq!(Builtin::ALL.len(), 45);
    assert_eq!(Builtin::from_name("anyType"), None);
}
