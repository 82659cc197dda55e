//! The content-model compiler: counters, xs:all, substitution groups, wildcards, UPA and
//! Element Declarations Consistent, and a property test against a naive matcher.

use proptest::prelude::*;

use super::build::{st, B};
use crate::datatypes::Builtin;
use crate::model::*;
use crate::validate::{ContentModel, Expected, MatchState, Matched};

fn model(s: &Schema, t: TypeId) -> &ContentModel {
    let TypeId::Complex(c) = t else { panic!() };
    s.content_models[c.index()].as_ref().unwrap()
}

/// Runs the names (in the target namespace) through the model: `Ok` when accepted, else the
/// index of the child that failed (`len` when the end was not allowed).
fn run(s: &Schema, t: TypeId, tns: NamespaceId, input: &[&str]) -> Result<(), usize> {
    let m = model(s, t);
    let mut st = MatchState::default();
    m.start(&mut st);
    for (i, n) in input.iter().enumerate() {
        let name = s.names().lookup(tns, n);
        if m.step(&mut st, name, tns).is_none() {
            return Err(i);
        }
    }
    if m.can_end(&st) {
        Ok(())
    } else {
        Err(input.len())
    }
}

fn abc(b: &mut B) -> [ElementId; 3] {
    let s = st(Builtin::String);
    [b.global("a", s), b.global("b", s), b.global("c", s)]
}

#[test]
fn sequence_choice_and_optional() {
    let mut b = B::new("urn:t");
    let [a, bb, c] = abc(&mut b);
    let (pa, pb, pc) = (b.e(a), b.eo(bb, 0, Some(1)), b.e(c));
    let ch = b.choice(vec![pb, pc]);
    let root = b.seq(vec![pa, ch]);
    let t = b.elements(Some("T"), root, false);
    let tns = b.tns;
    let s = b.finish();
    assert_eq!(run(&s, t, tns, &["a"]), Ok(())); // b? nullable makes the choice nullable
    assert_eq!(run(&s, t, tns, &["a", "b"]), Ok(()));
    assert_eq!(run(&s, t, tns, &["a", "c"]), Ok(()));
    assert_eq!(run(&s, t, tns, &["a", "b", "c"]), Err(2));
    assert_eq!(run(&s, t, tns, &["b"]), Err(0));
    assert_eq!(run(&s, t, tns, &[]), Err(0));
    assert_eq!(run(&s, t, tns, &["x"]), Err(0));
}

#[test]
fn counters_bound_occurrences_without_states() {
    let mut b = B::new("urn:t");
    let [a, bb, _] = abc(&mut b);
    let pa = b.eo(a, 2, Some(1000));
    let pb = b.e(bb);
    let root = b.seq(vec![pa, pb]);
    let t = b.elements(None, root, false);
    let tns = b.tns;
    let s = b.finish();
    let m = model(&s, t);
    assert_eq!(m.counter_count(), 1);
    assert_eq!(m.state_count(), 3);
    let many = |n: usize| {
        let mut v = vec!["a"; n];
        v.push("b");
        v
    };
    assert_eq!(run(&s, t, tns, &many(1)), Err(1));
    assert_eq!(run(&s, t, tns, &many(2)), Ok(()));
    assert_eq!(run(&s, t, tns, &many(1000)), Ok(()));
    assert_eq!(run(&s, t, tns, &many(1001)), Err(1000));
    // Expected after one a: only a (b needs two).
    let mut st = MatchState::default();
    m.start(&mut st);
    let an = s.names().lookup(tns, "a");
    m.step(&mut st, an, tns).unwrap();
    let mut exp = Vec::new();
    m.expected(&st, &mut exp);
    assert_eq!(exp, vec![Expected::Element(an.unwrap())]);
    m.step(&mut st, an, tns).unwrap();
    m.expected(&st, &mut exp);
    assert_eq!(exp.len(), 2);
}

