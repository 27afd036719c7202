"""The recording stand-in ``torch`` the generated hierarchies run with (``runtime_oracle``).

Every allocation is a ``Buf`` that remembers the ``__init__`` it was made under (the
nearest ``__init__`` frame: a factory function, a method or a comprehension called by
``Root.__init__`` allocates for ``Root.__init__``), its line there and the attribute it
was first stored in.  Reads are recorded through ``_REC.note``.

``nn.Module`` models torch's registration as far as storage goes: assigning a module
stores it in ``self._modules``, an ``nn.Parameter`` in ``self._parameters``,
``register_buffer(name, t)`` puts ``t`` in ``self._buffers``; ``__getattr__`` finds them
there, ``__delattr__`` removes them, and the stores' reads are recorded.  A registered
``Buf`` is marked ``registered`` (it is a checkpoint key: ``state_dict`` would see it).
Where torch would raise (a plain tensor assigned over a parameter's name, a buffer
registered under a name ``__dict__`` holds) the stand-in moves the value instead: the
generator does not keep track of which names are registered.
"""

from __future__ import annotations

import re
import sys
import types

_HERE = __file__


class Buf:
    def __init__(self, kind: str, size: int, deps=(), depth: int = 2):
        f = _allocating_frame(sys._getframe(depth))
        self.site = f.f_code.co_qualname  # "C1.__init__"
        self.line = f.f_lineno
        self.kind, self.size = kind, size
        self.deps = tuple(d for d in deps if isinstance(d, Buf))
        self.attr = None
        self.registered = False
        _REC.created.append(self)

    def __getitem__(self, i):
        return View(self)


class View(Buf):
    """``buf[i]``: a view of an allocation, not one itself (never in ``_REC.created``); reading it uses
    the allocation it views."""

    def __init__(self, base: Buf):
        self.site, self.line, self.kind, self.size = base.site, base.line, "view", 1
        self.deps, self.attr, self.registered = (base,), None, False


def _allocating_frame(start):
    """The nearest ``__init__`` frame of generated code from ``start`` outwards, else ``start``."""
    f = start
    while f is not None and f.f_code.co_filename != _HERE and not f.f_code.co_filename.endswith("runtime_oracle.py"):
        if f.f_code.co_qualname.endswith(".__init__"):
            return f
        f = f.f_back
    return start


class _Recorder:
    def __init__(self):
        self.created: list[Buf] = []
        self.read: list[Buf] = []  # read through an attribute of an instance of the hierarchy
        self.read_elsewhere: list[Buf] = []  # read through another project object that holds it
        self.calling = False
        self.classes: set[str] = set()
        self.lists = False  # idiom_differential: Bufs in a list stored in an attribute belong to it

    def note_list(self, v, name: str):
        """A list attribute read (``lists`` only): its allocations get the attribute, and after
        construction reading the list reads them all."""
        if self.lists and isinstance(v, list):
            for x in v:
                tag(x, name)
                self.note(x)

    def note(self, v, elsewhere: bool = False):
        """``v`` was read (counted only after construction, while the entry points run)."""
        if self.calling and isinstance(v, Buf):
            (self.read_elsewhere if elsewhere else self.read).append(v)
        return v


_REC = _Recorder()

_MANGLED = re.compile(r"^_([A-Za-z]\w*?)(__\w+)$")


def demangle(name: str) -> str:
    m = _MANGLED.match(name)
    return m.group(2) if m and m.group(1) in _REC.classes else name


def tag(v, name: str) -> None:
    if isinstance(v, Buf) and v.attr is None:
        v.attr = demangle(name)
    elif _REC.lists and isinstance(v, list):
        for x in v:
            tag(x, name)


class ReadingDict(dict):
    """A dictionary whose reads are recorded (``Module``'s stores; a copy of ``__dict__``)."""

    def __getitem__(self, k):
        return _REC.note(dict.__getitem__(self, k))

    def get(self, k, default=None):
        return _REC.note(dict.get(self, k, default))

    def pop(self, k, *default):
        return _REC.note(dict.pop(self, k, *default))

    def values(self):
        return [_REC.note(v) for v in dict.values(self)]

    def items(self):
        return [(k, _REC.note(v)) for k, v in dict.items(self)]


_STORES = ("_parameters", "_buffers", "_modules")


