"""Acceptance on real code: skip-flag over a copy of sglang 0.5.20 (skips when the corpus is absent).

The whole ``sglang/`` tree is copied; the analysis is restricted to
``sglang/srt/layers/attention`` (every backend and draft class lives there; the
whole package takes many minutes to summarise).  ``--unsafe-fixes`` is on: the
engine judges the wrappers' ``obj.x`` reads elsewhere in sglang as unrelated, which
makes those fixes unsafe in ruff's sense.
"""

import shutil

import libcst as cst
import pytest
from codemod_helpers import CachingSummarizer
from corpus_paths import sglang_tree

from deadinit.api.check import run_check
from deadinit.fixes.driver import run_fix
from deadinit.model.fix import FixOptions

ATTN = "sglang/srt/layers/attention"
M = "sglang.srt.layers.attention."
TRTLLM_MHA = M + "trtllm_mha_backend.TRTLLMHAAttnBackend"
DRAFTS = {
    M + "trtllm_mha_backend.TRTLLMHAAttnMultiStepDraftBackend": (
        "flashinfer_backend.py",
        "FlashInferMultiStepDraftBackend",
        "FlashInferAttnBackend(",
    ),
    M + "trtllm_mla_backend.TRTLLMMLAMultiStepDraftBackend": (
        "flashinfer_mla_backend.py",
        "FlashInferMLAMultiStepDraftBackend",
        "FlashInferMLAAttnBackend(",
    ),
}


def guarded_code(path, cls_name: str, flag: str) -> str:
    """The code under ``if not <flag>:`` in ``cls_name.__init__``."""
    mod = cst.parse_module(open(path, "rb").read())
    out = []

    class V(cst.CSTVisitor):
        def __init__(self):
            self.cls = []

        def visit_ClassDef(self, node):
            self.cls.append(node.name.value)

        def leave_ClassDef(self, node):
            self.cls.pop()

        def visit_If(self, node):
            if self.cls and self.cls[-1] == cls_name and mod.code_for_node(node.test) == f"not {flag}":
                out.append(mod.code_for_node(node.body))

    mod.visit(V())
    return "\n".join(out)


@pytest.mark.corpus
@pytest.mark.slow
def test_skip_flag_on_sglang_0_5_20(tmp_path, monkeypatch):
    src = sglang_tree("0.5.20")
    shutil.copytree(src, tmp_path / "sglang", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(tmp_path)
    summ = CachingSummarizer()
    result = run_check([ATTN], summarizer=summ)
    out = run_fix(result, "skip-flag", FixOptions(unsafe_fixes=True))
    assert out.error is None and out.written
    for path in out.written:
        compile(open(path, "rb").read(), path, "exec")
    changes = {c.cls: c for c in out.plan.changes}

    # TRTLLM MHA: FlashInferAttnBackend no longer builds the workspace, the wrappers, the updaters
    mha = changes[TRTLLM_MHA]
    assert mha.flag == "skip_init_workspace_buffer"
    assert f"{mha.flag}=True" in open(f"{ATTN}/trtllm_mha_backend.py").read()
    guarded = guarded_code(f"{ATTN}/flashinfer_backend.py", "FlashInferAttnBackend", mha.flag)
    for built in (
        '"flashinfer_workspace"',
        "BatchPrefillWithRaggedKVCacheWrapper(",
        "BatchPrefillWithPagedKVCacheWrapper(",
        "BatchDecodeWithPagedKVCacheWrapper(",
        "FlashInferIndicesUpdaterPrefill(",
        "FlashInferIndicesUpdaterDecode(",
    ):
        assert built in guarded, built
    assert {"workspace_buffer", "decode_wrappers", "indices_updater_decode"} <= set(mha.attributes + mha.overwritten)

    # the draft backends stop their parents from building the step backends they replace
    for draft, (fname, parent, ctor) in DRAFTS.items():
        c = changes[draft]
        assert c.overwritten == ["attn_backends"]
        assert ctor in guarded_code(f"{ATTN}/{fname}", parent, c.flag)

    # no DI001/DI002 left on a fixed class, except findings explained as not fixable
    explained = {k: r for r in out.refusals for k in r.findings}
    left = [f for f in out.after.findings if f.code in ("DI001", "DI002") and f.cls in changes]
    assert all(f.key in explained for f in left), [f.key for f in left if f.key not in explained]
    before = {f.key: f for f in out.before.findings}
    for r in out.refusals:
        if r.kind == "not-fixable":  # what the analysis says, in the words check prints
            assert all(r.reason == before[k].fix_text for k in r.findings), r.reason

    # a second run changes nothing (only the rewritten files are summarised again)
    misses = summ.misses
    again = run_fix(run_check([ATTN], summarizer=summ), "skip-flag", FixOptions(unsafe_fixes=True), write=False)
    assert summ.misses - misses == len(out.written)
    assert again.plan.files == [], again.diff()