#[test]
fn nested_counters_and_huge_bounds_are_cheap() {
    let mut b = B::new("urn:t");
    let [a, bb, _] = abc(&mut b);
    let pa = b.eo(a, 0, Some(u32::MAX - 1));
    let pb = b.e(bb);
    let inner = b.group(Compositor::Sequence, vec![pa, pb], 3, Some(1_000_000));
    let t = b.elements(None, inner, false);
    let tns = b.tns;
    let s = b.finish();
    assert_eq!(model(&s, t).counter_count(), 2);
    assert_eq!(run(&s, t, tns, &["a", "b", "b", "a", "a", "b"]), Ok(()));
    assert_eq!(run(&s, t, tns, &["a", "b", "b"]), Err(3));
}

#[test]
fn counters_with_nullable_bodies_and_min_equal_max() {
    let mut b = B::new("urn:t");
    let [a, bb, _] = abc(&mut b);
    // (a?){3}, b : a nullable body has effective minimum 0.
    let pa = b.eo(a, 0, Some(1));
    let g = b.group(Compositor::Sequence, vec![pa], 3, Some(3));
    let pb = b.e(bb);
    let root = b.seq(vec![g, pb]);
    let t = b.elements(None, root, false);
    // a{2}, a : deterministic by the counter (not a UPA violation).
    let pa2 = b.eo(a, 2, Some(2));
    let pa3 = b.e(a);
    let root2 = b.seq(vec![pa2, pa3]);
    let t2 = b.elements(None, root2, false);
    let tns = b.tns;
    let s = b.finish();
    assert_eq!(run(&s, t, tns, &["b"]), Ok(()));
    assert_eq!(run(&s, t, tns, &["a", "a", "a", "b"]), Ok(()));
    assert_eq!(run(&s, t, tns, &["a", "a", "a", "a", "b"]), Err(3));
    assert_eq!(run(&s, t2, tns, &["a", "a", "a"]), Ok(()));
    assert_eq!(run(&s, t2, tns, &["a", "a"]), Err(2));
    assert_eq!(run(&s, t2, tns, &["a", "a", "a", "a"]), Err(3));
}

#[test]
fn all_groups_are_bitsets() {
    let mut b = B::new("urn:t");
    let [a, bb, c] = abc(&mut b);
    let (pa, pb, pc) = (b.e(a), b.eo(bb, 0, Some(1)), b.e(c));
    let all = b.group(Compositor::All, vec![pa, pb, pc], 1, Some(1));
    let t = b.elements(None, all, false);
    let (qa, qb) = (b.e(a), b.e(bb));
    let all2 = b.group(Compositor::All, vec![qa, qb], 0, Some(1));
    let t2 = b.elements(None, all2, false);
    let tns = b.tns;
    let s = b.finish();
    assert_eq!(run(&s, t, tns, &["c", "a"]), Ok(()));
    assert_eq!(run(&s, t, tns, &["b", "c", "a"]), Ok(()));
    assert_eq!(run(&s, t, tns, &["a", "a"]), Err(1));
    assert_eq!(run(&s, t, tns, &["a", "b"]), Err(2));
    assert_eq!(run(&s, t2, tns, &[]), Ok(()));
    assert_eq!(run(&s, t2, tns, &["b"]), Err(1));
    let m = model(&s, t);
    let mut st = MatchState::default();
    m.start(&mut st);
    m.step(&mut st, s.names().lookup(tns, "b"), tns).unwrap();
    let mut exp = Vec::new();
    m.expected(&st, &mut exp);
    let names: Vec<String> = exp
        .iter()
        .map(|e| match e {
            Expected::Element(n) => s.names().local(*n).to_string(),
            Expected::Wildcard(_) => "*".into(),
        })
        .collect();
    assert_eq!(names, ["a", "c"]);
}

