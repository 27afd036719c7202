"""Run the rewritten fixtures on CPU (fake torch) and compare with the original package.

For each scenario: the fixed subclasses no longer build the skipped objects and
allocate fewer bytes, everything they read still exists, every public path runs,
and every class the fix does not concern builds exactly what it built before.
"""

import pytest
from codemod_helpers import SCENARIOS, fix, probe


def short(q: str) -> str:
    return q.rsplit(".", 1)[-1]


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_rewritten_fixtures_run(scenario, fixture_tree, original_probe):
    classes, unsafe, may_change = SCENARIOS[scenario]
    out = fix(classes=classes, unsafe=unsafe)
    assert out.written
    after = probe(fixture_tree)
    assert set(after) == set(original_probe)
    for key, rec in after.items():
        assert rec["paths"] == "ok", f"{key}: {rec['paths']}"
        if key not in may_change:
            assert rec == original_probe[key], f"{key} changed although the fix does not concern it"
    for c in out.plan.changes:
        before, now = original_probe[short(c.cls)], after[short(c.cls)]
        for a in c.attributes:
            # no `else: self.x = None` where an ancestor that stays set it (SpeedMLA: FlashMLA's workspace,
            # kept for its live prefill wrappers): the attribute keeps that value
            assert now["attrs"][a] == "None" or (short(c.cls), a) == ("SpeedMLABackend", "workspace_buffer"), a
        for a in c.overwritten + c.reads:
            assert now["attrs"][a] != "None", a
        assert now["bytes"] <= before["bytes"]
        assert len(now["created"]) < len(before["created"])


def test_mha_child_builds_no_parent_workspace_wrappers_or_updaters(fixture_tree, original_probe):
    fix(classes=SCENARIOS["mha_child"][0], unsafe=True)
    now = probe(fixture_tree)["TrtMHABackend"]
    assert original_probe["TrtMHABackend"]["buffers"] == ["flash_ws", "trt_mha_ws"]
    assert now["buffers"] == ["trt_mha_ws"]
    assert now["created"] == ["backend:FlashBackend-chain"]  # no wrapper, no updater
    assert original_probe["TrtMHABackend"]["bytes"] - now["bytes"] >= 8 * 1024 * 1024
    # the draft that builds TrtMHABackend per step profits too, and still works
    assert "flash_ws" in original_probe["TrtMHAMultiStepDraft"]["buffers"]


def test_mla_chain_leaf_and_middle(fixture_tree, original_probe):
    fix(classes=SCENARIOS["mla_chain"][0])
    res = probe(fixture_tree)
    trt, speed = res["TrtMLABackend"], res["SpeedMLABackend"]
    assert trt["attrs"]["decode_wrapper"] == trt["attrs"]["indices_updater_decode"] == "None"
    assert trt["attrs"]["workspace_buffer"] != "None"  # its own workspace: it reads it
    assert "FlashMLAIndicesUpdaterDecode" not in trt["created"]
    assert speed["attrs"]["kv_split_counter"] == "None"
    assert speed["attrs"]["workspace_buffer"] == res["FlashMLABackend"]["attrs"]["workspace_buffer"]  # FlashMLA's
    assert speed["buffers"] == ["flash_mla_ws"]  # the parent's, kept for the live prefill wrappers
    assert original_probe["SpeedMLABackend"]["buffers"] == ["flash_mla_ws", "trt_mla_ws"]


def test_drafts_stop_building_step_backends(fixture_tree, original_probe):
    fix(classes=SCENARIOS["drafts"][0])
    res = probe(fixture_tree)
    for draft, step, chain in (
        ("TrtMHAMultiStepDraft", "TrtMHABackend", "backend:FlashBackend-chain"),
        ("TrtMLAMultiStepDraft", "TrtMLABackend", "backend:FlashMLABackend-chain"),
    ):
        before, now = original_probe[draft], res[draft]
        assert now["attrs"]["attn_backends"] == f"list[{step},{step}]"
        assert before["created"].count(chain) == 4  # 2 parent step backends + 2 replacements
        assert now["created"].count(chain) == 2
