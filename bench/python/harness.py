#!/usr/bin/env python3
"""The Python harness of `xwire bench`.

Reads one JSON request on standard input and writes one JSON line per result on standard output
(protocol: crates/xwire-bench/src/peers/external.rs); `--probe` lists the peers available here.

Every run returns the checksum of the bench crate's peers module: elements + attributes
(namespace declarations excluded) + UTF-8 bytes of character data inside the root element; `bind`
returns the items' sum of the bind peers instead (items + quantities + UTF-8 bytes of product
names, over every order).
"""

import ctypes
import gc
import hashlib
import importlib
import io
import json
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import tracemalloc

XMLNS = "{http://www.w3.org/2000/xmlns/}"


def utf8(s):
    return len(s.encode("utf-8")) if s else 0


# --- lxml ----------------------------------------------------------------------------------------


def lxml_available():
    try:
        from lxml import etree

        return "lxml " + ".".join(map(str, etree.LXML_VERSION[:3])) + ", libxml2 " + ".".join(
            map(str, etree.LIBXML_VERSION)
        )
    except ImportError:
        return None


def lxml_walk(root):
    """Elements, attributes and text below `root` (an lxml element), names and values read."""
    total = 0
    touched = 0
    for node in root.iter():
        if node is not root:
            total += utf8(node.tail)
        tag = node.tag
        if isinstance(tag, str):  # an element, not a comment, PI or entity
            touched += len(tag)
            attrib = node.attrib
            total += 1 + len(attrib)
            for k, v in attrib.items():
                touched += len(k) + len(v)
            total += utf8(node.text)
    return total, touched


class Lxml:
    def __init__(self, op, schema):
        from lxml import etree

        self.etree = etree
        self.op = op
        self.parser = etree.XMLParser(huge_tree=True)
        if op == "validate":
            if schema is None:
                raise ValueError("validate needs a schema")
            xsd = etree.XMLSchema(etree.parse(schema))
            self.parser = etree.XMLParser(huge_tree=True, schema=xsd)
        self.keep = None

    def run(self, doc):
        etree = self.etree
        if self.op == "parse":
            return self.pull(doc)
        self.keep = None
        root = etree.fromstring(doc, self.parser)
        self.keep = root
        total, touched = lxml_walk(root)
        if self.op == "reserialize":
            touched += len(etree.tostring(root.getroottree()))
        return total

    def pull(self, doc):
        """Pull parse with iterparse: every start and end event; elements freed as they end."""
        total = 0
        touched = 0
        depth = 0
        for event, el in self.etree.iterparse(io.BytesIO(doc), events=("start", "end"), huge_tree=True):
            if event == "start":
                depth += 1
                attrib = el.attrib
                total += 1 + len(attrib)
                touched += len(el.tag)
                for v in attrib.values():
                    touched += len(v)
            else:
                depth -= 1
                total += utf8(el.text)
                for child in el:
                    total += utf8(child.tail)
                del el[:]
        return total


# The five XPath-and-edit pipelines of the bench crate (`Op::Pipeline`), by operation name.
PIPELINES = {
    "pipeline1": "/*/*/*[position() mod 2 = 0]",
    "pipeline2": "/purchaseOrder/items/item[USPrice<100]",
    "pipeline3": "/*/*/*/quantity/text()",
    "pipeline4": "//item/comment",
    "pipeline5": "//item/comment/../quantity",
}


def pipeline_checksum(selected, elements):
    """The bench crate's `pipeline_checksum`: nodes selected, elements left."""
    return selected + elements * 1000003


