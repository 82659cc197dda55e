//! Character data and the entity references inside it.

use std::sync::Arc;

use crate::dtd::{self, Class, Dtd};
use crate::error::{ErrorKind, LimitKind};
use crate::reader::token::{Span, TokenKind};
use crate::resolver::Resolver;
use crate::scan::str_of;
use crate::scan::{self, bad, Ref, Scan, Stop};

use super::{wf, EntFrame, EntityUse, State, StepR};
use crate::reader::token::{F_CR, F_REFS};

impl State {
    /// Character data up to the next markup. Entity references to pure-text entities stay inside
    /// the token (expanded lazily by `Text::unescape`); a reference to an entity with markup
    /// ends the token, and the next step pushes a frame for it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(in crate::reader) fn text(
        &mut self,
        data: &[u8],
        eof: bool,
        dtd: &Dtd,
        resolver: &mut Option<Box<dyn Resolver + '_>>,
        in_entity: bool,
        base: u64,
    ) -> Scan<StepR> {
        let start = self.pos;
        let mut i = start;
        let mut flags = 0u8;
        loop {
            i = crate::simd::find_text_stop(data, i);
            let Some(&b) = data.get(i) else {
                if !eof {
                    return Err(Stop::Eof);
                }
                break;
            };
            match b {
                b'<' => break,
                b'&' => {
                    let (r, end) = scan::reference(data, i, eof)?;
                    match r {
                        Ref::Char(_) => {
                            flags |= F_REFS;
                            i = end;
                        }
                        Ref::Entity(ns, ne) => {
                            self.expansion.doc = base + end as u64;
                            // SAFETY: `scan::reference` matched a Name there with
                            // `scan::name`, which checked it character by character.
                            #[allow(unsafe_code)]
                            let name = unsafe { str_of(&data[ns..ne]) };
                            let used = self.entity_in_content(name, i, dtd, resolver, in_entity)?;
                            match used {
                                EntityUse::Inline => {
                                    flags |= F_REFS;
                                    i = end;
                                }
                                EntityUse::Frame(text, id) => {
                                    if i > start {
                                        break;
                                    }
                                    self.push_frame(text, id, i, end)?;
                                    return Ok(StepR::Continue);
                                }
                                EntityUse::Skipped => {
                                    if i > start {
                                        break;
                                    }
                                    self.tok.set_token(TokenKind::SkippedEntity, start, base);
                                    self.tok.span = Span {
                                        start: ns,
                                        end: ne,
                                        scratch: false,
                                    };
                                    self.pos = end;
                                    return Ok(StepR::Token);
                                }
                            }
                        }
                    }
                }
                b']' => {
                    if data.len() < i + 3 && !eof {
                        return Err(Stop::Eof);
                    }
                    if data[i..].starts_with(b"]]>") {
                        return bad(i, wf("']]>' is not allowed in character data"));
                    }
                    i += 1;
                }
                b'\r' => {
                    if !in_entity {
                        flags |= F_CR;
                    }
                    i += 1;
                }
                b if b < 0x80 => return bad(i, ErrorKind::InvalidChar(b as char)),
                _ => i += scan::utf8_char(data, i)?.1,
            }
        }
        self.check_len(start, i)?;
        self.tok.set_token(TokenKind::Text, start, base);
        self.tok.span = Span {
            start,
            end: i,
            scratch: false,
        };
        self.tok.flags = flags;
        self.pos = i;
        Ok(StepR::Token)
    }

    /// Checks a general entity reference in content, to the entity `name` at `at`, and says
    /// what becomes of it.
    pub(in crate::reader) fn entity_in_content(
        &mut self,
        name: &str,
        at: usize,
        dtd: &Dtd,
        resolver: &mut Option<Box<dyn Resolver + '_>>,
        in_entity: bool,
    ) -> Scan<EntityUse> {
        let Some(id) = dtd.general(name) else {
            if self.standalone || !dtd.has_external_parts {
                return bad(at, ErrorKind::UndeclaredEntity(name.to_string()));
            }
            return Ok(EntityUse::Skipped);
        };
        let e = &dtd.entities[id];
        if e.ndata.is_some() {
            return bad(
                at,
                wf(format!(
                    "reference to the unparsed entity '{name}' in content"
                )),
            );
        }
        if self.standalone && e.external_decl && !in_entity {
            return bad(
                at,
                wf(format!(
                    "entity '{name}' is declared externally but the document is standalone"
                )),
            );
        }
        if self.frames.iter().any(|f| f.entity == id) {
            return bad(at, ErrorKind::RecursiveEntity(name.to_string()));
        }
        let limits = &self.tok.config.limits;
        if e.is_external() {
            let loaded = match e.loaded.get() {
                Some(l) => l.clone(),
                None => {
                    let l = match resolver.as_deref_mut() {
                        Some(r) => dtd::load_external(
                            r,
                            e.public_id.as_deref(),
                            e.system_id.as_deref().unwrap_or(""),
                            e.base.as_deref(),
                        )
                        .map_err(|k| Stop::at(at, k))?,
                        None => None,
                    };
                    if let Some((t, _)) = &l {
                        self.expansion.input += t.len() as u64;
                    }
                    let _ = e.loaded.set(l.clone());
                    l
                }
            };
            return match loaded {
                Some((text, _)) => {
                    self.expansion
                        .add(text.len(), limits)
                        .map_err(|k| Stop::at(at, k))?;
                    Ok(EntityUse::Frame(text, id))
                }
                None => Ok(EntityUse::Skipped),
            };
        }
        match dtd::classify(dtd, id, 0, limits).map_err(|k| Stop::at(at, k))? {
            Class::Text => {
                let x = dtd::expanded(dtd, id, limits).map_err(|k| Stop::at(at, k))?;
                self.expansion
                    .add(x.len(), limits)
                    .map_err(|k| Stop::at(at, k))?;
                Ok(EntityUse::Inline)
            }
            _ => {
                let text = e.value.clone().expect("internal entity");
                self.expansion
                    .add(text.len(), limits)
                    .map_err(|k| Stop::at(at, k))?;
                Ok(EntityUse::Frame(text, id))
            }
        }
    }

    pub(in crate::reader) fn push_frame(
        &mut self,
        text: Arc<str>,
        entity: usize,
        at: usize,
        end: usize,
    ) -> Scan<()> {
        if self.frames.len() as u64 >= self.tok.config.limits.max_entity_depth {
            return bad(
                at,
                ErrorKind::LimitExceeded(
                    LimitKind::EntityDepth,
                    self.tok.config.limits.max_entity_depth,
                ),
            );
        }
        self.frames.push(EntFrame {
            text,
            saved_pos: end,
            entity,
            depth: self.tok.stack.len(),
        });
        self.pos = 0;
        Ok(())
    }
}