#[test]
fn substitution_groups_match_members() {
    let mut b = B::new("urn:t");
    let [a, bb, c] = abc(&mut b);
    b.substitute(bb, a);
    b.substitute(c, bb);
    b.elem_mut(c).is_abstract = true;
    let pa = b.eo(a, 1, None);
    let t = b.elements(None, pa, false);
    let tns = b.tns;
    let s = b.finish();
    assert_eq!(run(&s, t, tns, &["a", "b", "c"]), Ok(()));
    let m = model(&s, t);
    let mut st = MatchState::default();
    m.start(&mut st);
    let got = m.step(&mut st, s.names().lookup(tns, "c"), tns);
    assert_eq!(
        got,
        Some(Matched::Element {
            decl: c,
            particle: a,
            status: crate::validate::MemberStatus::Abstract
        })
    );
    let got = m.step(&mut st, s.names().lookup(tns, "b"), tns);
    assert!(
        matches!(got, Some(Matched::Element { decl, status: crate::validate::MemberStatus::Ok, .. }) if decl == bb)
    );
}

#[test]
fn substitution_blocked_by_head() {
    let mut b = B::new("urn:t");
    let [a, bb, _] = abc(&mut b);
    b.substitute(bb, a);
    b.elem_mut(a).block = DerivationSet::SUBSTITUTION;
    let pa = b.e(a);
    let t = b.elements(None, pa, false);
    let tns = b.tns;
    let s = b.finish();
    let m = model(&s, t);
    let mut st = MatchState::default();
    m.start(&mut st);
    let got = m.step(&mut st, s.names().lookup(tns, "b"), tns);
    assert!(matches!(
        got,
        Some(Matched::Element {
            status: crate::validate::MemberStatus::Blocked,
            ..
        })
    ));
}

#[test]
fn wildcards_by_namespace() {
    let mut b = B::new("urn:t");
    let [a, _, _] = abc(&mut b);
    let other = b.ns("urn:other");
    let tns = b.tns;
    let pa = b.e(a);
    let w = b.any(NamespaceConstraint::Not(tns), ProcessContents::Lax);
    let w = Particle {
        max_occurs: MaxOccurs::Unbounded,
        min_occurs: 0,
        ..w
    };
    let root = b.seq(vec![pa, w]);
    let t = b.elements(None, root, false);
    let s = b.finish();
    let m = model(&s, t);
    let mut st = MatchState::default();
    m.start(&mut st);
    assert!(m.step(&mut st, s.names().lookup(tns, "a"), tns).is_some());
    assert!(matches!(
        m.step(&mut st, None, other),
        Some(Matched::Wildcard(_))
    ));
    assert!(matches!(
        m.step(&mut st, None, NamespaceId::UNKNOWN),
        Some(Matched::Wildcard(_))
    ));
    assert!(m.step(&mut st, None, NamespaceId::ABSENT).is_none());
    assert!(m.step(&mut st, None, tns).is_none());
    assert!(m.can_end(&st));
}

fn upa_errors(build: impl FnOnce(&mut B, [ElementId; 3]) -> Particle) -> Vec<SchemaError> {
    let mut b = B::new("urn:t");
    let e = abc(&mut b);
    let root = build(&mut b, e);
    b.elements(Some("T"), root, false);
    b.finish_err()
}

