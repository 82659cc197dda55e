//! Particle Valid (Restriction), section 3.9.6: the rcase-* rules over particles with the
//! pointless groups removed and substitution group heads expanded into choices.

use std::cell::Cell;

use super::Loader;
use crate::model::{
    Compositor, DerivationSet, ElementId, MaxOccurs, Particle, ProcessContents, Term, TypeId,
    Wildcard,
};

/// Normalized particles deeper than this, or more of them, are not checked.
const MAX_DEPTH: usize = 64;
const MAX_NODES: usize = 20_000;

#[derive(Clone, Debug)]
enum N {
    Elem(u64, Option<u64>, ElementId),
    Wild(u64, Option<u64>, Wildcard),
    Group(u64, Option<u64>, Compositor, Vec<N>),
}

impl N {
    fn range(&self) -> (u64, Option<u64>) {
        match self {
            N::Elem(a, b, _) | N::Wild(a, b, _) | N::Group(a, b, _, _) => (*a, *b),
        }
    }

    fn emptiable(&self) -> bool {
        match self {
            N::Group(min, _, c, kids) => {
                *min == 0
                    || match c {
                        Compositor::Choice => kids.is_empty() || kids.iter().any(N::emptiable),
                        _ => kids.iter().all(N::emptiable),
                    }
            }
            other => other.range().0 == 0,
        }
    }

    /// The effective total range (3.8.6).
    fn total(&self) -> (u64, Option<u64>) {
        match self {
            N::Group(min, max, c, kids) => {
                let ranges: Vec<(u64, Option<u64>)> = kids.iter().map(N::total).collect();
                let (kmin, kmax) = match c {
                    Compositor::Choice => (
                        ranges.iter().map(|r| r.0).min().unwrap_or(0),
                        ranges
                            .iter()
                            .try_fold(0u64, |acc, r| r.1.map(|m| acc.max(m))),
                    ),
                    _ => (
                        ranges.iter().fold(0u64, |acc, r| acc.saturating_add(r.0)),
                        ranges
                            .iter()
                            .try_fold(0u64, |acc, r| r.1.map(|m| acc.saturating_add(m))),
                    ),
                };
                let max = match (max, kmax) {
                    (Some(a), Some(b)) => Some(a.saturating_mul(b)),
                    (_, Some(0)) => Some(0),
                    _ => None,
                };
                (min.saturating_mul(kmin), max)
            }
            other => other.range(),
        }
    }
}

fn range_ok(r: (u64, Option<u64>), b: (u64, Option<u64>)) -> bool {
    r.0 >= b.0
        && match (r.1, b.1) {
            (_, None) => true,
            (None, Some(_)) => false,
            (Some(x), Some(y)) => x <= y,
        }
}

fn max_of(m: MaxOccurs) -> Option<u64> {
    match m {
        MaxOccurs::Bounded(n) => Some(u64::from(n)),
        MaxOccurs::Unbounded => None,
    }
}

fn rank(p: ProcessContents) -> u8 {
    match p {
        ProcessContents::Skip => 0,
        ProcessContents::Lax => 1,
        ProcessContents::Strict => 2,
    }
}

