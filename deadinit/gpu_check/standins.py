"""Build the constructor's inputs (e.g. sglang's ``model_runner``) from a profile.

Loaded by file path inside the measurement child. ``torch`` is imported lazily, only
when a value needs it (dtypes, tensors), so CPU fixtures without torch still work.

Value language (TOML values of a profile's ``[objects]`` and ``[construct]``):

* a table becomes a :class:`StandIn`: an attribute bag that records every attribute
  read and names the missing profile key in its ``AttributeError``; a key written
  ``"name()"`` becomes a method ``name(*args, **kwargs)`` returning the value;
* ``"@path"`` refers to another value: ``@device``, ``@server_args`` (what the setup
  hook published), or a dotted path into ``[objects]`` (``@model_runner.token_to_kv_pool``);
* ``"dtype:bfloat16"`` is ``torch.bfloat16``;
* ``"tensor:int32[256,8192]"`` is ``torch.zeros(..., device=@device)``; a ``@cpu``
  suffix places it on the CPU;
* ``"new:pkg.mod:Name"`` calls ``pkg.mod.Name()``; ``"import:pkg.mod:Name"`` is the
  object itself;
* ``"py:None"`` is a Python literal (``ast.literal_eval``); ``"str:@x"`` a literal string;
* anything else is taken as it is.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Callable
from typing import Any

_TENSOR = re.compile(r"^tensor:(\w+)\[([\d,\s]*)\](?:@(\w+))?$")


class StandInError(AttributeError):
    pass


class StandIn:
    """An attribute bag standing in for a framework object."""

    __slots__ = ("_di_log", "_di_path", "_di_values")

    def __init__(self, path: str, log: ReadLog):
        object.__setattr__(self, "_di_path", path)
        object.__setattr__(self, "_di_log", log)
        object.__setattr__(self, "_di_values", {})

    def _di_set(self, name: str, value: Any) -> None:
        self._di_values[name] = value

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        values = object.__getattribute__(self, "_di_values")
        path = object.__getattribute__(self, "_di_path")
        log = object.__getattribute__(self, "_di_log")
        if name in values:
            log.read(f"{path}.{name}")
            return values[name]
        log.miss(f"{path}.{name}")
        raise StandInError(
            f"stand-in {path!r} has no attribute {name!r}: add it to the profile (key {path}.{name} under [objects])"
        )

    def __setattr__(self, name: str, value: Any) -> None:
        self._di_log.write(f"{self._di_path}.{name}")
        self._di_values[name] = value

    def __repr__(self) -> str:
        return f"<stand-in {self._di_path}>"


class ReadLog:
    """What the constructor read, probed without finding, and wrote on the stand-ins."""

    def __init__(self) -> None:
        self.reads: dict[str, int] = {}
        self.misses: dict[str, int] = {}
        self.writes: dict[str, int] = {}
        self.enabled = False

    def _bump(self, table: dict[str, int], key: str) -> None:
        if self.enabled:
            table[key] = table.get(key, 0) + 1

    def read(self, key: str) -> None:
        self._bump(self.reads, key)

    def miss(self, key: str) -> None:
        self._bump(self.misses, key)

    def write(self, key: str) -> None:
        self._bump(self.writes, key)

    def as_dict(self) -> dict[str, list[str]]:
        return {"reads": sorted(self.reads), "misses": sorted(self.misses), "writes": sorted(self.writes)}


def _method(value: Any, log: ReadLog, path: str) -> Callable[..., Any]:
    def method(*args: Any, **kwargs: Any) -> Any:
        log.read(path)
        return value

    method.__name__ = path.rsplit(".", 1)[-1]
    return method


def _import(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    obj = importlib.import_module(module_name)
    for part in filter(None, attr.split(".")):
        obj = getattr(obj, part)
    return obj


class Builder:
    """Builds values from a profile's spec, memoised by path, references resolved lazily."""

    def __init__(self, objects: dict[str, Any], device: str, refs: dict[str, Any] | None = None):
        self.objects = objects
        self.device = device
        self.refs = {"device": device}
        self.refs.update(refs or {})
        self.log = ReadLog()
        self.memo: dict[str, Any] = {}
        self._building: set = set()

    # -- references -------------------------------------------------------------------
    def get(self, path: str) -> Any:
        if path in self.memo:
            return self.memo[path]
        head, _, rest = path.partition(".")
        if head in self.refs:
            value = self.refs[head]
            for part in filter(None, rest.split(".")):
                value = getattr(value, part)
            return value
        spec: Any = self.objects
        walked: list[str] = []
        parts = path.split(".")
        for i, part in enumerate(parts):
            if isinstance(spec, dict) and part in spec:
                spec = spec[part]
                walked.append(part)
                continue
            if isinstance(spec, dict) and f"{part}()" in spec:
                raise KeyError(f"@{path}: {part}() is a method; refer to its value instead")
            if walked:  # a built non-table value: continue with getattr
                value = self.get(".".join(walked))
                for rest_part in parts[i:]:
                    value = getattr(value, rest_part)
                return value
            raise KeyError(f"unknown reference @{path} (no [objects.{part}] and no such builtin)")
        if path in self._building:
            raise ValueError(f"reference cycle through @{path}")
        self._building.add(path)
        try:
            return self.make(spec, path)
        finally:
            self._building.discard(path)

    # -- values -----------------------------------------------------------------------
    def make(self, spec: Any, path: str) -> Any:
        if path in self.memo:
            return self.memo[path]
        if isinstance(spec, dict):
            shell = StandIn(path, self.log)
            self.memo[path] = shell
            for key, sub in spec.items():
                if key.endswith("()"):
                    name = key[:-2]
                    shell._di_set(name, _method(self.make(sub, f"{path}.{key}"), self.log, f"{path}.{key}"))
                else:
                    shell._di_set(key, self.make(sub, f"{path}.{key}"))
            return shell
        if isinstance(spec, list):
            value = [self.make(item, f"{path}[{i}]") for i, item in enumerate(spec)]
        elif isinstance(spec, str):
            value = self._string(spec)
        else:
            value = spec
        self.memo[path] = value
        return value

    def _string(self, text: str) -> Any:
        if text.startswith("@"):
            return self.get(text[1:])
        if text.startswith("str:"):
            return text[4:]
        if text.startswith("py:"):
            return ast.literal_eval(text[3:])
        if text.startswith("dtype:"):
            import torch  # noqa: PLC0415 - torch only in the child process

            return getattr(torch, text[6:])
        if text.startswith("tensor:"):
            match = _TENSOR.match(text.replace(" ", ""))
            if not match:
                raise ValueError(f"bad tensor spec {text!r}; expected tensor:DTYPE[d0,d1]")
            import torch  # noqa: PLC0415 - torch only in the child process

            dtype, dims, where = match.groups()
            shape = [int(d) for d in dims.split(",") if d]
            return torch.zeros(shape, dtype=getattr(torch, dtype), device=where or self.device)
        if text.startswith("new:"):
            return _import(text[4:])()
        if text.startswith("import:"):
            return _import(text[7:])
        return text

    def build_call(self, construct: dict[str, Any]) -> tuple:
        args = [self.make(a, f"args[{i}]") for i, a in enumerate(construct.get("args", []))]
        kwargs = {k: self.make(v, f"kwargs.{k}") for k, v in construct.get("kwargs", {}).items()}
        return args, kwargs