#[test]
fn upa_violations_are_reported_with_positions() {
    // (a?, a)
    let errs = upa_errors(|b, [a, _, _]| {
        let p1 = b.eo(a, 0, Some(1));
        let p2 = b.e(a);
        b.seq(vec![p1, p2])
    });
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].constraint, "cos-nonambig");
    assert_eq!(
        errs[0].message,
        "the content model of type '{urn:t}T' is ambiguous: element '{urn:t}a' may match two particles (the other particle is at line 4, column 1)"
    );
    assert_eq!(errs[0].position, Some((5, 1)));
    assert_eq!(
        errs[0].file.as_deref(),
        Some(std::path::Path::new("test.xsd"))
    );
    // (a|a)
    let errs = upa_errors(|b, [a, _, _]| {
        let p1 = b.e(a);
        let p2 = b.e(a);
        b.choice(vec![p1, p2])
    });
    assert_eq!(errs.len(), 1);
    // (a{1,2}, a)
    let errs = upa_errors(|b, [a, _, _]| {
        let p1 = b.eo(a, 1, Some(2));
        let p2 = b.e(a);
        b.seq(vec![p1, p2])
    });
    assert_eq!(errs.len(), 1);
    // (a*, b?)* b : b may end an iteration or be the last b.
    let errs = upa_errors(|b, [a, bb, _]| {
        let p1 = b.eo(a, 0, None);
        let p2 = b.eo(bb, 0, Some(1));
        let g = b.group(Compositor::Sequence, vec![p1, p2], 0, None);
        let p3 = b.e(bb);
        b.seq(vec![g, p3])
    });
    assert!(!errs.is_empty());
    // element against wildcard
    let errs = upa_errors(|b, [a, _, _]| {
        let p1 = b.eo(a, 0, Some(1));
        let w = b.any(NamespaceConstraint::Any, ProcessContents::Lax);
        b.seq(vec![p1, w])
    });
    assert_eq!(errs.len(), 1);
    // substitution group member against another particle
    let errs = upa_errors(|b, [a, bb, _]| {
        b.substitute(bb, a);
        let p1 = b.e(a);
        let p2 = b.e(bb);
        b.choice(vec![p1, p2])
    });
    assert_eq!(errs.len(), 1);
    // two overlapping wildcards
    let errs = upa_errors(|b, _| {
        let w1 = b.any(NamespaceConstraint::Any, ProcessContents::Lax);
        let w2 = b.any(
            NamespaceConstraint::Set(vec![NamespaceId::ABSENT]),
            ProcessContents::Lax,
        );
        b.choice(vec![w1, w2])
    });
    assert_eq!(errs.len(), 1);
    // xs:all with the same element twice
    let errs = upa_errors(|b, [a, _, _]| {
        let p1 = b.e(a);
        let p2 = b.e(a);
        b.group(Compositor::All, vec![p1, p2], 1, Some(1))
    });
    assert_eq!(errs[0].constraint, "cos-nonambig");
}

#[test]
fn deterministic_models_pass_upa() {
    let mut b = B::new("urn:t");
    let [a, bb, c] = abc(&mut b);
    let p1 = b.eo(a, 0, None);
    let p2 = b.e(bb);
    let g = b.group(Compositor::Sequence, vec![p1, p2], 0, None);
    let p3 = b.e(c);
    let root = b.seq(vec![g, p3]);
    b.elements(None, root, false);
    b.finish();
}

#[test]
fn element_declarations_consistent() {
    let mut b = B::new("urn:t");
    let a1 = b.local("a", st(Builtin::String));
    let a2 = b.local("a", st(Builtin::Int));
    let bb = b.local("b", st(Builtin::String));
    let p1 = b.e(a1);
    let p2 = b.e(bb);
    let p3 = b.e(a2);
    let root = b.seq(vec![p1, p2, p3]);
    b.elements(Some("T"), root, false);
    let errs = b.finish_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].constraint, "cos-element-consistent");
    assert_eq!(
        errs[0].message,
        "the content model of type '{urn:t}T' has two declarations of element '{urn:t}a' with different types"
    );
}

// ----- property test: the counter automaton against a naive matcher --------------------------

#[derive(Clone, Debug)]
enum Rx {
    Sym(usize),
    Seq(Vec<(Rx, u32, Option<u32>)>),
    Choice(Vec<(Rx, u32, Option<u32>)>),
}

fn occurs() -> impl Strategy<Value = (u32, Option<u32>)> {
    prop_oneof![
        3 => Just((1, Some(1))),
        1 => Just((0, Some(1))),
        1 => Just((0, None)),
        1 => Just((1, None)),
        2 => (0u32..4, 1u32..4).prop_map(|(a, b)| (a.min(b), Some(b))),
        1 => (2u32..4).prop_map(|a| (a, None)),
    ]
}

fn rx() -> impl Strategy<Value = (Rx, u32, Option<u32>)> {
    let leaf = ((0usize..3), occurs()).prop_map(|(s, (a, b))| (Rx::Sym(s), a, b));
    leaf.prop_recursive(3, 12, 3, |inner| {
        (prop::collection::vec(inner, 1..4), any::<bool>(), occurs())
            .prop_map(|(v, seq, (a, b))| (if seq { Rx::Seq(v) } else { Rx::Choice(v) }, a, b))
    })
}