class LxmlPipeline:
    """Parse, evaluate an `etree.XPath` compiled once, delete what it selects (an element with
    its subtree; a text node by clearing the `text` or `tail` that holds it), `tostring`."""

    def __init__(self, op, schema):
        from lxml import etree

        self.etree = etree
        self.parser = etree.XMLParser(huge_tree=True)
        self.xpath = etree.XPath(PIPELINES[op])
        self.keep = None
        self.last = None

    def run(self, doc):
        etree = self.etree
        self.keep = None
        root = etree.fromstring(doc, self.parser)
        self.keep = root
        selected = self.xpath(root)
        for node in reversed(selected):
            if isinstance(node, str):  # a text node: lxml's smart string knows its holder
                holder = node.getparent()
                if node.is_tail:
                    holder.tail = None
                else:
                    holder.text = None
                continue
            parent = node.getparent()
            if parent is None:
                continue
            # lxml's remove() drops the element's tail (the text node after it): keep it.
            if node.tail:
                prev = node.getprevious()
                if prev is not None:
                    prev.tail = (prev.tail or "") + node.tail
                else:
                    parent.text = (parent.text or "") + node.tail
            parent.remove(node)
        elements = sum(1 for _ in root.iter(etree.Element))
        out = etree.tostring(root.getroottree())
        if not out:
            raise RuntimeError("empty output")
        self.last = out
        return pipeline_checksum(len(selected), elements)

    def output(self):
        return self.last


def lxml_runner(op, schema):
    return LxmlPipeline(op, schema) if op in PIPELINES else Lxml(op, schema)


# --- xmlschema -----------------------------------------------------------------------------------


def xmlschema_available():
    try:
        import xmlschema

        return "xmlschema " + xmlschema.__version__
    except ImportError:
        return None


def et_walk(root):
    total = 0
    touched = 0
    for node in root.iter():
        if node is not root:
            total += utf8(node.tail)
        touched += len(node.tag)
        attrib = node.attrib
        total += 1 + len(attrib)
        for v in attrib.values():
            touched += len(v)
        total += utf8(node.text)
    return total, touched


class XmlSchema:
    """validate: parse into an XMLResource, validate, walk. tree: the same without validating
    (the non-validating parse the report shows beside xmlschema's validate)."""

    def __init__(self, op, schema):
        import xmlschema
        from xml.etree import ElementTree

        self.et = ElementTree
        self.xmlschema = xmlschema
        self.schema = None
        if op == "validate":
            if schema is None:
                raise ValueError("validate needs a schema")
            self.schema = xmlschema.XMLSchema(schema)
        self.keep = None

    def run(self, doc):
        self.keep = None
        # An XMLResource parses the bytes itself and keeps the namespace declarations, which
        # QName values such as xsi:type="ipo:USAddress" need; a bare ElementTree loses them.
        res = self.xmlschema.XMLResource(doc)
        self.keep = res
        if self.schema is not None:
            self.schema.validate(res)
        return et_walk(res.root)[0]


# --- the standard library's expat ----------------------------------------------------------------


def expat_available():
    try:
        import pyexpat

        v = pyexpat.version_info
        return "%d.%d.%d (Python %s)" % (v[0], v[1], v[2], platform.python_version())
    except ImportError:
        return None


class Expat:
    def __init__(self, op, schema):
        from xml.parsers import expat

        self.expat = expat
        self.keep = None

    def run(self, doc):
        p = self.expat.ParserCreate(namespace_separator=" ")
        p.buffer_text = True
        state = [0, 0, 0]  # total, depth, touched

        def start(name, attrs):
            state[0] += 1 + len(attrs)
            state[1] += 1
            state[2] += len(name)
            for v in attrs.values():
                state[2] += len(v)

        def end(name):
            state[1] -= 1

        def chars(data):
            if state[1] > 0:
                state[0] += utf8(data)

        p.StartElementHandler = start
        p.EndElementHandler = end
        p.CharacterDataHandler = chars
        p.Parse(doc, True)
        return state[0]


# --- xsdata --------------------------------------------------------------------------------------


def _scripts_path():
    """PATH with this interpreter's scripts directory first: `xsdata generate` runs `ruff`, which
    pip installs there."""
    return os.pathsep.join([sysconfig.get_path("scripts"), os.environ.get("PATH", "")])


def xsdata_available():
    try:
        from importlib.metadata import version

        import xsdata.cli  # noqa: F401 (the [cli] extra: click, jinja2, toposort)
        from xsdata.formats.dataclass.parsers import XmlParser  # noqa: F401

        if shutil.which("ruff", path=_scripts_path()) is None:
            return None
        return "xsdata " + version("xsdata")
    except ImportError:
        return None


def orders_sum(orders):
    """The bind checksum (compiled.rs's `items_sum`) over generated purchase order objects."""
    total = 0
    for order in orders:
        if order.items is None:  # optional in ipo.xsd
            continue
        for item in order.items.item:
            total += 1 + item.quantity + len(item.product_name.encode("utf-8"))
    return total


