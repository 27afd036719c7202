"""direct-base on the fixtures: golden rewrites, then the rewritten classes built and driven on CPU.

Regenerate the golden files with ``DEADINIT_UPDATE_GOLDEN=1 pytest tests/fixes`` and review the diff.
"""

import json
import os

import pytest
from click.testing import CliRunner
from codemod_helpers import HERE, probe

from deadinit.api.check import run_check
from deadinit.cli.main import main
from deadinit.fixes.driver import run_fix
from deadinit.model.fix import FixOptions

GOLDEN = HERE / "golden_direct_base"
B = "fixtures.backends."
MHA = B + "trt_mha_backend.TrtMHABackend"
DRAFT = B + "trt_mha_backend.TrtMHAMultiStepDraft"
SCENARIOS = {"mha": MHA, "draft": DRAFT}


def direct_base(classes, write=True, **kw):
    result = run_check(["fixtures"])
    return run_fix(result, "direct-base", FixOptions(classes=tuple(classes), **kw), write=write)


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_golden_rewrite(scenario, fixture_tree):
    out = direct_base([SCENARIOS[scenario]])
    assert out.error is None and not out.rejected, [r.reason for r in out.refusals]
    assert [c.cls for c in out.plan.changes] == [SCENARIOS[scenario]]
    assert out.written == ["fixtures/backends/trt_mha_backend.py"]
    text = (fixture_tree / out.written[0]).read_text()
    golden = GOLDEN / f"{scenario}__trt_mha_backend.py"
    if os.environ.get("DEADINIT_UPDATE_GOLDEN"):
        golden.write_text(text)
        pytest.skip("golden file rewritten")
    assert text == golden.read_text()


def test_mha_change_record(fixture_tree):
    out = direct_base([MHA], write=False)
    (c,) = out.plan.changes
    assert c.strategy == "direct-base" and c.parents == [B + "flash_backend.FlashBackend"]
    assert set(c.attributes) == {
        "qo_indptr",
        "prefill_wrapper_ragged",
        "prefill_wrappers_paged",
        "decode_wrappers",
        "indices_updater_prefill",
        "indices_updater_decode",
        "graph_metadata",
        "skip_prefill",
    }
    assert c.overwritten == ["page_size", "workspace_buffer"]
    assert c.reads == ["kv_indptr", "kv_last_page_len"]
    assert c.estimated_bytes == 8 * 1024 * 1024 + 4096  # the workspace and the ragged wrapper's staging buffer
    assert any(k.startswith("DI003:" + MHA) for k in c.findings)
    assert (
        "new_bases: fixtures.backends.base.AttentionBackend; removed_bases: fixtures.backends.flash_backend.FlashBackend"
        in c.notes
    )
    assert "helpers copied: FlashBackend._kv_write_scales (4 lines)" in c.notes


def test_fix_is_clean_and_idempotent(fixture_tree):
    out = direct_base([MHA, DRAFT])
    # one class per file and run: the second class of the same module waits for the next run
    assert [c.cls for c in out.plan.changes] == [MHA]
    assert any("run again" in r.reason for r in out.refusals)
    out2 = direct_base([MHA, DRAFT])
    assert [c.cls for c in out2.plan.changes] == [DRAFT]
    after = run_check(["fixtures"])
    for cls in (MHA, DRAFT):
        assert not [f for f in after.findings if f.cls == cls], cls
    out3 = direct_base([MHA, DRAFT])
    assert not out3.plan.files
    assert {r.kind for r in out3.refusals} == {"not-fixable"}


def _attrs(p, name):
    return set(p[name]["attrs"])


