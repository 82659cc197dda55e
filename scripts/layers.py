#!/usr/bin/env python3
"""The import layers of a crate, checked against a table (scripts/layers.txt).

Run through scripts/layers.sh; `scripts/layers.sh --help` says how. Standard library only.

How it reads the code. Each .rs file under the crate's source folder is tokenised
(comments, strings and char literals do not count; line numbers are kept). The walk follows
`mod` items (inline and file, with `#[path]`) to know each file's module path, and
`#[cfg(test)]` items to know what is test code. An import is any path naming a module of the
crate:

- `use` trees, grouped and across lines (`use crate::{a::b, c}`), `pub use`, `as` renames,
  globs, paths starting at `crate`, `super`, `self`, a child module or a name imported before;
- paths written in code: `crate::x::y(..)`, `super::super::f`, and `m::f` where `m` is a child
  module or a module brought in by a `use` (`use crate::scan::{self, ..}` then `scan::bad(..)`).

A path is followed through the `use` bindings of the modules it passes (`crate::Reader` is the
`pub use reader::Reader` of lib.rs, so it points at `reader`), and ends at the module that
defines the item: that module's table line gives the layer. A `use` of a module itself adds
no edge; the paths written through it do.

Rules: an import into a higher layer fails (unless listed as known-up); a cycle between table
modules fails unless one allow-cycle or known-cycle line lists all its modules. Every cycle
across layers holds an upward import, reported as such, so cycles are looked for within layers.
Test code (`#[cfg(test)]` items and the files they declare) may import anything, like a
dev-dependency. Table lines that no longer match anything fail too: the lists only shrink.
"""

import os
import re
import sys

USAGE = """\
usage: scripts/layers.sh [--src DIR] [--table FILE] [--files] [--quiet] [--verbose]

Checks that the modules of a crate import only from their own layer or the layers below,
and that no import cycle joins two modules of the table beyond the listed ones.

  --table FILE  the layer table (default: scripts/layers.txt, the core crate's)
  --src DIR     the crate's source folder (default: the table's `src` line, from the
                repository root); for checking a copy of the sources
  --files       list every file with its module and layer, not one line per table module
  --quiet       print only warnings, violations and the verdict
  --verbose     under a cycle, every import that closes it, not the first of each pair
  -h, --help    this text

Prints the layer of each table module, then warnings for the known violations (listed in
the table, to be removed) and errors for any other, and `layers: ok` or `layers: N
violation(s)`. Exit status: 0 ok, 1 violations or a table that does not match the code,
2 bad usage. See the table's header for its syntax.
"""

# --------------------------------------------------------------------------------------------
# Tokens

TOKEN = re.compile(
    r"""
    (?P<line_comment>//[^\n]*)
  | (?P<block_comment>/\*)
  | (?P<raw_string>b?r\#*")
  | (?P<string>b?"(?:\\.|[^"\\])*")
  | (?P<char>b?'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F_]+\}|.)|[^'\\\n])')
  | (?P<lifetime>'[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>[0-9][A-Za-z0-9_]*)
  | (?P<ident>(?:r\#)?[A-Za-z_][A-Za-z0-9_]*)
  | (?P<path_sep>::)
  | (?P<punct>[^\s\w])
    """,
    re.VERBOSE | re.DOTALL,
)


NEWLINE = re.compile("\n")


def tokenize(text):
    """(kind, text, line) for identifiers, strings, `::` and punctuation; comments, char
    literals, lifetimes and numbers are dropped."""
    newlines = [m.start() for m in NEWLINE.finditer(text)]
    tokens = []
    append = tokens.append
    pos, end = 0, len(text)
    search = TOKEN.search
    while True:
        m = search(text, pos)
        if m is None:
            break
        kind = m.lastgroup
        if kind == "block_comment":
            depth, i = 1, m.end()
            while depth and i < end:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            pos = i
            continue
        if kind == "raw_string":
            hashes = m.group().count("#")
            close = text.find('"' + "#" * hashes, m.end())
            pos = end if close < 0 else close + 1 + hashes
            continue
        pos = m.end()
        if kind == "ident":
            word = m.group()
            append(("ident", word[2:] if word.startswith("r#") else word, m.start()))
        elif kind == "string":
            append(("str", m.group(), m.start()))
        elif kind in ("path_sep", "punct"):
            word = m.group()
            append((word, word, m.start()))
    # Offsets to line numbers, in one merge (tokens are in order).
    out, k, count = [], 0, len(newlines)
    for kind, word, off in tokens:
        while k < count and newlines[k] < off:
            k += 1
        out.append((kind, word, k + 1))
    return out


