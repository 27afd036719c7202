"""Per-file facts of the summary builder (``deadinit.semantics.summary``), on the ``ast`` adapter's tree."""

import pickle

from deadinit.frontends.parse import FileError, summarize_source
from deadinit.model.settings import Settings


def summarize(src: str, module: str = "pkg.m"):
    s = summarize_source(src.encode(), "m.py", module, False, Settings())
    assert not isinstance(s, FileError), s
    return s


def init_of(s, cls):
    return next(c for c in s.classes if c.name == cls).methods["__init__"].init_flow


def test_imports_aliases_and_relative():
    s = summarize("import torch\nimport a.b as m\nfrom ..x import Y as Z\nfrom . import sib\n")
    got = {(i.local, i.module, i.name, i.level) for i in s.imports}
    assert ("torch", "torch", None, 0) in got
    assert ("m", "a.b", None, 0) in got
    assert ("Z", "x", "Y", 2) in got
    assert ("sib", "", "sib", 1) in got


def test_tensor_cached_buffer_and_global_singleton():
    s = summarize("""
import torch
from buffers import get_buffer
_ws = None
class P:
    def __init__(self, dev):
        global _ws
        if _ws is None:
            _ws = torch.zeros(1024, dtype=torch.uint8)
        self.a = _ws
        ws = get_buffer("k", lambda: torch.empty(16, dtype=torch.int32, device=dev))
        self.b = ws
        self.c = torch.arange(0, 9).to(dev)
        self.d = [torch.ones(4) for _ in range(3)]
        self.e = []
        for _ in range(2):
            self.e.append(DecodeWrapper(self.b))
""")
    flow = {st.attr: st for st in init_of(s, "P") if st.kind in ("assign", "fill")}
    assert flow["a"].alloc.kind == "global-singleton"
    assert flow["b"].alloc.kind == "cached-buffer" and flow["b"].alloc.element.kind == "tensor"
    assert flow["c"].alloc.kind == "tensor" and flow["c"].alloc.callee == "torch.arange"
    assert flow["d"].alloc.kind == "container" and flow["d"].alloc.count == ("const", 3)
    fill = next(st for st in init_of(s, "P") if st.kind == "fill")
    assert fill.attr == "e" and fill.alloc.kind == "wrapper" and fill.in_loop and fill.reads == ("b",)


def test_conditions_and_both_branch_kill():
    s = summarize("""
class P:
    def __init__(self, skip=False, buf=None):
        if not skip:
            self.x = Runner()
        if buf is None:
            self.y = 1
        else:
            self.y = buf
        if skip:
            return
        self.z = 2
""")
    flow = init_of(s, "P")
    x = next(st for st in flow if st.attr == "x")
    assert x.guards == (("not", ("name", "skip")),)
    assert any(st.kind == "kill" and st.attr == "y" and st.guards == () for st in flow)
    z = next(st for st in flow if st.attr == "z")
    assert z.after_return


def test_super_init_arguments():
    s = summarize("""
class C(P):
    def __init__(self, r, flag):
        super().__init__(r, True, buf=None, n=3)
""")
    sup = next(st for st in init_of(s, "C") if st.kind == "super_init")
    assert sup.target == "super"
    assert sup.args == (("name", "r"), ("const", True))
    assert dict(sup.kwargs) == {"buf": ("const", None), "n": ("const", 3)}


def test_reads_dynamic_and_external_accesses():
    s = summarize("""
class C(P):
    def m(self, other: "Foo", k):
        a = self.x
        getattr(self, "lit")
        getattr(self, k)
        self.helper()
        return other.y + super().z()
""")
    m = s.classes[0].methods["m"]
    reads = {r[0] for r in m.reads}
    assert {"x", "lit", "helper"} <= reads
    assert m.super_calls == [("z", None)]
    assert any("computed" in d[0] for d in m.dynamic)
    acc = next(a for a in s.accesses if a.attr == "y")
    assert acc.receiver == "other" and acc.types[0].dotted == "Foo" and acc.param == (0, "other")


def test_summary_is_picklable_and_has_no_cst_nodes():
    s = summarize("import torch\nclass P:\n    def __init__(self):\n        self.a = torch.empty(3)\n")
    blob = pickle.dumps(s)
    assert b"libcst" not in blob


def test_bad_source_is_one_error_line():
    err = summarize_source(b"def f(:\n", "bad.py", "bad", False, Settings())
    assert isinstance(err, FileError) and "bad.py" in str(err) and "\n" not in str(err)
    err = summarize_source(b"\xff\xfe\x00bad", "bin.py", "bin", False, Settings())
    assert isinstance(err, FileError)


def test_suppression_comments():
    s = summarize("x = 1  # deadinit: ignore[DI002]\ny = 2  # deadinit: ignore\n")
    assert s.suppressions == {1: frozenset({"DI002"}), 2: None}
