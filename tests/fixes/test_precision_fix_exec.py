"""Fix the precision fixtures with both strategies, then build and drive every class (fake torch).

Every class builds as before (the one whose parent-``__init__`` call cannot bind still
raises ``TypeError``, no other raises), its public methods still run, a
``skip_init_*`` flag reaches only the ``__init__`` that declares it, and the
attributes a change skips are really no longer built.
"""

import json
import os
import subprocess
import sys

import pytest
from codemod_helpers import HERE, copy_fixtures

from deadinit.api.check import run_check
from deadinit.fixes.driver import run_fix
from deadinit.model.fix import FixOptions

PROBE = HERE / "precision_probe.py"
P = "fixtures.precision."
FIXED = {  # class -> the class whose __init__ owns the flag (skip-flag)
    "WideMLP": "GatedMLP",  # super(WideMLP, self).__init__ reaches GatedMLP.__init__
    "CrossAttention": "KVCacheMixin",  # explicit KVCacheMixin.__init__ with two bases
    "DecoderCrossAttention": "KVCacheMixin",  # KVCache.__init__ through an import alias
    "PinnedDecodeBuilder": "MetadataBuilder",
    "DroplessExperts": "ExpertsBase",
    "DenseMoEBlock": "MoEBlock",
    "CausalOmniTransformer": "OmniTransformer",  # only depth_head: it raises on the other guards
    "DenseQueryAttention": "LatentAttention",  # only kv_down: its copy decides q_rank
    "NarrowAttention": "LatentAttention",
    "FirstScaleEncoder": "MergingEncoder",
    "NotSmallRopeAttention": "RopeAttention",
}
DIRECT_BASE = (  # every class that has a parent; the ones direct-base must refuse stay as they are
    "super_skip.DenseMLP",
    "super_skip.WideMLP",
    "super_skip.BareMLP",
    "super_skip.ClonedMLP",
    "explicit_base.CrossAttention",
    "aliased_base.DecoderCrossAttention",
    "broken_call.HostKVPool",
    "generic_builder.TritonDecodeBuilder",
    "generic_builder.PinnedDecodeBuilder",
    "dynamic_names.TinyModel",
    "storage_reads.FusedDecoderLayer",
    "removal.DroplessExperts",
    "guards.DenseMoEBlock",
)


def probe(tree) -> dict:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.run([sys.executable, str(PROBE), str(tree)], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    return probe(copy_fixtures(tmp_path_factory.mktemp("original")))


def short(q: str) -> str:
    return q.rsplit(".", 1)[-1]


def assert_still_builds(after: dict, original: dict) -> None:
    assert set(after) == set(original)
    for name, rec in after.items():
        assert rec["built"] == original[name]["built"], f"{name}: {rec['built']}"
        assert rec.get("paths") == original[name].get("paths"), f"{name}: {rec.get('paths')}"


def test_original_fixtures_build_and_only_the_broken_call_raises(original):
    raising = {name for name, rec in original.items() if rec["built"] != "ok"}
    assert raising == {"HostKVPool", "PinnedHostKVPool"}
    assert {original[n]["built"] for n in raising} == {"TypeError"}
    assert all(rec["paths"] == "ok" for rec in original.values() if rec["built"] == "ok")
    assert original["DenseMLP"]["attrs"]["gate_proj"] == "Linear"


DELETED = {"DroplessExperts": ("expert_cache", "router_buf")}  # removals (DI001): absent after the fix too


def test_skip_flag_flags_reach_only_the_init_that_owns_them(fixture_tree, original):
    out = run_fix(run_check(["fixtures"]), "skip-flag", FixOptions(unsafe_fixes=True))
    assert out.error is None
    changes = {short(c.cls): c for c in out.plan.changes if c.cls.startswith(P)}
    assert sorted(changes) == sorted(FIXED)
    after = probe(fixture_tree)
    assert_still_builds(after, original)
    for name, rec in after.items():
        expected = [[FIXED[name], changes[name].flag]] if name in changes else []
        assert rec["flags"] == expected, f"{name}: flags received {rec['flags']}"
    for name, c in changes.items():
        attrs = after[name]["attrs"]
        for a in c.attributes:
            assert attrs.get(a, "None") == "None", f"{name}.{a} is still built"
        for a in c.overwritten:
            if a in DELETED.get(name, ()):
                assert a not in attrs, f"{name}.{a}: the subclass deletes it, as before the fix"
            else:
                assert attrs[a] != "None", f"{name}.{a}: the class's own value is gone"
    untouched = set(after) - set(changes)
    for name in untouched:
        assert after[name] == original[name], f"{name} changed although no change concerns it"


def test_direct_base_rebases_only_what_stays_correct(fixture_tree, original):
    changed, refused = set(), {}
    for _ in range(len(DIRECT_BASE)):  # one class per file and run
        out = run_fix(run_check(["fixtures"]), "direct-base", FixOptions(classes=tuple(P + c for c in DIRECT_BASE)))
        assert out.error is None
        changed |= {short(c.cls) for c in out.plan.changes}
        refused.update({short(r.cls): r.reason for r in out.plan.refusals if "run again" not in r.reason})
        if not out.plan.changes:
            break
    after = probe(fixture_tree)
    assert_still_builds(after, original)
    print("direct-base changed", sorted(changed), "refused", refused)
    assert {"WideMLP", "DenseMoEBlock"} <= changed
    assert "DroplessExperts" in refused and "removes attributes that are no longer set" in refused["DroplessExperts"]
    assert "TinyModel" in refused and "may read" in refused["TinyModel"]
    assert "HostKVPool" not in changed and "DenseMLP" not in changed
    assert not {a for a, v in after["WideMLP"]["attrs"].items() if v == "None"}
    assert after["WideMLP"]["attrs"]["gate_proj"] == "Linear"