def test_rewritten_mha_runs_and_builds_nothing_dead(fixture_tree, original_probe):
    assert direct_base([MHA]).written
    new = probe(fixture_tree)
    old = original_probe
    assert new["TrtMHABackend"]["paths"] == "ok", new["TrtMHABackend"]["paths"]
    # every attribute and helper the class uses is still there
    for attr in (
        "req_to_token_pool",
        "token_to_kv_pool",
        "kv_quant_method",
        "device",
        "max_context_len",
        "kv_indptr",
        "kv_last_page_len",
        "workspace_buffer",
        "forward_metadata",
        "page_size",
    ):
        assert attr in _attrs(new, "TrtMHABackend"), attr
    # the dropped objects are no longer created
    assert old["TrtMHABackend"]["created"] and not new["TrtMHABackend"]["created"]
    gone = _attrs(old, "TrtMHABackend") - _attrs(new, "TrtMHABackend")
    assert gone == {
        "qo_indptr",
        "prefill_wrapper_ragged",
        "prefill_wrappers_paged",
        "decode_wrappers",
        "indices_updater_prefill",
        "indices_updater_decode",
        "graph_metadata",
        "skip_prefill",
    }
    assert "flash_ws" in old["TrtMHABackend"]["buffers"] and "flash_ws" not in new["TrtMHABackend"]["buffers"]
    assert new["TrtMHABackend"]["bytes"] < old["TrtMHABackend"]["bytes"]
    # the draft that builds TrtMHABackend per step, and the other classes, behave as before
    assert new["TrtMHAMultiStepDraft"]["paths"] == "ok"
    for name in old:
        if name not in ("TrtMHABackend", "TrtMHAMultiStepDraft"):
            assert new[name] == old[name], name


def test_rewritten_draft_runs_and_builds_no_flash_backends(fixture_tree, original_probe):
    assert direct_base([DRAFT]).written
    new, old = probe(fixture_tree), original_probe
    d_new, d_old = new["TrtMHAMultiStepDraft"], old["TrtMHAMultiStepDraft"]
    assert d_new["paths"] == "ok", d_new["paths"]
    assert d_new["attrs"]["attn_backends"] == "list[TrtMHABackend,TrtMHABackend]"
    assert d_new["attrs"]["attn_backends"] == d_old["attrs"]["attn_backends"]
    for attr in ("num_steps", "kv_indptr", "kv_last_page_len", "attn_backends"):
        assert attr in d_new["attrs"], attr
    # the parent's own FlashBackend per step is gone; each TrtMHABackend still runs its FlashBackend chain
    assert d_old["created"].count("backend:FlashBackend-chain") == 4
    assert d_new["created"].count("backend:FlashBackend-chain") == 2
    assert d_new["tensors"] < d_old["tensors"]
    for name in old:
        if name != "TrtMHAMultiStepDraft":
            assert new[name] == old[name], name


def test_both_rewrites_together(fixture_tree, original_probe):
    direct_base([MHA])
    direct_base([DRAFT])
    new, old = probe(fixture_tree), original_probe
    for name in ("TrtMHABackend", "TrtMHAMultiStepDraft"):
        assert new[name]["paths"] == "ok", new[name]["paths"]
        assert not [c for c in new[name]["created"] if c.startswith("backend:")]
    assert new["TrtMHAMultiStepDraft"]["bytes"] < old["TrtMHAMultiStepDraft"]["bytes"]


def test_cli_diff_and_report(fixture_tree):
    res = CliRunner().invoke(
        main,
        [
            "fix",
            "fixtures",
            "--strategy",
            "direct-base",
            "--class",
            "TrtMHABackend",
            "--diff",
            "--report",
            "report.json",
            "--color",
            "never",
        ],
    )
    assert res.exit_code == 1, res.output
    assert "+class TrtMHABackend(AttentionBackend):" in res.stdout
    assert "-from fixtures.backends.flash_backend import FlashBackend" in res.stdout
    rep = json.loads((fixture_tree / "report.json").read_text())
    assert rep["strategy"] == "direct-base" and not rep["applied"]
    assert [c["class"] for c in rep["changes"]] == [MHA]
    assert (fixture_tree / "fixtures/backends/trt_mha_backend.py").read_text() == (
        HERE.parent.parent / "fixtures/backends/trt_mha_backend.py"
    ).read_text()
