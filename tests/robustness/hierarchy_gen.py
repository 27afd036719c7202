"""Random small class hierarchies (hypothesis) written as a package that imports a stand-in ``torch``.

A ``Spec`` is plain data; ``hierarchy_render.render(spec)`` gives ``{relative path: source}``.
What the generated code does, on purpose, in every combination:

* allocations ``self.a = torch.zeros(n)`` / ``torch.empty(n)`` / ``torch.ScratchWrapper(self.x, ...)``
  (a wrapper holding other allocations) / ``nn.Linear(n)`` (when the root is a stand-in
  ``torch.nn.Module``, whose ``__setattr__`` stores modules in ``self._modules``), some under
  a guard with ``else: self.a = None``: a ``skip_a=False`` parameter, a class attribute
  ``use_a`` that subclasses override, ``config.use_a`` on a config object a subclass may set
  before its parent call, or ``mode == k`` that a subclass may pin with ``assert mode == 0``;
* subclasses (in the root's module or later ones, imported relatively), some with a
  cooperative mixin before or after the parent, some deriving from ``Parent[int]`` /
  ``Parent[T]`` (a root built on ``typing.Generic[T]``), whose ``__init__`` calls
  ``super().__init__``, ``super(C, self)``, ``super(Parent, self)``, ``super(Grandparent, self)``,
  ``Parent.__init__(self)``, ``Grandparent.__init__(self)``, ``Mixin.__init__(self)``, the parent
  through a module-level or a local alias, no parent ``__init__``, or, rarely, a call whose
  arguments cannot bind (an unknown keyword, too many positionals, ``config`` left out);
  arguments are chosen for the ``__init__`` the call really reaches (``hierarchy_mro``);
* statements before and after that call: overwrites, wrappers reading parent attributes,
  ``del self.x`` / ``delattr(self, "x")`` / ``self.__dict__.pop("x", None)``, and moves
  ``old = self.__dict__.pop("x", None)`` (or ``self._modules.pop``) then ``self.x = old``;
* reads through ``self.x``, ``getattr(self, "x")`` (also with a default), ``getattr(self,
  _NAMES[i])`` and ``getattr(self, _KV[i] + "_buf")`` (dynamic), ``self.__dict__["x"]`` /
  ``.get("x")``, ``vars(self)["x"]``, ``self._modules["m"]``, class-private ``self.__p``,
  properties, private helpers, public methods outside the root's interface,
  ``super().m()`` and overriding methods;
* ``app.py``: functions reading ``obj.x`` or calling ``obj.m()`` on any instance.

(*) Not under an ``nn.Module`` root: torch keeps registered modules, parameters and buffers
out of ``__dict__``, and a skip-flag fix's ``else: self.x = None`` stores ``None`` there
instead, a difference only ``vars(self)`` / ``self.__dict__`` reads of registered names
observe (the fix of a DI002 on a registered attribute is classed ``unsafe``).

Methods only call methods of a lower rank (helpers < extra methods < interface), so
nothing recurses; allocations a wrapper reads always exist (or are ``None``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import hierarchy_forms as hf
import hierarchy_mro as hm
from hypothesis import strategies as st

ATTRS = ("a", "b", "c", "d", "__p", "k_buf", "v_buf")
MODULE_ATTRS = hf.MODULE_ATTRS  # nn.Module children (module mode only)
MODULES = ("base", "mod1", "mod2")
GUARDS = ("flag", "flag", "cls", "config", "mode0", "mode1")


@dataclass
class Cls:
    name: str
    parent: int | None
    module: int
    pre: list = field(default_factory=list)  # statements before the parent __init__ call
    call: str = "super"  # see hierarchy_mro: SUPER_CALLS | EXPLICIT_CALLS | BAD_CALLS | "none"
    args: dict = field(default_factory=dict)  # parameter -> "True" | "False" | "0" | "1" | "fwd"
    post: list = field(default_factory=list)
    methods: dict = field(default_factory=dict)  # name -> list of reads
    props: dict = field(default_factory=dict)
    dunder_call: list | None = None
    mixin: str | None = None  # "first" | "last": a cooperative mixin Mix<i> among the bases
    mixin_call: str | None = None  # "before" | "after": Mix<i>.__init__(self) also called explicitly
    subscript: str | None = None  # "int" | "T": the base written Parent[int] / Parent[T]
    class_values: dict = field(default_factory=dict)  # use_x -> "True" | "False"
    overrides_make: bool = False  # defines its own ``_make`` (the ``method`` form): torch.empty instead of zeros
    target: object = None  # what the parent call reaches (hierarchy_mro.receiver), for rendering
    bad: str | None = None  # one of hierarchy_mro.BAD_CALLS: the call cannot bind (construction raises)

    def flags(self) -> list[str]:
        guarded = [s for s in self.pre + self.post if s[0] == "alloc" and s[3] in ("flag", "mode0", "mode1")]
        own = [f"skip_{s[1].strip('_')}" if s[3] == "flag" else "mode" for s in guarded]
        fwd = [f for f, how in self.args.items() if how == "fwd"]
        return sorted(set(own + fwd))

    def has_init(self) -> bool:
        return bool(
            self.pre or self.post or self.args or self.call != "super" or self.flags() or self.mixin_call or self.bad
        )

    def guard_attrs(self, kind: str) -> list[str]:
        return sorted({s[1].strip("_") for s in self.pre + self.post if s[0] == "alloc" and s[3] == kind})


@dataclass
class Spec:
    classes: list[Cls]
    app: list = field(default_factory=list)  # ("attr", name) | ("call", method)
    defaults: bool = True  # the root declares ``a = None`` ... at class level (fewer AttributeErrors)
    root_base: str = ""  # "" | "generic" | "module"
    config: bool = False  # every __init__ takes a ``config`` object first (observe passes Config())
    mixins: dict = field(default_factory=dict)  # class index -> allocations of its Mix<i>
    mode_asserted: bool = False  # a class asserts ``mode == 0``: no later class passes ``mode=1``
    plain: bool = False  # only the constructs of plain ``super()`` chains (see ``specs``)
    mro: hm.Mro | None = None

    def chain(self, i: int) -> list[int]:
        out = []
        while i is not None:
            out.append(i)
            i = self.classes[i].parent
        return out

    def attrs(self) -> tuple:
        return ATTRS + (MODULE_ATTRS if self.root_base == "module" else ())


def _form(draw, spec: Spec, attr: str, where: str) -> str:
    """How the allocation is written (``hierarchy_forms``); ``where``: "pre" (before the parent call:
    ``nn.Module.__init__`` may not have run), "post" or "mixin" (no parameters of its own)."""
    if attr in MODULE_ATTRS:
        return "linear" if spec.plain else draw(st.sampled_from(["linear", *hf.MODULE_FORMS]))
    forms = ["zeros", "empty"] * 3 + ([] if spec.plain else list(hf.TENSOR_FORMS))
    if spec.root_base == "module" and where == "post" and not spec.plain:
        forms += [f for f in hf.REGISTERED_FORMS if f != "buffer" or not attr.startswith("__")]
    if where == "mixin":
        forms = [f for f in forms if f != "param"]
    return draw(st.sampled_from(forms))


def _alloc(draw, spec: Spec, guardable: bool, attr: str, where: str = "post"):
    factory = _form(draw, spec, attr, where)
    guards = ["flag"] if spec.plain else [g for g in GUARDS if g != "config" or spec.config]
    guard = draw(st.sampled_from(guards)) if guardable and draw(st.booleans()) and not attr.startswith("__") else None
    return ("alloc", attr, factory, guard, draw(st.integers(1, 9)))


def _allocs(draw, spec: Spec, guardable: bool, lo: int, hi: int, where: str = "post") -> list:
    """Allocations of distinct attributes (one ``__init__`` rarely stores one attribute twice); before
    the parent call and in mixins no ``nn.Module`` (before ``Module.__init__`` has run, torch refuses one)."""
    names = spec.attrs() if where == "post" else ATTRS
    attrs = draw(st.lists(st.sampled_from(names), min_size=lo, max_size=hi, unique=True))
    return [_alloc(draw, spec, guardable, a, where) for a in attrs]


def _reads(draw, spec: Spec, callable_names: list[str], dynamic: bool = False):
    kinds = ["attr", "attr", "attr", "getattr"]
    kinds += [] if spec.plain else ["getattr_default"]
    if not spec.plain and spec.root_base != "module":  # torch keeps registered values out of __dict__ (*)
        kinds += ["dict_get", "dict_item", "vars_item"]
    kinds += (["dyn", "dyn_suffix"] if dynamic else []) + (["call"] if callable_names else [])
    kinds += ["modules_item"] if spec.root_base == "module" else []
    kinds += [] if spec.plain else ["hold_get"]
    out = []
    for _ in range(draw(st.integers(0, 3))):
        k = draw(st.sampled_from(kinds))
        if k == "call":
            out.append((k, draw(st.sampled_from(callable_names))))
        elif k == "hold_get":
            out.append((k, "h"))
        elif k == "modules_item":
            out.append((k, draw(st.sampled_from(MODULE_ATTRS))))
        elif k in ("attr", "getattr", "dyn"):
            out.append((k, draw(st.sampled_from(spec.attrs()))))
        elif k == "dyn_suffix":
            out.append((k, draw(st.sampled_from(["k_buf", "v_buf"]))))
        else:
            out.append((k, draw(st.sampled_from([a for a in spec.attrs() if not a.startswith("__")]))))
    return out


def _bases(draw, spec: Spec, i: int) -> tuple[int | None, str | None]:
    if i == 0:
        return None, None
    parent = draw(st.integers(0, i - 1))
    mixin = None if spec.plain else draw(st.sampled_from([None, None, None, "first", "last"]))
    return parent, mixin


def _call(draw, spec: Spec, c: Cls, i: int) -> None:
    """The parent call and its arguments, chosen for the ``__init__`` it reaches on ``c``'s own MRO."""
    kinds = ["super", "super", "super", "super_self", "super_parent", "explicit", "alias", "local_alias", "none"]
    if spec.plain:
        kinds = ["super", "super", "super", "explicit", "none"]
    if spec.classes[c.parent].parent is not None:
        kinds += ["super_grand", "explicit_grand"]
    if spec.root_base == "module":
        kinds.remove("none")  # nn.Module.__init__ must run before a module is assigned
    c.call = draw(st.sampled_from(kinds))
    if c.mixin and c.call != "none":
        c.mixin_call = draw(st.sampled_from([None, None, "before", "after"]))
    if c.call == "none":
        return
    order = spec.mro.of(i)
    direct = hm.call_target(spec, order, i, c.call)
    c.target = hm.receiver(spec, order, direct)
    if c.target in hm.EXTERNAL:
        return
    for f in spec.classes[c.target].flags():
        choices = ["True", "False", "fwd", None] if f.startswith("skip_") else ["0", "1", "fwd", None]
        if f == "mode" and spec.mode_asserted:
            choices.remove("1")  # a class asserts mode == 0 and may be below
        how = draw(st.sampled_from(choices))
        if how:
            c.args[f] = how
    if isinstance(direct, int) and not c.mixin_call and not spec.plain and draw(st.integers(0, 14)) == 0:
        c.bad = draw(st.sampled_from([b for b in hm.BAD_CALLS if b != "bad_missing" or spec.config]))


