"""Record every call into the attention kernels' Python entry points.

Loaded by file path inside the measurement child; imports only the standard library
at import time (``torch`` is looked up in ``sys.modules``).

A profile's ``[[forward.kernels]]`` entries name the entry points::

    [[forward.kernels]]
    target = "flashinfer.decode:trtllm_batch_decode_with_kv_cache"   # module:attr.path
    run = false                 # false: stop at the boundary and return a stand-in output;
                                # "try": run it, and stand in (saying why) if it raises
    reason = "TRT-LLM-gen cubins are not on the machine"
    output = "like:query"       # stand-in output: zeros shaped like an argument ("like:qkv[0]":
                                # an item of a tuple argument)
    returns = "none"            # or: the stand-in returns this value (a plan step returns None)
    last_dim = "arg:kv_lora_rank" # optional: int, "arg:NAME" (an int argument) or "shape:NAME"
    dtype = "arg:out_dtype"     # optional: "arg:NAME" (a dtype argument) or a dtype name
    out_arg = "out"             # optional: an argument that, when a tensor, is the output
    lse = "return_lse"          # optional: true, or an argument that asks for (out, lse)
    scratch = ["workspace_buffer"]  # arguments compared by shape and dtype only
    provide = false             # create the attribute when the package is not installed

Every call is recorded with its name, the forward path it happened in and a digest of
each argument: tensors by shape, dtype and a SHA-256 of their bytes, other values as
they are. A call made while another recorded call is running (a wrapper's ``forward``
calling its ``run``) is not recorded again.
"""

from __future__ import annotations

import ctypes
import fnmatch
import hashlib
import importlib
import inspect
import sys
import types
from collections.abc import Callable
from typing import Any

MAX_ITEMS = 64


def _torch():
    return sys.modules.get("torch")


def tensor_bytes_digest(tensor: Any) -> str:
    """SHA-256 of a tensor's bytes in row-major order (any dtype, any device)."""
    torch = _torch()
    flat = tensor.detach().contiguous().reshape(-1)
    raw = flat.view(torch.uint8) if flat.element_size() == 1 else flat.view(-1).view(torch.uint8)
    raw = raw.cpu().contiguous()
    data = ctypes.string_at(raw.data_ptr(), raw.numel()) if raw.numel() else b""
    return hashlib.sha256(data).hexdigest()


def is_tensor(value: Any) -> bool:
    torch = _torch()
    return torch is not None and isinstance(value, torch.Tensor)


def digest(value: Any, scratch: bool = False, depth: int = 0) -> Any:
    """A JSON-able description of a value, equal for equal values."""
    if is_tensor(value):
        out = {
            "tensor": list(value.shape),
            "dtype": str(value.dtype).replace("torch.", ""),
            "device": value.device.type,
        }
        if scratch:
            out["scratch"] = True
        else:
            out["sha256"] = tensor_bytes_digest(value)
        return out
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return {"float": repr(value)}
    torch = _torch()
    if torch is not None and isinstance(value, torch.dtype):
        return {"dtype": str(value).replace("torch.", "")}
    if torch is not None and isinstance(value, torch.device):
        return {"device": value.type}
    if depth < 3 and isinstance(value, (list, tuple)):
        return [digest(v, scratch, depth + 1) for v in list(value)[:MAX_ITEMS]]
    if depth < 3 and isinstance(value, dict):
        return {str(k): digest(v, scratch, depth + 1) for k, v in list(value.items())[:MAX_ITEMS]}
    kind = type(value)
    return {"object": f"{kind.__module__}.{kind.__qualname__}"}


class KernelSpec:
    def __init__(self, entry: dict[str, Any]):
        self.target = entry["target"]
        self.module, _, self.attr = self.target.partition(":")
        self.name = self.attr
        run = entry.get("run", False)
        self.run = run if run == "try" else bool(run)  # "try": run, stand in if it raises
        self.reason = entry.get("reason", "")
        self.output = entry.get("output", "like:0")
        self.last_dim = entry.get("last_dim")
        self.dtype = entry.get("dtype")
        self.out_arg = entry.get("out_arg")
        self.lse = entry.get("lse")
        self.returns = entry.get("returns")
        self.scratch = set(entry.get("scratch", []))
        if self.out_arg:  # an output buffer's contents before the call are not an input
            self.scratch.add(self.out_arg)
        self.provide = bool(entry.get("provide", False))


