"""Build every class of ``fixtures/precision`` on CPU (fake torch) and drive its public methods.

Run as ``python precision_probe.py TREE`` (TREE holds a ``fixtures`` package, original
or rewritten); prints JSON: per case, how construction ended (``ok`` or the exception's
type), the attributes the instance ends up with, the ``skip_init_*`` flags each
``__init__`` received as true, and whether its public methods still run.
"""

import importlib
import json
import sys
import traceback

sys.modules["torch"] = None  # the fixtures fall back to fixtures.backends.fake_torch
sys.path.insert(0, sys.argv[1])

from fixtures.backends import fake_torch  # noqa: E402

MODULES = (
    "aliased_base",
    "broken_call",
    "dynamic_names",
    "explicit_base",
    "generic_builder",
    "guards",
    "raise_guards",
    "removal",
    "storage_reads",
    "super_skip",
    "written_guards",
)
M = {name: importlib.import_module(f"fixtures.precision.{name}") for name in MODULES}
FLAGS: list = []


def _record_flags(cls):
    init = cls.__dict__["__init__"]

    def wrapped(self, *args, **kwargs):
        FLAGS.extend([cls.__name__, k] for k, v in sorted(kwargs.items()) if k.startswith("skip_init_") and v)
        return init(self, *args, **kwargs)

    cls.__init__ = wrapped


for _mod in M.values():
    for _obj in list(vars(_mod).values()):
        if isinstance(_obj, type) and _obj.__module__ == _mod.__name__ and "__init__" in _obj.__dict__:
            _record_flags(_obj)


def cfg():
    return M["guards"].MoEConfig()


def omni(**flags):
    return M["raise_guards"].OmniConfig(**flags)


def latent():
    return M["written_guards"].LatentConfig()


def x():
    return fake_torch.empty(8)


def c(module, name):
    return getattr(M[module], name)


