"""The prefilter never changes findings: summaries equal libcst's, findings identical."""

import dataclasses

import pytest
from corpus_paths import FIXTURES, sglang_tree

from deadinit.api.check import run_check
from deadinit.frontends import lean, prefilter
from deadinit.index.discovery import discover
from deadinit.model.settings import Settings
from deadinit.runtime.summarizer import ProjectSummarizer

# Functions the ast pass must read exactly like the libcst visitor.
TRICKY = """
import os.path
from typing import Optional
import torch
from pkg import base as b

def typed(x: "b.Base", y: Optional[b.Base], z: int | None = None, *a: b.Base, k: b.Base = None, **kw):
    import os.path as osp, pkg.base
    from pkg.base import Base
    from . sub . mod import thing
    w = b.Base()
    v = make()
    if isinstance(v, (b.Base, pkg.base.Base)) and issubclass(w, b.Base):
        v.ws, w.ws, y.ws, z.ws, a.ws, k.ws, kw.ws
    d = {x.ws: y.ws, **kw.ws}
    t = x.ws if y.ws else z.ws
    f = lambda q, r=w.ws: q.ws + r
    s = f"{x.ws} {y.ws!r:>{z.ws}}"
    x.ws = y.ws
    (x.ws, [y.ws, *z.ws]) = 1, 2
    x.ws += 1
    del y.ws
    for x.ws in z.ws:
        pass
    with open(p) as (x.ws):
        pass
    super().ws
    None.__class__, (w).ws, (w.ws).ws, w.ws.ws.ws, b.Base(x, k=x)(w).ws
    def inner(p: b.Base, x=x.ws):
        q = Other()
        return p.ws, q.ws, w.ws, x.ws, v.ws
    match w.ws:
        case b.Base.X | pkg.base.Y:
            pass
        case {b.K: _, "k": c.ws}:
            pass
        case b.Base(ws=1):
            pass
    return [q.ws for q in x.ws if q.ws], {k.ws: v.ws for k, v in x.ws}, (g.ws for g in ())

@b.deco(x.ws)
async def decorated(self, other: "Lone") -> b.Base:
    await other.ws
    Lone(self, other, key=self)(*self, **self)

class Lone:
    a: b.Base
    b: "Optional[b.Base]" = None
    if True:
        c: b.Base
    def __init__(self, runner: b.Base, n=3):
        self.runner = runner
        self.made = b.Base()
        self.none = None
        self.other: b.Base = runner
        self.unknown = runner.ws
        self.tup, self.x = 1, 2
        runner.ws, self.runner.ws
    @staticmethod
    def s(self):
        return self.ws
    @classmethod
    def c(cls):
        import pkg.base
        return cls.ws, cls.x.ws
    def m(me, other: "Lone"):
        def nested():
            me.x.ws
            return me.ws
        me.z = Lone(me)
        return other.ws, me.runner.ws, nested
"""


def _check_file(tmp_path, source: str, hier=frozenset(), module="pkg.mod"):
    p = tmp_path / "mod.py"
    p.write_text(source)
    data = p.read_bytes()
    full = lean.summarize_source(data, str(p), module, False, Settings())
    pre = prefilter.summarize(data, str(p), module, False, Settings(), hier)
    for c_pre, c_full in zip(pre.classes, full.classes):
        if c_pre.name not in hier and not c_pre.methods:
            c_full.methods = {}  # the documented difference: classes outside hierarchies keep no methods
    for f in dataclasses.fields(full):
        assert getattr(pre, f.name) == getattr(full, f.name), f.name
    return pre


def _blanked(source: str, hier=frozenset()) -> int:
    data = source.encode()
    tree = prefilter.ast.parse(data)
    return len(prefilter._plan(prefilter.fastfacts.Source(data), tree, hier, "pkg.mod")[0])


def test_tricky_functions_are_read_like_the_visitor_reads_them(tmp_path, monkeypatch):
    monkeypatch.setenv("DEADINIT_PREFILTER_STRICT", "1")
    assert _blanked(TRICKY) == 6  # two functions, four methods: none left to libcst
    pre = _check_file(tmp_path, TRICKY)
    assert any(a.types for a in pre.accesses) and pre.constructs and pre.isinstance_checks
    assert pre.classes[0].attr_types and pre.classes[0].attr_declared and not pre.classes[0].methods


def test_classes_in_hierarchies_keep_their_methods(tmp_path, monkeypatch):
    monkeypatch.setenv("DEADINIT_PREFILTER_STRICT", "1")
    pre = _check_file(tmp_path, TRICKY, hier=frozenset({"Lone"}))
    assert set(pre.classes[0].methods) == {"__init__", "s", "c", "m"}


def test_what_ast_cannot_mirror_stays_with_libcst(tmp_path):
    src = "def f(x):\n    class Local(Base):\n        pass\n    return f'''{\nx.ws}'''\n\ndef g(y):\n    return y.ws\n"
    pre = _check_file(tmp_path, src)
    assert [c.name for c in pre.classes] == ["Local"] and _blanked(src) == 1
    for bad in (b"\xef\xbb\xbfdef f(x):\n    return x.y\n", b"def f(x):\r    return x.y\r", b"def f(:\n"):
        (tmp_path / "b.py").write_bytes(bad)
        args = (bad, str(tmp_path / "b.py"), "b", False, Settings())
        assert prefilter.summarize(*args, frozenset()) == lean.summarize_source(*args)


