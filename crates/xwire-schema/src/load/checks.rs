//! Constraints checked once every component is built: value constraints, substitution
//! groups, attribute uses, complex type restrictions, circular groups, keyrefs.

use std::collections::HashMap;

use super::document::XNode;
use super::Loader;
use crate::datatypes::{Builtin, Value};
use crate::model::{
    AttributeId, ComplexTypeId, ContentType, DerivationSet, ElementId, IdentityKind, ModelGroupId,
    ProcessContents, SimpleTypeId, Term, TypeId,
};

impl Loader<'_> {
    pub(super) fn check_all(&mut self) {
        self.check_element_values();
        self.check_attribute_values();
        self.check_substitution_groups();
        self.check_id_attributes();
        self.check_restrictions();
        self.check_group_cycles();
        self.check_keyrefs();
        self.check_group_redefinitions();
        self.check_agroup_redefinitions();
    }

    /// A group redefinition without a reference to itself must restrict the original
    /// (src-redefine.6.2.2).
    fn check_group_redefinitions(&mut self) {
        use crate::model::{MaxOccurs, Particle};
        for (new, orig, d, node) in std::mem::take(&mut self.pending_group_restrictions) {
            let p = |g| Particle {
                min_occurs: 1,
                max_occurs: MaxOccurs::Bounded(1),
                term: Term::Group(g),
                location: None,
            };
            if let Err(m) = self.particle_restricts(&p(new), &p(orig)) {
                self.error(
                    "src-redefine",
                    d,
                    &node,
                    format!("the redefined group is not a restriction of the original: {m}"),
                );
            }
        }
    }

    /// Type Derivation OK, with a union's members counting as derived from it (3.14.6,
    /// clause 2.2.4).
    pub(crate) fn derives(
        &self,
        t: TypeId,
        base: TypeId,
        blocked: DerivationSet,
        depth: usize,
    ) -> bool {
        if self.s.derives_from(t, base, blocked) {
            return true;
        }
        if depth > 32 {
            return false;
        }
        if let TypeId::Simple(b) = base {
            let bt = self.s.simple_type(b);
            if let crate::model::Variety::Union(members) = &bt.variety {
                if bt.facets.patterns.is_empty() && bt.facets.enumeration.is_none() {
                    return members
                        .iter()
                        .any(|&m| self.derives(t, TypeId::Simple(m), blocked, depth + 1));
                }
            }
        }
        false
    }

    fn derives_from_id(&self, t: SimpleTypeId) -> bool {
        let id = SimpleTypeId::builtin(Builtin::Id);
        self.s
            .derives_from(TypeId::Simple(t), TypeId::Simple(id), DerivationSet::EMPTY)
    }

    /// The value of a default or fixed value for type `ty`: `Ok(None)` for mixed content.
    fn constraint_value(
        &self,
        ty: TypeId,
        lexical: &str,
        node: &XNode,
    ) -> Result<Option<Value>, String> {
        let resolve = |p: &str| -> Option<String> { node.resolve_prefix(p).map(str::to_string) };
        let simple =
            match ty {
                TypeId::Simple(s) => s,
                TypeId::Complex(c) => match &self.s.complex_type(c).content {
                    ContentType::Simple(s) => *s,
                    ContentType::Elements {
                        particle,
                        mixed: true,
                    } if self.emptiable(particle, 0) => return Ok(None),
                    _ => return Err(
                        "the type has neither simple content nor mixed content that can be empty"
                            .into(),
                    ),
                },
            };
        self.s
            .validate_simple(simple, lexical, &resolve)
            .map(|v| Some(v.value))
            .map_err(|e| e.message().to_string())
    }

    fn simple_of(&self, ty: TypeId) -> Option<SimpleTypeId> {
        match ty {
            TypeId::Simple(s) => Some(s),
            TypeId::Complex(c) => match self.s.complex_type(c).content {
                ContentType::Simple(s) => Some(s),
                _ => None,
            },
        }
    }

    fn check_element_values(&mut self) {
        let mut ids: Vec<ElementId> = self.element_doc.keys().copied().collect();
        ids.sort();
        for id in ids {
            let (d, node) = self.element_doc[&id].clone();
            let e = self.s.element(id);
            let Some(vc) = e.value_constraint.clone() else {
                continue;
            };
            let ty = e.type_def;
            if self.simple_of(ty).is_some_and(|s| self.derives_from_id(s)) {
                self.error(
                    "e-props-correct",
                    d,
                    &node,
                    "an element of type ID may not have a default or fixed value".into(),
                );
                continue;
            }
            match self.constraint_value(ty, &vc.lexical, &node) {
                Ok(v) => {
                    if let Some(x) = self.s.elements[id.index()].value_constraint.as_mut() {
                        x.value = v;
                    }
                }
                Err(m) => self.error(
                    "e-props-correct",
                    d,
                    &node,
                    format!(
                        "the value '{}' is not valid for the element's type: {m}",
                        vc.lexical
                    ),
                ),
            }
        }
    }

    fn check_attribute_values(&mut self) {
        let mut ids: Vec<_> = self.attribute_doc.keys().copied().collect();
        ids.sort();
        for id in ids {
            let (d, node) = self.attribute_doc[&id].clone();
            let a = self.s.attribute(id);
            let Some(vc) = a.value_constraint.clone() else {
                continue;
            };
            let ty = a.type_def;
            if self.derives_from_id(ty) {
                self.error(
                    "a-props-correct",
                    d,
                    &node,
                    "an attribute of type ID may not have a default or fixed value".into(),
                );
                continue;
            }
            match self.constraint_value(TypeId::Simple(ty), &vc.lexical, &node) {
                Ok(v) => {
                    if let Some(x) = self.s.attributes[id.index()].value_constraint.as_mut() {
                        x.value = v;
                    }
                }
                Err(m) => self.error(
                    "a-props-correct",
                    d,
                    &node,
                    format!(
                        "the value '{}' is not valid for the attribute's type: {m}",
                        vc.lexical
                    ),
                ),
            }
        }
        // Uses that refer to a declaration. Their own constraints' values, resolved in their
        // namespace context (a QName's prefix), by declaration and text; `None` when two
        // uses' contexts give the same text two values.
        let mut use_values: HashMap<(AttributeId, String), Option<Value>> = HashMap::new();
        for (decl, d, node) in std::mem::take(&mut self.attr_use_nodes) {
            if node.attr("ref").is_none() {
                continue;
            }
            let lexical = node.attr("fixed").or(node.attr("default"));
            let Some(lexical) = lexical else { continue };
            let a = self.s.attribute(decl).clone();
            if self.derives_from_id(a.type_def) {
                self.error(
                    "a-props-correct",
                    d,
                    &node,
                    "an attribute of type ID may not have a default or fixed value".into(),
                );
                continue;
            }
            match self.constraint_value(TypeId::Simple(a.type_def), lexical, &node) {
                Ok(v) => {
                    use_values
                        .entry((decl, lexical.to_string()))
                        .and_modify(|seen| {
                            if *seen != v {
                                *seen = None;
                            }
                        })
                        .or_insert_with(|| v.clone());
                    if let Some(dvc) = &a.value_constraint {
                        if dvc.fixed {
                            let same = match (&v, &dvc.value) {
                                (Some(x), Some(y)) => crate::model::same_value(x, y),
                                _ => lexical == dvc.lexical,
                            };
                            if node.attr("fixed").is_none() || !same {
                                self.error(
                                    "au-props-correct",
                                    d,
                                    &node,
                                    format!("the declaration fixes the value to '{}'", dvc.lexical),
                                );
                            }
                        }
                    }
                }
                Err(m) => self.error(
                    "a-props-correct",
                    d,
                    &node,
                    format!("the value '{lexical}' is not valid: {m}"),
                ),
            }
        }
        // Fill the values of use constraints: a local declaration's use has the declaration's
        // constraint (resolved above, in the declaration's context), a reference its own.
        let resolve_none = |p: &str| {
            if p.is_empty() {
                Some(String::new())
            } else {
                None
            }
        };
        for i in 0..self.s.complex_types.len() {
            for j in 0..self.s.complex_types[i].attribute_uses.len() {
                let u = &self.s.complex_types[i].attribute_uses[j];
                let Some(vc) = &u.value_constraint else {
                    continue;
                };
                if vc.value.is_some() {
                    continue;
                }
                let a = self.s.attribute(u.decl);
                let own = a
                    .value_constraint
                    .as_ref()
                    .filter(|dvc| dvc.lexical == vc.lexical)
                    .and_then(|dvc| dvc.value.clone());
                let v = match (own, use_values.get(&(u.decl, vc.lexical.clone()))) {
                    (Some(v), _) => Some(v),
                    (None, Some(v)) => v.clone(),
                    (None, None) => self
                        .s
                        .validate_simple(a.type_def, &vc.lexical, &resolve_none)
                        .ok()
                        .map(|v| v.value),
                };
                if let Some(vc) = self.s.complex_types[i].attribute_uses[j]
                    .value_constraint
                    .as_mut()
                {
                    vc.value = v;
                }
            }
        }
    }

    fn check_substitution_groups(&mut self) {
        let n = self.s.elements.len();
        let mut members: Vec<Vec<ElementId>> = vec![Vec::new(); n];
        for i in 0..n {
            let e = &self.s.elements[i];
            let Some(h) = e.substitution_group else {
                continue;
            };
            let head = self.s.element(h);
            let ok = self.derives(e.type_def, head.type_def, head.final_, 0);
            if !ok {
                let loc = e.location;
                let blocked = self.derives(e.type_def, head.type_def, DerivationSet::EMPTY, 0);
                let why = if blocked {
                    "by a method the head's final blocks"
                } else {
                    "at all"
                };
                self.error_at(
                    "e-props-correct",
                    loc,
                    format!("the element's type does not derive from the head's type {why}"),
                );
            }
            members[h.index()].push(ElementId::from_index(i));
        }
        let mut subs = Vec::with_capacity(n);
        for i in 0..n {
            let mut out = vec![ElementId::from_index(i)];
            let mut seen = std::collections::HashSet::new();
            seen.insert(ElementId::from_index(i));
            let mut k = 0;
            while k < out.len() {
                for &m in &members[out[k].index()] {
                    if seen.insert(m) {
                        out.push(m);
                    }
                }
                k += 1;
            }
            subs.push(out);
        }
        self.s.substitutions = subs;
    }

    fn check_id_attributes(&mut self) {
        for i in 1..self.s.complex_types.len() {
            let ct = &self.s.complex_types[i];
            let ids = ct
                .attribute_uses
                .iter()
                .filter(|u| self.derives_from_id(self.s.attribute(u.decl).type_def))
                .count();
            if ids > 1 {
                let loc = ct.location;
                self.error_at(
                    "ct-props-correct",
                    loc,
                    "a complex type may have only one attribute of type ID".into(),
                );
            }
        }
        for i in 0..self.s.attribute_groups.len() {
            let g = &self.s.attribute_groups[i];
            let ids = g
                .attribute_uses
                .iter()
                .filter(|u| self.derives_from_id(self.s.attribute(u.decl).type_def))
                .count();
            if ids > 1 {
                let loc = g.location;
                self.error_at(
                    "ag-props-correct",
                    loc,
                    "an attribute group may have only one attribute of type ID".into(),
                );
            }
        }
    }

    fn check_restrictions(&mut self) {
        for (id, d, node) in std::mem::take(&mut self.restrictions) {
            self.check_restriction(id, d, &node);
        }
    }

    fn check_restriction(&mut self, id: ComplexTypeId, d: usize, node: &XNode) {
        let ct = self.s.complex_type(id).clone();
        let TypeId::Complex(b) = ct.base else { return };
        let base = self.s.complex_type(b).clone();
        const C: &str = "derivation-ok-restriction";
        for m in self.attributes_restrict(
            &ct.attribute_uses,
            ct.attribute_wildcard.as_ref(),
            &base.attribute_uses,
            base.attribute_wildcard.as_ref(),
        ) {
            self.error(C, d, node, m);
        }
        match (&ct.content, &base.content) {
            (ContentType::Empty, ContentType::Empty) => {}
            (ContentType::Empty, ContentType::Elements { particle, .. }) => {
                if !self.emptiable(particle, 0) {
                    self.error(
                        C,
                        d,
                        node,
                        "empty content restricts only content that can be empty".into(),
                    );
                }
            }
            (ContentType::Empty, ContentType::Simple(_)) => {
                self.error(
                    C,
                    d,
                    node,
                    "empty content cannot restrict simple content".into(),
                );
            }
            (ContentType::Simple(_), _) => {}
            (ContentType::Elements { .. }, ContentType::Empty | ContentType::Simple(_)) => {
                self.error(
                    C,
                    d,
                    node,
                    "element content cannot restrict empty or simple content".into(),
                );
            }
            (
                ContentType::Elements { particle, mixed },
                ContentType::Elements {
                    particle: bp,
                    mixed: bm,
                },
            ) => {
                if *mixed && !bm {
                    self.error(
                        C,
                        d,
                        node,
                        "mixed content cannot restrict element-only content".into(),
                    );
                }
                if let Err(m) = self.particle_restricts(particle, bp) {
                    self.error(
                        C,
                        d,
                        node,
                        format!("the content model is not a restriction of the base's: {m}"),
                    );
                }
            }
        }
    }

    /// The attribute clauses of Derivation Valid (Restriction, Complex) 2 to 4: messages for
    /// what is wrong.
    fn attributes_restrict(
        &self,
        uses: &[crate::model::AttributeUse],
        wildcard: Option<&crate::model::Wildcard>,
        base_uses: &[crate::model::AttributeUse],
        base_wildcard: Option<&crate::model::Wildcard>,
    ) -> Vec<String> {
        let mut out = Vec::new();
        for u in uses {
            let decl = self.s.attribute(u.decl).clone();
            let name = decl.name;
            let found = base_uses
                .iter()
                .find(|bu| self.s.attribute(bu.decl).name == name);
            match found {
                Some(bu) => {
                    let bu = bu.clone();
                    let bdecl = self.s.attribute(bu.decl).clone();
                    if bu.required && !u.required {
                        let shown = self.s.display_name(name);
                        out.push(format!("attribute '{shown}' is required in the base type"));
                    }
                    if !self.derives(
                        TypeId::Simple(decl.type_def),
                        TypeId::Simple(bdecl.type_def),
                        DerivationSet::EMPTY,
                        0,
                    ) {
                        let shown = self.s.display_name(name);
                        out.push(format!(
                            "the type of attribute '{shown}' does not derive from the base's"
                        ));
                    }
                    let bvc = bu.effective_value_constraint(&self.s);
                    let vc = u.effective_value_constraint(&self.s);
                    if let Some(bvc) = bvc.filter(|v| v.fixed) {
                        let ok = vc.is_some_and(|v| {
                            v.fixed
                                && match (&v.value, &bvc.value) {
                                    (Some(x), Some(y)) => crate::model::same_value(x, y),
                                    _ => v.lexical.trim() == bvc.lexical.trim(),
                                }
                        });
                        if !ok {
                            let shown = self.s.display_name(name);
                            out.push(format!(
                                "attribute '{shown}' must keep the base's fixed value"
                            ));
                        }
                    }
                }
                None => {
                    let ns = self.s.names.ns(name);
                    if !base_wildcard.is_some_and(|w| w.allows(ns)) {
                        let shown = self.s.display_name(name);
                        out.push(format!(
                            "attribute '{shown}' is not allowed by the base type"
                        ));
                    }
                }
            }
        }
        for bu in base_uses {
            if bu.required {
                let name = self.s.attribute(bu.decl).name;
                if !uses.iter().any(|u| self.s.attribute(u.decl).name == name) {
                    let shown = self.s.display_name(name);
                    out.push(format!(
                        "the required attribute '{shown}' of the base type is missing"
                    ));
                }
            }
        }
        if let Some(w) = wildcard {
            match base_wildcard {
                None => out.push("the base type has no attribute wildcard".into()),
                Some(bw) => {
                    if !super::wildcard::subset(&w.namespaces, &bw.namespaces) {
                        out.push("the attribute wildcard is not a subset of the base's".into());
                    }
                    let rank = |p: ProcessContents| match p {
                        ProcessContents::Skip => 0,
                        ProcessContents::Lax => 1,
                        ProcessContents::Strict => 2,
                    };
                    if rank(w.process) < rank(bw.process) {
                        out.push(
                            "the attribute wildcard's processContents is weaker than the base's"
                                .into(),
                        );
                    }
                }
            }
        }
        out
    }

    fn check_agroup_redefinitions(&mut self) {
        for (new, orig, d, node) in std::mem::take(&mut self.pending_agroup_restrictions) {
            let (n, o) = (
                self.s.attribute_group(new).clone(),
                self.s.attribute_group(orig).clone(),
            );
            for m in self.attributes_restrict(
                &n.attribute_uses,
                n.attribute_wildcard.as_ref(),
                &o.attribute_uses,
                o.attribute_wildcard.as_ref(),
            ) {
                self.error("src-redefine", d, &node, m);
            }
        }
    }

    fn check_group_cycles(&mut self) {
        // Named groups only: an edge g -> h when h occurs (transitively through anonymous
        // groups) in g. A group is circular when it is in a strongly connected component
        // with another or refers to itself.
        let mut named: Vec<ModelGroupId> = self.group_src.keys().copied().collect();
        named.sort();
        let index: HashMap<ModelGroupId, usize> =
            named.iter().enumerate().map(|(i, &g)| (g, i)).collect();
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); named.len()];
        for (i, &g) in named.iter().enumerate() {
            let mut stack: Vec<ModelGroupId> = vec![g];
            let mut seen = std::collections::HashSet::new();
            seen.insert(g);
            while let Some(x) = stack.pop() {
                for p in &self.s.model_group(x).particles {
                    if let Term::Group(h) = p.term {
                        if let Some(&j) = index.get(&h) {
                            adj[i].push(j);
                        } else if seen.insert(h) {
                            stack.push(h);
                        }
                    }
                }
            }
        }
        for i in strongly_cyclic(&adj) {
            let loc = self.s.model_group(named[i]).location;
            self.error_at(
                "mg-props-correct",
                loc,
                "the model group refers to itself".into(),
            );
        }
    }

    fn check_keyrefs(&mut self) {
        for (id, d, node) in std::mem::take(&mut self.keyrefs) {
            let Some(r) = node.attr("refer") else {
                continue;
            };
            let Some(name) = self.qname(d, &node, r) else {
                continue;
            };
            if !self.visible(d, &node, name) {
                continue;
            }
            let Some(&target) = self.s.global_identity_constraints.get(&name) else {
                let shown = self.s.display_name(name);
                self.error(
                    "src-resolve",
                    d,
                    &node,
                    format!("there is no identity constraint named '{shown}'"),
                );
                continue;
            };
            let t = self.s.identity_constraint(target);
            if matches!(t.kind, IdentityKind::KeyRef(_)) {
                self.error(
                    "c-props-correct",
                    d,
                    &node,
                    "a keyref must refer to a key or unique constraint".into(),
                );
                continue;
            }
            if t.fields.len() != self.s.identity_constraint(id).fields.len() {
                self.error(
                    "c-props-correct",
                    d,
                    &node,
                    "a keyref must have as many fields as the key it refers to".into(),
                );
            }
            self.s.identity_constraints[id.index()].kind = IdentityKind::KeyRef(target);
        }
    }
}

/// The nodes of a directed graph that lie on a cycle (Tarjan's algorithm, iterative), in
/// increasing order.
pub(crate) fn strongly_cyclic(adj: &[Vec<usize>]) -> Vec<usize> {
    const NONE: usize = usize::MAX;
    let n = adj.len();
    let mut index = vec![NONE; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut cyclic = vec![false; n];
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        // (node, next edge to look at)
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut e)) = work.last_mut() {
            if *e == 0 && index[v] == NONE {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = adj[v].get(*e) {
                *e += 1;
                if w == v {
                    cyclic[v] = true;
                }
                if index[w] == NONE {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                if members.len() > 1 {
                    for w in members {
                        cyclic[w] = true;
                    }
                }
            }
        }
    }
    (0..n).filter(|&i| cyclic[i]).collect()
}