# --------------------------------------------------------------------------------------------
# One file: its `mod` items, `use` trees and paths in code


class Use:
    """One leaf of a `use` tree: `segs` as written, bound to `name` ('*' for a glob)."""

    def __init__(self, segs, name, line, ctx, test):
        self.segs, self.name, self.line, self.ctx, self.test = segs, name, line, ctx, test


class Path:
    """A path written in code, starting at `crate`, `super`, `self` or a module name."""

    def __init__(self, segs, line, ctx, test):
        self.segs, self.line, self.ctx, self.test = segs, line, ctx, test


class ModDecl:
    """`mod name;` in the inline module `ctx` of a file, with its `#[path]` if any."""

    def __init__(self, ctx, name, test, path, line):
        self.ctx, self.name, self.test, self.path, self.line = ctx, name, test, path, line


OPEN = {"{": "}", "(": ")", "[": "]"}
STARTS = {"crate", "super", "self"}


def parse_file(text):
    """Walks one file's tokens: returns (inline modules, mod declarations, uses, paths).

    Module contexts are relative to the file's own module: () is the file, ('tests',) an
    inline `mod tests { .. }` in it.
    """
    toks = tokenize(text)
    n = len(toks)
    stack = []  # open brackets: (closer, module pushed by it or None)
    ctx = ()
    inline = []  # (ctx, test) of inline modules
    decls, uses, paths = [], [], []
    test_depth = None  # stack height where the current #[cfg(test)] item started
    pending_test = False
    pending_path = None
    file_test = False
    i = 0

    def attr_end(j):
        depth = 0
        while j < n:
            t = toks[j][0]
            if t == "[":
                depth += 1
            elif t == "]":
                depth -= 1
                if depth == 0:
                    return j
            j += 1
        return n - 1

    while i < n:
        kind, word, line = toks[i]
        # Attributes: #[cfg(test)], #[path = ".."], #![cfg(test)].
        if kind == "#":
            j = i + 1
            inner = j < n and toks[j][0] == "!"
            if inner:
                j += 1
            if j < n and toks[j][0] == "[":
                e = attr_end(j)
                body = [t[1] for t in toks[j + 1 : e]]
                if body[:2] == ["cfg", "("] and "test" in body and "not" not in body:
                    if inner and not stack:
                        file_test = True
                    elif not inner:
                        pending_test = True
                if body[:2] == ["path", "="] and len(body) == 3 and not inner:
                    pending_path = body[2].lstrip("b")[1:-1]
                i = e + 1
                continue
        if pending_test and test_depth is None:
            test_depth = len(stack)
        pending_test = False
        test = file_test or test_depth is not None

        if kind == "ident" and word == "mod" and i + 2 < n and toks[i + 1][0] == "ident":
            name = toks[i + 1][1]
            if toks[i + 2][0] == ";":
                decls.append(ModDecl(ctx, name, test, pending_path, line))
                pending_path = None
                i += 3
                if test_depth == len(stack):
                    test_depth = None
                continue
            if toks[i + 2][0] == "{":
                ctx = ctx + (name,)
                inline.append((ctx, test))
                stack.append(("}", name))
                pending_path = None
                i += 3
                continue
        if kind == "ident" and word == "use" and (i == 0 or toks[i - 1][0] != "::"):
            j = i + 1
            while j < n and toks[j][0] != ";":
                j += 1
            leaves = []
            use_tree(toks[i + 1 : j], (), leaves)
            for segs, name, ln in leaves:
                uses.append(Use(segs, name, ln, ctx, test))
            i = j  # the `;` ends a #[cfg(test)] use below
            continue
        # `pub(in crate::reader)` names where an item is visible, not something it uses.
        if kind == "ident" and word == "in" and i >= 2 and toks[i - 1][0] == "(":
            if toks[i - 2][0] == "ident" and toks[i - 2][1] == "pub":
                j = i + 1
                while j < n and toks[j][0] != ")":
                    j += 1
                i = j
                continue
        if kind == "ident" and (i == 0 or toks[i - 1][0] != "::"):
            if i + 2 < n and toks[i + 1][0] == "::" and toks[i + 2][0] == "ident":
                segs = [word]
                j = i + 1
                while j + 1 < n and toks[j][0] == "::" and toks[j + 1][0] == "ident":
                    segs.append(toks[j + 1][1])
                    j += 2
                paths.append(Path(segs, line, ctx, test))
                i = j
                continue
        if kind in OPEN:
            stack.append((OPEN[kind], None))
        elif kind in ("}", ")", "]"):
            if stack:
                _, pushed = stack.pop()
                if pushed is not None:
                    ctx = ctx[:-1]
                if kind == "}" and test_depth == len(stack):
                    test_depth = None
        elif kind == ";" and test_depth == len(stack):
            test_depth = None
        i += 1
    return inline, decls, uses, paths, file_test


