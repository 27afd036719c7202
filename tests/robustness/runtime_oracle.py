"""Runtime truth for generated hierarchies: run the code with a recording stand-in ``torch``.

``observe(package_dir, ...)`` imports the generated package (under its own name, with
``sys.modules["torch"]`` replaced while it runs), builds one instance of every class
and calls every entry point the README names: the methods the root declares,
properties, ``__call__``, and the functions of ``app.py`` (which call or read
anything on any instance).  Every allocation (``Buf``) remembers the ``__init__``
that made it, its line and the attribute it was first stored in; every attribute
read of a ``Buf`` after construction is recorded, whichever way it goes: ``self.x``,
``getattr``, ``self.__dict__[...]`` / ``.get``, ``vars(self)[...]``, and, on the stand-in
``torch.nn.Module`` (whose ``__setattr__`` stores modules in ``self._modules``, as
torch's does), ``__getattr__`` and ``self._modules[...]`` / ``.get`` / ``.pop``.  An
allocation is *used* when such a read returned it, or when it is held by a used wrapper.
"""

from __future__ import annotations

import contextlib
import importlib
import re
import sys
import types
from dataclasses import dataclass, field


class Buf:
    def __init__(self, kind: str, size: int, deps=(), depth: int = 2):
        f = sys._getframe(depth)
        self.site = f.f_code.co_qualname  # "C1.__init__"
        self.line = f.f_lineno
        self.kind, self.size = kind, size
        self.deps = tuple(d for d in deps if isinstance(d, Buf))
        self.attr = None
        _REC.created.append(self)


class _Recorder:
    def __init__(self):
        self.created: list[Buf] = []
        self.read: list[Buf] = []
        self.calling = False
        self.classes: set[str] = set()

    def note(self, v):
        """``v`` was read (counted only after construction, while the entry points run)."""
        if self.calling and isinstance(v, Buf):
            self.read.append(v)
        return v


_REC = _Recorder()


class _ReadingDict(dict):
    """``self.__dict__`` / ``vars(self)`` as the entry points see it: a copy whose reads are recorded
    (they only read; construction sees the real dictionary)."""

    def __getitem__(self, k):
        return _REC.note(dict.__getitem__(self, k))

    def get(self, k, default=None):
        return _REC.note(dict.get(self, k, default))


class _ModuleDict(dict):
    """``Module._modules``: the real storage, its reads recorded."""

    def __getitem__(self, k):
        return _REC.note(dict.__getitem__(self, k))

    def get(self, k, default=None):
        return _REC.note(dict.get(self, k, default))

    def pop(self, k, *default):
        return _REC.note(dict.pop(self, k, *default))


class Module:
    """``torch.nn.Module`` as far as attribute storage goes: a module assigned to an attribute is
    kept in ``self._modules`` (not in ``__dict__``) and found again by ``__getattr__``."""

    def __init__(self):
        object.__setattr__(self, "_modules", _ModuleDict())

    def __setattr__(self, name, value):
        mods = object.__getattribute__(self, "__dict__").get("_modules")
        if isinstance(value, Module):
            if mods is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            object.__getattribute__(self, "__dict__").pop(name, None)
            _tag(value, name)
            dict.__setitem__(mods, name, value)
        elif mods is not None and name in mods:
            if value is not None:
                raise TypeError(f"cannot assign {type(value).__name__} as child module {name!r}")
            dict.__setitem__(mods, name, None)
        else:
            _setattr(self, name, value)

    def __getattr__(self, name):
        mods = object.__getattribute__(self, "__dict__").get("_modules")
        if mods is not None and name in mods:
            return _REC.note(dict.__getitem__(mods, name))
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __delattr__(self, name):
        mods = object.__getattribute__(self, "__dict__").get("_modules")
        if mods is not None and name in mods:
            dict.__delitem__(mods, name)
        else:
            object.__delattr__(self, name)


class ModuleBuf(Buf, Module):
    """An allocated module (``nn.Linear(n)``)."""

    __setattr__ = object.__setattr__


def _torch() -> types.ModuleType:
    m = types.ModuleType("torch")
    m.zeros = lambda n: Buf("zeros", n)
    m.empty = lambda n: Buf("empty", n)
    m.ScratchWrapper = lambda *deps: Buf("wrapper", len(deps), deps)
    m.nn = types.SimpleNamespace(Module=Module, Linear=lambda n: ModuleBuf("linear", n))
    return m


_MANGLED = re.compile(r"^_([A-Za-z]\w*?)(__\w+)$")


def demangle(name: str) -> str:
    m = _MANGLED.match(name)
    return m.group(2) if m and m.group(1) in _REC.classes else name