def _class_values(draw, spec: Spec, c: Cls, i: int) -> None:
    seen = {a for j in spec.mro.of(i)[1:] if isinstance(j, int) for a in spec.classes[j].guard_attrs("cls")}
    for a in sorted(seen):
        if draw(st.booleans()):
            c.class_values[f"use_{a}"] = draw(st.sampled_from(["True", "False"]))


def _post(draw, spec: Spec, c: Cls, i: int) -> None:
    c.post = _allocs(draw, spec, True, 0 if i else 1, 3)
    if i and not c.bad:
        have = hm.present_after(spec, i, spec.mro.of(i), before_post_of=i)
        mine = {s[1] for s in c.post}
        removable = sorted(a for a in have - mine if not a.startswith("__"))
        if removable and not spec.plain and draw(st.integers(0, 2)) == 0:
            how = draw(st.sampled_from(["del", "delattr", "dict_pop", "move"]))
            attr = draw(st.sampled_from(removable))
            if how == "move":
                store = "_modules" if attr in MODULE_ATTRS else "__dict__"
                c.post.insert(0, ("move", attr, store))
            else:
                c.post.insert(0, ("del", attr, how))
    _flows(draw, spec, c, i)
    if draw(st.booleans()):  # a wrapper over attributes this __init__ has certainly set
        have = sorted({s[1] for s in c.post if s[0] == "alloc" and not s[1].startswith("__")})
        if have:
            deps = draw(st.lists(st.sampled_from(have), min_size=1, max_size=2, unique=True))
            c.post.append(("wrap", draw(st.sampled_from(["w", "v"])), deps))


