//! Namespace constraints of wildcards: subset, union and intersection (section 3.10.6, XSD 1.0,
//! where `not(x)` also excludes unqualified names).

use crate::model::{NamespaceConstraint as NC, NamespaceId, Wildcard};

/// Whether every namespace `sub` allows is allowed by `sup` (Wildcard Subset, 3.10.6).
pub(crate) fn subset(sub: &NC, sup: &NC) -> bool {
    match (sub, sup) {
        (_, NC::Any) => true,
        (NC::Any, _) => false,
        (NC::Not(a), NC::Not(b)) => a == b || *b == NamespaceId::ABSENT,
        (NC::Set(s), NC::Not(n)) => s.iter().all(|x| x != n && *x != NamespaceId::ABSENT),
        (NC::Set(s), NC::Set(t)) => s.iter().all(|x| t.contains(x)),
        (NC::Not(_), NC::Set(_)) => false,
    }
}

/// The union of two attribute wildcards; `None` when it is not expressible. The process
/// contents are `a`'s.
pub(crate) fn union(a: &Wildcard, b: &Wildcard) -> Option<Wildcard> {
    let namespaces = match (&a.namespaces, &b.namespaces) {
        (x, y) if x == y => x.clone(),
        (NC::Any, _) | (_, NC::Any) => NC::Any,
        (NC::Set(s), NC::Set(t)) => {
            let mut u = s.clone();
            for x in t {
                if !u.contains(x) {
                    u.push(*x);
                }
            }
            NC::Set(u)
        }
        (NC::Not(_), NC::Not(_)) => NC::Not(NamespaceId::ABSENT),
        (NC::Not(n), NC::Set(s)) | (NC::Set(s), NC::Not(n)) => {
            if *n == NamespaceId::ABSENT {
                if s.contains(&NamespaceId::ABSENT) {
                    NC::Any
                } else {
                    NC::Not(NamespaceId::ABSENT)
                }
            } else {
                match (s.contains(n), s.contains(&NamespaceId::ABSENT)) {
                    (true, true) => NC::Any,
                    (true, false) => NC::Not(NamespaceId::ABSENT),
                    (false, true) => return None,
                    (false, false) => NC::Not(*n),
                }
            }
        }
    };
    Some(Wildcard {
        namespaces,
        process: a.process,
    })
}

/// The intersection of two attribute wildcards; `None` when it is not expressible. The
/// process contents are `a`'s.
pub(crate) fn intersection(a: &Wildcard, b: &Wildcard) -> Option<Wildcard> {
    let namespaces = match (&a.namespaces, &b.namespaces) {
        (x, y) if x == y => x.clone(),
        (NC::Any, o) | (o, NC::Any) => o.clone(),
        (NC::Not(n), NC::Set(s)) | (NC::Set(s), NC::Not(n)) => NC::Set(
            s.iter()
                .copied()
                .filter(|x| x != n && *x != NamespaceId::ABSENT)
                .collect(),
        ),
        (NC::Set(s), NC::Set(t)) => NC::Set(s.iter().copied().filter(|x| t.contains(x)).collect()),
        (NC::Not(x), NC::Not(y)) => {
            if *x == NamespaceId::ABSENT {
                NC::Not(*y)
            } else if *y == NamespaceId::ABSENT {
                NC::Not(*x)
            } else {
                return None;
            }
        }
    };
    Some(Wildcard {
        namespaces,
        process: a.process,
    })
}