# The schemas bind runs on (by file name, as the Rust bind peers choose theirs): the root element
# whose generated class the documents are parsed into, and the checksum over its object.
XSDATA_SCHEMAS = {
    "po.xsd": ("purchaseOrder", lambda o: orders_sum([o])),
    "ipo.xsd": ("{http://www.example.com/IPO}purchaseOrder", lambda o: orders_sum([o])),
    "purchase-orders.xsd": (
        "{http://www.example.com/PO1}purchaseOrders",
        lambda o: orders_sum(o.purchase_order),
    ),
}

# Generated packages by schema key, once per harness process (throughput prepares one runner per
# thread).
_xsdata_packages = {}


def xsdata_cache():
    """Where generated packages are kept between harness runs: `xsdata/` in Cargo's target
    directory (CARGO_TARGET_DIR, else the repository's target/), or a private temporary directory
    for this process when that cannot be written."""
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "target"
    )
    cache = os.path.join(os.path.abspath(target), "xsdata")
    try:
        os.makedirs(cache, exist_ok=True)
        probe = tempfile.mkdtemp(dir=cache)
        os.rmdir(probe)
    except OSError:
        cache = tempfile.mkdtemp(prefix="xwire-xsdata-")
    return cache


def xsdata_package(schema):
    """The package `xsdata generate` writes for `schema`, imported: generated once per schema
    content and xsdata version (the key names the package), then reused from the cache. Called
    before timing."""
    from importlib.metadata import version

    with open(schema, "rb") as f:
        content = f.read()
    key = hashlib.sha256(version("xsdata").encode() + b"\0" + content).hexdigest()[:16]
    if key in _xsdata_packages:
        return _xsdata_packages[key]
    name = "xw_xsdata_" + key
    cache = xsdata_cache()
    if not os.path.isdir(os.path.join(cache, name)):
        # Generated in a scratch directory and renamed into place, so a concurrent harness never
        # imports a half-written package (the loser of a race drops its copy).
        work = tempfile.mkdtemp(dir=cache)
        try:
            env = dict(os.environ, PATH=_scripts_path())
            done = subprocess.run(
                [sys.executable, "-m", "xsdata", "generate", os.path.abspath(schema), "-p", name],
                cwd=work, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
            )
            if done.returncode != 0 or not os.path.isdir(os.path.join(work, name)):
                tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
                raise RuntimeError("xsdata generate %s failed: %s" % (schema, " / ".join(tail)))
            try:
                os.rename(os.path.join(work, name), os.path.join(cache, name))
            except OSError:
                if not os.path.isdir(os.path.join(cache, name)):
                    raise
        finally:
            shutil.rmtree(work, ignore_errors=True)
    if cache not in sys.path:
        sys.path.insert(0, cache)
    package = importlib.import_module(name)
    _xsdata_packages[key] = package
    return package


class Xsdata:
    """bind: the dataclasses `xsdata generate` writes for the workload's schema (generated before
    timing, see `xsdata_package`); each run parses the bytes with one reused `XmlParser` into the
    root element's class and sums the items.

    The handler is `XmlEventHandler` (xml.etree's iterparse over expat), not the default
    `LxmlEventHandler`: that one runs lxml's iterparse with recover=True, which accepts mismatched
    end tags, unclosed elements and content after the root; on these workloads the two are within
    about 10% of each other, neither faster on all of them. The parser config is xsdata's strictest
    stock one: unknown attributes and values that do not convert to their field's type are errors
    (by default the first are skipped and the second only warn, keeping the text)."""

    def __init__(self, op, schema):
        if op != "bind":
            raise ValueError("xsdata cannot do %s" % op)
        if schema is None:
            raise ValueError("bind needs a schema")
        spec = XSDATA_SCHEMAS.get(os.path.basename(schema))
        if spec is None:
            raise Unsupported(
                "xsdata: bind's checksum is defined on the purchase order schemas only (%s)"
                % ", ".join(sorted(XSDATA_SCHEMAS))
            )
        root, self.checksum = spec
        from dataclasses import is_dataclass

        from xsdata.formats.dataclass.context import XmlContext
        from xsdata.formats.dataclass.parsers import XmlParser
        from xsdata.formats.dataclass.parsers.config import ParserConfig
        from xsdata.formats.dataclass.parsers.handlers import XmlEventHandler

        package = xsdata_package(schema)
        context = XmlContext()
        classes = [getattr(package, n) for n in package.__all__]
        found = [c for c in classes if is_dataclass(c) and context.build(c).qname == root]
        if len(found) != 1:
            raise RuntimeError("xsdata generated %d classes for the root %s" % (len(found), root))
        self.root = found[0]
        config = ParserConfig(fail_on_unknown_attributes=True, fail_on_converter_warnings=True)
        self.parser = XmlParser(config=config, context=context, handler=XmlEventHandler)
        self.keep = None

    def run(self, doc):
        self.keep = None
        obj = self.parser.from_bytes(doc, self.root)
        self.keep = obj
        return self.checksum(obj)


