"""Runtime truth for generated hierarchies: run the code with a recording stand-in ``torch``.

``observe(package_dir)`` imports the generated package (under its own name, with
``sys.modules["torch"]`` replaced while it runs), builds one instance of every class
and calls every entry point the README names: the methods the root declares,
properties, ``__call__``, and the functions of ``app.py`` (which call or read
anything on any instance).  Every allocation (``Buf``) remembers the ``__init__``
that made it, its line and the attribute it was first stored in; every attribute
read of a ``Buf`` after construction is recorded.  An allocation is *used* when such
a read returned it, or when it is held by a used wrapper.
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


_REC = _Recorder()


def _torch() -> types.ModuleType:
    m = types.ModuleType("torch")
    m.zeros = lambda n: Buf("zeros", n)
    m.empty = lambda n: Buf("empty", n)
    m.ScratchWrapper = lambda *deps: Buf("wrapper", len(deps), deps)
    return m


_MANGLED = re.compile(r"^_([A-Za-z]\w*?)(__\w+)$")


def demangle(name: str) -> str:
    m = _MANGLED.match(name)
    return m.group(2) if m and m.group(1) in _REC.classes else name


def _getattribute(self, name):
    v = object.__getattribute__(self, name)
    if _REC.calling and type(v) is Buf:
        _REC.read.append(v)
    return v


def _setattr(self, name, v):
    if type(v) is Buf and v.attr is None:
        v.attr = demangle(name)
    object.__setattr__(self, name, v)


def norm(v):
    """A comparable form of a return value (allocations by kind and size)."""
    if type(v) is Buf:
        return ("buf", v.kind, v.size)
    if isinstance(v, (tuple, list)):
        return tuple(norm(x) for x in v)
    return repr(v)


@dataclass
class Instance:
    cls: str
    error: str | None = None
    allocs: list[Buf] = field(default_factory=list)  # made while constructing
    read: set = field(default_factory=set)  # ids of Bufs read after construction
    used: set = field(default_factory=set)  # ids: read, or held by a used wrapper
    results: dict = field(default_factory=dict)  # entry point -> normalised value or ("raised", type)

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


def observe(pkg_dir, class_names: list[str]) -> dict[str, Instance]:
    """Import the package at ``pkg_dir`` and observe one instance of each named class."""
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
            root.__setattr__ = _setattr
            return {c: _observe_one(k, root, mods["app"]) for c, k in classes.items()}
    finally:
        sys.path.remove(str(pkg_dir.parent))
        for m in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            del sys.modules[m]


def _observe_one(cls, root, app) -> Instance:
    inst = Instance(cls.__name__)
    _REC.created, _REC.read, _REC.calling = [], [], False
    try:
        obj = cls()
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