def use_tree(toks, prefix, out):
    """Flattens a `use` tree into (segments, bound name, line) leaves."""
    i, n = 0, len(toks)
    segs = list(prefix)
    if i < n and toks[i][0] == "::":  # `use ::std::..`: an external crate
        return n
    while i < n:
        kind, word, line = toks[i]
        if kind == "ident":
            segs.append(word)
            i += 1
            if i < n and toks[i][0] == "::":
                i += 1
                continue
            name = word
            if i + 1 < n and toks[i][1] == "as" and toks[i + 1][0] == "ident":
                name = toks[i + 1][1]
                i += 2
            if word == "self":  # `a::{self}` binds `a`
                segs.pop()
                if name == "self":
                    name = segs[-1] if segs else "self"
            out.append((segs, name, line))
            return i
        if kind == "*":
            out.append((segs, "*", line))
            return i + 1
        if kind == "{":
            i += 1
            while i < n and toks[i][0] != "}":
                if toks[i][0] == ",":
                    i += 1
                    continue
                i += use_tree(toks[i:], segs, out)
            return i + 1
        return i + 1
    return i


# --------------------------------------------------------------------------------------------
# The crate: files, modules, bindings


class Crate:
    def __init__(self, src):
        self.src = src
        self.files = sorted(
            os.path.relpath(os.path.join(d, f), src).replace(os.sep, "/")
            for d, _, fs in os.walk(src)
            for f in fs
            if f.endswith(".rs")
        )
        self.parsed = {}
        for rel in self.files:
            with open(os.path.join(src, rel), encoding="utf-8") as fh:
                self.parsed[rel] = parse_file(fh.read())
        self.module_of = {}  # file -> module path (tuple)
        self.test_file = {}  # file -> bool
        self.modules = {}  # module path -> file
        self.children = {}  # module path -> set of child names
        self._walk("lib.rs" if "lib.rs" in self.parsed else "main.rs", (), False)
        for rel in self.files:  # files no `mod` declares: module path from the file path
            if rel not in self.module_of:
                self._add(rel, derived_module(rel), self.parsed[rel][4])
        self.bindings = {}  # module path -> {name: (ctx, segs)}
        self.globs = {}  # module path -> [(ctx, segs)]
        for rel in self.files:
            base = self.module_of[rel]
            for u in self.parsed[rel][2]:
                ctx = base + u.ctx
                if u.name == "*":
                    self.globs.setdefault(ctx, []).append((ctx, u.segs))
                else:
                    self.bindings.setdefault(ctx, {})[u.name] = (ctx, u.segs)

    def _add(self, rel, mod, test):
        self.module_of[rel] = mod
        self.test_file[rel] = test
        self.modules.setdefault(mod, rel)
        if mod:
            self.children.setdefault(mod[:-1], set()).add(mod[-1])
        inline, _, _, _, _ = self.parsed[rel]
        for ctx, _ in inline:
            self.modules.setdefault(mod + ctx, rel)
            self.children.setdefault((mod + ctx)[:-1], set()).add(ctx[-1])

    def _walk(self, rel, mod, test):
        if rel not in self.parsed or rel in self.module_of:
            return
        self._add(rel, mod, test or self.parsed[rel][4])
        d = os.path.dirname(rel)
        stem = os.path.basename(rel)[:-3]
        own = d if stem in ("lib", "mod", "main") else (f"{d}/{stem}" if d else stem)
        for decl in self.parsed[rel][1]:
            if decl.path is not None:
                base = d if not decl.ctx else own + "/" + "/".join(decl.ctx)
                child = os.path.normpath(os.path.join(base, decl.path)).replace(os.sep, "/")
            else:
                base = "/".join(x for x in [own, *decl.ctx] if x)
                flat = f"{base}/{decl.name}.rs" if base else f"{decl.name}.rs"
                nested = f"{base}/{decl.name}/mod.rs" if base else f"{decl.name}/mod.rs"
                child = flat if flat in self.parsed else nested
            self._walk(child, mod + decl.ctx + (decl.name,), test or decl.test)

    def absolute(self, ctx, segs, seen=()):
        """The absolute module path a written path means, or None when it is not the crate's."""
        if not segs:
            return None
        head = segs[0]
        if head == "crate":
            return tuple(segs[1:])
        if head in ("super", "self"):
            base = list(ctx)
            k = 0
            while k < len(segs) and segs[k] in ("super", "self"):
                if segs[k] == "super":
                    if not base:
                        return None
                    base.pop()
                k += 1
            return tuple(base) + tuple(segs[k:])
        if head in self.children.get(ctx, ()):
            return ctx + tuple(segs)
        b = self.binding(ctx, head, seen)
        if b is None:
            return None
        target = self.absolute(b[0], b[1], seen + ((ctx, head),))
        return None if target is None else target + tuple(segs[1:])

    def binding(self, ctx, name, seen=()):
        """The `use` that binds `name` in module `ctx`, by name or through a glob import of
        the crate's modules (`use super::*`): (module of the `use`, its segments), or None."""
        if (ctx, name) in seen:
            return None
        seen = seen + ((ctx, name),)
        b = self.bindings.get(ctx, {}).get(name)
        if b is not None:
            return b
        for gctx, gsegs in self.globs.get(ctx, ()):
            mod = self.absolute(gctx, gsegs, seen)
            if mod is None or mod not in self.modules:
                continue
            if name in self.children.get(mod, ()):
                return (mod, ["self", name])
            b = self.binding(mod, name, seen)
            if b is not None:
                return b
        return None

    def resolve(self, path, seen=()):
        """(module path defining the item, is_module) for an absolute path."""
        mod = ()
        i = 0
        while i < len(path) and mod + (path[i],) in self.modules:
            mod += (path[i],)
            i += 1
        if i == len(path):
            return mod, True
        name = path[i]
        b = self.binding(mod, name)
        if b is not None and (mod, name) not in seen:
            target = self.absolute(b[0], b[1])
            if target is not None:
                return self.resolve(target + tuple(path[i + 1 :]), seen + ((mod, name),))
        return mod, False

    def file_of(self, mod):
        while mod not in self.modules:
            mod = mod[:-1]
        return self.modules[mod]

    def imports(self):
        """(file, line, written path, target file, test) for every import of the crate."""
        out = []
        for rel in self.files:
            base = self.module_of[rel]
            _, _, uses, paths, _ = self.parsed[rel]
            test_file = self.test_file[rel]
            for u in uses:
                if u.name == "*":
                    target = self.absolute(base + u.ctx, u.segs)
                    if target is None:
                        continue
                    mod, _ = self.resolve(target)
                else:
                    target = self.absolute(base + u.ctx, u.segs)
                    if target is None:
                        continue
                    mod, is_module = self.resolve(target)
                    if is_module:
                        continue  # a module brought into scope: its uses in code count
                written = "::".join(u.segs) + ("::*" if u.name == "*" else "")
                out.append((rel, u.line, written, self.file_of(mod), test_file or u.test))
            for p in paths:
                ctx = base + p.ctx
                head = p.segs[0]
                if head not in STARTS and head not in self.children.get(ctx, ()):
                    b = self.binding(ctx, head)
                    if b is None:
                        continue  # a type, an enum, another crate: not a module of ours
                    target = self.absolute(b[0], b[1])
                    if target is None or not self.resolve(target)[1]:
                        continue  # an item, not a module: its `use` is the edge
                target = self.absolute(ctx, p.segs)
                if target is None:
                    continue
                mod, _ = self.resolve(target)
                written = "::".join(p.segs)
                out.append((rel, p.line, written, self.file_of(mod), test_file or p.test))
        return out


