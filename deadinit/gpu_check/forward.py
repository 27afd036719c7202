"""Drive the forward path of a built instance and record its kernel-boundary calls.

Loaded by file path inside the measurement child (``harness.py``); standard library
only at import time. A profile's ``[forward]`` section says how::

    [forward]
    driver = "sglang"          # "sglang" (forward_sglang.py) or "module:Class"
    seed = 2026                # every input comes from torch.Generator().manual_seed(seed)
    paths = ["decode", "extend", "extend-prefix"]
    [forward.path.decode]      # one table per path: what the driver needs
    mode = "decode"
    seq_lens = [37, 64, 130]
    [[forward.kernels]]        # the kernel boundary (boundary.py)
    target = "pkg.kernels:attention"

A driver is a class with ``prepare(ctx)`` (called before the constructor: build real
pools, say) and ``run_path(ctx, instance, name, spec)`` (returns the backend methods
it called, in order, and records the backend's outputs with ``ctx.output``). Each path
runs on its own; an exception is recorded with its traceback and the next path runs.
"""

from __future__ import annotations

import importlib
import os
import time
import traceback
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
BUILTIN_DRIVERS = {"sglang": ("forward_sglang", "SglangDriver")}
MAX_KEPT_BYTES = 1 << 30


class Context:
    """What a driver gets: the profile section, the stand-in builder, torch, the seed."""

    def __init__(
        self, spec: dict[str, Any], builder: Any, refs: dict[str, Any], device: str, load_sibling: Callable[[str], Any]
    ):
        import torch  # noqa: PLC0415 - torch only in the child process

        self.torch = torch
        self.spec = spec
        self.builder = builder
        self.refs = refs
        self.device = device
        self.seed = int(spec.get("seed", 2026))
        self.load_sibling = load_sibling
        self.boundary: Any = None
        self.generator = torch.Generator().manual_seed(self.seed)
        self.state: dict[str, Any] = {}

    def reseed(self, offset: int) -> None:
        self.generator = self.torch.Generator().manual_seed(self.seed + offset)

    def randn(self, shape, dtype, device: str | None = None):
        """Seeded normal values, drawn on the CPU so both trees get the same bytes."""
        torch = self.torch
        values = torch.randn(list(shape), generator=self.generator, dtype=torch.float32)
        return values.to(dtype).to(device or self.device)

    def output(self, label: str, value: Any) -> None:
        """Record what the backend returned, as a pseudo-call after the kernel calls."""
        boundary = self.boundary
        record = {
            "index": len(boundary.records),
            "path": boundary.path,
            "name": label,
            "target": "backend output",
            "ran": True,
            "args": {},
            "output": boundary_digest(self, value),
        }
        boundary.records.append(record)
        boundary.keep(value, record["output"])


def boundary_digest(ctx: Context, value: Any) -> Any:
    return ctx.load_sibling("boundary").digest(value)


def load_driver(name: str, load_sibling: Callable[[str], Any]):
    if name in BUILTIN_DRIVERS:
        module_name, class_name = BUILTIN_DRIVERS[name]
        return getattr(load_sibling(module_name), class_name)()
    module_name, _, attr = name.partition(":")
    if not attr:
        raise ValueError(f"forward driver {name!r}: expected 'sglang' or 'module:Class'")
    return getattr(importlib.import_module(module_name), attr)()


class TensorKeeper:
    """Copies of the recorded tensors, by digest, for the exact comparison on the device."""

    def __init__(self, limit: int = MAX_KEPT_BYTES):
        self.tensors: dict[str, Any] = {}
        self.bytes = 0
        self.limit = limit
        self.skipped = 0

    def __call__(self, tensor: Any, sha: str) -> None:
        if sha in self.tensors:
            return
        size = tensor.numel() * tensor.element_size()
        if self.bytes + size > self.limit:
            self.skipped += 1
            return
        self.tensors[sha] = tensor.detach().clone()
        self.bytes += size

    def save(self, path: str) -> None:
        import torch  # noqa: PLC0415 - torch only in the child process

        torch.save({k: v.cpu() for k, v in self.tensors.items()}, path)


class Session:
    def __init__(self, job: dict[str, Any], builder: Any, refs: dict[str, Any], load_sibling: Callable[[str], Any]):
        self.job = job
        self.spec = job["profile"].get("forward") or {}
        self.ctx = Context(self.spec, builder, refs, job["device"], load_sibling)
        self.driver = load_driver(self.spec.get("driver", ""), load_sibling)
        self.load_sibling = load_sibling

    def prepare(self) -> None:
        self.driver.prepare(self.ctx)

    def run(self, instance: Any, meter: Any) -> dict[str, Any]:
        boundary_mod = self.load_sibling("boundary")
        boundary = boundary_mod.Boundary(self.spec.get("kernels", []), self.job.get("run_kernels"))
        keeper = TensorKeeper() if self.job.get("tensor_store") else None
        boundary.keep_tensors = keeper
        boundary.install()
        self.ctx.boundary = boundary
        if self.spec.get("deterministic", True):
            # torch.empty then fills with NaN / the largest integer instead of whatever the
            # allocator hands out, so unwritten buffer tails are equal in both trees.
            torch = self.ctx.torch
            torch.use_deterministic_algorithms(True, warn_only=True)
            torch.utils.deterministic.fill_uninitialized_memory = True
        paths: list[dict[str, Any]] = []
        try:
            for offset, name in enumerate(self.spec.get("paths", [])):
                paths.append(self._one_path(instance, meter, name, offset))
        finally:
            boundary.uninstall()
        if keeper is not None:
            keeper.save(self.job["tensor_store"])
        return {
            "driver": self.spec.get("driver"),
            "seed": self.ctx.seed,
            "paths": paths,
            "tensor_store": self.job.get("tensor_store") if keeper is not None else None,
            "calls": boundary.records,
            "boundary": boundary.summary(),
            "kept_tensors": None
            if keeper is None
            else {"count": len(keeper.tensors), "bytes": keeper.bytes, "skipped": keeper.skipped},
        }

    def _one_path(self, instance: Any, meter: Any, name: str, offset: int) -> dict[str, Any]:
        boundary = self.ctx.boundary
        boundary.path = name
        self.ctx.reseed(1000 * (offset + 1))
        first = len(boundary.records)
        entry: dict[str, Any] = {"name": name, "ok": False, "steps": []}
        t0 = time.perf_counter()
        try:
            path_spec = (self.spec.get("path") or {}).get(name, {})
            entry["steps"] = list(self.driver.run_path(self.ctx, instance, name, path_spec) or [])
            meter.sync()
            entry["ok"] = True
        except BaseException as exc:
            entry["error"] = f"{type(exc).__name__}: {exc}"
            entry["traceback"] = traceback.format_exc()[-6000:]
        entry["seconds"] = round(time.perf_counter() - t0, 3)
        entry["calls"] = len(boundary.records) - first
        boundary.path = None
        return entry