class Module:
    """``torch.nn.Module`` as far as attribute storage and registration go."""

    def __init__(self):
        for store in _STORES:
            object.__setattr__(self, store, ReadingDict())

    def _stores(self) -> dict:
        own = object.__getattribute__(self, "__dict__")
        return {s: own[s] for s in _STORES if s in own}

    def __setattr__(self, name, value):
        stores = self._stores()
        own = object.__getattribute__(self, "__dict__")
        if isinstance(value, (Module, Parameter)):
            if not stores:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._drop(name)
            _register(value, name)
            dict.__setitem__(stores["_modules" if isinstance(value, Module) else "_parameters"], name, value)
            return
        for store in stores.values():
            if name in store:
                if value is None or store is stores.get("_buffers"):
                    dict.__setitem__(store, name, value)
                    _register(value, name)
                    return
                dict.__delitem__(store, name)
        tag(value, name)
        own[name] = value

    def _drop(self, name) -> None:
        object.__getattribute__(self, "__dict__").pop(name, None)
        for store in self._stores().values():
            dict.pop(store, name, None)

    def register_buffer(self, name, value):
        self._drop(name)
        _register(value, name)
        dict.__setitem__(self._stores()["_buffers"], name, value)

    def __getattr__(self, name):
        for store in object.__getattribute__(self, "_stores")().values():
            if name in store:
                return _REC.note(dict.__getitem__(store, name))
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # nn.Module's own walks (as torch's, but for what a stand-in leaf holds: a ``ModuleBuf`` child is
    # read by every walk over modules or parameters, by none over buffers)
    def named_children(self):
        return [(k, _REC.note(v)) for k, v in dict.items(self._stores()["_modules"])]

    def children(self):
        return [v for _, v in self.named_children()]

    def named_modules(self, prefix: str = ""):
        out = [(prefix, self)]
        for k, v in self.named_children():
            out += v.named_modules(f"{prefix}.{k}") if _walkable(v) else [(f"{prefix}.{k}", v)]
        return out

    def modules(self):
        return [m for _, m in self.named_modules()]

    def named_parameters(self):
        out = [(k, _REC.note(v)) for k, v in dict.items(self._stores()["_parameters"])]
        for k, v in self.named_children():
            out += v.named_parameters() if _walkable(v) else [(f"{k}.weight", v)]
        return out

    def parameters(self):
        return [v for _, v in self.named_parameters()]

    def named_buffers(self):
        out = [(k, _REC.note(v)) for k, v in dict.items(self._stores()["_buffers"])]
        for v in dict.values(self._stores()["_modules"]):
            out += v.named_buffers() if _walkable(v) else []
        return out

    def buffers(self):
        return [v for _, v in self.named_buffers()]

    def state_dict(self):
        return dict(self.named_parameters() + self.named_buffers())

    def apply(self, fn):
        for v in self.children():
            v.apply(fn) if _walkable(v) else fn(v)
        fn(self)
        return self

    def __delattr__(self, name):
        for store in self._stores().values():
            if name in store:
                dict.__delitem__(store, name)
                return
        object.__delattr__(self, name)


def _walkable(v) -> bool:
    return isinstance(v, Module) and not isinstance(v, ModuleBuf)


def _register(v, name: str) -> None:
    tag(v, name)
    if isinstance(v, Buf):
        v.registered = True


class ModuleBuf(Buf, Module):
    """An allocated module (``nn.Linear(n)``, ``nn.ModuleList([...])``)."""

    __setattr__ = object.__setattr__


class Parameter(Buf):
    """``nn.Parameter(t)``: a parameter holding the tensor it wraps."""


def setattr_recording(self, name, v):
    """``__setattr__`` of a root that is not a module: tags the allocation with its attribute."""
    tag(v, name)
    object.__setattr__(self, name, v)


def torch_module() -> types.ModuleType:
    m = types.ModuleType("torch")
    m.Tensor = Buf
    m.zeros = lambda n: Buf("zeros", n)
    m.empty = lambda n: Buf("empty", n)
    m.ScratchWrapper = lambda *deps: Buf("wrapper", len(deps), deps)
    m.nn = types.SimpleNamespace(
        Module=Module,
        Linear=lambda n: ModuleBuf("linear", n),
        ModuleList=lambda items: ModuleBuf("module_list", len(items), items),
        Parameter=lambda t: Parameter("parameter", getattr(t, "size", 0), (t,)),
    )
    return m
