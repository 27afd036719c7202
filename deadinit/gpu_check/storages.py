"""Find the tensor storages reachable from an object's attributes.

Loaded by file path inside the measurement child; imports only the standard library
(``torch`` is looked up in ``sys.modules`` when present, never imported here, so the
walker also works on fake-tensor fixtures that have no torch at all).

The walk starts at each instance attribute (``vars(obj)`` and ``__slots__``), goes
through lists, tuples, sets and dict values freely, and into other objects'
``__dict__`` up to ``depth`` levels (FlashInfer wrappers hold their buffers one level
down). Each storage is counted once, for the first attribute (in definition order)
that reaches it, so the per-attribute bytes add up to the total. Storages already
reachable from the constructor's inputs (the stand-in ``model_runner``) are reported
separately as ``external``: the constructor did not allocate them.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterable, Iterator
from typing import Any

MAX_CONTAINER_ITEMS = 100_000
_SKIP_TYPES = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    str,
    bytes,
    int,
    float,
    complex,
    bool,
    type(None),
)


def _torch():
    return sys.modules.get("torch")


def storage_of(value: Any) -> tuple[Any, int, str, bool] | None:
    """(key, nbytes, device, pinned) for a tensor-like value, else None.

    Real torch tensors are keyed by their untyped storage (so views share); other
    objects with an integer ``nbytes`` and a ``shape`` (fake tensors, numpy arrays)
    are keyed by the base object they view, or their own id.
    """
    torch = _torch()
    if torch is not None and isinstance(value, torch.Tensor):
        if getattr(value, "is_meta", False) or value.device.type == "meta":
            return None
        try:
            st = value.untyped_storage()
            nbytes = int(st.nbytes())
            key = (value.device.type, value.device.index, st.data_ptr())
            if st.data_ptr() == 0:
                key = ("obj", id(st))
        except Exception:  # sparse, nested or otherwise storage-less tensors
            nbytes = int(value.numel() * value.element_size())
            key = ("obj", id(value))
        pinned = False
        if value.device.type == "cpu":
            try:
                pinned = bool(value.is_pinned())
            except Exception:
                pinned = False
        return key, nbytes, str(value.device.type), pinned
    try:
        if not hasattr(value, "shape"):
            return None
        nbytes = getattr(value, "nbytes", None)
    except Exception:
        return None
    if isinstance(nbytes, int) and not isinstance(nbytes, bool):
        base = getattr(value, "base", None)
        owner = base if base is not None and hasattr(base, "nbytes") else value
        device = getattr(value, "device", "cpu")
        device = getattr(device, "type", device)
        return (
            ("obj", id(owner)),
            int(getattr(owner, "nbytes", nbytes)),
            str(device),
            bool(getattr(value, "pinned", False)),
        )
    return None


def _children(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        items: Iterable[Any] = value.values()
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = value
    else:
        return
    for i, item in enumerate(items):
        if i >= MAX_CONTAINER_ITEMS:
            return
        yield item


def instance_attributes(obj: Any) -> dict[str, Any]:
    """The instance's own attributes: ``__dict__`` then any filled ``__slots__``."""
    attrs: dict[str, Any] = dict(getattr(obj, "__dict__", {}) or {})
    for klass in type(obj).__mro__:
        for slot in getattr(klass, "__slots__", ()) or ():
            if isinstance(slot, str) and slot not in attrs and hasattr(obj, slot):
                attrs[slot] = getattr(obj, slot)
    return attrs


def _object_dict(value: Any) -> dict[str, Any] | None:
    if isinstance(value, _SKIP_TYPES):
        return None
    d = getattr(value, "__dict__", None)
    if isinstance(d, dict):
        return d
    try:
        return instance_attributes(value) or None
    except Exception:
        return None


def iter_storages(root: Any, depth: int, seen_objects: dict[int, int]) -> Iterator[tuple[Any, int, str, bool]]:
    """Yield storages reachable from ``root``.

    ``seen_objects`` maps id -> the shallowest level an object was visited at; it is
    shared between calls so cycles and shared sub-objects are walked once (again only
    when reached at a shallower level, where the depth limit lets the walk go further).
    """
    stack = [(root, 0)]
    while stack:
        value, level = stack.pop()
        if value is None or isinstance(value, _SKIP_TYPES):
            continue
        prev = seen_objects.get(id(value))
        if prev is not None and prev <= level:
            continue
        seen_objects[id(value)] = level
        st = storage_of(value)
        if st is not None:
            yield st
            continue
        if isinstance(value, (dict, list, tuple, set, frozenset)):
            stack.extend((child, level) for child in _children(value))
            continue
        if level < depth:
            d = _object_dict(value)
            if d:
                stack.extend((child, level + 1) for child in d.values())


def storage_keys(roots: Iterable[Any], depth: int = 2) -> set[Any]:
    """Keys of every storage reachable from ``roots`` (used for the inputs)."""
    keys: set[Any] = set()
    for root in roots:
        for key, _n, _dev, _pin in iter_storages(root, depth, {}):
            keys.add(key)
    return keys


def reachable_report(obj: Any, depth: int = 2, external: set[Any] | None = None) -> dict[str, Any]:
    """Bytes per attribute of the unique storages reachable from ``obj``'s attributes."""
    external = external or set()
    counted: set[Any] = set()
    per_attr: dict[str, dict[str, Any]] = {}
    totals = {"bytes": 0, "device_bytes": 0, "cpu_bytes": 0, "pinned_bytes": 0, "external_bytes": 0, "storages": 0}
    seen_objects: dict[int, int] = {id(obj): -1}  # cycles back to the instance stop here
    for name, value in instance_attributes(obj).items():
        entry = {"bytes": 0, "storages": 0, "pinned_bytes": 0, "devices": [], "external_bytes": 0}
        devices: set[str] = set()
        for key, nbytes, device, pinned in iter_storages(value, depth, seen_objects):
            if key in counted:
                continue
            counted.add(key)
            if key in external:
                entry["external_bytes"] += nbytes
                totals["external_bytes"] += nbytes
                continue
            entry["bytes"] += nbytes
            entry["storages"] += 1
            devices.add(device)
            totals["bytes"] += nbytes
            totals["storages"] += 1
            if device == "cpu":
                totals["cpu_bytes"] += nbytes
                if pinned:
                    entry["pinned_bytes"] += nbytes
                    totals["pinned_bytes"] += nbytes
            else:
                totals["device_bytes"] += nbytes
        if entry["bytes"] or entry["external_bytes"]:
            entry["devices"] = sorted(devices)
            per_attr[name] = entry
    totals["attributes"] = per_attr
    return totals
