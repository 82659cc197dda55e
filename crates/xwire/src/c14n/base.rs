//! The `xml:base` fix-up of Canonical XML 1.1 (section 2.4): joining the `xml:base` values of
//! omitted ancestors onto an output element's with RFC 3986 section 5.2.2, where
//! `remove_dot_segments` is replaced by the variant of the specification's Appendix A, which
//! keeps leading `..` segments of relative paths (so relative bases stay relative) and drops
//! empty segments.

/// The five components of a URI reference (RFC 3986 appendix B).
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn parse(s: &str) -> Parts<'_> {
    let (s, fragment) = match s.split_once('#') {
        Some((a, f)) => (a, Some(f)),
        None => (s, None),
    };
    let (s, query) = match s.split_once('?') {
        Some((a, q)) => (a, Some(q)),
        None => (s, None),
    };
    let (scheme, s) = match s.find([':', '/']) {
        Some(i) if i > 0 && s.as_bytes()[i] == b':' => (Some(&s[..i]), &s[i + 1..]),
        _ => (None, s),
    };
    let (authority, path) = match s.strip_prefix("//") {
        Some(rest) => {
            let end = rest.find('/').unwrap_or(rest.len());
            (Some(&rest[..end]), &rest[end..])
        }
        None => (None, s),
    };
    Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

/// Canonical XML 1.1 Appendix A's `remove_dot_segments`: empty and `.` segments go, `..`
/// removes the segment before it, or stays when there is none to remove in a relative path
/// (and goes in an absolute one). A path whose last segment was empty, `.` or `..` keeps a
/// trailing `/`.
pub(crate) fn remove_dot_segments(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut out: Vec<&str> = Vec::new();
    let mut trailing = false;
    for seg in path.split('/') {
        trailing = matches!(seg, "" | "." | "..");
        match seg {
            "" | "." => {}
            ".." => {
                if out.last().is_some_and(|&s| s != "..") {
                    out.pop();
                } else if !absolute {
                    out.push("..");
                }
            }
            s => out.push(s),
        }
    }
    let mut s = String::with_capacity(path.len());
    if absolute {
        s.push('/');
    }
    s.push_str(&out.join("/"));
    if trailing && !out.is_empty() {
        s.push('/');
    }
    s
}

/// Resolves `reference` against `base` (RFC 3986 section 5.2.2 with the dot-segment removal
/// above). Either may be relative.
pub(crate) fn join(base: &str, reference: &str) -> String {
    let r = parse(reference);
    let b = parse(base);
    let (scheme, authority, path, query);
    if r.scheme.is_some() {
        (scheme, authority, query) = (r.scheme, r.authority, r.query);
        path = remove_dot_segments(r.path);
    } else {
        scheme = b.scheme;
        if r.authority.is_some() {
            (authority, query) = (r.authority, r.query);
            path = remove_dot_segments(r.path);
        } else {
            authority = b.authority;
            if r.path.is_empty() {
                path = b.path.to_string();
                query = r.query.or(b.query);
            } else {
                query = r.query;
                path = if r.path.starts_with('/') {
                    remove_dot_segments(r.path)
                } else if b.authority.is_some() && b.path.is_empty() {
                    remove_dot_segments(&format!("/{}", r.path))
                } else {
                    let dir = b.path.rfind('/').map_or("", |i| &b.path[..=i]);
                    remove_dot_segments(&format!("{dir}{}", r.path))
                };
            }
        }
    }
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(&path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = r.fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// Joins the `xml:base` of an omitted ancestor onto a descendant's: [`join`], where a base
/// whose last segment is `.` or `..` names that directory (as if followed by `/`), so that
/// `..` onto `x` gives `../x` (the Canonical XML 1.1 interop vectors' reading).
pub(crate) fn join_base(base: &str, reference: &str) -> String {
    if base == "." || base == ".." || base.ends_with("/.") || base.ends_with("/..") {
        join(&format!("{base}/"), reference)
    } else {
        join(base, reference)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments() {
        for (input, expected) in [
            (
                "no/.././/pseudo-netpath/seg/file.ext",
                "pseudo-netpath/seg/file.ext",
            ),
            (
                "yes/no//..//.///pseudo-netpath/seg/file.ext",
                "yes/pseudo-netpath/seg/file.ext",
            ),
            ("no/../yes/no/..", "yes/"),
            ("../../no/../..", "../../../"),
            ("no/..", ""),
            ("/a/b/c/./../../g", "/a/g"),
            ("..yes/..no/..no/..no/../../../..yes", "..yes/..yes"),
            ("//no/..", "/"),
            ("/../..", "/"),
            ("..", "../"),
            ("./.", ""),
        ] {
            assert_eq!(remove_dot_segments(input), expected, "{input}");
        }
    }

    #[test]
    fn joins() {
        assert_eq!(join("http://a/b/c/d;p?q", "../g"), "http://a/b/g");
        assert_eq!(join("http://a/b/c/d;p?q", "g?y#s"), "http://a/b/c/g?y#s");
        assert_eq!(join("http://a/b/c/d;p?q", ""), "http://a/b/c/d;p?q");
        assert_eq!(join("http://a", "g"), "http://a/g");
        assert_eq!(join("http://a/b/", "//x/y"), "http://x/y");
        assert_eq!(join("../a/", "b/../c"), "../a/c");
        assert_eq!(join("x/", "../../y"), "../y");
        assert_eq!(join("urn:a", "mailto:b"), "mailto:b");
        assert_eq!(join_base("..", "x"), "../x");
        assert_eq!(join_base("..", "../x"), "../../x");
    }
}
