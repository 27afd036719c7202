"""DI003 low-reuse-inheritance on the fixtures (fixtures/EXPECTED.md, "DI003" table) and ``explain``'s table."""

import os

import pytest
from click.testing import CliRunner
from corpus_paths import REPO

from deadinit.analysis.reuse import compute_reuse
from deadinit.api.check import run_check
from deadinit.cli.main import main
from deadinit.model.settings import Settings

B = "fixtures.backends."
MHA = B + "trt_mha_backend.TrtMHABackend"


@pytest.fixture(scope="module")
def result():
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        yield run_check(["fixtures"], Settings())
    finally:
        os.chdir(cwd)


def test_only_trt_mha_is_reported(result):
    got = [(f.cls, f.parent) for f in result.findings if f.code == "DI003"]
    assert got == [(MHA, B + "flash_backend.FlashBackend")]


def test_trt_mha_figures(result):
    r = compute_reuse(result.index, result.analyzer, MHA)
    assert r.suggestion == B + "base.AttentionBackend" and r.dropped == [B + "flash_backend.FlashBackend"]
    by = {}
    for m in r.methods:
        by.setdefault(m.status, []).append(m.name)
    assert sorted(by["overridden"]) == [
        "forward_decode",
        "forward_extend",
        "get_graph_fill_value",
        "init_cuda_graph_state",
        "init_forward_metadata",
    ]
    assert by["reused"] == ["_kv_write_scales"]
    assert sorted(by["dead"]) == ["_plan_prefill", "_wrapper_idx"]
    assert len(r.counted_methods) == 8
    assert sorted(a.attr for a in r.used_allocations) == ["kv_indptr", "kv_last_page_len"]
    assert [a.attr for a in r.allocations if a.status == "overwritten"] == ["workspace_buffer"]
    assert len(r.allocations) == 9 and len(r.dead_allocations) == 7
    assert r.share == pytest.approx(3 / 17)
    assert [(m.name, m.lines) for m in r.move_methods] == [("_kv_write_scales", 4)]
    assert {"req_to_token_pool", "token_to_kv_pool", "kv_indptr", "kv_last_page_len"} <= set(r.move_attrs)
    assert not r.super_into_dropped


def test_finding_message_and_evidence(result):
    (f,) = [f for f in result.findings if f.code == "DI003" and f.cls == MHA]
    assert f.name == "low-reuse-inheritance" and f.attribute == "" and f.kind == "inheritance"
    assert f.path.endswith("trt_mha_backend.py") and f.line == 19
    assert "uses 18% of FlashBackend (1/8 methods, 2/9 allocations" in f.message
    assert "derive from AttentionBackend" in f.message and "_kv_write_scales (4 lines)" in f.message
    assert f.estimated_bytes == 8 * 1024 * 1024 + 4096  # the workspace and the ragged wrapper's staging buffer
    kinds = {e.kind.value for e in f.evidence}
    assert {
        "reuse",
        "method-reused",
        "method-overridden",
        "method-dead",
        "attribute-used",
        "attribute-dead",
        "attribute-overwritten",
        "suggestion",
    } <= kinds
    assert f.extra["reuse"]["suggested_base"] == B + "base.AttentionBackend"


@pytest.mark.parametrize(
    "cls,parent",
    [
        (B + "trt_mla_backend.TrtMLABackend", "FlashMLABackend"),
        (B + "speed_mla_backend.SpeedMLABackend", "TrtMLABackend"),
        (B + "trt_mha_backend.TrtMHAMultiStepDraft", "FlashMultiStepDraft"),
        (B + "trt_mla_backend.TrtMLAMultiStepDraft", "FlashMLAMultiStepDraft"),
        ("fixtures.negatives.aliased.AliasedFlash", "FlashBackend"),
        ("fixtures.negatives.dynamic_getattr.KVBufChild", "KVBufParent"),
    ],
)
def test_not_reported(result, cls, parent):
    r = compute_reuse(result.index, result.analyzer, cls)
    assert r.parent.rsplit(".", 1)[-1] == parent
    assert not r.flagged, r.summary()


def test_trt_mla_reuse_counts(result):
    r = compute_reuse(result.index, result.analyzer, B + "trt_mla_backend.TrtMLABackend")
    assert sorted(m.name for m in r.methods if m.status == "overridden") == [
        "_init_decode_metadata",
        "forward_decode",
        "forward_extend",
        "init_forward_metadata",
    ]
    assert len(r.counted_methods) == 7 and len(r.reused_methods) == 3


def test_interface_stubs_are_not_lost_reuse(result):
    r = compute_reuse(result.index, result.analyzer, B + "flash_backend.FlashBackend")
    stubs = sorted(m.name for m in r.methods if m.status == "stub")
    assert stubs == [
        "forward_decode",
        "forward_extend",
        "get_graph_fill_value",
        "init_cuda_graph_state",
        "init_forward_metadata",
    ]
    assert [m.name for m in r.counted_methods] == ["forward"] and not r.flagged
    m = result.index.classes[B + "base.AttentionBackend"].methods
    assert m["init_forward_metadata"].is_stub
    assert not m["forward"].is_stub


@pytest.mark.parametrize("threshold,flagged", [(0.1, False), (0.17, False), (0.18, True), (0.5, True)])
def test_threshold_is_configurable(result, threshold, flagged):
    r = compute_reuse(result.index, result.analyzer, MHA, threshold)
    assert r.flagged is flagged


def test_threshold_setting_reaches_the_rule():
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        res = run_check(["fixtures"], Settings(di003_threshold=0.1, select=("DI003",)))
    finally:
        os.chdir(cwd)
    assert not res.findings


def _explain(name):
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        return CliRunner().invoke(main, ["explain", name, "fixtures", "--color", "never"])
    finally:
        os.chdir(cwd)


def test_explain_prints_the_reuse_table():
    res = _explain("TrtMHABackend")
    assert res.exit_code == 0, res.output
    out = res.output
    assert (
        "reuse of FlashBackend by TrtMHABackend: 1/8 methods, 2/9 allocations -> share 18% "
        "(threshold 25%): reported (DI003)"
    ) in out
    assert "suggested base: AttentionBackend (drops FlashBackend)" in out
    assert "helpers _kv_write_scales (4 lines)" in out
    for row in (
        "reused      _kv_write_scales()",
        "overridden  forward_decode()",
        "dead        _plan_prefill()",
        "overwritten self.workspace_buffer",
        "used        self.kv_indptr",
        "dead        self.decode_wrappers",
    ):
        assert row in out, row


def test_explain_prints_the_table_below_the_threshold():
    out = _explain("TrtMLABackend").output
    assert "reuse of FlashMLABackend by TrtMLABackend: 3/7 methods" in out and "not reported" in out
    assert "suggested base: AttentionBackend" in out