PEERS = {
    "lxml": (
        ["parse", "tree", "reserialize", "validate"] + sorted(PIPELINES),
        "libxml2 through lxml: well-formedness, namespaces, internal DTD; XML Schema 1.0 (libxml2); "
        "pipelines: etree.XPath compiled once, remove (tails kept), tostring",
        lxml_available,
        lxml_runner,
    ),
    "xmlschema": (
        ["tree", "validate"],
        "XML Schema 1.0 in pure Python (xmlschema), on an xml.etree tree; tree: the same "
        "XMLResource parse and walk without validation",
        xmlschema_available,
        XmlSchema,
    ),
    "python-expat": (
        ["push"],
        "the standard library's expat binding, namespace processing, callbacks in Python",
        expat_available,
        Expat,
    ),
    "xsdata": (
        ["bind"],
        "xsdata's generated dataclasses, XmlParser with XmlEventHandler (expat: well-formedness, "
        "namespaces); element and attribute names, required fields, values that convert to their "
        "Python type, enumerations, fixed values, xsi:type; not facets, order, text in "
        "element-only content, or the root's name",
        xsdata_available,
        Xsdata,
    ),
}


def prepare(peer, op, schema):
    if peer not in PEERS:
        raise ValueError("unknown peer '%s'" % peer)
    ops, _, _, cls = PEERS[peer]
    if op not in ops:
        raise ValueError("%s cannot do %s" % (peer, op))
    return cls(op, schema)


class Unsupported(Exception):
    """A peer has nothing for this workload (a bind peer and a schema it has no types or
    checksum for): the result says so with the reason, and the driver shows the cell as
    unsupported, not failed."""


# --- peak memory ---------------------------------------------------------------------------------


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _malloc_in_use():
    """Bytes in use in C malloc (glibc's mallinfo2), or None."""
    try:
        libc = ctypes.CDLL(None)
        f = libc.mallinfo2
        f.restype = _Mallinfo2
        m = f()
        return m.uordblks + m.hblkhd
    except (OSError, AttributeError):
        return None


def peak(run, doc):
    """Best-effort memory of one run: the peak of Python allocations during it (tracemalloc)
    plus what the run left allocated in C malloc (libxml2's tree, glibc's mallinfo2) while its
    result is still reachable. None when neither can be measured."""
    try:
        gc.collect()
        c0 = _malloc_in_use()
        tracemalloc.start()
        try:
            run.run(doc)
            _, py_peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        c1 = _malloc_in_use()
        run.keep = None
        c = max(0, c1 - c0) if c0 is not None and c1 is not None else 0
        return py_peak + c
    except Exception:
        return None


# --- requests ------------------------------------------------------------------------------------


def describe(e):
    return "%s: %s" % (type(e).__name__, str(e).strip()) if str(e).strip() else type(e).__name__


