"""Stand-in modules for packages that are too large to ship to a measurement machine.

Loaded by file path inside the measurement child (``harness.py``): it must import
nothing outside the standard library at import time.

A stub is installed only when the real package cannot be found on ``sys.path``
(checked by the caller with :func:`missing`). Every name looked up on a stub module
resolves to something harmless:

* capitalised names become classes. For packages whose classes are used inside
  pydantic models (``xgrammar.StructuralTag``), a plain ``MagicMock`` breaks model
  construction, so when pydantic is importable a capitalised name is a pydantic
  model with ``extra="allow"``; otherwise a plain permissive class;
* other names become ``unittest.mock.MagicMock`` objects (callable, any attribute);
* any submodule (``import sgl_kernel.flash_mla``) is another stub module.

Constructors under measurement never call into these packages (measured on the GPU);
if one does, the stub's return values make the failure visible in the traceback.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Iterable
from unittest import mock

STUB_MARKER = "__deadinit_stub__"
STUB_VERSION = "0.0.0+deadinit.stub"


def missing(name: str) -> bool:
    """True when the top-level package ``name`` cannot be imported from sys.path."""
    if name in sys.modules:
        return False
    try:
        return importlib.util.find_spec(name) is None
    except (ImportError, ValueError):
        return True


def _permissive_meta_getattr(cls, item):  # pragma: no cover - trivial
    if item.startswith("__") and item.endswith("__"):
        raise AttributeError(item)
    return mock.MagicMock(name=f"{cls.__module__}.{cls.__name__}.{item}")


class _PermissiveMeta(type):
    __getattr__ = _permissive_meta_getattr


_PYDANTIC_BASE: list = []


def _pydantic_stub_base():
    """A pydantic model base (extra="allow") whose class attributes also all exist."""
    if _PYDANTIC_BASE:
        return _PYDANTIC_BASE[0]
    import pydantic  # noqa: PLC0415 - pydantic only when a stubbed module needs a model base

    meta_base = type(pydantic.BaseModel)

    class StubModelMeta(meta_base):
        def __getattr__(cls, item):
            if item.startswith("_"):
                return super().__getattr__(item)
            return mock.MagicMock(name=f"{cls.__module__}.{cls.__name__}.{item}")

    class StubModel(pydantic.BaseModel, metaclass=StubModelMeta):
        model_config = pydantic.ConfigDict(extra="allow", arbitrary_types_allowed=True)

    _PYDANTIC_BASE.append(StubModel)
    return StubModel


def _make_class(module_name: str, name: str) -> type:
    try:
        base = _pydantic_stub_base()
        return type(base)(name, (base,), {"__module__": module_name, "__qualname__": name})
    except Exception:  # pydantic missing or refuses: a plain permissive class

        def __init__(self, *args, **kwargs):
            self.__dict__.update(kwargs)

        return _PermissiveMeta(name, (), {"__init__": __init__, "__module__": module_name})


class StubModule(types.ModuleType):
    """A module whose every public attribute exists."""

    def __init__(self, name: str):
        super().__init__(name)
        self.__dict__[STUB_MARKER] = True
        self.__dict__["__version__"] = STUB_VERSION
        self.__dict__["__path__"] = []  # a package, so submodules import
        self.__dict__["__all__"] = []

    def __getattr__(self, item: str):
        if item.startswith("__") and item.endswith("__"):
            raise AttributeError(item)
        if item[:1].isupper():
            value = _make_class(self.__name__, item)
        else:
            value = mock.MagicMock(name=f"{self.__name__}.{item}")
        self.__dict__[item] = value
        return value


class _StubLoader(importlib.abc.Loader):
    def create_module(self, spec):
        return StubModule(spec.name)

    def exec_module(self, module):
        return None


class StubFinder(importlib.abc.MetaPathFinder):
    """Answers imports of the stubbed top-level names and all their submodules."""

    def __init__(self, names: Iterable[str]):
        self.names = set(names)

    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".", 1)[0] in self.names:
            return importlib.machinery.ModuleSpec(fullname, _StubLoader(), is_package=True)
        return None


def install(names: Iterable[str]) -> list[str]:
    """Stub every name in ``names`` that is missing; return the ones stubbed."""
    stubbed = [n for n in names if n and missing(n)]
    if stubbed:
        sys.meta_path.append(StubFinder(stubbed))
    return stubbed


def is_stub(module: object) -> bool:
    return bool(getattr(module, STUB_MARKER, False))