def _resolve(spec: KernelSpec) -> tuple[Any, str, Any]:
    """(owner, attribute name, current value) for ``module:attr.path``; provides if asked."""
    try:
        owner: Any = importlib.import_module(spec.module)
    except ImportError:
        if not spec.provide:
            raise
        owner = sys.modules.setdefault(spec.module, types.ModuleType(spec.module))
    parts = spec.attr.split(".")
    for part in parts[:-1]:
        if not hasattr(owner, part):
            if not spec.provide:
                raise AttributeError(f"{spec.target}: no attribute {part!r}")
            setattr(owner, part, types.SimpleNamespace())
        owner = getattr(owner, part)
    leaf = parts[-1]
    current = getattr(owner, leaf, None)
    if current is None and not spec.provide:
        raise AttributeError(f"{spec.target}: no attribute {leaf!r}")
    return owner, leaf, current


def _bound_arguments(func: Callable | None, args: tuple, kwargs: dict) -> dict[str, Any]:
    try:
        bound = inspect.signature(func).bind(*args, **kwargs)
    except (TypeError, ValueError):
        named = {f"arg{i}": a for i, a in enumerate(args)}
        named.update(kwargs)
        return named
    out: dict[str, Any] = {}
    for name, value in bound.arguments.items():
        param = bound.signature.parameters[name]
        if param.kind is param.VAR_KEYWORD:
            out.update(value)
        elif param.kind is param.VAR_POSITIONAL:
            out.update({f"{name}[{i}]": v for i, v in enumerate(value)})
        else:
            out[name] = value
    return out


def _dtype(torch, spec_value: str | None, named: dict[str, Any], default):
    if not spec_value:
        return default
    if spec_value.startswith("arg:"):
        value = named.get(spec_value[4:])
        return value if isinstance(value, torch.dtype) else default
    return getattr(torch, spec_value)


def stand_in_output(spec: KernelSpec, named: dict[str, Any]) -> Any:
    """A zero tensor of the shape and dtype the kernel would return."""
    if spec.returns is not None:
        return None if spec.returns == "none" else spec.returns
    torch = _torch()
    out = named.get(spec.out_arg) if spec.out_arg else None
    if not is_tensor(out):
        like_name = spec.output.split(":", 1)[1]
        like = _argument(named, like_name)
        if not is_tensor(like):
            raise TypeError(f"{spec.target}: no tensor argument {like_name!r} to shape the stand-in output")
        shape = list(like.shape)
        if spec.last_dim is not None:
            shape[-1] = _last_dim(spec.last_dim, named)
        dtype = _dtype(torch, spec.dtype, named, like.dtype)
        out = torch.zeros(shape, dtype=dtype, device=like.device)
    wants_lse = spec.lse is True or (isinstance(spec.lse, str) and bool(named.get(spec.lse)))
    if wants_lse:
        lse = torch.zeros(list(out.shape[:-1]), dtype=torch.float32, device=out.device)
        return out, lse
    return out


def _argument(named: dict[str, Any], name: str) -> Any:
    """``name`` or ``name[i]`` (an item of a tuple argument) or ``i`` (the i-th tensor)."""
    if name.isdigit():
        tensors = [v for v in named.values() if is_tensor(v)]
        return tensors[int(name)] if len(tensors) > int(name) else None
    base, _, index = name.partition("[")
    value = named.get(base)
    if index and isinstance(value, (list, tuple)):
        position = int(index.rstrip("]"))
        value = value[position] if len(value) > position else None
    return value


def _last_dim(rule: Any, named: dict[str, Any]) -> int:
    if isinstance(rule, int):
        return rule
    kind, _, name = str(rule).partition(":")
    if kind == "arg":
        return int(named[name])
    if kind == "shape":
        return int(_argument(named, name).shape[-1])
    raise ValueError(f"bad last_dim rule {rule!r}")