def test_scan_finds_classes_bases_and_aliases():
    s = prefilter.scan(
        b'class A(B, m.C, metaclass=M):\n    x = "class Fake(Q)"\n'
        b'class D(\n    E,  # a (comment)\n    G["no)"],\n):\n    pass\nclass\\\n  H: pass\n'
        b"from x import (K as L,\n  N as\n  O)\n"
    )
    assert s.classes[0] == ("A", frozenset({"B", "C"}))  # last names of dotted bases; keywords skipped
    assert ("D", frozenset({"E", "G"})) in s.classes and ("H", frozenset()) in s.classes
    assert ("K", "L") in s.aliases and ("N", "O") in s.aliases


def test_hierarchy_names_follow_bases_and_alias_chains():
    scans = [
        prefilter.scan(b"class Root:\n  pass\nclass Lone(object):\n  pass\nclass Mod(nn.Module):\n  pass\n"),
        prefilter.scan(b"from a import Root as R\nclass Mid(R):\n  pass\n"),
        prefilter.scan(b"from b import Mid as M2\nfrom c import M2 as M3\nclass Leaf(M3):\n  pass\n"),
    ]
    assert prefilter.hierarchy_names(scans) == {"Root", "Mid", "Leaf"}


def test_a_class_the_scan_misses_is_caught_by_the_exact_check_and_kept(write_project):
    root = write_project(
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "class A:\n    def __init__(self):\n        self.ws = 1\n    def run(self):\n        return 1\n",
            # a comment between the name and ``as`` hides the alias from the regular expression
            "pkg/b.py": "from pkg.a import (A  # the base\n    as B)\nclass Leaf(B):\n    pass\n",
        }
    )
    assert "A" not in prefilter.hierarchy_names(prefilter.scan(p.read_bytes()) for p in root.rglob("*.py"))
    s = ProjectSummarizer(jobs=1, use_cache=False)
    out = s([(f.path, f.module, f.is_package) for f in discover([str(root)]).files], Settings())
    a = next(c for o in out for c in o.classes if c.name == "A")
    assert set(a.methods) == {"__init__", "run"} and s.stats["redone"] == 1


def _findings(root, **kw):
    res = run_check([str(root)], Settings(), summarizer=ProjectSummarizer(**kw))
    return (
        [f.to_json() for f in res.findings + res.unsure + res.suppressed],
        res.errors,
        res.files,
        {q: (c.bases, c.base_text) for q, c in res.index.classes.items()},
    )


def test_findings_identical_with_and_without_prefilter_on_the_fixtures(monkeypatch):
    monkeypatch.setenv("DEADINIT_PREFILTER_STRICT", "1")
    assert _findings(FIXTURES, jobs=1, use_cache=False) == _findings(
        FIXTURES, jobs=1, use_cache=False, use_prefilter=False
    )


def test_prefilter_summaries_equal_libcst_ones_on_the_fixtures(tmp_path, monkeypatch):
    monkeypatch.setenv("DEADINIT_PREFILTER_STRICT", "1")
    items = [(f.path, f.module, f.is_package) for f in discover([str(FIXTURES)]).files]
    hier = prefilter.hierarchy_names(prefilter.scan(open(p, "rb").read()) for p, _, _ in items)
    for p, m, k in items:
        data = open(p, "rb").read()
        full = lean.summarize_source(data, p, m, k, Settings())
        pre = prefilter.summarize(data, p, m, k, Settings(), hier)
        for c_pre, c_full in zip(pre.classes, full.classes):
            if c_pre.name not in hier:
                c_full.methods = c_pre.methods
        assert pre == full, p


def _hierarchy_classes_are_kept(root):
    """Every class the index puts in a hierarchy was among the scan's names (so kept whole)."""
    items = [(f.path, f.module, f.is_package) for f in discover([str(root)]).files]
    hier = prefilter.hierarchy_names(prefilter.scan(open(p, "rb").read()) for p, _, _ in items)
    res = run_check([str(root)], Settings(), summarizer=ProjectSummarizer(use_cache=False))
    index = res.index
    in_hierarchy = {q for q in index.classes for b in index.bases(q) if b.kind == "class"}
    in_hierarchy |= {b.name for q in index.classes for b in index.bases(q) if b.kind == "class"}
    missing = {q for q in in_hierarchy if index.classes[q].name not in hier}
    assert not missing
    return len(in_hierarchy)


def test_hierarchy_classes_are_never_blanked_on_the_fixtures():
    assert _hierarchy_classes_are_kept(FIXTURES) > 10


@pytest.mark.corpus
@pytest.mark.slow
def test_findings_identical_with_and_without_prefilter_on_real_code():
    root = sglang_tree() / "srt" / "layers"
    with_pf = _findings(root, use_cache=False)
    assert with_pf[0], "expected findings in sglang's srt/layers"
    assert with_pf == _findings(root, use_cache=False, use_prefilter=False)


@pytest.mark.corpus
@pytest.mark.slow
def test_hierarchy_classes_are_never_blanked_on_real_code():
    assert _hierarchy_classes_are_kept(sglang_tree() / "srt" / "layers") > 100