/// Every end offset reachable matching `(r, min, max)` from `from`.
fn naive(r: &(Rx, u32, Option<u32>), input: &[usize], from: usize) -> Vec<usize> {
    let (term, min, max) = r;
    let once = |i: usize| -> Vec<usize> {
        match term {
            Rx::Sym(s) => {
                if input.get(i) == Some(s) {
                    vec![i + 1]
                } else {
                    vec![]
                }
            }
            Rx::Seq(v) => {
                let mut cur = vec![i];
                for p in v {
                    let mut next: Vec<usize> =
                        cur.iter().flat_map(|&j| naive(p, input, j)).collect();
                    next.sort();
                    next.dedup();
                    cur = next;
                }
                cur
            }
            Rx::Choice(v) => {
                let mut out: Vec<usize> = v.iter().flat_map(|p| naive(p, input, i)).collect();
                out.sort();
                out.dedup();
                out
            }
        }
    };
    let max = max.unwrap_or(u32::MAX).min(input.len() as u32 + *min + 1);
    let mut out = Vec::new();
    let mut cur = vec![from];
    for k in 0..=max {
        if k >= *min {
            out.extend_from_slice(&cur);
        }
        if k == max || cur.is_empty() {
            break;
        }
        let mut next: Vec<usize> = cur.iter().flat_map(|&j| once(j)).collect();
        next.sort();
        next.dedup();
        if next == cur && k >= *min {
            break;
        }
        cur = next;
    }
    out.sort();
    out.dedup();
    out
}

fn to_particle(b: &mut B, syms: &[ElementId; 3], r: &(Rx, u32, Option<u32>)) -> Particle {
    let (term, min, max) = r;
    match term {
        Rx::Sym(s) => b.eo(syms[*s], *min, *max),
        Rx::Seq(v) | Rx::Choice(v) => {
            let ps = v.iter().map(|p| to_particle(b, syms, p)).collect();
            let c = if matches!(term, Rx::Seq(_)) {
                Compositor::Sequence
            } else {
                Compositor::Choice
            };
            b.group(c, ps, *min, *max)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]
    #[test]
    fn counter_automaton_agrees_with_naive_matcher(
        r in rx(),
        inputs in prop::collection::vec(prop::collection::vec(0usize..3, 0..8), 1..8),
    ) {
        let mut b = B::new("urn:t");
        let syms = abc(&mut b);
        let p = to_particle(&mut b, &syms, &r);
        let t = b.elements(None, p, false);
        let tns = b.tns;
        let mut s = b.s;
        // Ambiguous models are compiled too (with their errors): the matcher still decides.
        let _ = crate::validate::compile_content_models(&mut s);
        for input in inputs {
            let names: Vec<&str> = input.iter().map(|&i| ["a", "b", "c"][i]).collect();
            let expect = naive(&r, &input, 0).contains(&input.len());
            let got = run(&s, t, tns, &names).is_ok();
            prop_assert_eq!(got, expect, "{:?} on {:?}", r, names);
        }
    }
}

#[test]
fn big_choices_compile_and_oversized_ones_are_refused() {
    let mut b = B::new("urn:t");
    let ps: Vec<Particle> = (0..5000)
        .map(|i| {
            let e = b.global(&format!("e{i}"), st(Builtin::String));
            b.e(e)
        })
        .collect();
    let g = b.group(Compositor::Choice, ps, 0, None);
    let t = b.elements(None, g, false);
    let tns = b.tns;
    let s = b.finish();
    // One shared state for the choice's children: 5,000 transitions, not 25 million.
    assert_eq!(model(&s, t).transition_count(), 10_000);
    assert_eq!(run(&s, t, tns, &["e4999", "e0", "e2500"]), Ok(()));
    assert_eq!(run(&s, t, tns, &["e4999", "x"]), Err(1));

    let mut b = B::new("urn:t");
    // A sequence of 3,000 optional elements: each may follow every earlier one.
    let ps: Vec<Particle> = (0..3000)
        .map(|i| {
            let e = b.global(&format!("e{i}"), st(Builtin::String));
            b.eo(e, 0, Some(1))
        })
        .collect();
    let g = b.seq(ps);
    b.elements(Some("Big"), g, false);
    let errs = b.finish_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].constraint, "cos-content-model");
    assert_eq!(
        errs[0].message,
        "the content model of type '{urn:t}Big' is too large to compile"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, .. ProptestConfig::default() })]
    /// The static Unique Particle Attribution check agrees with an exhaustive exploration of
    /// the reachable configuration sets.
    #[test]
    fn upa_check_agrees_with_exploration(r in rx()) {
        let mut b = B::new("urn:t");
        let syms = abc(&mut b);
        let p = to_particle(&mut b, &syms, &r);
        let t = b.elements(None, p, false);
        let mut s = b.s;
        let static_verdict = match crate::validate::compile_content_models(&mut s) {
            Ok(()) => false,
            Err(es) => es.iter().any(|e| e.constraint == "cos-nonambig"),
        };
        if let Some(explored) = model(&s, t).ambiguous_by_exploration() {
            prop_assert_eq!(static_verdict, explored, "{:?}", r);
        }
    }
}