def _flows(draw, spec: Spec, c: Cls, i: int) -> None:
    """Two allocations stored by one tuple target, an allocation passed into another project class's
    constructor, and an override of the ``_make`` factory method."""
    if spec.plain:
        return
    if draw(st.integers(0, 3)) == 0:
        a, b = draw(st.lists(st.sampled_from(ATTRS), min_size=2, max_size=2, unique=True))
        c.post.append(("pair", a, b, draw(st.integers(1, 9))))
    have = sorted({s[1] for s in c.post if s[0] == "alloc" and not s[1].startswith("__")})
    if have and draw(st.integers(0, 2)) == 0:
        c.post.append(("hold", "h", draw(st.sampled_from(have)), draw(st.sampled_from(hf.HOLDERS))))
    c.overrides_make = bool(i) and draw(st.integers(0, 3)) == 0


def _pre(draw, spec: Spec, c: Cls) -> None:
    c.pre = _allocs(draw, spec, False, 0, 1, where="pre")
    if c.args.get("mode") == "fwd" and draw(st.booleans()):
        c.pre.append(("assert_mode",))
        spec.mode_asserted = True
    if spec.config and isinstance(c.target, int):
        for a in sorted({a for k in spec.classes[:-1] for a in k.guard_attrs("config")}):
            if draw(st.booleans()):
                c.pre.append(("set", f"use_{a}", draw(st.sampled_from(["True", "False"]))))