impl Loader<'_> {
    fn normalize(&self, p: &Particle, depth: usize, budget: &Cell<usize>) -> Option<N> {
        budget.set(budget.get() + 1);
        if depth > MAX_DEPTH || budget.get() > MAX_NODES {
            return None;
        }
        let (min, max) = (u64::from(p.min_occurs), max_of(p.max_occurs));
        Some(match &p.term {
            Term::Element(e) => {
                let subs = self
                    .s
                    .substitutions
                    .get(e.index())
                    .map_or(&[][..], |v| v.as_slice());
                let decl = self.s.element(*e);
                let subs: Vec<ElementId> = if decl.block.contains(DerivationSet::SUBSTITUTION) {
                    vec![*e]
                } else {
                    subs.iter()
                        .copied()
                        .filter(|&m| self.reachable_unblocked(m, *e))
                        .collect()
                };
                if decl.global && subs.len() > 1 {
                    let kids = subs.iter().map(|&m| N::Elem(1, Some(1), m)).collect();
                    N::Group(min, max, Compositor::Choice, kids)
                } else {
                    N::Elem(min, max, *e)
                }
            }
            Term::Wildcard(w) => N::Wild(min, max, w.clone()),
            Term::Group(g) => {
                let mg = self.s.model_group(*g);
                let mut kids = Vec::new();
                for q in &mg.particles {
                    let k = self.normalize(q, depth + 1, budget)?;
                    match k {
                        N::Group(_, _, _, ref ks) if ks.is_empty() => {}
                        N::Group(1, Some(1), c, ks)
                            if c == mg.compositor && c != Compositor::All =>
                        {
                            kids.extend(ks)
                        }
                        other => kids.push(other),
                    }
                }
                if kids.len() == 1 && min == 1 && max == Some(1) {
                    return kids.pop();
                }
                N::Group(min, max, mg.compositor, kids)
            }
        })
    }

    /// Whether `member` reaches `head` through substitution group heads none of which (in
    /// between) blocks substitution.
    fn reachable_unblocked(&self, member: ElementId, head: ElementId) -> bool {
        let mut x = member;
        for _ in 0..MAX_DEPTH {
            if x == head {
                return true;
            }
            if x != member
                && self
                    .s
                    .element(x)
                    .block
                    .contains(DerivationSet::SUBSTITUTION)
            {
                return false;
            }
            match self.s.element(x).substitution_group {
                Some(h) => x = h,
                None => return false,
            }
        }
        false
    }

    /// Whether particle `r` is a valid restriction of `b`; `Err` says why not.
    pub(crate) fn particle_restricts(&self, r: &Particle, b: &Particle) -> Result<(), String> {
        let budget = Cell::new(0);
        let (Some(rn), Some(bn)) = (self.normalize(r, 0, &budget), self.normalize(b, 0, &budget))
        else {
            return Ok(());
        };
        let steps = Cell::new(0usize);
        self.restricts(&rn, &bn, 0, &steps)
    }

    fn restricts(&self, r: &N, b: &N, depth: usize, steps: &Cell<usize>) -> Result<(), String> {
        steps.set(steps.get() + 1);
        if depth > MAX_DEPTH || steps.get() > 200_000 {
            return Ok(());
        }
        match (r, b) {
            (N::Elem(..), N::Elem(..)) => self.name_and_type_ok(r, b),
            (N::Elem(_, _, e), N::Wild(_, _, w)) => {
                if !range_ok(r.range(), b.range()) {
                    return Err(format!(
                        "the occurrences of {} exceed the wildcard's",
                        self.elem_name(*e)
                    ));
                }
                let ns = self.s.names.ns(self.s.element(*e).name);
                if !w.allows(ns) {
                    return Err(format!(
                        "{} is not allowed by the base's wildcard",
                        self.elem_name(*e)
                    ));
                }
                Ok(())
            }
            (N::Elem(..), N::Group(_, _, c, _)) => {
                let wrapped = N::Group(1, Some(1), *c, vec![r.clone()]);
                self.restricts(&wrapped, b, depth + 1, steps)
            }
            (N::Wild(_, _, rw), N::Wild(_, _, bw)) => {
                if !range_ok(r.range(), b.range()) {
                    return Err("the wildcard's occurrences exceed the base wildcard's".into());
                }
                if !super::wildcard::subset(&rw.namespaces, &bw.namespaces) {
                    return Err("the wildcard allows namespaces the base wildcard does not".into());
                }
                if rank(rw.process) < rank(bw.process) {
                    return Err("the wildcard's processContents is weaker than the base's".into());
                }
                Ok(())
            }
            (N::Wild(..), _) => Err("a wildcard cannot restrict an element or a group".into()),
            (N::Group(..), N::Wild(..)) => {
                // NSRecurseCheckCardinality.
                let N::Group(_, _, _, kids) = r else {
                    unreachable!()
                };
                let N::Wild(_, _, w) = b else { unreachable!() };
                let open = N::Wild(0, None, w.clone());
                for k in kids {
                    self.restricts(k, &open, depth + 1, steps)?;
                }
                if !range_ok(r.total(), b.range()) {
                    return Err("the group's occurrences exceed the base wildcard's".into());
                }
                Ok(())
            }
            (N::Group(..), N::Elem(..)) => Err("a group cannot restrict an element".into()),
            (N::Group(_, _, rc, rk), N::Group(_, _, bc, bk)) => {
                use Compositor::*;
                match (rc, bc) {
                    (All, All) | (Sequence, Sequence) => {
                        if !range_ok(r.range(), b.range()) {
                            return Err("the group's occurrences exceed the base group's".into());
                        }
                        let mut j = 0;
                        for k in rk {
                            loop {
                                let Some(bkid) = bk.get(j) else {
                                    return Err(
                                        "a particle has no counterpart in the base group".into()
                                    );
                                };
                                j += 1;
                                if self.restricts(k, bkid, depth + 1, steps).is_ok() {
                                    break;
                                }
                                if !bkid.emptiable() {
                                    return Err("a particle of the base group that cannot be empty is left out".into());
                                }
                            }
                        }
                        if bk[j..].iter().any(|x| !x.emptiable()) {
                            return Err(
                                "a particle of the base group that cannot be empty is left out"
                                    .into(),
                            );
                        }
                        Ok(())
                    }
                    (Choice, Choice) => {
                        if !range_ok(r.range(), b.range()) {
                            return Err("the choice's occurrences exceed the base choice's".into());
                        }
                        let mut j = 0;
                        for k in rk {
                            loop {
                                let Some(bkid) = bk.get(j) else {
                                    return Err(
                                        "a choice branch has no counterpart in the base choice"
                                            .into(),
                                    );
                                };
                                j += 1;
                                if self.restricts(k, bkid, depth + 1, steps).is_ok() {
                                    break;
                                }
                            }
                        }
                        Ok(())
                    }
                    (Sequence, All) => {
                        if !range_ok(r.range(), b.range()) {
                            return Err(
                                "the sequence's occurrences exceed the base all group's".into()
                            );
                        }
                        let mut used = vec![false; bk.len()];
                        for k in rk {
                            let found = bk.iter().enumerate().find(|(i, x)| {
                                !used[*i] && self.restricts(k, x, depth + 1, steps).is_ok()
                            });
                            match found {
                                Some((i, _)) => used[i] = true,
                                None => {
                                    return Err(
                                        "a particle has no counterpart in the base all group"
                                            .into(),
                                    )
                                }
                            }
                        }
                        if bk
                            .iter()
                            .enumerate()
                            .any(|(i, x)| !used[i] && !x.emptiable())
                        {
                            return Err(
                                "a particle of the base all group that cannot be empty is left out"
                                    .into(),
                            );
                        }
                        Ok(())
                    }
                    (Sequence, Choice) => {
                        let (min, max) = r.range();
                        let n = rk.len() as u64;
                        let range = (min.saturating_mul(n), max.map(|m| m.saturating_mul(n)));
                        if !range_ok(range, b.range()) {
                            return Err(
                                "the sequence's occurrences exceed the base choice's".into()
                            );
                        }
                        for k in rk {
                            if !bk
                                .iter()
                                .any(|x| self.restricts(k, x, depth + 1, steps).is_ok())
                            {
                                return Err(
                                    "a particle has no counterpart in the base choice".into()
                                );
                            }
                        }
                        Ok(())
                    }
                    _ => Err(format!("a {rc:?} group cannot restrict a {bc:?} group")),
                }
            }
        }
    }

    fn elem_name(&self, e: ElementId) -> String {
        format!("element '{}'", self.s.display_name(self.s.element(e).name))
    }

    fn name_and_type_ok(&self, r: &N, b: &N) -> Result<(), String> {
        let (N::Elem(_, _, re), N::Elem(_, _, be)) = (r, b) else {
            return Ok(());
        };
        let (rd, bd) = (self.s.element(*re), self.s.element(*be));
        if rd.name != bd.name {
            return Err(format!(
                "{} does not match {}",
                self.elem_name(*re),
                self.elem_name(*be)
            ));
        }
        if !range_ok(r.range(), b.range()) {
            return Err(format!(
                "the occurrences of {} exceed the base's",
                self.elem_name(*re)
            ));
        }
        if rd.nillable && !bd.nillable {
            return Err(format!(
                "{} is nillable, the base's is not",
                self.elem_name(*re)
            ));
        }
        if let Some(bvc) = bd.value_constraint.as_ref().filter(|v| v.fixed) {
            let ok = rd.value_constraint.as_ref().is_some_and(|v| {
                v.fixed
                    && match (&v.value, &bvc.value) {
                        (Some(x), Some(y)) => crate::model::same_value(x, y),
                        _ => v.lexical == bvc.lexical,
                    }
            });
            if !ok {
                return Err(format!(
                    "{} must keep the base's fixed value",
                    self.elem_name(*re)
                ));
            }
        }
        if !rd.block.contains(bd.block) {
            return Err(format!(
                "{} blocks less than the base's",
                self.elem_name(*re)
            ));
        }
        let blocked = DerivationSet::EXTENSION | DerivationSet::LIST | DerivationSet::UNION;
        if rd.type_def != bd.type_def && !self.derives(rd.type_def, bd.type_def, blocked, 0) {
            if bd.type_def == TypeId::ANY_TYPE {
                return Ok(());
            }
            return Err(format!(
                "the type of {} does not restrict the base's",
                self.elem_name(*re)
            ));
        }
        Ok(())
    }
}
