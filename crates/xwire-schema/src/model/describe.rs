//! Short, readable descriptions of components, for `xwire schema` and for messages:
//! content models in a compact grammar (`(shipTo, billTo, comment?, item*)`), simple types as
//! their derivation and facets.

use std::fmt::Write;

use super::{
    Compositor, ContentType, MaxOccurs, NamespaceConstraint, NamespaceId, Particle,
    ProcessContents, Schema, SimpleTypeId, Term, TypeId, Variety, Wildcard, XSD_NAMESPACE,
};

/// Content models nested deeper than this are shown as `(...)`.
const MAX_DEPTH: usize = 32;

impl Schema {
    /// The name of a type for people: `xs:int` for built-ins, the local name for types of a
    /// target namespace (`{uri}local` when it is not the first target namespace), and
    /// `anonymous` with its line for anonymous types.
    pub fn type_display(&self, ty: TypeId) -> String {
        let (name, location) = match ty {
            TypeId::Simple(s) => {
                let st = self.simple_type(s);
                (st.name, st.location)
            }
            TypeId::Complex(c) => {
                let ct = self.complex_type(c);
                (ct.name, ct.location)
            }
        };
        match (name, location) {
            (Some(n), _) => self.name_display(n),
            (None, Some(loc)) => format!("(anonymous, line {})", loc.line),
            (None, None) => "(anonymous)".to_string(),
        }
    }

    /// A name for people: `xs:local` in the XML Schema namespace, the bare local name when
    /// unqualified or in the first target namespace, else `{uri}local`.
    pub fn name_display(&self, name: super::NameId) -> String {
        let ns = self.names.ns(name);
        let local = self.names.local(name);
        if self.names.namespace_uri(ns) == XSD_NAMESPACE {
            format!("xs:{local}")
        } else if ns == NamespaceId::ABSENT || self.target_namespaces.first() == Some(&ns) {
            local.to_string()
        } else {
            self.names.display(name)
        }
    }

    /// A content model in a compact grammar: `,` for sequence, `|` for choice, `&` for all,
    /// `?` `*` `+` and `{m,n}` for occurrence bounds, `any(##other, lax)` for wildcards.
    ///
    /// ```
    /// use xwire_schema::model::{ContentType, Schema, ComplexTypeId};
    ///
    /// let schema = Schema::builtins();
    /// let any = schema.complex_type(ComplexTypeId::ANY_TYPE);
    /// let ContentType::Elements { particle, .. } = &any.content else { unreachable!() };
    /// assert_eq!(schema.particle_display(particle), "(any(##any, lax)*)");
    /// ```
    pub fn particle_display(&self, particle: &Particle) -> String {
        let mut out = String::new();
        self.write_particle(&mut out, particle, 0);
        out
    }

    fn write_particle(&self, out: &mut String, p: &Particle, depth: usize) {
        match &p.term {
            Term::Element(e) => out.push_str(&self.name_display(self.element(*e).name)),
            Term::Wildcard(w) => out.push_str(&self.wildcard_display(w)),
            Term::Group(g) => {
                let group = self.model_group(*g);
                if depth >= MAX_DEPTH {
                    out.push_str("(...)");
                } else {
                    let sep = match group.compositor {
                        Compositor::Sequence => ", ",
                        Compositor::Choice => " | ",
                        Compositor::All => " & ",
                    };
                    out.push('(');
                    for (i, child) in group.particles.iter().enumerate() {
                        if i > 0 {
                            out.push_str(sep);
                        }
                        self.write_particle(out, child, depth + 1);
                    }
                    out.push(')');
                }
            }
        }
        match (p.min_occurs, p.max_occurs) {
            (1, MaxOccurs::Bounded(1)) => {}
            (0, MaxOccurs::Bounded(1)) => out.push('?'),
            (0, MaxOccurs::Unbounded) => out.push('*'),
            (1, MaxOccurs::Unbounded) => out.push('+'),
            (min, MaxOccurs::Unbounded) => {
                let _ = write!(out, "{{{min},}}");
            }
            (min, MaxOccurs::Bounded(max)) => {
                let _ = write!(out, "{{{min},{max}}}");
            }
        }
    }

