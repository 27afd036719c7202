"""Build every fixture class on CPU with the fake torch and describe what it created.

Run as ``python fixture_probe.py TREE`` (TREE holds a ``fixtures`` package, original
or rewritten); prints JSON: per class, the attributes it ends up with, the objects
its constructor created (wrappers, updaters, backends), the tensors and bytes it
allocated, the named buffers it touched, and whether every public path still runs.
"""

import json
import sys
import traceback

sys.modules["torch"] = None  # the fixtures fall back to fixtures.backends.fake_torch
sys.path.insert(0, sys.argv[1])

from fixtures import runner_stub as rs  # noqa: E402
from fixtures.backends import buffers, fake_torch, flash_updaters, wrappers  # noqa: E402
from fixtures.backends.flash_backend import FlashBackend  # noqa: E402
from fixtures.backends.flash_draft import FlashMultiStepDraft  # noqa: E402
from fixtures.backends.flash_mla_backend import FlashMLABackend, FlashMLAMultiStepDraft  # noqa: E402
from fixtures.backends.speed_mla_backend import SpeedMLABackend  # noqa: E402
from fixtures.backends.trt_mha_backend import TrtMHABackend, TrtMHAMultiStepDraft  # noqa: E402
from fixtures.backends.trt_mla_backend import TrtMLABackend, TrtMLAMultiStepDraft  # noqa: E402
from fixtures.negatives.aliased import AliasedFlash, FromModule  # noqa: E402

LOG = {"created": [], "tensors": 0, "bytes": 0}


def _count_tensors(name):
    orig = getattr(fake_torch, name)

    def make(*a, **k):
        t = orig(*a, **k)
        LOG["tensors"] += 1
        LOG["bytes"] += t.nbytes
        return t

    setattr(fake_torch, name, make)


for _n in ("empty", "zeros", "ones", "full", "arange"):
    _count_tensors(_n)


def _count_init(cls, label=None):
    orig = cls.__init__

    def init(self, *a, **k):
        LOG["created"].append(label or type(self).__name__)
        return orig(self, *a, **k)

    cls.__init__ = init


_count_init(wrappers._KernelWrapper)
for _c in (
    flash_updaters.FlashIndicesUpdaterDecode,
    flash_updaters.FlashIndicesUpdaterPrefill,
    flash_updaters.FlashMLAIndicesUpdaterDecode,
    flash_updaters.FlashMLAIndicesUpdaterPrefill,
):
    _count_init(_c)
_count_init(FlashBackend, "backend:FlashBackend-chain")
_count_init(FlashMLABackend, "backend:FlashMLABackend-chain")


def describe(v):
    if v is None:
        return "None"
    if isinstance(v, list):
        return "list[" + ",".join(describe(x) for x in v) + "]"
    if isinstance(v, fake_torch.FakeTensor):
        return f"tensor{v.shape}"
    return type(v).__name__


BACKENDS = {
    "FlashBackend": lambda r: FlashBackend(r),
    "TrtMHABackend": lambda r: TrtMHABackend(r),
    "FlashMLABackend": lambda r: FlashMLABackend(r),
    "TrtMLABackend": lambda r: TrtMLABackend(r),
    "TrtMLABackend[dsl]": lambda r: TrtMLABackend(r, backend="dsl"),
    "SpeedMLABackend": lambda r: SpeedMLABackend(r),
    "AliasedFlash": lambda r: AliasedFlash(r),
}
OTHERS = {
    "FromModule": (lambda r: FromModule(r), lambda obj: obj.index(0)),
}
DRAFTS = {
    "FlashMultiStepDraft": lambda r: FlashMultiStepDraft(r, 1, 3),
    "TrtMHAMultiStepDraft": lambda r: TrtMHAMultiStepDraft(r, 1, 3),
    "FlashMLAMultiStepDraft": lambda r: FlashMLAMultiStepDraft(r, 1, 3),
    "TrtMLAMultiStepDraft": lambda r: TrtMLAMultiStepDraft(r, 1, 3),
}


def drive_backend(obj):
    q, k, v = rs.make_qkv()
    layer = rs.make_layer()
    obj.init_cuda_graph_state(4)
    obj.get_graph_fill_value()
    for mode, prefix in (("decode", False), ("extend", False), ("extend", True), ("verify", False)):
        batch = rs.make_batch(mode, has_prefix=prefix)
        obj.init_forward_metadata(batch)
        obj.forward(q, k, v, layer, batch)


def drive_draft(obj):
    obj.init_cuda_graph_state(4)
    obj.init_forward_metadata(rs.make_batch("decode"))


def probe(name, make, drive):
    buffers.clear_buffers()
    LOG.update(created=[], tensors=0, bytes=0)
    obj = make(rs.make_runner())
    out = {
        "attrs": {a: describe(v) for a, v in sorted(vars(obj).items())},
        "created": sorted(LOG["created"]),
        "tensors": LOG["tensors"],
        "bytes": LOG["bytes"],
        "buffers": sorted(buffers._NAMED),
    }
    try:
        drive(obj)
        out["paths"] = "ok"
    except Exception:
        out["paths"] = traceback.format_exc(limit=3)
    return out


if __name__ == "__main__":
    res = {n: probe(n, m, drive_backend) for n, m in BACKENDS.items()}
    res.update({n: probe(n, m, drive_draft) for n, m in DRAFTS.items()})
    res.update({n: probe(n, m, d) for n, (m, d) in OTHERS.items()})
    print(json.dumps(res, indent=1, sort_keys=True))