def _getattribute(self, name):
    v = object.__getattribute__(self, name)
    if name == "__dict__" and _REC.calling:
        return _ReadingDict(v)
    return _REC.note(v)


def _tag(v, name: str) -> None:
    if isinstance(v, Buf) and v.attr is None:
        v.attr = demangle(name)


def _setattr(self, name, v):
    _tag(v, name)
    object.__setattr__(self, name, v)


def norm(v):
    """A comparable form of a return value (allocations by kind and size)."""
    if isinstance(v, Buf):
        return ("buf", v.kind, v.size)
    if isinstance(v, (tuple, list)):
        return tuple(norm(x) for x in v)
    return repr(v)


@dataclass
class Instance:
    cls: str
    mro: list[str] = field(default_factory=list)  # the class's MRO, by name, itself first
    error: str | None = None
    allocs: list[Buf] = field(default_factory=list)  # made while constructing
    read: set = field(default_factory=set)  # ids of Bufs read after construction
    used: set = field(default_factory=set)  # ids: read, or held by a used wrapper
    results: dict = field(default_factory=dict)  # entry point -> normalised value or ("raised", type)

    def ancestors(self) -> set[str]:
        return set(self.mro[1:])

    def parent_allocs(self, ancestors: set[str]) -> list[Buf]:
        return [b for b in self.allocs if b.site.endswith(".__init__") and b.site[:-9] in ancestors and b.attr]

    def alloc_signature(self) -> list:
        return sorted((b.site, b.attr or "", b.kind, b.size) for b in self.allocs)


@contextlib.contextmanager
def _fake_torch():
    saved = sys.modules.get("torch")
    sys.modules["torch"] = _torch()
    try:
        yield
    finally:
        if saved is None:
            sys.modules.pop("torch", None)
        else:
            sys.modules["torch"] = saved


def _entries(obj, root, app) -> list[tuple[str, object]]:
    out = [
        (m, (lambda m=m: getattr(obj, m)()))
        for m in sorted(vars(root))  # private ones too
        if not m.startswith("__") and callable(vars(root)[m])
    ]
    props = sorted({n for k in type(obj).__mro__ for n, v in vars(k).items() if isinstance(v, property)})
    out += [(f"@{p}", (lambda p=p: getattr(obj, p))) for p in props]
    if any("__call__" in vars(k) for k in type(obj).__mro__[:-1]):
        out.append(("__call__", obj))
    out += [(f"app.{n}", (lambda f=f: f(obj))) for n, f in sorted(vars(app).items()) if n.startswith("use_")]
    return out


def observe(pkg_dir, class_names: list[str], config: bool = False) -> dict[str, Instance]:
    """Import the package at ``pkg_dir`` and observe one instance of each named class (``config``: each
    built as ``C(Config())``, ``Config`` from the package's ``base`` module)."""
    name = pkg_dir.name
    sys.path.insert(0, str(pkg_dir.parent))
    _REC.classes = set(class_names)
    try:
        with _fake_torch():
            mods = {}
            for f in sorted(pkg_dir.glob("*.py")):
                if f.stem != "__init__":
                    mods[f.stem] = importlib.import_module(f"{name}.{f.stem}")
            classes = {c: getattr(m, c) for m in mods.values() for c in class_names if c in vars(m)}
            root = classes["Root"]
            root.__getattribute__ = _getattribute
            if not issubclass(root, Module):  # a Module records its own stores
                root.__setattr__ = _setattr
            args = (mods["base"].Config,) if config else ()
            return {c: _observe_one(k, root, mods["app"], args) for c, k in classes.items()}
    finally:
        sys.path.remove(str(pkg_dir.parent))
        for m in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            del sys.modules[m]


def _observe_one(cls, root, app, args: tuple) -> Instance:
    inst = Instance(cls.__name__, [k.__name__ for k in cls.__mro__])
    _REC.created, _REC.read, _REC.calling = [], [], False
    try:
        obj = cls(*(make() for make in args))
    except Exception as e:
        inst.error = f"{type(e).__name__}: {e}"
        return inst
    inst.allocs = list(_REC.created)
    _REC.calling = True
    try:
        for label, fn in _entries(obj, root, app):
            try:
                inst.results[label] = norm(fn())
            except Exception as e:
                inst.results[label] = ("raised", type(e).__name__)
    finally:
        _REC.calling = False
    inst.read = {id(b) for b in _REC.read}
    todo = [b for b in _REC.read]
    while todo:
        b = todo.pop()
        if id(b) not in inst.used:
            inst.used.add(id(b))
            todo.extend(b.deps)
    return inst
