"""Measurement child: build one class from one tree and write what it cost as JSON.

Run as a script, one fresh interpreter per (class, tree), so module caches, named
buffer caches and JIT state cannot leak between measurements::

    python harness.py JOB.json RESULT.json

``JOB.json`` is written by ``runner.py`` (tree, class, device, stubs, the resolved
profile, attributes to check). This file and the siblings it loads by path
(``stubs.py``, ``standins.py``, ``storages.py``) import only the standard library
at import time; torch and the analysed package are imported here, in the child.
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import inspect
import json
import os
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ABSENT, NONE, SET = "absent", "none", "set"


def _load_sibling(name: str):
    key = f"_deadinit_gpu_{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, os.path.join(HERE, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module


def _prepare_sys_path(tree: str, extra: list[str]) -> None:
    # The script's own folder must not shadow anything the analysed code imports.
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]
    for path in reversed([tree, *extra]):
        sys.path.insert(0, path)


def _is_under(path: str | None, root: str) -> bool:
    if not path:
        return False
    path, root = os.path.realpath(path), os.path.realpath(root)
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def attr_state(obj: Any, name: str) -> str:
    try:
        value = getattr(obj, name)
    except AttributeError:
        return ABSENT
    except Exception as exc:  # a property that raises: report, do not crash
        return f"error: {type(exc).__name__}: {exc}"
    return NONE if value is None else SET


def qualname(klass: type) -> str:
    return f"{klass.__module__}.{klass.__qualname__}"


def resolve_class(spec: str) -> type:
    if ":" in spec:
        module_name, class_path = spec.split(":", 1)
    else:
        module_name, _, class_path = spec.rpartition(".")
    module = importlib.import_module(module_name)
    obj: Any = module
    for part in class_path.split("."):
        obj = getattr(obj, part)
    if not isinstance(obj, type):
        raise TypeError(f"{spec} is not a class")
    return obj


# -- framework setup hooks ------------------------------------------------------------
def setup_sglang(options: dict[str, Any]) -> tuple[dict[str, Any], Callable[[], dict[str, Any]]]:
    """Publish a default ServerArgs through sglang's test hook and empty the named buffers."""
    from sglang.srt.runtime_context import get_context, get_parallel, get_resources  # noqa: PLC0415 - sglang only in the child process

    server_args = get_context().override_server_args(**options.get("server_args", {})).install()
    parallel = options.get("parallel") or {}
    if parallel:
        cm = get_parallel().override(**parallel)
        cm.__enter__()  # held for the life of the process
    get_resources().buffers.clear()
    return {"server_args": server_args}, lambda: dict(get_resources().buffers)


def setup_none(options: dict[str, Any]):
    return {}, lambda: {}


def _setup_hook(name: str) -> Callable:
    if name in ("", "none", None):
        return setup_none
    if name == "sglang":
        return setup_sglang
    module_name, _, func = name.partition(":")
    return getattr(importlib.import_module(module_name), func)


# -- torch helpers --------------------------------------------------------------------
class Meter:
    def __init__(self, device: str):
        self.device = device
        self.torch = None
        self.cuda = device.startswith("cuda")

    def start(self) -> None:
        try:
            import torch  # noqa: PLC0415 - torch only in the child process, and optional
        except ImportError:
            if self.cuda:
                raise
            return  # CPU mode on fake-tensor fixtures: reachable bytes still work
        self.torch = torch
        if self.cuda:
            if not torch.cuda.is_available():
                raise RuntimeError("--device cuda but torch.cuda.is_available() is False")
            torch.cuda.init()

    def sync(self) -> None:
        if self.cuda:
            self.torch.cuda.synchronize()

    def allocated(self) -> int | None:
        return int(self.torch.cuda.memory_allocated()) if self.cuda else None

    def host_stats(self) -> dict[str, int]:
        if not self.cuda:
            return {}
        fn = getattr(self.torch.cuda, "host_memory_stats", None)
        try:
            stats = fn() if fn else {}
        except Exception:
            return {}
        return {k: int(v) for k, v in stats.items() if isinstance(v, (int, float))}

    def environment(self) -> dict[str, Any]:
        torch = self.torch
        env = {"torch": getattr(torch, "__version__", None) if torch else None, "python": sys.version.split()[0]}
        if self.cuda:
            props = torch.cuda.get_device_properties(torch.cuda.current_device())
            env.update(
                gpu=props.name,
                capability=f"{props.major}.{props.minor}",
                gpu_total_bytes=int(props.total_memory),
                cuda=getattr(torch.version, "cuda", None),
            )
        return env


def pinned_delta(
    before: dict[str, int],
    after: dict[str, int],
    keys=("allocated_bytes.current", "allocated_bytes.all.current", "reserved_bytes.current"),
) -> int | None:
    """Pinned host bytes the caching host allocator holds now minus before."""
    for key in keys:
        if key in after:
            return after[key] - before.get(key, 0)
    return None


def tensor_bytes(value: Any, storages) -> int:
    seen, total = {}, 0
    keys = set()
    for key, nbytes, _d, _p in storages.iter_storages(value, 1, seen):
        if key not in keys:
            keys.add(key)
            total += nbytes
    return total