#[test]
fn upa_sees_counter_values_held_at_once() {
    // (b+|a){2}, a : after "b b" the first b+ may still go on (then `a` is the choice's a)
    // or two iterations are done (then `a` is the last particle).
    let errs = upa_errors(|b, [a, bb, _]| {
        let pb = b.eo(bb, 1, None);
        let pa = b.e(a);
        let ch = b.group(Compositor::Choice, vec![pb, pa], 2, Some(2));
        let last = b.e(a);
        b.seq(vec![ch, last])
    });
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].constraint, "cos-nonambig");
}

#[test]
fn upa_on_huge_nested_bounds_falls_back_quickly() {
    let mut b = B::new("urn:t");
    let [a, bb, _] = abc(&mut b);
    let pa = b.eo(a, 0, Some(100_000));
    let pb = b.e(bb);
    let g = b.group(Compositor::Sequence, vec![pa, pb], 0, Some(100_000));
    let t = b.elements(None, g, false);
    let tns = b.tns;
    let s = b.finish();
    assert_eq!(run(&s, t, tns, &["a", "a", "b", "b"]), Ok(()));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, .. ProptestConfig::default() })]
    /// The pairwise fallback (used past the exploration budget) never reports a model that
    /// exploration finds unambiguous.
    #[test]
    fn pairwise_upa_fallback_has_no_false_positives(r in rx()) {
        let mut b = B::new("urn:t");
        let syms = abc(&mut b);
        let p = to_particle(&mut b, &syms, &r);
        let t = b.elements(None, p, false);
        let mut s = b.s;
        crate::validate::automaton::FORCE_PAIRWISE.with(|f| f.set(true));
        let pairwise = match crate::validate::compile_content_models(&mut s) {
            Ok(()) => false,
            Err(es) => es.iter().any(|e| e.constraint == "cos-nonambig"),
        };
        crate::validate::automaton::FORCE_PAIRWISE.with(|f| f.set(false));
        if let Some(explored) = model(&s, t).ambiguous_by_exploration() {
            prop_assert!(!pairwise || explored, "{:?}", r);
        }
    }
}

/// Symbols 0..3 of `rx2`: a (whose substitution group has b), b, c, and a `##other` wildcard;
/// input letters 0..4: a, b, c, and x in another namespace.
fn sym_matches(sym: usize, letter: usize) -> bool {
    match sym {
        0 => letter == 0 || letter == 1,
        3 => letter == 3,
        s => s == letter,
    }
}

