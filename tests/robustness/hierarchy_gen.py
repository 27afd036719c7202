"""Random small class hierarchies (hypothesis) written as a package that imports a stand-in ``torch``.

A ``Spec`` is plain data; ``render(spec)`` gives ``{relative path: source}``.  What
the generated code does, on purpose, in every combination:

* allocations ``self.a = torch.zeros(n)`` / ``torch.empty(n)`` / ``torch.ScratchWrapper(self.x, ...)``
  (a wrapper holding other allocations), some under ``if not skip_a:`` with a
  ``skip_a=False`` parameter and ``else: self.a = None``;
* subclasses (in the root's module or in later ones, imported relatively) that call
  ``super().__init__(...)``, ``Parent.__init__(self, ...)`` or no parent ``__init__``,
  passing literal ``True``/``False`` flags or forwarding their own parameter, with
  statements before and after that call (overwrites, wrappers reading parent attributes);
* reads through ``self.x``, ``getattr(self, "x")``, ``getattr(self, _NAMES[i])`` (dynamic),
  class-private ``self.__p`` (name mangling), properties, private helpers, public
  methods outside the root's interface, ``super().m()`` and overriding methods;
* ``app.py``: functions reading ``obj.x`` or calling ``obj.m()`` on any instance.

Methods only call methods of a lower rank (helpers < extra methods < interface), so
nothing recurses; allocations a wrapper reads always exist (or are ``None``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

ATTRS = ("a", "b", "c", "d", "__p")
MODULES = ("base", "mod1", "mod2")


@dataclass
class Cls:
    name: str
    parent: int | None
    module: int
    pre: list = field(default_factory=list)  # statements before the parent __init__ call
    call: str = "super"  # super | explicit | none
    args: dict = field(default_factory=dict)  # parent flag -> "True" | "False" | "fwd"
    post: list = field(default_factory=list)
    methods: dict = field(default_factory=dict)  # name -> list of reads
    props: dict = field(default_factory=dict)
    dunder_call: list | None = None

    def flags(self) -> list[str]:
        own = [f"skip_{s[1].strip('_')}" for s in self.pre + self.post if s[0] == "alloc" and s[3]]
        fwd = [f for f, how in self.args.items() if how == "fwd"]
        return sorted(set(own + fwd))


@dataclass
class Spec:
    classes: list[Cls]
    app: list = field(default_factory=list)  # ("attr", name) | ("call", method)
    defaults: bool = True  # the root declares ``a = None`` ... at class level (fewer AttributeErrors)

    def chain(self, i: int) -> list[int]:
        out = []
        while i is not None:
            out.append(i)
            i = self.classes[i].parent
        return out


def _allocs(draw, guardable: bool, lo: int, hi: int) -> list:
    """Allocations of distinct attributes (one ``__init__`` rarely stores one attribute twice)."""
    attrs = draw(st.lists(st.sampled_from(ATTRS), min_size=lo, max_size=hi, unique=True))
    return [_stmt_alloc(draw, guardable, a) for a in attrs]


def _stmt_alloc(draw, guardable: bool, attr: str):
    factory = draw(st.sampled_from(["zeros", "empty"]))
    guard = guardable and draw(st.booleans()) and not attr.startswith("__")
    return ("alloc", attr, factory, guard, draw(st.integers(1, 9)))


def _reads(draw, callable_names: list[str], dynamic: bool = False):
    kinds = ["attr", "attr", "getattr", "attr"] + (["dyn"] if dynamic else []) + (["call"] if callable_names else [])
    out = []
    for _ in range(draw(st.integers(0, 3))):
        k = draw(st.sampled_from(kinds))
        out.append((k, draw(st.sampled_from(callable_names))) if k == "call" else (k, draw(st.sampled_from(ATTRS))))
    return out


@st.composite
def specs(draw, reference_all: bool = False) -> Spec:
    """``reference_all``: ``app.py`` calls every public method (all of them are then entry points)."""
    n = draw(st.integers(2, 5))
    classes: list[Cls] = []
    interface = [f"m{i}" for i in range(draw(st.integers(1, 3)))]
    dynamic = draw(st.integers(0, 4)) == 0  # some examples read through getattr(self, <computed>)
    for i in range(n):
        parent = None if i == 0 else draw(st.integers(0, i - 1))
        module = 0 if i == 0 else draw(st.integers(classes[parent].module, len(MODULES) - 1))
        c = Cls(name="Root" if i == 0 else f"C{i}", parent=parent, module=module)
        if parent is not None:
            c.call = draw(st.sampled_from(["super", "super", "super", "explicit", "none"]))
            for f in classes[parent].flags():
                how = draw(st.sampled_from(["True", "False", "fwd", None]))
                if how:
                    c.args[f] = how
            c.pre = _allocs(draw, False, 0, 1)
        c.post = _allocs(draw, True, 0 if i else 1, 3)
        if draw(st.booleans()):  # a wrapper over attributes this __init__ has certainly set
            have = sorted({s[1] for s in c.post if s[0] == "alloc" and not s[1].startswith("__")})
            if have:
                deps = draw(st.lists(st.sampled_from(have), min_size=1, max_size=2, unique=True))
                c.post.append(("wrap", draw(st.sampled_from(["w", "v"])), deps))
        own_helpers = [f"_h{i}"] if draw(st.booleans()) else []
        extras = [f"x{i}"] if draw(st.booleans()) else []
        for h in own_helpers:
            c.methods[h] = _reads(draw, [])
        inherited = [
            h
            for j in (Spec(classes).chain(parent) if parent is not None else [])
            for h in classes[j].methods
            if h.startswith("_h")
        ]
        helpers = own_helpers + inherited
        for x in extras:
            c.methods[x] = _reads(draw, helpers)
        names = interface if i == 0 else draw(st.lists(st.sampled_from(interface), unique=True, max_size=2))
        for m in names:
            body = _reads(draw, helpers + extras, dynamic)
            if i and draw(st.booleans()):
                body.append(("super", m))
            c.methods[m] = body
        if draw(st.integers(0, 3)) == 0:
            c.props[f"p{i}"] = _reads(draw, helpers)
        if draw(st.integers(0, 4)) == 0:
            c.dunder_call = _reads(draw, helpers + extras)
        classes.append(c)
    extras = [m for c in classes for m in c.methods if m.startswith("x")]
    app = [
        draw(
            st.sampled_from(
                [("attr", a) for a in ATTRS if not a.startswith("__")] + [("call", m) for m in extras or interface]
            )
        )
        for _ in range(draw(st.integers(0, 2)))
    ]
    if reference_all:
        app += [("call", m) for m in interface + extras]
    return Spec(classes, app, draw(st.integers(0, 3)) > 0)


# -- rendering ------------------------------------------------------------------


def _read(r, names: list[str]) -> str:
    kind, what = r
    if kind == "attr":
        return f"self.{what}"
    if kind == "getattr":
        return f"getattr(self, {what!r})"
    if kind == "dyn":
        return f"getattr(self, _NAMES[{names.index(what)}])"
    if kind == "call":
        return f"self.{what}()"
    if kind == "super":
        return f"super().{what}()"
    raise ValueError(kind)


def _stmt(s, ind: str) -> list[str]:
    if s[0] == "wrap":
        return [f"{ind}self.{s[1]} = torch.ScratchWrapper({', '.join('self.' + d for d in s[2])})"]
    _, attr, factory, guard, size = s
    line = f"self.{attr} = torch.{factory}({size})"
    if not guard:
        return [ind + line]
    return [f"{ind}if not skip_{attr.strip('_')}:", f"{ind}    {line}", f"{ind}else:", f"{ind}    self.{attr} = None"]


def _body(reads, names) -> str:
    return "return (" + "".join(_read(r, names) + ", " for r in reads) + ")"


def render_class(spec: Spec, c: Cls) -> list[str]:
    names = list(ATTRS)
    parent = spec.classes[c.parent] if c.parent is not None else None
    lines = [f"class {c.name}({parent.name if parent else ''}):"]
    if parent is None and spec.defaults:
        lines += [f"    {a} = None" for a in ATTRS if not a.startswith("__")] + [""]
    if c.pre or c.post or c.args or c.call != "super" or c.flags():
        params = "".join(f", {f}=False" for f in c.flags())
        lines.append(f"    def __init__(self{params}):")
        for s in c.pre:
            lines += _stmt(s, "        ")
        if parent is not None and c.call != "none":
            args = ", ".join(f"{f}={f if how == 'fwd' else how}" for f, how in sorted(c.args.items()))
            if c.call == "super":
                lines.append(f"        super().__init__({args})")
            else:
                lines.append(f"        {parent.name}.__init__(self{', ' + args if args else ''})")
        for s in c.post:
            lines += _stmt(s, "        ")
        lines.append("        pass")
    for m, reads in c.methods.items():
        lines += ["", f"    def {m}(self):", f"        {_body(reads, names)}"]
    for p, reads in c.props.items():
        lines += ["", "    @property", f"    def {p}(self):", f"        {_body(reads, names)}"]
    if c.dunder_call is not None:
        lines += ["", "    def __call__(self):", f"        {_body(c.dunder_call, names)}"]
    if len(lines) == 1:
        lines.append("    pass")
    return [*lines, "", ""]


def render(spec: Spec) -> dict[str, str]:
    files = {"__init__.py": ""}
    for mi, mod in enumerate(MODULES):
        own = [c for c in spec.classes if c.module == mi]
        if not own:
            continue
        head = ["import torch", ""]
        imported = sorted(
            {spec.classes[c.parent].name for c in own if c.parent is not None and spec.classes[c.parent].module != mi},
            key=lambda n: n,
        )
        for name in imported:
            src = MODULES[next(c.module for c in spec.classes if c.name == name)]
            head.append(f"from .{src} import {name}")
        head += ["", f"_NAMES = {list(ATTRS)!r}", "", ""]
        body = [line for c in own for line in render_class(spec, c)]
        files[f"{mod}.py"] = "\n".join(head + body).rstrip() + "\n"
    app = ["", ""]
    for k, (kind, what) in enumerate(spec.app):
        app += [f"def use_{k}(obj):", f"    return obj.{what}{'()' if kind == 'call' else ''}", "", ""]
    files["app.py"] = "\n".join(app).strip() + "\n"
    return files
