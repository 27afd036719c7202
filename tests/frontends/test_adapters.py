"""The two adapters give the same summaries: generated code aside (test_adapter_properties.py),
the tricky constructs here, the fixtures, and every file of a real code base."""

import pytest
from corpus_paths import FIXTURES, sglang_tree

from deadinit.frontends import parse
from deadinit.index.discovery import discover
from deadinit.model.settings import Settings

# Functions, methods and an __init__ the adapters must read alike (positions included).
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
    'doc'
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

class Mixed(*mixins, b.Base, metaclass=Meta, **options):
    pass
"""

INIT_FLOW = """
import torch
from pkg import base as b

class Flow(b.Base):
    def __init__(self, n, flag=False, *args, **kw):
        super().__init__(n, flag=flag)
        super(Flow, self).__init__(*args)
        b.Base.__init__(self, n)
        if flag and (n > 1 or not kw):
            self.ws = torch.empty((n, 4), dtype=torch.uint8)
        elif n is None:
            return
        else:
            self.ws = torch.zeros(n * 2 + 1).cuda()
        x = self.ws
        self.items = []
        for i in range(n):
            self.items.append(torch.ones(i))
            self.items[i] = get_buffer("k", lambda: torch.empty(8))
        while flag:
            self.count += 1
            break
        try:
            self.a, (self.b, *self.c) = x, (1, 2)
        except ValueError as e:
            raise
        finally:
            self.d = {k: v for k, v in kw.items()}
        with open("f") as fh, ctx():
            self.e = fh if x else None
        def helper(q=self.ws):
            return q.y
        global G
        G = torch.empty(4)
        self.f = [torch.empty(1) for _ in range(3)]
        self.g = getattr(self, "ws"), getattr(self, name), vars(self), self.__dict__
        self._modules[name] = x
        self.k = [getattr(self, n) for n in ("ws", "f")]
        assert self.h
        del self.i
        self.runner.update(self, x)
        Updater(self, n)
        match n:
            case 1:
                self.j = 1
"""


# Registered state of an nn.Module (parameters, buffers, modules) and an __all__ list.
REGISTRATION = """
import torch
from torch import nn
from torch.nn import Parameter as P

__all__ = ["Layer", "Scale"]


class Scale(nn.Parameter):
    pass


class Layer(nn.Module):
    def __init__(self, n, table=None):
        super().__init__()
        self.w = nn.Parameter(torch.empty((n, n), dtype=torch.float16))
        self.b = P(data=torch.zeros(n))
        self.s = Scale(torch.ones(1))
        self.register_buffer("cos", torch.empty(n, 2), persistent=False)
        self.register_buffer(name="sin", tensor=torch.empty(n, 2))
        self.register_buffer("table", table)
        self.register_parameter("bias2", nn.Parameter(torch.zeros(n)))
        self.register_parameter("none", None)
        self.register_module("head", nn.Linear(n, n))
        other.register_buffer("x", torch.empty(1))
        self.params = nn.ParameterList([nn.Parameter(torch.empty(1)) for _ in range(n)])
"""

RAISE_GUARDS = """
class Sub(Parent):
    def __init__(self, config, n, mode=None):
        if config.arch.video:
            raise ValueError("no video")
        super().__init__(config, n, mode=mode)
        arch = self.config
        if arch.sound or not self.action:
            raise ValueError
        elif mode is None:
            raise ValueError
        if n > 2:
            pass
        else:
            raise ValueError
        assert not self.extra
        self._validate(n)
        for _ in range(n):
            self._check()

    def _validate(self, n):
        if self.sound or self.config.action:
            logger.warning("no")
            raise ValueError
        if n:
            raise ValueError
        assert self.ready, "not ready"
        self._check()
        if self.late:
            return
        if self.never:
            raise ValueError

    def _check(self):
        if self.a:
            if self.b:
                return
            raise ValueError
"""


def _both(tmp_path, source: bytes):
    p = tmp_path / "mod.py"
    p.write_bytes(source)
    args = (source, str(p), "pkg.mod", False, Settings())
    return parse.summarize_source(*args, adapter="ast"), parse.summarize_source(*args, adapter="cst")


MATCH_PATTERNS = """
import torch
class C(P):
    def __init__(self, x):
        buf = self.helper
        match x:
            case Q(buf=[_, *rest]) as got:
                self.a = torch.empty(1)
            case {"k": 1, **extra}:
                self.b = torch.empty(2)
        obj = C(1)
        obj.a
"""  # the names of a pattern bind or name a keyword: they load nothing (found by the property test)


FLOW_TYPES = """
from typing import List, Optional, Sequence
from torch import nn
class Steps(Base):
    plans: "Optional[List[Plan]]" = None
    loose = [Plan()]
    def __init__(self, n, extra, *more):
        self.metas = [Meta() for _ in range(n)]
        self.layers = nn.ModuleList([Layer(i) for i in range(n)])
        self.views: list[View] | None = []
        self.views.append(View()); self.views += [View(), *more]; self.views[0] = View()
        self.pair, self.rest = (Meta(), Plan()), extra
        self.layers.add_module("x", Layer(0)); self.layers.extend(more)
        alias = self.metas; alias.insert(0, extra)
        for self.cur in more:
            pass
    def run(self, batch: Sequence["View"], *args: Meta, **kw: Meta):
        global seen
        seen = Meta()
        for i, (m, p) in enumerate(zip(self.metas, self.plans)):
            m.a, p.b
        for j, layer in enumerate(reversed(self.layers), start=1):
            layer.c, self.layers[j].d, self.layers[1:][0].e, self.pair[0].f
        [v.g for v in batch if v.h] + [x.i for x in self.schedule.plans]
        cur = self.cur; spec = self.meta.spec; cur.j, spec.k, seen.l
        with open(batch) as cur, ctx() as (a, b):
            (w := Meta()).m
        f = lambda cur, *xs: cur.n
        try:
            pass
        except Error as cur:
            cur.o
        cur += [Meta()]
        other.items.append(cur); other.items[0] = cur; other.items |= {cur}