# -- the measurement ------------------------------------------------------------------
def measure(job: dict[str, Any], result: dict[str, Any]) -> None:
    tree = os.path.abspath(job["tree"])
    _prepare_sys_path(tree, job.get("extra_paths", []))
    storages = _load_sibling("storages")
    stubs = _load_sibling("stubs")
    standins = _load_sibling("standins")
    result["stubbed"] = stubs.install(job.get("stub", []))

    meter = Meter(job["device"])
    meter.start()
    result["environment"] = meter.environment()
    profile = job["profile"]

    klass = _imported(job["class"], tree, result)

    t0 = time.perf_counter()
    refs, named_buffers = _setup_hook(profile.get("setup", "none"))(profile.get("setup_options", {}))
    builder = standins.Builder(profile.get("objects", {}), job["device"], refs)
    args, kwargs = builder.build_call(profile.get("construct", {}))
    session = _forward_session(job, builder, refs, result)
    external = storages.storage_keys([args, kwargs, refs], depth=job.get("depth", 2) + 1)
    result["setup_seconds"] = round(time.perf_counter() - t0, 3)

    gc.collect()
    meter.sync()
    if meter.cuda:
        meter.torch.cuda.reset_peak_memory_stats()
    alloc0, host0 = meter.allocated(), meter.host_stats()
    builder.log.enabled = True
    t0 = time.perf_counter()
    try:
        instance = klass(*args, **kwargs)
        meter.sync()
    finally:
        builder.log.enabled = False
        result["construct_seconds"] = round(time.perf_counter() - t0, 4)
        result["model_runner_access"] = builder.log.as_dict()
    alloc1, host1 = meter.allocated(), meter.host_stats()
    result["ok"] = True

    if meter.cuda:
        _device_deltas(meter, (alloc0, host0), (alloc1, host1), result)
    reach = storages.reachable_report(instance, depth=job.get("depth", 2), external=external)
    result["reachable"] = reach
    result["named_buffers"] = {name: tensor_bytes(buf, storages) for name, buf in named_buffers().items()}
    result["attributes"] = {
        name: (NONE if value is None else type(value).__name__)
        for name, value in storages.instance_attributes(instance).items()
    }
    result["checks"] = {
        "reads": {a: attr_state(instance, a) for a in job.get("expect_read", [])},
        "skipped": {a: attr_state(instance, a) for a in job.get("expect_skipped", [])},
    }
    if session is not None:
        result["forward"] = session.run(instance, meter)


def _imported(name: str, tree: str, result: dict[str, Any]):
    """Import the class (from ``tree``, or an ImportError), noting where it comes from."""
    t0 = time.perf_counter()
    klass = resolve_class(name)
    result["import_seconds"] = round(time.perf_counter() - t0, 3)
    module_file = inspect.getsourcefile(klass) or getattr(sys.modules[klass.__module__], "__file__", None)
    result["module_file"] = module_file
    result["mro"] = [qualname(k) for k in klass.__mro__]
    result["bases"] = [qualname(k) for k in klass.__bases__]
    if not _is_under(module_file, tree):
        raise ImportError(f"{name} was loaded from {module_file}, not from the tree {tree}")
    return klass


def _device_deltas(meter, before: tuple, after: tuple, result: dict[str, Any]) -> None:
    """What the construction allocated on the device and in pinned host memory."""
    (alloc0, host0), (alloc1, host1) = before, after
    result["device_bytes"] = alloc1 - alloc0
    result["device_peak_bytes"] = int(meter.torch.cuda.max_memory_allocated()) - alloc0
    result["pinned_host_bytes"] = pinned_delta(host0, host1)
    result["pinned_host_active_bytes"] = pinned_delta(host0, host1, ("active_bytes.current",))
    result["host_stats_delta"] = {k: host1[k] - host0.get(k, 0) for k in host1 if host1[k] != host0.get(k, 0)}


def _forward_session(job: dict[str, Any], builder, refs, result: dict[str, Any]):
    """The forward run's session, prepared before the constructor runs (it may build pools)."""
    if not job.get("forward"):
        return None
    try:
        session = _load_sibling("forward").Session(job, builder, refs, _load_sibling)
        session.prepare()
    except Exception as exc:  # the build is still measured; the forward run reports why not
        result["forward"] = {
            "error": f"{type(exc).__name__}: {exc}",
            "traceback": traceback.format_exc()[-6000:],
            "paths": [],
            "calls": [],
        }
        return None
    return session


def _end_with_parent() -> None:
    """End when the deadinit process that started this child ends (``deadinit/runtime/orphans.py``,
    loaded by path like the siblings: this interpreter need not have deadinit installed)."""
    path = os.path.join(HERE, os.pardir, "runtime", "orphans.py")
    try:
        spec = importlib.util.spec_from_file_location("_deadinit_orphans", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (OSError, ImportError, SyntaxError):
        return
    module.end_with_parent_from_environment()


def main(argv: list[str]) -> int:
    _end_with_parent()
    if len(argv) != 3:
        print("usage: harness.py JOB.json RESULT.json", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as fh:
        job = json.load(fh)
    result: dict[str, Any] = {
        "class": job.get("class"),
        "tree": job.get("tree"),
        "label": job.get("label"),
        "device": job.get("device"),
        "ok": False,
    }
    try:
        measure(job, result)
    except BaseException as exc:
        result["ok"] = False
        result["error"] = f"{type(exc).__name__}: {exc}"
        result["traceback"] = traceback.format_exc()
    with open(argv[2], "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