def derived_module(rel):
    parts = rel[:-3].split("/")
    if parts[-1] in ("mod", "lib", "main"):
        parts.pop()
    return tuple(parts)


# --------------------------------------------------------------------------------------------
# The table


MODULE = r"(?:crate|[a-z_][a-z0-9_]*(?:::[a-z_][a-z0-9_]*)*)"


class TableError(Exception):
    pass


class Table:
    def __init__(self, path):
        self.path = path
        self.src = None
        self.layers = []  # (number, name, description)
        self.entries = {}  # module path -> (layer number, line)
        self.allow_cycles = []  # (set of modules, reason, line)
        self.known_cycles = []
        self.known_up = []  # (file, target module, reason, line)
        layer = None
        with open(path, encoding="utf-8") as fh:
            for ln, raw in enumerate(fh, 1):
                line = raw.split("#", 1)[0].strip()
                if not line:
                    continue
                word, _, rest = line.partition(" ")
                rest = rest.strip()
                if word == "src":
                    self.src = rest
                elif word == "layer":
                    m = re.fullmatch(r"(\d+)\s+([\w-]+)\s*:\s*(.*)", rest)
                    if not m:
                        raise TableError(f"{path}:{ln}: expected `layer N NAME: what is in it`")
                    layer = int(m.group(1))
                    if self.layers and layer <= self.layers[-1][0]:
                        raise TableError(f"{path}:{ln}: layers must be listed bottom up")
                    self.layers.append((layer, m.group(2), m.group(3)))
                elif word in ("allow-cycle", "known-cycle"):
                    m = re.fullmatch(rf"((?:{MODULE}\s*)+):\s*(\S.*)", rest)
                    mods = m and [parse_module(x) for x in m.group(1).split()]
                    if not mods or len(mods) < 2:
                        raise TableError(f"{path}:{ln}: expected `{word} A B ..: reason`")
                    reason = m.group(2)
                    lst = self.allow_cycles if word == "allow-cycle" else self.known_cycles
                    lst.append((frozenset(mods), reason, ln))
                elif word == "known-up":
                    m = re.fullmatch(rf"(\S+\.rs)\s*->\s*({MODULE})\s*:\s*(\S.*)", rest)
                    if not m:
                        raise TableError(f"{path}:{ln}: expected `known-up FILE -> MODULE: why`")
                    self.known_up.append((m.group(1), parse_module(m.group(2)), m.group(3), ln))
                elif re.fullmatch(MODULE, word) and not rest:
                    if layer is None:
                        raise TableError(f"{path}:{ln}: module `{word}` before any `layer` line")
                    mod = parse_module(word)
                    if mod in self.entries:
                        raise TableError(f"{path}:{ln}: `{word}` is listed twice")
                    self.entries[mod] = (layer, ln)
                else:
                    raise TableError(f"{path}:{ln}: cannot read `{line}`")
        self.names = {n: name for n, name, _ in self.layers}

    def entry_of(self, mod):
        """The table module covering a module path: the longest listed prefix. `crate` (lib.rs)
        covers only itself, so a new top-level module must be listed."""
        for k in range(len(mod), 0, -1):
            if mod[:k] in self.entries:
                return mod[:k]
        return () if mod == () and () in self.entries else None