@st.composite
def specs(draw, reference_all: bool = False, plain: bool = False) -> Spec:
    """``reference_all``: ``app.py`` calls every public method (all of them are then entry points);
    ``plain``: only ``super().__init__`` / ``Parent.__init__(self)`` / no call, skip-flag guards, and
    reads through ``self.x`` and ``getattr`` (no mixins, generic or module roots, config objects,
    removals, storage access, or calls that cannot bind)."""
    spec = Spec([], defaults=draw(st.integers(0, 3)) > 0, plain=plain)
    if not plain:
        spec.root_base = draw(st.sampled_from(["", "", "generic", "module"]))
        spec.config = draw(st.integers(0, 3)) == 0
    spec.mro = hm.Mro(spec.root_base)
    n = draw(st.integers(2, 5))
    interface = [f"m{i}" for i in range(draw(st.integers(1, 3)))]
    dynamic = draw(st.integers(0, 4)) == 0  # some examples read through getattr(self, <computed>)
    for i in range(n):
        parent, mixin = _bases(draw, spec, i)
        module = 0 if i == 0 else draw(st.integers(spec.classes[parent].module, len(MODULES) - 1))
        c = Cls(name="Root" if i == 0 else f"C{i}", parent=parent, module=module, mixin=mixin)
        spec.classes.append(c)
        bases = [parent] if parent is not None else []
        if mixin:
            spec.mixins[i] = _allocs(draw, spec, False, 1, 1, where="mixin")
            spec.mro.add(("mix", i), [])
            bases = [("mix", i), parent] if mixin == "first" else [parent, ("mix", i)]
        spec.mro.add(i, bases)
        if parent is not None:
            if spec.root_base == "generic" and draw(st.booleans()):
                c.subscript = draw(st.sampled_from(["int", "T"])) if _is_generic(spec, parent) else None
            _call(draw, spec, c, i)
            _pre(draw, spec, c)
            _class_values(draw, spec, c, i)
        _post(draw, spec, c, i)
        _methods(draw, spec, c, i, interface, dynamic)
    extras = [m for c in spec.classes for m in c.methods if m.startswith("x")]
    spec.app = [
        draw(
            st.sampled_from(
                [("attr", a) for a in spec.attrs() if not a.startswith("__")]
                + [("call", m) for m in extras or interface]
            )
        )
        for _ in range(draw(st.integers(0, 2)))
    ]
    if reference_all:
        spec.app += [("call", m) for m in interface + extras]
    return spec


