"""Runtime truth for generated hierarchies: run the code with a recording stand-in ``torch``.

``observe(package_dir, ...)`` imports the generated package (under its own name, with
``sys.modules["torch"]`` replaced by ``torch_standin`` while it runs), builds one instance
of every class and calls every entry point the README names: the methods the root
declares, properties, ``__call__``, and the functions of ``app.py`` (which call or read
anything on any instance).  Every allocation (``Buf``) remembers the ``__init__`` it was
made under, its line and the attribute it was first stored in; every attribute read of a
``Buf`` after construction is recorded, whichever way it goes: ``self.x``, ``getattr``,
``self.__dict__[...]`` / ``.get``, ``vars(self)[...]``, and, on the stand-in
``torch.nn.Module`` (registration in ``_modules`` / ``_parameters`` / ``_buffers``, as
torch's), ``__getattr__`` and the stores' ``[...]`` / ``.get`` / ``.pop``.  Reads through
another project object that holds an allocation (``Holder.get()`` returning the buffer
it was constructed with) are recorded apart: they use it, but not through the
instance's attribute.  An allocation is *used* when such a read returned it, or when
it is held by a used wrapper; *read* only when the instance's attribute returned it.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from dataclasses import dataclass, field

import hierarchy_forms as hf
from torch_standin import _REC, Buf, Module, ReadingDict, demangle, setattr_recording, tag, torch_module

__all__ = ["Buf", "Instance", "demangle", "norm", "observe"]


def _getattribute(self, name):
    v = object.__getattribute__(self, name)
    if name == "__dict__" and _REC.calling:
        return ReadingDict(v)
    _REC.note_list(v, name)
    return _REC.note(v)


def _getattribute_elsewhere(self, name):
    """Reads on another project object (``Holder``): they use an allocation, but not through the
    attribute of the instance it was stored in."""
    return _REC.note(object.__getattribute__(self, name), elsewhere=True)


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
    final: dict = field(default_factory=dict)  # instance attribute -> normalised value, after construction

    def ancestors(self) -> set[str]:
        return set(self.mro[1:])

    def parent_allocs(self, ancestors: set[str]) -> list[Buf]:
        return [b for b in self.allocs if b.site.endswith(".__init__") and b.site[:-9] in ancestors and b.attr]

    def alloc_signature(self) -> list:
        return sorted((b.site, b.attr or "", b.kind, b.size) for b in self.allocs)


@contextlib.contextmanager
def _fake_torch():
    saved = sys.modules.get("torch")
    sys.modules["torch"] = torch_module()
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


def observe(
    pkg_dir, class_names: list[str], config: bool = False, holders: tuple = (), lists: bool = False
) -> dict[str, Instance]:
    """Import the package at ``pkg_dir`` and observe one instance of each named class (``config``: each
    built as ``C(Config())``, ``Config`` from the package's ``base`` module).  ``holders``: (module,
    class) pairs of other project classes whose reads use an allocation elsewhere (``Holder``);
    ``lists``: allocations in a list stored in an attribute belong to that attribute."""
    name = pkg_dir.name
    sys.path.insert(0, str(pkg_dir.parent))
    _REC.classes = set(class_names)
    _REC.lists = lists
    try:
        with _fake_torch():
            mods = {}
            for f in sorted(pkg_dir.glob("*.py")):
                if f.stem != "__init__":
                    mods[f.stem] = importlib.import_module(f"{name}.{f.stem}")
            classes = {c: getattr(m, c) for m in mods.values() for c in class_names if c in vars(m)}
            root = classes["Root"]
            root.__getattribute__ = _getattribute
            for holder in hf.HOLDERS if "factories" in mods else ():
                getattr(mods["factories"], holder).__getattribute__ = _getattribute_elsewhere
            for module, holder in holders:
                getattr(mods[module], holder).__getattribute__ = _getattribute_elsewhere
            if not issubclass(root, Module):  # a Module records its own stores
                root.__setattr__ = setattr_recording
            args = (mods["base"].Config,) if config else ()
            return {c: _observe_one(k, root, mods["app"], args) for c, k in classes.items()}
    finally:
        _REC.lists = False
        sys.path.remove(str(pkg_dir.parent))
        for m in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            del sys.modules[m]


def _instance_attributes(obj) -> dict:
    own = dict(object.__getattribute__(obj, "__dict__"))
    for store in ("_modules", "_parameters", "_buffers"):
        own.update(own.pop(store, None) or {})
    return own


def _observe_one(cls, root, app, args: tuple) -> Instance:
    inst = Instance(cls.__name__, [k.__name__ for k in cls.__mro__])
    _REC.created, _REC.read, _REC.read_elsewhere, _REC.calling = [], [], [], False
    try:
        obj = cls(*(make() for make in args))
    except Exception as e:
        inst.error = f"{type(e).__name__}: {e}"
        return inst
    if _REC.lists:
        for k, v in _instance_attributes(obj).items():
            if isinstance(v, list):
                tag(v, k)
    inst.allocs = list(_REC.created)
    inst.final = {demangle(k): norm(v) for k, v in _instance_attributes(obj).items()}
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
    todo = [*_REC.read, *_REC.read_elsewhere]
    while todo:
        b = todo.pop()
        if id(b) not in inst.used:
            inst.used.add(id(b))
            todo.extend(b.deps)
    return inst