def parse_module(word):
    return () if word == "crate" else tuple(word.split("::"))


def show(mod):
    return "::".join(mod) if mod else "crate"


# --------------------------------------------------------------------------------------------
# The check


def strongly_connected(graph):
    """Tarjan's algorithm, iterative; components of two or more nodes, each sorted."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    table_path = os.path.join(root, "scripts", "layers.txt")
    src = None
    files = quiet = verbose = False
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("-h", "--help"):
            print(USAGE, end="")
            return 0
        if a in ("--src", "--table"):
            if not args:
                print(f"layers: {a} needs a value\n\n{USAGE}", end="", file=sys.stderr)
                return 2
            v = args.pop(0)
            if a == "--src":
                src = v
            else:
                table_path = v
        elif a == "--files":
            files = True
        elif a == "--quiet":
            quiet = True
        elif a == "--verbose":
            verbose = True
        else:
            print(f"layers: unknown argument `{a}`\n\n{USAGE}", end="", file=sys.stderr)
            return 2
    try:
        table = Table(table_path)
    except (OSError, TableError) as e:
        print(f"layers: {e}", file=sys.stderr)
        return 1
    if src is None:
        if table.src is None:
            print(f"layers: {table_path} has no `src` line; give --src DIR", file=sys.stderr)
            return 2
        src = os.path.join(root, table.src)
    if not os.path.isfile(os.path.join(src, "lib.rs")) and not os.path.isfile(
        os.path.join(src, "main.rs")
    ):
        print(f"layers: {src} holds no lib.rs", file=sys.stderr)
        return 2
    crate = Crate(src)

    def disp(rel):
        """A file as the user can open it: from the current folder, or absolute if outside."""
        path = os.path.join(src, rel)
        shown = os.path.relpath(path)
        return os.path.abspath(path) if shown.startswith("..") else shown

    errors, warnings = [], []
    tp = os.path.relpath(table_path)

    # Every file under a table line.
    unit = {}
    for rel in crate.files:
        e = table.entry_of(crate.module_of[rel])
        if e is None:
            errors.append(
                f"{disp(rel)}: module `{show(crate.module_of[rel])}` is in no layer: add it to {tp}"
                " under the layer it belongs to (a folder's line covers the files in it)"
            )
        else:
            unit[rel] = e
    covered = set(unit.values())
    for mod, (_, ln) in sorted(table.entries.items()):
        if mod not in covered:
            errors.append(f"{tp}:{ln}: `{show(mod)}` matches no file: remove the line")

    if not quiet:
        print_table(table, crate, unit, files)

    # Upward imports.
    graph = {u: set() for u in covered}
    edges = {}  # (from unit, to unit) -> [(file, line, written)]
    used_known = set()
    known = {(f, m): (reason, ln) for f, m, reason, ln in table.known_up}
    for rel, line, written, target, test in crate.imports():
        a, b = unit.get(rel), unit.get(target)
        if a is None or b is None or a == b or test:
            continue
        la, lb = table.entries[a][0], table.entries[b][0]
        if lb <= la:
            graph[a].add(b)
            edges.setdefault((a, b), []).append((rel, line, written))
        else:
            msg = (
                f"{disp(rel)}:{line}: `{written}` points up: `{show(a)}` is layer {la} "
                f"({table.names[la]}), `{show(b)}` is layer {lb} ({table.names[lb]})"
            )
            if (rel, b) in known:
                used_known.add((rel, b))
                warnings.append(f"{msg} (known, {tp}:{known[(rel, b)][1]})")
            else:
                errors.append(msg)
    for (f, m), (_, ln) in sorted(known.items(), key=lambda kv: kv[1][1]):
        if (f, m) not in used_known:
            errors.append(
                f"{tp}:{ln}: known-up `{f} -> {show(m)}` no longer happens: remove the line"
            )

    # Cycles between table modules. Upward imports are left out: every cycle across layers has
    # one, reported above, so what remains are the cycles within a layer.
    used_cycles = set()
    for comp in strongly_connected(graph):
        comp_set = frozenset(comp)
        names = " <-> ".join(show(m) for m in comp)
        closing = []
        for a in comp:
            for b in sorted(graph[a]):
                if b in comp_set:
                    found = edges[(a, b)]
                    shown = found if verbose else found[:1]
                    where = ", ".join(f"{disp(f)}:{ln} `{w}`" for f, ln, w in shown)
                    more = f" and {len(found) - 1} more" if len(found) > len(shown) else ""
                    closing.append(f"{show(a)} -> {show(b)}: {where}{more}")
        detail = "".join(f"\n    {c}" for c in closing)
        ok = None
        for kind, lst in (("allowed", table.allow_cycles), ("known", table.known_cycles)):
            for mods, _, ln in lst:
                if comp_set <= mods:
                    ok = (kind, ln)
                    break
            if ok:
                break
        if ok is None:
            errors.append(
                f"import cycle {names}: break it, or list it in {tp} with a reason:{detail}"
            )
        else:
            used_cycles.add(ok[1])
            if ok[0] == "known":
                warnings.append(f"import cycle {names} (known, {tp}:{ok[1]}):{detail}")
    for mods, _, ln in table.allow_cycles + table.known_cycles:
        if ln not in used_cycles:
            listed = " ".join(sorted(show(m) for m in mods))
            errors.append(f"{tp}:{ln}: no cycle among `{listed}` any more: remove the line")

    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    sys.stderr.flush()
    if errors:
        print(f"layers: {len(errors)} violation(s)")
        return 1
    known_note = f" ({len(warnings)} known violation(s) to remove)" if warnings else ""
    print(f"layers: ok{known_note}")
    return 0


def print_table(table, crate, unit, files):
    by_unit = {}
    for rel, u in unit.items():
        by_unit.setdefault(u, []).append(rel)
    for n, name, what in table.layers:
        print(f"layer {n} {name}: {what}")
        for mod, (layer, _) in table.entries.items():
            if layer != n:
                continue
            rels = sorted(by_unit.get(mod, []))
            if files:
                for rel in rels:
                    test = "  (test)" if crate.test_file[rel] else ""
                    print(f"  {show(crate.module_of[rel]):<24} {rel}{test}")
                continue
            shown = rels[0] if len(rels) == 1 else f"{len(rels)} files"
            print(f"  {show(mod):<24} {shown}")
    sys.stdout.flush()


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:  # `scripts/layers.sh | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