CASES = {  # name -> (build, drive)
    "RMSNormBase": (lambda: c("super_skip", "RMSNormBase")(8), lambda o: o.forward(x())),
    "GatedMLP": (lambda: c("super_skip", "GatedMLP")(8), lambda o: o.forward(x())),
    "DenseMLP": (lambda: c("super_skip", "DenseMLP")(8), lambda o: o.forward(x())),
    "WideMLP": (lambda: c("super_skip", "WideMLP")(8), lambda o: o.forward(x())),
    "BareMLP": (lambda: c("super_skip", "BareMLP")(8), lambda o: o.forward(x())),
    "ClonedMLP": (lambda: c("super_skip", "ClonedMLP")(8), lambda o: o.forward(x())),
    "ClonedMLP[source]": (
        lambda: c("super_skip", "ClonedMLP")(8, source=c("super_skip", "ClonedMLP")(8)),
        lambda o: o.forward(x()),
    ),
    "RotaryMixin": (lambda: c("explicit_base", "RotaryMixin")(8), lambda o: o.rotate(x())),
    "KVCacheMixin": (lambda: c("explicit_base", "KVCacheMixin")(8), lambda o: (o.cache(), o.forward(x()))),
    "CrossAttention": (lambda: c("explicit_base", "CrossAttention")(8), lambda o: (o.forward(x()), o.cache())),
    "DecoderCrossAttention": (lambda: c("aliased_base", "DecoderCrossAttention")(8), lambda o: o.forward(x())),
    "PagedKVPool": (lambda: c("broken_call", "PagedKVPool")(16, fake_torch.bfloat16), lambda o: o.pages()),
    "HostKVPool": (lambda: c("broken_call", "HostKVPool")(16), lambda o: o.pages()),
    "PinnedHostKVPool": (lambda: c("broken_call", "PinnedHostKVPool")(16), lambda o: o.pages()),
    "MetadataBuilder": (lambda: c("generic_builder", "MetadataBuilder")(4), lambda o: (o.build(1), o.pages())),
    "TritonDecodeBuilder": (
        lambda: c("generic_builder", "TritonDecodeBuilder")(4),
        lambda o: (o.build(1), o.pages()),
    ),
    "PinnedDecodeBuilder": (
        lambda: c("generic_builder", "PinnedDecodeBuilder")(4),
        lambda o: (o.build(1), o.pages(), o.pin(x())),
    ),
    "ModelBase": (
        lambda: c("dynamic_names", "ModelBase")(32, 8),
        lambda o: (o.scale_of("k"), o.caches(), o.tied(), o.has_extra("k"), o.logits(x())),
    ),
    "TinyModel": (
        lambda: c("dynamic_names", "TinyModel")(32, 8),
        lambda o: (o.scale_of("k"), o.scale_of("v"), o.caches(), o.tied(), o.has_extra("k"), o.logits(x())),
    ),
    "DecoderLayer": (lambda: c("storage_reads", "DecoderLayer")(8), lambda o: o.forward(x())),
    "FusedDecoderLayer": (lambda: c("storage_reads", "FusedDecoderLayer")(8), lambda o: o.forward(x())),
    "ExpertsBase": (lambda: c("removal", "ExpertsBase")(4), lambda o: (o.forward(x()), o.combine(x()))),
    "DroplessExperts": (lambda: c("removal", "DroplessExperts")(4), lambda o: (o.forward(x()), o.combine(x()))),
    "MoEBlock": (lambda: c("guards", "MoEBlock")(cfg(), 512), lambda o: (o.forward(x()), o.expert_range(0, 2))),
    "DenseMoEBlock": (lambda: c("guards", "DenseMoEBlock")(cfg(), 128), lambda o: o.expert_range(1, 2)),
    "OmniTransformer": (
        lambda: c("raise_guards", "OmniTransformer")(omni(sound=True, motion=True), 8),
        lambda o: (o.forward(x()), o.embed(x())),
    ),
    "CausalOmniTransformer": (lambda: c("raise_guards", "CausalOmniTransformer")(omni(), 8), lambda o: o.forward(x())),
    **{
        name: (lambda name=name: c("written_guards", name)(latent()), lambda o: (o.forward(x()), o.out_features()))
        for name in ("LatentAttention", "DenseQueryAttention", "FullRankAttention", "NarrowAttention")
    },
    **{
        name: (lambda name=name: c("written_guards", name)(latent()), lambda o: (o.forward(x()), o.merge_count()))
        for name in ("MergingEncoder", "SingleScaleEncoder", "FirstScaleEncoder")
    },
    "RopeAttention": (lambda: c("written_guards", "RopeAttention")(16, 512, False), lambda o: o.forward(x())),
    "Fp4RopeAttention": (lambda: c("written_guards", "Fp4RopeAttention")(16, 128, True), lambda o: o.heads(16)),
    "NotSmallRopeAttention": (
        lambda: c("written_guards", "NotSmallRopeAttention")(16, 512, False),
        lambda o: (o.forward(x()), o.heads(16)),
    ),
}


def describe(v):
    if v is None:
        return "None"
    if isinstance(v, fake_torch.FakeTensor):
        return f"tensor{v.shape}"
    return type(v).__name__


def probe(build, drive):
    del FLAGS[:]
    try:
        obj = build()
    except Exception as e:  # the outcome is what the test compares
        return {"built": type(e).__name__, "flags": list(FLAGS)}
    out = {
        "built": "ok",
        "attrs": {a: describe(v) for a, v in sorted(vars(obj).items()) if a != "_modules"},
        "flags": list(FLAGS),
    }
    try:
        drive(obj)
        out["paths"] = "ok"
    except Exception:
        out["paths"] = traceback.format_exc(limit=3)
    return out


if __name__ == "__main__":
    print(json.dumps({name: probe(*case) for name, case in CASES.items()}, indent=1, sort_keys=True))