class Boundary:
    """Patches the kernel entry points and records each call."""

    def __init__(self, entries: list[dict[str, Any]], run_patterns: list[str] | None = None):
        self.specs = [KernelSpec(e) for e in entries]
        for spec in self.specs:
            if spec.run is False and any(fnmatch.fnmatchcase(spec.target, p) for p in run_patterns or []):
                spec.run = "try"
        self.records: list[dict[str, Any]] = []
        self.installed: list[str] = []
        self.missing: dict[str, str] = {}
        self.provided: list[str] = []
        self.path: str | None = None
        self._depth = 0
        self._undo: list[tuple[Any, str, Any]] = []
        self.keep_tensors: Callable[[Any, str], None] | None = None

    # -- installing ---------------------------------------------------------------------
    def install(self) -> None:
        for spec in self.specs:
            try:
                owner, leaf, original = _resolve(spec)
            except (ImportError, AttributeError) as exc:
                self.missing[spec.target] = f"{type(exc).__name__}: {exc}"
                continue
            if original is None:
                self.provided.append(spec.target)
            wrapper = self._wrap(spec, original, isinstance(owner, type))
            self._undo.append((owner, leaf, original))
            setattr(owner, leaf, wrapper)
            if original is not None and not isinstance(owner, type):
                self._rebind_aliases(original, wrapper)
            self.installed.append(spec.target)

    def _rebind_aliases(self, original: Any, wrapper: Any) -> None:
        """Modules that imported the function by name hold their own reference."""
        for module in list(sys.modules.values()):
            namespace = getattr(module, "__dict__", None)
            if not isinstance(namespace, dict):
                continue
            for key, value in list(namespace.items()):
                if value is original:
                    self._undo.append((module, key, original))
                    namespace[key] = wrapper

    def uninstall(self) -> None:
        for owner, leaf, original in reversed(self._undo):
            setattr(owner, leaf, original)
        self._undo.clear()

    # -- recording ----------------------------------------------------------------------
    def _wrap(self, spec: KernelSpec, original: Any, is_method: bool) -> Callable:
        boundary = self

        def recorded(*args, **kwargs):
            if boundary._depth:
                return original(*args, **kwargs)
            named = _bound_arguments(original, args, kwargs)
            record = {
                "index": len(boundary.records),
                "path": boundary.path,
                "name": spec.name,
                "target": spec.target,
                "ran": spec.run and original is not None,
                "args": {
                    k: digest(v, scratch=k in spec.scratch) for k, v in named.items() if not (is_method and k == "self")
                },
            }
            if is_method and "self" in named:
                record["owner"] = type(named["self"]).__qualname__
            if not record["ran"]:
                record["stand_in"] = spec.reason or "not run: the profile stops at this boundary"
            if boundary.keep_tensors:
                for key, value in named.items():
                    if key in record["args"]:
                        boundary.keep(value, record["args"][key])
            boundary.records.append(record)
            boundary._depth += 1
            try:
                result = boundary._call(spec, original, record, named, args, kwargs)
            finally:
                boundary._depth -= 1
            if record["ran"] or spec.returns is None:
                record["output"] = digest(result)
                if record["ran"]:
                    boundary.keep(result, record["output"])
            return result

        recorded.__name__ = spec.attr.rsplit(".", 1)[-1]
        recorded.__wrapped_kernel__ = original
        return recorded

    @staticmethod
    def _call(
        spec: KernelSpec, original: Any, record: dict[str, Any], named: dict[str, Any], args: tuple, kwargs: dict
    ) -> Any:
        if not record["ran"]:
            return stand_in_output(spec, named)
        try:
            return original(*args, **kwargs)
        except Exception as exc:
            if spec.run != "try":
                raise
            record["ran"] = False
            record["stand_in"] = f"tried to run it: {type(exc).__name__}: {exc}"[:400]
            return stand_in_output(spec, named)

    def keep(self, value: Any, described: Any) -> None:
        """Hand every tensor in ``value`` (digested as ``described``) to the tensor keeper."""
        if self.keep_tensors is None:
            return
        if is_tensor(value) and isinstance(described, dict) and "sha256" in described:
            self.keep_tensors(value, described["sha256"])
        elif isinstance(value, (list, tuple)) and isinstance(described, list):
            for item, item_described in zip(value, described, strict=False):
                self.keep(item, item_described)

    def summary(self) -> dict[str, Any]:
        stand_ins = {}
        for spec in self.specs:
            if not spec.run and spec.target in self.installed:
                stand_ins[spec.target] = spec.reason or "stopped at the boundary"
        for record in self.records:  # kernels tried for real that raised
            if record.get("stand_in") and record["target"] not in stand_ins:
                stand_ins[record["target"]] = record["stand_in"]
        return {
            "installed": self.installed,
            "missing": self.missing,
            "provided": self.provided,
            "stand_ins": stand_ins,
            "ran": sorted({r["target"] for r in self.records if r.get("ran") and "target" in r}),
        }