fn rx2() -> impl Strategy<Value = (Rx, u32, Option<u32>)> {
    let leaf = ((0usize..4), occurs()).prop_map(|(s, (a, b))| (Rx::Sym(s), a, b));
    leaf.prop_recursive(3, 10, 3, |inner| {
        (prop::collection::vec(inner, 1..4), any::<bool>(), occurs())
            .prop_map(|(v, seq, (a, b))| (if seq { Rx::Seq(v) } else { Rx::Choice(v) }, a, b))
    })
}

fn naive2(r: &(Rx, u32, Option<u32>), input: &[usize], from: usize) -> Vec<usize> {
    let (term, min, max) = r;
    let once = |i: usize| -> Vec<usize> {
        match term {
            Rx::Sym(s) => match input.get(i) {
                Some(&l) if sym_matches(*s, l) => vec![i + 1],
                _ => vec![],
            },
            Rx::Seq(v) => {
                let mut cur = vec![i];
                for p in v {
                    let mut next: Vec<usize> =
                        cur.iter().flat_map(|&j| naive2(p, input, j)).collect();
                    next.sort();
                    next.dedup();
                    cur = next;
                }
                cur
            }
            Rx::Choice(v) => {
                let mut out: Vec<usize> = v.iter().flat_map(|p| naive2(p, input, i)).collect();
                out.sort();
                out.dedup();
                out
            }
        }
    };
    let max = max.unwrap_or(u32::MAX).min(input.len() as u32 + *min + 1);
    let mut out = Vec::new();
    let mut cur = vec![from];
    for k in 0..=max {
        if k >= *min {
            out.extend_from_slice(&cur);
        }
        if k == max || cur.is_empty() {
            break;
        }
        let mut next: Vec<usize> = cur.iter().flat_map(|&j| once(j)).collect();
        next.sort();
        next.dedup();
        if next == cur && k >= *min {
            break;
        }
        cur = next;
    }
    out.sort();
    out.dedup();
    out
}

fn to_particle2(b: &mut B, syms: &[ElementId; 3], r: &(Rx, u32, Option<u32>)) -> Particle {
    let (term, min, max) = r;
    match term {
        Rx::Sym(3) => {
            let tns = b.tns;
            let w = b.any(NamespaceConstraint::Not(tns), ProcessContents::Lax);
            Particle {
                min_occurs: *min,
                max_occurs: max.map_or(MaxOccurs::Unbounded, MaxOccurs::Bounded),
                ..w
            }
        }
        Rx::Sym(s) => b.eo(syms[*s], *min, *max),
        Rx::Seq(v) | Rx::Choice(v) => {
            let ps = v.iter().map(|p| to_particle2(b, syms, p)).collect();
            let c = if matches!(term, Rx::Seq(_)) {
                Compositor::Sequence
            } else {
                Compositor::Choice
            };
            b.group(c, ps, *min, *max)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]
    /// With substitution groups and wildcards too.
    #[test]
    fn counter_automaton_agrees_with_naive_matcher_on_groups_and_wildcards(
        r in rx2(),
        inputs in prop::collection::vec(prop::collection::vec(0usize..4, 0..7), 1..8),
    ) {
        let mut b = B::new("urn:t");
        let syms = abc(&mut b);
        b.substitute(syms[1], syms[0]);
        let other = b.ns("urn:other");
        let p = to_particle2(&mut b, &syms, &r);
        let t = b.elements(None, p, false);
        let tns = b.tns;
        let mut s = b.s;
        let _ = crate::validate::compile_content_models(&mut s);
        let m = model(&s, t);
        for input in inputs {
            let expect = naive2(&r, &input, 0).contains(&input.len());
            let mut st = MatchState::default();
            m.start(&mut st);
            let mut ok = true;
            for &l in &input {
                let (name, ns) = match l {
                    3 => (None, other),
                    l => (s.names().lookup(tns, ["a", "b", "c"][l]), tns),
                };
                if m.step(&mut st, name, ns).is_none() {
                    ok = false;
                    break;
                }
            }
            let got = ok && m.can_end(&st);
            prop_assert_eq!(got, expect, "{:?} on {:?}", r, input);
        }
    }
}
