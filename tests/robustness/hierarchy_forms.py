"""How a generated allocation is written: directly (``torch.zeros(n)``), or through the project.

A form is the third field of an ``("alloc", attr, form, guard, size)`` statement:

* direct: ``zeros`` / ``empty`` / ``linear`` (``nn.Linear(n)``);
* factory functions (in the package's ``factories`` module, which every module imports):
  ``fn`` returns ``torch.zeros(n)``, ``fn_local`` through a local, ``fn_chain`` through
  another factory, ``fn_annotated`` only by its return annotation (``-> torch.Tensor``;
  the body calls a module-level name bound to an element of a table, which no analysis follows), ``fn_module_annotated``
  (``-> nn.Module``);
* methods: ``method`` calls ``self._make(n)``, which ``Root`` defines and a subclass may
  override (``Cls.overrides_make``): the parent's ``__init__`` then allocates through the
  subclass's method;
* tuple targets: ``tuple`` (``self.a, _n = make_pair(n)``), ``star`` (``self.a, *_rest =
  make_triple(n)``); the statement ``("pair", a, b, size)`` stores two allocations at once
  (``self.a, self.b, _n = make_two(n)``);
* a callable received as a parameter: ``param`` (``buf_factory=torch.zeros``; ``layer_cls=nn.Linear``
  for a module), called in the ``__init__`` that declares it;
* module registration (an ``nn.Module`` root): ``module_list`` (``nn.ModuleList([...])``),
  ``parameter`` (``nn.Parameter(torch.zeros(n))``), ``buffer``
  (``self.register_buffer("x", torch.zeros(n))``).

The statement ``("hold", holder, attr, kind)`` passes an allocation into the constructor
of another project class: ``self.h = Holder(self.a)`` (``Holder.get()`` returns it; read by
``self.h.get()``) or ``DeadHolder`` (stores it and never reads it).
"""

from __future__ import annotations

TENSOR_FORMS = ("fn", "fn_local", "fn_chain", "fn_annotated", "method", "tuple", "star", "param")
MODULE_FORMS = ("linear", "module_list", "fn_module_annotated", "param")
REGISTERED_FORMS = ("parameter", "buffer")  # only after nn.Module.__init__ (not in ``pre``)
HOLDERS = ("Holder", "DeadHolder")
MODULE_ATTRS = ("proj", "head")  # as hierarchy_gen.MODULE_ATTRS (which imports this module)

FACTORIES = """import torch
from torch import nn

_TABLE = (torch.zeros, nn.Linear)
_opaque_tensor = _TABLE[0]
_opaque_module = _TABLE[1]


def make_buf(n):
    return torch.zeros(n)


def make_local(n):
    buf = torch.empty(n)
    return buf


def make_chained(n):
    return make_buf(n)


def make_annotated(n) -> torch.Tensor:
    return _opaque_tensor(n)


def make_module(n) -> nn.Module:
    return _opaque_module(n)


def make_pair(n):
    return torch.zeros(n), n


def make_triple(n):
    return torch.empty(n), n, n


def make_two(n):
    return torch.zeros(n), torch.empty(n), n


class Holder:
    def __init__(self, buf):
        self.buf = buf

    def get(self):
        return self.buf


class DeadHolder:
    def __init__(self, buf):
        self.buf = buf
        self.size = 1

    def get(self):
        return self.size
"""
IMPORT = (
    "from .factories import DeadHolder, Holder, make_annotated, make_buf, make_chained, make_local, "
    "make_module, make_pair, make_triple, make_two"
)


def value(form: str, size: int) -> str:
    """The expression of an allocation stored by a plain assignment."""
    return {
        "linear": f"nn.Linear({size})",
        "fn": f"make_buf({size})",
        "fn_local": f"make_local({size})",
        "fn_chain": f"make_chained({size})",
        "fn_annotated": f"make_annotated({size})",
        "fn_module_annotated": f"make_module({size})",
        "method": f"self._make({size})",
        "module_list": f"nn.ModuleList([nn.Linear({size}) for _ in range(2)])",
        "parameter": f"nn.Parameter(torch.zeros({size}))",
    }.get(form, f"torch.{form}({size})")


def store(attr: str, form: str, size: int, module: bool = False) -> str:
    """The statement that stores an allocation of ``form`` in ``self.<attr>``."""
    if form == "tuple":
        return f"self.{attr}, _n = make_pair({size})"
    if form == "star":
        return f"self.{attr}, *_rest = make_triple({size})"
    if form == "buffer":
        return f"self.register_buffer({attr!r}, torch.zeros({size}))"
    if form == "param":
        return f"self.{attr} = {'layer_cls' if module else 'buf_factory'}({size})"
    return f"self.{attr} = {value(form, size)}"


def params(statements: list) -> list[str]:
    """The parameters an ``__init__`` declares for the callables its ``param`` allocations call."""
    out = []
    for s in statements:
        if s[0] == "alloc" and s[2] == "param":
            out.append("layer_cls=nn.Linear" if s[1] in MODULE_ATTRS else "buf_factory=torch.zeros")
    return sorted(set(out))


def label(statement) -> str:
    """The construct a statement is counted under (recall per construct)."""
    if statement[0] == "pair":
        return "tuple target (two attributes)"
    if statement[0] != "alloc":
        return statement[0]
    form = statement[2]
    if form.startswith("fn"):
        return "factory function" + (" (annotation only)" if "annotated" in form else "")
    return {
        "method": "factory method",
        "tuple": "tuple target",
        "star": "starred target",
        "param": "callable parameter",
        "module_list": "nn.ModuleList",
        "parameter": "nn.Parameter",
        "buffer": "register_buffer",
        "linear": "nn.Module child",
    }.get(form, "direct allocation")
