"""Acceptance on real code: sglang 0.5.20 (skips when the corpus is absent)."""

import pytest

pytestmark = pytest.mark.corpus

ATT = "sglang.srt.layers.attention."
MHA = ATT + "trtllm_mha_backend.TRTLLMHAAttnBackend"
MLA = ATT + "trtllm_mla_backend.TRTLLMMLABackend"


def _by(result, cls):
    return {(f.code, f.attribute): f for f in result.findings if f.cls == cls}


def test_trtllm_mla_workspace_overwritten(sglang_0520_check):
    got = _by(sglang_0520_check, MLA)
    f = got[("DI001", "workspace_buffer")]
    assert f.parent == ATT + "flashinfer_mla_backend.FlashInferMLAAttnBackend"
    # the first value lives on inside prefill wrappers that are still used: explained, not fixable
    assert f.extra["kept_by"] and f.fix_safety == "none"


def test_trtllm_mha_workspace_overwritten(sglang_0520_check):
    got = _by(sglang_0520_check, MHA)
    assert ("DI001", "workspace_buffer") in got
    assert got[("DI001", "workspace_buffer")].parent == ATT + "flashinfer_backend.FlashInferAttnBackend"


def test_trtllm_mha_wrappers_and_updaters_unread(sglang_0520_check):
    got = _by(sglang_0520_check, MHA)
    for attr in (
        "prefill_wrapper_ragged",
        "prefill_wrappers_paged",
        "prefill_wrappers_verify",
        "decode_wrappers",
        "indices_updater_prefill",
        "indices_updater_decode",
    ):
        assert ("DI002", attr) in got, attr


def test_trtllm_mla_live_attributes_not_reported(sglang_0520_check):
    got = {attr for _, attr in _by(sglang_0520_check, MLA)}
    for attr in ("prefill_wrapper_ragged", "prefill_wrapper_paged", "kv_indptr", "indices_updater_prefill"):
        assert attr not in got, attr


def test_draft_backends_replace_parent_step_backends(sglang_0520_check):
    for cls in (
        ATT + "trtllm_mha_backend.TRTLLMHAAttnMultiStepDraftBackend",
        ATT + "trtllm_mla_backend.TRTLLMMLAMultiStepDraftBackend",
    ):
        assert ("DI001", "attn_backends") in _by(sglang_0520_check, cls), cls


def test_step_backends_built_three_times(sglang_0520_check):
    """Issue 35, part 2: the TRT-LLM step backends the intermediate built are replaced again."""
    for cls in (
        ATT + "tokenspeed_mla_backend.TokenspeedMLAMultiStepDraftBackend",
        ATT + "cutedsl_mla_backend.CuteDslMLAMultiStepDraftBackend",
    ):
        f = _by(sglang_0520_check, cls)[("DI001", "attn_backends")]
        assert f.parent == ATT + "trtllm_mla_backend.TRTLLMMLAMultiStepDraftBackend", cls
        # skipping the intermediate's refill would leave None to the max_context_len read its own fix moves
        assert f.fix_safety == "none" and "refills self.attn_backends element by element" in f.fix_safety_reason


def test_allocations_through_project_functions(sglang_0520_check):
    tokenspeed = _by(sglang_0520_check, ATT + "tokenspeed_mla_backend.TokenspeedMLABackend")
    f = tokenspeed[("DI002", "_multi_ctas_kv_counter_buffer")]
    assert f.parent == MLA
    assert any(
        e.kind.value == "followed" and "make_persistent_multi_ctas_kv_counter_buffer" in e.text for e in f.evidence
    )
    layers = _by(sglang_0520_check, "sglang.srt.models.ministral3.Ministral3Model")[("DI001", "layers")]
    assert layers.parent == "sglang.srt.models.llama.LlamaModel" and layers.kind == "list of module"


def test_every_finding_has_evidence(sglang_0520_check):
    for f in sglang_0520_check.findings:
        kinds = {e.kind.value for e in f.evidence}
        if f.code == "DI003":  # the reuse table: what the subclass still takes from its parent
            assert {"reuse", "suggestion"} <= kinds, kinds
            continue
        assert "allocated" in kinds and "checked" in kinds
        if f.code == "DI001":
            assert kinds & {"overwritten", "deleted"}, kinds


FLOW_TARGETS = [  # issue 35, part 1: the four the issue names, with what keeps each from being reported today
    pytest.param(
        MHA,
        "kv_indptr",
        marks=pytest.mark.xfail(
            strict=True,
            reason="12 reads `spec_info.kv_indptr` / `forward_batch.spec_info.kv_indptr` on receivers of no known "
            "class (untyped parameters, a nested function's parameter) and `self.attn_backend.kv_indptr` in "
            "AiterMlaIndicesUpdaterPrefill (annotated AttentionBackend, an ancestor) count as reads",
        ),
    ),
    pytest.param(
        MHA,
        "qo_indptr",
        marks=pytest.mark.xfail(
            strict=True,
            reason="read as `self.attn_backend.qo_indptr` in AiterMlaIndicesUpdaterPrefill (annotated "
            "AttentionBackend) and `indptr.qo_indptr` in ragged_verify (a call of unknown return type)",
        ),
    ),
    pytest.param(
        ATT + "trtllm_mha_backend.TRTLLMHAAttnMultiStepDraftBackend",
        "kv_indptr",
        marks=pytest.mark.xfail(
            strict=True,
            reason="read by FlashInferMultiStepDraftBackend.common_template, an entry point (declared by the "
            "hierarchy root); the step backends it is handed to keep it as `kv_indptr`, live as above",
        ),
    ),
    pytest.param(
        MHA,
        "dllm_config",
        marks=pytest.mark.xfail(
            strict=True,
            reason="dead already (read only to compute the dead is_dllm_model), but DllmConfig.from_server_args(...) "
            "builds a plain project object: not an allocation, never reported",
        ),
    ),
]


@pytest.mark.parametrize(("cls", "attr"), FLOW_TARGETS)
def test_values_that_only_feed_dead_objects(sglang_0520_check, cls, attr):
    assert attr in {a for _, a in _by(sglang_0520_check, cls)}