def _is_generic(spec: Spec, i: int) -> bool:
    """Whether class ``i`` still takes a type parameter (``Parent[T]`` keeps it generic)."""
    c = spec.classes[i]
    return c.parent is None or (c.subscript == "T" and _is_generic(spec, c.parent))


def _methods(draw, spec: Spec, c: Cls, i: int, interface: list[str], dynamic: bool) -> None:
    own_helpers = [f"_h{i}"] if draw(st.booleans()) else []
    extras = [f"x{i}"] if draw(st.booleans()) else []
    for h in own_helpers:
        c.methods[h] = _reads(draw, spec, [])
    inherited = [
        h
        for j in (spec.chain(c.parent) if c.parent is not None else [])
        for h in spec.classes[j].methods
        if h.startswith("_h")
    ]
    helpers = own_helpers + inherited
    for x in extras:
        c.methods[x] = _reads(draw, spec, helpers)
    names = interface if i == 0 else draw(st.lists(st.sampled_from(interface), unique=True, max_size=2))
    for m in names:
        body = _reads(draw, spec, helpers + extras, dynamic)
        if i and draw(st.booleans()):
            body.append(("super", m))
        c.methods[m] = body
    if draw(st.integers(0, 3)) == 0:
        c.props[f"p{i}"] = _reads(draw, spec, helpers)
    if draw(st.integers(0, 4)) == 0:
        c.dunder_call = _reads(draw, spec, helpers + extras)


def constructs(spec: Spec) -> dict[str, int]:
    """How often each construct occurs in ``spec`` (the test prints the totals)."""
    out: dict[str, int] = {}

    def add(key: str) -> None:
        out[key] = out.get(key, 0) + 1

    if spec.root_base:
        add(f"root base {'nn.Module' if spec.root_base == 'module' else 'Generic[T]'}")
    for c in spec.classes:
        if c.parent is not None:
            add(f"parent call {c.call}" + (f" ({c.bad})" if c.bad else ""))
        for key in (
            c.mixin and f"mixin {c.mixin}",
            c.mixin_call and "explicit mixin call",
            c.subscript and "Parent[...]",
        ):
            if key:
                add(key)
        for s in c.pre + c.post:
            if s[0] in ("alloc", "pair"):
                add(f"form {hf.label(s)}")
            if s[0] == "alloc" and s[3]:
                add(f"guard {s[3]}")
            elif s[0] == "hold":
                add(f"statement hold ({s[3]})")
            elif s[0] not in ("alloc", "pair"):
                add(f"statement {s[0]}" + (f" {s[2]}" if s[0] in ("del", "move") else ""))
        if c.class_values:
            add("class attribute override")
        if c.overrides_make:
            add("factory method overridden")
        for reads in [*c.methods.values(), *c.props.values(), c.dunder_call or []]:
            for r in reads:
                add(f"read {r[0]}")
    return out


def construct_of(spec: Spec, owner: str, attr: str) -> str:
    """The construct (``hierarchy_forms.label``) of the last statement of ``owner.__init__`` (a class
    or mixin name) that stores an allocation in ``attr``."""
    stmts = next(
        (c.pre + c.post for c in spec.classes if c.name == owner),
        next((m for i, m in spec.mixins.items() if f"Mix{i}" == owner), []),
    )
    for s in reversed(stmts):
        if (s[0] == "alloc" and s[1].strip("_") == attr.strip("_")) or (s[0] == "pair" and attr in s[1:3]):
            return hf.label(s)
        if s[0] in ("wrap", "hold") and s[1] == attr:
            return f"statement {s[0]}"
    return "other"