    /// A wildcard as `any(namespaces, processContents)`.
    pub fn wildcard_display(&self, w: &Wildcard) -> String {
        let ns = match &w.namespaces {
            NamespaceConstraint::Any => "##any".to_string(),
            NamespaceConstraint::Not(n) if *n == NamespaceId::ABSENT => "not ##local".to_string(),
            NamespaceConstraint::Not(n) => format!("##other than {}", self.names.namespace_uri(*n)),
            NamespaceConstraint::Set(set) => set
                .iter()
                .map(|&n| {
                    if n == NamespaceId::ABSENT {
                        "##local".to_string()
                    } else {
                        self.names.namespace_uri(n).to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" "),
        };
        let process = match w.process {
            ProcessContents::Strict => "strict",
            ProcessContents::Lax => "lax",
            ProcessContents::Skip => "skip",
        };
        format!("any({ns}, {process})")
    }

    /// A one-line description of a type definition: its derivation, and its content or facets.
    pub fn type_summary(&self, ty: TypeId) -> String {
        match ty {
            TypeId::Simple(s) => self.simple_summary(s),
            TypeId::Complex(c) => {
                let ct = self.complex_type(c);
                let mut out = match ct.derivation {
                    super::Derivation::Restriction if ct.base == TypeId::ANY_TYPE => {
                        "complex".to_string()
                    }
                    super::Derivation::Extension => {
                        format!("extends {}", self.type_display(ct.base))
                    }
                    super::Derivation::Restriction => {
                        format!("restricts {}", self.type_display(ct.base))
                    }
                };
                if ct.is_abstract {
                    out.push_str(", abstract");
                }
                match &ct.content {
                    ContentType::Empty => out.push_str("; empty"),
                    ContentType::Simple(s) => {
                        let _ = write!(
                            out,
                            "; simple content {}",
                            self.type_display(TypeId::Simple(*s))
                        );
                    }
                    ContentType::Elements { particle, mixed } => {
                        let _ = write!(
                            out,
                            "; {}{}",
                            if *mixed { "mixed " } else { "" },
                            self.particle_display(particle)
                        );
                    }
                }
                if !ct.attribute_uses.is_empty() || ct.attribute_wildcard.is_some() {
                    let mut attrs: Vec<String> = ct
                        .attribute_uses
                        .iter()
                        .map(|u| {
                            let name = self.name_display(self.attribute(u.decl).name);
                            if u.required {
                                name
                            } else {
                                format!("{name}?")
                            }
                        })
                        .collect();
                    if let Some(w) = &ct.attribute_wildcard {
                        attrs.push(self.wildcard_display(w));
                    }
                    let _ = write!(out, "; attributes {}", attrs.join(" "));
                }
                out
            }
        }
    }

    fn simple_summary(&self, s: SimpleTypeId) -> String {
        let st = self.simple_type(s);
        let mut out = match &st.variety {
            Variety::Atomic(b) if st.builtin == Some(*b) => "built-in".to_string(),
            Variety::Atomic(_) => format!("restricts {}", self.type_display(st.base)),
            Variety::List(item) => format!("list of {}", self.type_display(TypeId::Simple(*item))),
            Variety::Union(members) => format!(
                "union of {}",
                members
                    .iter()
                    .map(|&m| self.type_display(TypeId::Simple(m)))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ),
        };
        let f = &st.facets;
        let mut facets: Vec<String> = Vec::new();
        let mut num = |name: &str, v: Option<usize>| {
            if let Some(v) = v {
                facets.push(format!("{name} {v}"));
            }
        };
        num("length", f.length.as_ref().map(|x| x.value));
        num("minLength", f.min_length.as_ref().map(|x| x.value));
        num("maxLength", f.max_length.as_ref().map(|x| x.value));
        num(
            "totalDigits",
            f.total_digits.as_ref().map(|x| x.value as usize),
        );
        num(
            "fractionDigits",
            f.fraction_digits.as_ref().map(|x| x.value as usize),
        );
        for (name, v) in [
            ("minInclusive", &f.min_inclusive),
            ("maxInclusive", &f.max_inclusive),
            ("minExclusive", &f.min_exclusive),
            ("maxExclusive", &f.max_exclusive),
        ] {
            if let Some(v) = v {
                facets.push(format!("{name} {}", v.value.canonical()));
            }
        }
        for step in &f.patterns {
            let alternatives: Vec<&str> = step.iter().map(|p| p.as_str()).collect();
            facets.push(format!("pattern {}", alternatives.join(" | ")));
        }
        if let Some(e) = &f.enumeration {
            let mut values: Vec<&str> = e.iter().map(|(_, l)| l.as_str()).collect();
            if values.len() > 8 {
                values.truncate(8);
                values.push("...");
            }
            facets.push(format!("enumeration {}", values.join(" | ")));
        }
        if !facets.is_empty() {
            let _ = write!(out, " ({})", facets.join(", "));
        }
        out
    }
}
