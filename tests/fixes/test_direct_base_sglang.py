"""direct-base acceptance on real code: TRTLLMHAAttnBackend in a temp copy of sglang 0.5.20.

Skips without the corpus (``.ci/run`` fetches it).  For speed only
``sglang/srt/layers/attention`` is copied and analysed (with empty package
``__init__`` files above it for the module names); names the rewrite needs from
elsewhere resolve through the parent module's own imports, so no other file is
read.  ``docs/direct-base-trtllm-mha.diff`` is the diff this produces (regenerate
with ``DEADINIT_UPDATE_GOLDEN=1``).
"""

import ast
import difflib
import os
import shutil

import pytest
from corpus_paths import REPO, sglang_tree

from deadinit.api.check import run_check
from deadinit.fixes.direct_base.planner import plan as direct_base_plan
from deadinit.fixes.direct_base.source import undefined_names
from deadinit.fixes.driver import run_fix
from deadinit.model.fix import FixOptions
from deadinit.model.settings import Settings

pytestmark = [pytest.mark.corpus, pytest.mark.slow]

ATT = "sglang.srt.layers.attention."
MHA = ATT + "trtllm_mha_backend.TRTLLMHAAttnBackend"
REL = "sglang/srt/layers/attention/trtllm_mha_backend.py"
DOC = REPO / "docs" / "direct-base-trtllm-mha.diff"


@pytest.fixture(scope="module")
def fixed(tmp_path_factory):
    src = sglang_tree("0.5.20")
    root = tmp_path_factory.mktemp("sglang-0.5.20")
    for pkg in ("sglang", "sglang/srt", "sglang/srt/layers"):
        (root / pkg).mkdir(parents=True, exist_ok=True)
        (root / pkg / "__init__.py").write_text("")
    shutil.copytree(
        src / "srt" / "layers" / "attention",
        root / "sglang/srt/layers/attention",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    old = (root / REL).read_text()
    before = run_check([str(root / "sglang/srt/layers/attention")], Settings())
    out = run_fix(before, "direct-base", FixOptions(classes=(MHA,)), write=True)
    return root, before, out, old, (root / REL).read_text()


def test_di003_suggests_attention_backend(fixed):
    _, before, _, _, _ = fixed
    (f,) = [f for f in before.findings if f.cls == MHA and f.code == "DI003"]
    reuse = f.extra["reuse"]
    assert f.parent == ATT + "flashinfer_backend.FlashInferAttnBackend"
    assert reuse["suggested_base"] == ATT + "base_attn_backend.AttentionBackend"
    assert reuse["share"] <= reuse["threshold"]
    assert {m["name"] for m in reuse["move"]["methods"]} == {"_kv_write_scales"}


def test_fix_applied_and_recheck_clean(fixed):
    root, _, out, _, _ = fixed
    assert out.error is None and not out.rejected, [r.reason for r in out.refusals]
    assert [c.cls for c in out.plan.changes] == [MHA]
    assert out.written == [str(root / REL)]
    left = [f for f in out.after.findings if f.cls == MHA]
    assert not [f for f in left if f.code in ("DI001", "DI002", "DI003")], [f.key for f in left]


def test_result_compiles_without_undefined_names(fixed):
    _, _, _, old, new = fixed
    compile(new, REL, "exec")
    assert undefined_names(new) == [] and undefined_names(old) == []
    pyflakes = pytest.importorskip("pyflakes.api")
    from pyflakes import messages, reporter

    class Collect(reporter.Reporter):
        def __init__(self):
            self.found = []

        def flake(self, message):
            self.found.append(message)

        def syntaxError(self, *a):
            self.found.append(a)

        def unexpectedError(self, *a):
            self.found.append(a)

    rep = Collect()
    pyflakes.check(new, REL, rep)
    assert not [m for m in rep.found if isinstance(m, (messages.UndefinedName, tuple))], rep.found


def test_old_parent_no_longer_imported_and_class_rebased(fixed):
    _, _, _, _, new = fixed
    tree = ast.parse(new)
    imported = {
        a.asname or a.name for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names
    }
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert "FlashInferAttnBackend" not in imported | names
    assert "FlashInferMultiStepDraftBackend" in imported  # still used by the draft class
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "TRTLLMHAAttnBackend"]
    assert [ast.unparse(b) for b in cls.bases] == ["AttentionBackend"]


def test_keeps_pool_references_index_buffers_and_helper(fixed):
    _, _, out, _, new = fixed
    (change,) = out.plan.changes
    assert {"req_to_token_pool", "token_to_kv_pool", "kv_cache_quant_method", "kv_indptr"} <= set(
        change.reads
        + [a for a in ("req_to_token_pool", "token_to_kv_pool", "kv_cache_quant_method") if f"self.{a} = " in new]
    )
    tree = ast.parse(new)
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "TRTLLMHAAttnBackend"]
    methods = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    assert "_kv_write_scales" in methods
    init = ast.unparse(next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"))
    for stmt in (
        "self.req_to_token_pool = model_runner.req_to_token_pool",
        "self.token_to_kv_pool = model_runner.token_to_kv_pool",
        "self.kv_cache_quant_method = self.token_to_kv_pool.get_kv_cache_quant_method()",
        "self.kv_indptr = [kv_indptr_buf]",
    ):
        assert stmt in init, stmt
    for dead in (
        "BatchDecodeWithPagedKVCacheWrapper",
        "BatchPrefillWithRaggedKVCacheWrapper",
        "FlashInferIndicesUpdaterDecode",
        "flashinfer_workspace",
        "prefill_wrappers_verify",
    ):
        assert dead not in new, dead
    assert set(change.attributes) >= {
        "decode_wrappers",
        "prefill_wrapper_ragged",
        "prefill_wrappers_paged",
        "prefill_wrappers_verify",
        "indices_updater_decode",
        "indices_updater_prefill",
    }
    assert "workspace_buffer" in change.overwritten


def test_second_run_changes_nothing(fixed):
    _, _, out, _, _ = fixed
    plan = direct_base_plan(out.after, FixOptions(classes=(MHA,)))
    assert not plan.files and plan.refusals[0].kind == "not-fixable"


def test_documented_diff(fixed):
    _, _, _, old, new = fixed
    diff = "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), f"a/{REL}", f"b/{REL}"))
    if os.environ.get("DEADINIT_UPDATE_GOLDEN"):
        DOC.parent.mkdir(exist_ok=True)
        DOC.write_text(diff)
        pytest.skip("docs diff rewritten")
    assert diff == DOC.read_text()