def measure(peer, t):
    r = {"id": t["id"], "median_s": None, "min_s": None, "runs": 0, "checksum": None,
         "peak_bytes": None, "error": None, "unsupported": None}
    try:
        run = prepare(peer, t["op"], t.get("schema"))
        with open(t["file"], "rb") as f:
            doc = f.read()
        copies = max(1, int(t.get("copies") or 1))
        # bytes(bytearray(...)) makes a real copy (slicing a whole bytes object does not).
        docs = [doc] + [bytes(bytearray(doc)) for _ in range(copies - 1)]
        warmup = float(t.get("warmup_s") or 0)
        min_runs = max(1, int(t.get("min_runs") or 1))
        max_runs = max(min_runs, int(t.get("max_runs") or min_runs))
        budget = float(t.get("budget_s") or 0)
        clock = time.perf_counter
        k = 0
        checksum = run.run(docs[0])
        k = 1
        w0 = clock()
        while clock() - w0 < warmup:
            c = run.run(docs[k % copies])
            k += 1
            if c != checksum:
                raise RuntimeError("checksum changed between runs: %d, %d" % (checksum, c))
        times = []
        start = clock()
        while len(times) < max_runs and (len(times) < min_runs or clock() - start < budget):
            d = docs[k % copies]
            k += 1
            t0 = clock()
            run.run(d)
            times.append(clock() - t0)
        run.keep = None
        times.sort()
        n = len(times)
        median = times[n // 2] if n % 2 else (times[n // 2 - 1] + times[n // 2]) / 2
        r.update(median_s=median, min_s=times[0], runs=n, checksum=checksum,
                 peak_bytes=peak(run, docs[0]))
        # Tests: the output of a run (pipelines), to check that it is well-formed.
        if t.get("output") and hasattr(run, "output"):
            run.run(docs[0])
            with open(t["output"], "wb") as f:
                f.write(run.output())
    except Unsupported as e:  # nothing prepared for this workload: not a failure
        r["unsupported"] = str(e)
    except Exception as e:  # the processor's error, reported per task
        r["error"] = describe(e)
    return r


def throughput(peer, req):
    r = {"tps": 0.0, "mean_s": 0.0, "per_file_s": [], "error": None}
    try:
        files = []
        for name in req["files"]:
            with open(name, "rb") as f:
                files.append(f.read())
        nf = len(files)
        if nf == 0:
            raise ValueError("no files")
        threads = max(1, int(req.get("threads") or 1))
        # One runner per worker, made before the clock starts: making one may import its
        # package (xmlschema takes most of a second), which is not part of the ramp-up.
        runs = [prepare(peer, req["op"], None) for _ in range(threads)]
        steady = float(req["steady_s"])
        clock = time.perf_counter
        steady_from = clock() + float(req["ramp_up_s"])
        steady_to = steady_from + steady
        end = steady_to + float(req["ramp_down_s"])
        counts = [[0] * nf for _ in range(threads)]
        secs = [[0.0] * nf for _ in range(threads)]
        failures = []

        def worker(w):
            try:
                run = runs[w]
                k = w
                while not failures:
                    i = k % nf
                    k += 1
                    t0 = clock()
                    if t0 >= end:
                        return
                    run.run(files[i])
                    t1 = clock()
                    if t0 >= steady_from and t1 <= steady_to:
                        counts[w][i] += 1
                        secs[w][i] += t1 - t0
            except Exception as e:
                failures.append(e)

        workers = [threading.Thread(target=worker, args=(w,)) for w in range(threads)]
        for th in workers:
            th.start()
        for th in workers:
            th.join()
        if failures:
            raise failures[0]
        per_file = []
        count = 0
        total = 0.0
        for i in range(nf):
            c = sum(counts[w][i] for w in range(threads))
            s = sum(secs[w][i] for w in range(threads))
            count += c
            total += s
            # JSON has no NaN: a file never completed in the steady state reports 0.
            per_file.append(s / c if c else 0.0)
        if count == 0:
            raise RuntimeError("no document completed within the steady state")
        r.update(tps=count / steady, mean_s=total / count, per_file_s=per_file)
    except Exception as e:
        r["error"] = describe(e)
    return r


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--probe":
        for name, (ops, checks, available, _) in PEERS.items():
            version = available()
            if version is not None:
                emit({"peer": name, "ops": ops, "checks": checks, "version": version})
        return 0
    req = json.load(sys.stdin)
    kind = req.get("kind")
    peer = req.get("peer")
    if kind == "measure":
        for t in req["tasks"]:
            emit(measure(peer, t))
    elif kind == "throughput":
        emit(throughput(peer, req["run"]))
    else:
        sys.stderr.write("unknown request kind '%s'\n" % kind)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
