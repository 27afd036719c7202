"""Golden rewrites of the fixtures: three-level MLA chain, MHA-like child, draft backends.

Regenerate with ``DEADINIT_UPDATE_GOLDEN=1 pytest tests/fixes`` and review the diff.
"""

import os
from pathlib import Path

import pytest
from codemod_helpers import GOLDEN, SCENARIOS, fix


def golden_name(scenario: str, path: str) -> str:
    return f"{scenario}__{Path(path).name}"


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_golden_rewrite(scenario, fixture_tree):
    classes, unsafe, _ = SCENARIOS[scenario]
    out = fix(classes=classes, unsafe=unsafe)
    assert out.error is None
    assert not out.rejected, [r.reason for r in out.rejected]
    assert sorted(c.cls for c in out.plan.changes) == sorted(classes)
    written = {golden_name(scenario, p): (fixture_tree / p).read_text() for p in out.written}
    if os.environ.get("DEADINIT_UPDATE_GOLDEN"):
        for old in GOLDEN.glob(f"{scenario}__*.py"):
            old.unlink()
        for name, text in written.items():
            (GOLDEN / name).write_text(text)
        pytest.skip("golden files rewritten")
    expected = {p.name: p.read_text() for p in GOLDEN.glob(f"{scenario}__*.py")}
    assert sorted(written) == sorted(expected)
    for name in expected:
        assert written[name] == expected[name], f"{name} differs from its golden file"


def test_mha_child_flag_and_guarded_statements(fixture_tree):
    out = fix(classes=SCENARIOS["mha_child"][0], unsafe=True)
    (change,) = out.plan.changes
    assert change.flag == "skip_init_workspace_buffer"
    assert change.overwritten == ["workspace_buffer"]
    assert set(change.attributes) == {
        "qo_indptr",
        "prefill_wrapper_ragged",
        "prefill_wrappers_paged",
        "decode_wrappers",
        "indices_updater_prefill",
        "indices_updater_decode",
    }
    assert change.reads == ["kv_indptr", "kv_last_page_len"]
    assert change.estimated_bytes == 8 * 1024 * 1024 + 4096  # the workspace and the ragged wrapper's staging buffer
    assert change.new_bases == [] and change.removed_bases == []  # the class keeps its bases
    assert "FlashBackend.__init__ guarded by `if not skip_init_workspace_buffer:`" in change.notes
    parent = (fixture_tree / "fixtures/backends/flash_backend.py").read_text()
    child = (fixture_tree / "fixtures/backends/trt_mha_backend.py").read_text()
    assert "skip_init_workspace_buffer: bool = False," in parent
    assert "skip_init_workspace_buffer=True" in child
    # the kv index buffers the child reads stay unguarded, before and after the guards
    assert "\n        if kv_indptr_buf is None:\n" in parent
    assert "\n        self.forward_metadata = None\n" in parent


def test_middle_class_gains_its_own_flag_in_the_mla_chain(fixture_tree):
    out = fix(classes=SCENARIOS["mla_chain"][0])
    by_cls = {c.cls.rsplit(".", 1)[-1]: c for c in out.plan.changes}
    assert by_cls["TrtMLABackend"].flag == "skip_init_decode_wrapper"
    assert by_cls["TrtMLABackend"].attributes == ["decode_wrapper", "indices_updater_decode"]
    assert by_cls["SpeedMLABackend"].flag == "skip_init_workspace_buffer"
    assert by_cls["SpeedMLABackend"].parents == ["fixtures.backends.trt_mla_backend.TrtMLABackend"]
    mid = (fixture_tree / "fixtures/backends/trt_mla_backend.py").read_text()
    # the middle class passes its own flag up and accepts the leaf's
    assert "skip_init_decode_wrapper=True" in mid
    assert "skip_init_workspace_buffer: bool = False," in mid
    # the overwritten FlashMLA workspace is kept: prefill wrappers built from it stay live
    (kept,) = [r for r in out.refusals if r.attributes == ["workspace_buffer"]]
    assert kept.kind == "not-fixable"
    for live in ("prefill_wrapper_paged", "prefill_wrapper_ragged", "prefill_wrapper_verify"):
        assert f"self.{live}" in kept.reason