"""


@pytest.mark.parametrize(
    "source",
    [TRICKY, INIT_FLOW, REGISTRATION, RAISE_GUARDS, MATCH_PATTERNS, FLOW_TYPES],
    ids=["tricky", "init-flow", "registration", "raise-guards", "match-patterns", "flow-types"],
)
def test_tricky_code_is_read_alike(tmp_path, source):
    a, c = _both(tmp_path, source.encode())
    assert a == c
    assert a.accesses and a.constructs and a.classes


def test_registered_state_has_its_own_kinds(tmp_path):
    a, c = _both(tmp_path, REGISTRATION.encode())
    assert a == c and a.exports == ("Layer", "Scale")
    flow = a.classes[-1].methods["__init__"].init_flow
    kinds = {st.attr: st.alloc.kind if st.alloc else None for st in flow if st.kind == "assign"}
    assert kinds == {
        "w": "parameter",
        "b": "parameter",
        "s": "maybe-class",  # a project class: the analysis settles it (parameter-bases)
        "cos": "buffer",
        "sin": "buffer",
        "table": None,
        "bias2": "parameter",
        "none": None,
        "head": "module",
        "params": "container",
    }


@pytest.mark.parametrize(
    "source",
    [
        b"\xef\xbb\xbfdef f(x):\n    return x.y\n",
        b"def f(x):\r    return x.y\r",
        b"def f(x):\r\n    return x.y\r\n",
        "s = 'é'; t = x.y\nclass A(B):\n    def __init__(self):\n        self.z = 'ü' + self.w.v\n".encode(),
        b"# coding: latin-1\nx = '\xe9'; y = a.b\n",
        b"# coding: latin-1\rx = '\xe9'; y = a.b\rclass A:\r    def f(self):\r        return self.c.d\r",
        b"def f(:\n",
        b"x = 1\x00\n",
    ],
    ids=["bom", "cr", "crlf", "utf8-columns", "latin1", "latin1-cr", "syntax-error", "nul"],
)
def test_encodings_line_endings_and_errors_are_read_alike(tmp_path, source):
    a, c = _both(tmp_path, source)
    assert a == c


def _files(root):
    return [(f.path, f.module, f.is_package) for f in discover([str(root)]).files]


def test_fixtures_are_read_alike():
    s = Settings()
    for p, m, k in _files(FIXTURES):
        assert parse.summarize_file(p, m, k, s, "ast") == parse.summarize_file(p, m, k, s, "cst"), p


SHARDS = 4  # libcst reads sglang in ~10 min on one core: the shards run side by side under xdist


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_file_of_sglang_is_read_alike(shard):
    s = Settings()
    for p, m, k in _files(sglang_tree())[shard::SHARDS]:
        assert parse.summarize_file(p, m, k, s, "ast") == parse.summarize_file(p, m, k, s, "cst"), p


def test_raise_guards_are_read_alike(tmp_path):
    a, c = _both(tmp_path, RAISE_GUARDS.encode())
    assert a == c
    methods = a.classes[0].methods
    ensures = [s.ensures for s in methods["__init__"].init_flow or () if s.ensures is not None]
    assert ensures == [
        ("not", ("dotted", "config.arch.video")),
        ("not", ("or", ("dotted", "arch.sound"), ("not", ("self", "action")))),
        ("not", ("is_none", ("name", "mode"))),
        ("cmp", ">", ("name", "n"), ("const", 2)),  # ``n > 2`` with a raising ``else``: holds
    ]
    assert [s.method for s in methods["__init__"].init_flow or () if s.method] == ["_validate", "_check"]
    arch_roots = {r for s in methods["__init__"].init_flow or () for r in s.roots}
    assert ("arch", ("self", "config")) in arch_roots
    assert methods["_validate"].ensures == (
        ("not", ("or", ("self", "sound"), ("dotted", "self.config.action"))),
        ("self", "ready"),
    )
    assert methods["_validate"].calls == ("_check",)
    assert methods["_check"].ensures == ()


NESTED_TUPLE_LOOP = """
class A:
    def __init__(self, arch):
        self._check(arch)

    def _check(self, arch):
        for name, value in (
            ("x", arch.x),
        ):
            self.b = value
        for pair in ((arch.y, arch.z), (1, 2)):
            self.c = pair
"""


def test_a_tuple_whose_first_element_is_a_parenthesized_tuple_starts_at_that_element(tmp_path):
    a, c = _both(tmp_path, NESTED_TUPLE_LOOP.encode())
    assert a == c
    flow = a.classes[0].methods["_check"].init_flow or []
    assert [(st.line, st.col) for st in flow if st.kind == "effect"] == [(8, 12), (11, 21)]
