"""Golden test of the full JSON report on the shipped fixtures (fixtures/EXPECTED.md, table A).

Regenerate after an intended change with ``DEADINIT_UPDATE_GOLDEN=1 python -m pytest tests`` (the one
switch for every golden file) and review the diff.
"""

import json
import os

import pytest
from click.testing import CliRunner
from corpus_paths import REPO
from fixture_findings import EXPECTED

from deadinit.cli.main import main

GOLDEN = REPO / "tests" / "golden" / "fixtures_report.json"

UNSURE = {  # fixtures/EXPECTED.md, table C, with --show-unsure: attribute -> the one access that could name it
    ("KVBufChild", "k_buf"): "KVBufChild._pick uses getattr(self, <computed>) with a name ending with '_buf' (line 39)",
    ("KVBufChild", "v_buf"): "KVBufChild._pick uses getattr(self, <computed>) with a name ending with '_buf' (line 39)",
    ("TinyModel", "k_scale_buf"): "ModelBase.scale_of uses getattr(self, <computed>) with a name ending with "
    "'_scale_buf' (line 26)",
    ("TinyModel", "v_scale_buf"): "ModelBase.scale_of uses getattr(self, <computed>) with a name ending with "
    "'_scale_buf' (line 26)",
    ("TinyModel", "rotary_table"): "ModelBase.caches uses getattr(self, <computed>) with one of rotary_table (line 29)",
    ("TinyModel", "lm_head_bias"): "ModelBase.tied uses getattr(self, <computed>) with a name listed in "
    "self._tied_names (line 32)",
}
SIZES = {  # fixtures/EXPECTED.md, table S: (estimated_bytes, size_expr)
    ("TinyEmbedder", "layers"): (541_081_600, None),
    ("TinyEmbedder", "lm_head"): (262_144_000, None),
    ("TinyTiedLM", "lm_head"): (262_144_000, None),
    ("draft.TinyDecoderLayer", "mlp"): (270_532_608, None),
    ("HubNormOnly", "lm_head"): (None, "hidden_size × vocab_size × 2 B"),
    ("EagerDecodeBuffers", "staging"): (4_194_304, None),  # make_staging(MAX_POSITIONS): 4096 × 256 (default) × 4 B
    ("EagerDecodeBuffers", "counters"): (1_024, None),  # make_counters(max_bs=64) -> new_counter_table(64, slots=4)
    ("EagerDecodeBuffers", "seq_scratch"): (None, "max_seqs × 512 B"),  # rows=max_seqs, width=128: caller's terms
}
NOT_REPORTED_CLASSES = {  # fixtures/EXPECTED.md, "Code-generation sources"
    "fixtures.generated.modular_widget.WidgetAttention",  # a generation source: skipped
    "fixtures.generated.modeling_sprocket.SprocketAttention",  # reads the cache through forward
    "fixtures.generated.modeling_gadget.GadgetAttention",  # flattened: no parent
}


def _run(fmt: str = "json", *args: str):
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        res = CliRunner().invoke(main, ["check", "fixtures", "--format", fmt, *args])
    finally:
        os.chdir(cwd)
    return res


def test_fixture_findings_match_expected_table():
    res = _run()
    assert res.exit_code == 1, res.output
    data = json.loads(res.stdout)
    got = {(f["code"], _short(f["class"]), f["parent"].rsplit(".", 1)[-1], f["attribute"]) for f in data}
    assert got == EXPECTED


def test_unsure_findings_name_the_access_that_could_reach_them():
    data = json.loads(_run("json", "--show-unsure").stdout)
    unsure = {(_short(f["class"]), f["attribute"]): f["unsure"] for f in data if f.get("unsure")}
    assert unsure == {key: [why] for key, why in UNSURE.items()}
    certain = {(f["code"], _short(f["class"]), f["parent"].rsplit(".", 1)[-1], f["attribute"]) for f in data}
    assert certain - {(c, k, p, a) for c, k, p, a in certain if (k, a) in UNSURE} == EXPECTED


def test_an_undecided_guard_is_a_condition_of_the_finding():
    data = json.loads(_run().stdout)
    (bias,) = [f for f in data if f["attribute"] == "bias_cache"]
    assert bias["message"].endswith("(only when config.use_bias_cache)")
    assert [e["text"] for e in bias["evidence"] if e["kind"] == "conditional"]


def test_a_replacement_under_an_undecided_guard_is_a_condition_of_the_finding():
    """fixtures/EXPECTED.md, table R, R33-R36."""
    data = json.loads(_run().stdout)
    got = {_short(f["class"]): f for f in data if f["attribute"] in ("shortcut", "reg_branch", "staging")}
    assert got["ProjectedBlock"]["message"].endswith("(only when self.project)")
    assert got["MaybeDecoder"]["message"].endswith("(only when self.wide)")
    assert got["MaybeResized"]["message"].endswith("(only when big)")
    texts = [e["text"] for e in got["ProjectedBlock"]["evidence"] if e["kind"] == "conditional"]
    assert texts and texts[0].startswith("wasted only when self.project")
    assert (
        got["ProjectedBlock"]["fix_safety"] == "none"
        and "replaced only when" in got["ProjectedBlock"]["fix_safety_reason"]
    )
    default = got["DefaultProjectedBlock"]
    assert not default["extra"]["conditional"] and default["fix_safety"] == "safe"
    assert "PlainShortcutBlock" not in got and "RefinedShortcutBlock" not in got


def _short(qualname: str) -> str:
    """The class name; module and class name where two fixture classes share a name."""
    shared = qualname.startswith("fixtures.generated.") or qualname == "fixtures.sized.draft.TinyDecoderLayer"
    return ".".join(qualname.split(".")[-2:]) if shared else qualname.split(".")[-1]


def test_sizes_names_and_evidence_of_the_sized_fixtures():
    data = [f for f in json.loads(_run().stdout) if f["class"].startswith("fixtures.sized.")]
    got = {(_short(f["class"]), f["attribute"]): (f["estimated_bytes"], f["size_expr"]) for f in data}
    assert got == SIZES
    (mlp,) = [f for f in data if f["attribute"] == "mlp"]
    assert "models.TinyDecoderLayer.__init__" in mlp["message"]
    assert "draft.TinyDecoderLayer.__init__" in mlp["message"]
    assert mlp["evidence"][1]["text"] == "runs draft.TinyDecoderLayer.__init__ -> models.TinyDecoderLayer.__init__"
    (layers,) = [f for f in data if f["attribute"] == "layers"]
    assert not [e for e in layers["evidence"] if e["kind"] == "external-not-counted"]


def test_an_allocation_in_a_helper_names_the_helper_and_is_not_fixable_by_a_flag():
    """fixtures/EXPECTED.md, table R, R28-R32: the parent's ``__init__`` calls ``self._init_layers(dim)``."""
    data = json.loads(_run().stdout)
    helper = {(_short(f["class"]), f["attribute"]): f for f in data if f["path"] == "fixtures/recall/helpers.py"}
    deformable = helper[("DeformableDecoder", "decoder")]
    assert deformable["message"] == (
        "`self.decoder` (module) allocated by QueryDecoder._init_layers is overwritten by "
        "DeformableDecoder._init_layers (line 35) before any read"
    )
    texts = {e["kind"]: e["text"] for e in deformable["evidence"]}
    assert texts["chain"] == "runs QueryDecoder.__init__ -> DeformableDecoder._init_layers -> QueryDecoder._init_layers"
    assert texts["overwritten"].startswith("DeformableDecoder._init_layers re-assigns self.decoder on every path")
    assert "overwritten by TwoStageDecoder.__init__ (line 44)" in helper[("TwoStageDecoder", "reg_branch")]["message"]
    for f in helper.values():
        assert f["line"] in (21, 22, 23, 89) and f["fix_safety"] == "none"
        assert "a helper that construction calls" in f["fix_safety_reason"]


def test_text_report_puts_the_largest_first():
    out = _run("text").stdout
    order = [out.index(f"`self.{a}` (") for a in ("layers", "mlp")]
    assert order == sorted(order)
    assert out.index("TinyEmbedder has no __init__") < out.index("HubNormOnly has no __init__")
    full = _run("full").stdout  # the tree: a class, then its MRO
    assert full.index("fixtures.sized.models.TinyEmbedder ") < full.index("fixtures.sized.models.HubNormOnly ")
    assert "(draft.TinyDecoderLayer -> models.TinyDecoderLayer)" in " ".join(full.split())


def test_generation_source_is_skipped_and_generated_file_points_to_its_source():
    assert "deadinit: skipped 1 code-generation source (" in _run("concise").stderr
    data = json.loads(_run().stdout)
    assert not NOT_REPORTED_CLASSES & {f["class"] for f in data}
    assert not any("modular_widget.py" in p for f in data for p in [f["path"], *f["related_paths"]])
    (widget,) = [f for f in data if f["class"] == "fixtures.generated.modeling_widget.WidgetAttention"]
    generated = [e for e in widget["evidence"] if e["kind"] == "generated"]
    assert generated == [
        {
            "kind": "generated",
            "text": "fixtures/generated/modeling_widget.py is generated (header: 'Do NOT edit'): "
            "change its source and regenerate",
            "path": "fixtures/generated/modular_widget.py",
            "line": 1,
        }
    ]


def test_full_report_golden():
    res = _run()
    data = json.loads(res.stdout)
    if os.environ.get("DEADINIT_UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(data, indent=2) + "\n")
        pytest.skip("golden file rewritten")
    assert data == json.loads(GOLDEN.read_text())


def test_json_schema_fields():
    data = json.loads(_run().stdout)
    for f in data:
        for key in (
            "code",
            "path",
            "line",
            "column",
            "class",
            "parent",
            "attribute",
            "kind",
            "estimated_bytes",
            "message",
            "evidence",
        ):
            assert key in f
        assert f["evidence"] and all({"kind", "text"} <= set(e) for e in f["evidence"])


FOLLOWED = "the allocation is made inside a project function"
UNSAFE = {  # fixtures/EXPECTED.md, "Modules, parameters, buffers and fix levels": every other DI001/DI002 is safe
    ("DeepTower", "post_norm"): "removes the registered module `post_norm`",
    ("PlainTower", "post_norm"): "removes the registered module `post_norm`",
    ("FloatLinear", "weight_scale"): "removes the registered parameter `weight_scale`",
    ("FloatLinear", "input_scale"): "removes the registered buffer `input_scale`",
    ("StrictEmbedder", "pooler"): "removes the registered module `pooler`",
    ("RaisingEmbedder", "pooler"): "removes the registered module `pooler`",
    ("ParkedAdapterStack", "adapter"): "removes the registered module `adapter`",
    ("ParkedAdapterStack", "probe"): "removes the registered module `probe`",
    ("FrozenProjectorStack", "window"): "removes the registered buffer `window`",
    ("QuietTapStack", "tap"): "removes the registered module `tap`",
    ("LeanMixStack", "conv"): "removes the registered module `conv`",
    ("LeanMixStack", "plain"): "removes the registered module `plain`",
    ("LeanGateStack", "gate"): "removes the registered module `gate`",
    ("ArgmaxSampler", "_table"): "ArgmaxSampler is exported (fixtures.modules.samplers.__all__) and its public "
    "method TableSampler.table_snapshot reads self._table",
    ("modeling_widget.WidgetAttention", "cos_sin_cache"): "WidgetAttention is exported (fixtures.generated.__all__)",
    # fixtures/EXPECTED.md, table R: made inside a project function, whose other effects a skipped call skips too
    **{
        key: FOLLOWED
        for key in (
            ("ShortStackModel", "lm_head"),
            ("ShortStackModel", "tied_head"),
            ("EncoderOnlyModel", "audio"),
            ("EagerDecodeBuffers", "staging"),
            ("EagerDecodeBuffers", "counters"),
            ("EagerDecodeBuffers", "seq_scratch"),
            ("PlainStem", "blur"),
            ("ProjAttention", "mixer"),  # table K, K2: through the builder
            ("LeanDefaultedAttention", "mixer"),  # K6: through a builder without annotations
        )
    },
    # fixtures/EXPECTED.md, table K: the class built is whatever a class-typed field holds
    ("ProjAttention", "proj"): "the class built comes from a class-typed field",
    ("LinearClassAttrBlock", "proj"): "the class built comes from a class-typed field",
    ("LeanDefaultedAttention", "proj"): "the class built comes from a class-typed field",  # K5
}
NO_INIT = "has no __init__ of its own to pass a flag from"
NOT_FIXABLE = {  # what the skip-flag rewrite cannot make (analysis.fixable), in the words fix prints
    ("TrtMLABackend", "workspace_buffer"): "the parent's value is still used: self.prefill_wrapper_paged",
    ("FusedSteps", "index_ptr"): "FusedSteps.__init__ (line 127) still hands self.index_ptr to a constructor",
    ("ShortRelaySteps", "index_ptr"): "ShortRelaySteps.__init__ (line 172) still hands self.index_ptr",
    ("UpdatedSteps", "index_ptr"): "UpdatedSteps.__init__ (line 219) still hands self.index_ptr",
    ("RowSteps", "index_ptr"): "RowSteps.__init__ (line 132) still hands self.index_ptr to a constructor",
    ("SpanSteps", "index_ptr"): "SpanSteps.__init__ (line 140) still hands self.index_ptr to a constructor",
    ("FusedDecoderBlock", "self_attn.qkv_proj"): "self.self_attn.qkv_proj is a part of self.self_attn",
    **{
        (cls, attr): f"self.{attr} is built in {helper}._init_layers, a helper that construction calls"
        for cls, attr, helper in (
            ("DeformableDecoder", "decoder", "QueryDecoder"),
            ("DeformableDecoder", "query_embedding", "QueryDecoder"),
            ("MaybeDecoder", "reg_branch", "QueryDecoder"),
            ("TwoStageDecoder", "reg_branch", "QueryDecoder"),
            ("ScoreOnlyDecoder", "reg_branch", "QueryDecoder"),
            ("WideOwnLayersDecoder", "reg_branch", "OwnLayersDecoder"),
        )
    },
    ("MaybeResized", "staging"): "self.staging is replaced only when big",
    ("ProjectedBlock", "shortcut"): "self.shortcut is replaced only when self.project",
    ("MaybeNoMropeBuffers", "mrope_positions"): "self.mrope_positions is replaced only when text_only",
    ("SkipInitTable", "table"): "SkipInitTable.__init__ forwards *args/**kwargs to InitTable.__init__",
    ("SpreadTable", "init_table"): "SpreadTable.__init__ forwards *args/**kwargs to InitTable.__init__",
    ("PackedStack", "kernels"): "FusedStack.__init__ line 57 refills self.kernels element by element",
    ("PackedMaybeStack", "kernels"): "MaybeFusedStack.__init__ line 97 refills self.kernels element by element",
    **{
        (cls, attr): f"{cls}.__init__ forwards *args/**kwargs to InitBlock.__init__"  # table R, R37-R42
        for cls, attr in (
            ("SkipInitBlock", "gate"),
            ("PositionalSkipBlock", "gate"),
            ("ForwardedBlock", "norm"),
            ("NormalInitBlock", "norm"),
            ("NormalInitBlock", "warm"),
        )
    },
    ("NormalInitBlock", "table"): "self.table is built in InitBlock.init_weights, a helper that construction calls",
    ("PlainConfiguredAttention", "proj"): "ConfiguredAttention.__init__ (line 103) still configures self.proj",
    ("ShortStackModel", "layers"): "StackModel.__init__ line 35 writes self.layers in a statement that also does "
    "work that stays: it cannot be split",
    # fixtures/EXPECTED.md R58-R59: the loop that registers the dead layer registers a live one too
    ("NoFirstNormStack", "norm0"): "NormStack.__init__ line 60 writes self.norm0 in a statement that also does work "
    "that stays: it cannot be split",
    ("OwnGateStack", "gate1"): "NormStack.__init__ line 62 writes self.gate1 in a statement that also does work "
    "that stays: it cannot be split",
    # R60-R63: the same, for a range the chain decides
    **{
        (cls, attr): f"DepthStack.__init__ line {line} writes self.{attr} in a statement that also does work that "
        "stays: it cannot be split"
        for cls, attr, line in (
            ("ShallowStack", "layer1", 19),
            ("ShallowStack", "norm1", 21),
            ("OneStageStack", "stage1", 23),
            ("OneStageStack", "layer2", 19),
        )
    },
    **{
        (cls, attr): f"{cls} {NO_INIT}"
        for cls, attr in (
            ("TinyModel", "logit_buf"),
            ("TritonDecodeBuilder", "kv_indices"),
            ("TritonDecodeBuilder", "qo_indptr"),
            ("TokenMLABackend", "kv_counter"),
            ("TokenMLABackend", "decode_scratch"),
            ("RaggedBackend", "kv_last_page_len"),
            # registered modules of a model (table S), unsafe too: a fix would need an __init__ to pass the flag
            ("WideHeadModel", "audio"),
            ("WideHeadModel", "head"),
            ("TinyEmbedder", "layers"),
            ("TinyEmbedder", "lm_head"),
            ("HubNormOnly", "lm_head"),
        )
    },
}


def test_fix_safety_levels():
    data = json.loads(_run().stdout)
    got = {
        (_short(f["class"]), f["attribute"]): (f["fix_safety"], f["fix_safety_reason"])
        for f in data
        if f["code"] in ("DI001", "DI002")
    }
    assert {k for k, (level, _) in got.items() if level == "unsafe"} == set(UNSAFE)
    for key, reason in UNSAFE.items():
        assert got[key][1].startswith(reason), key
    assert {k for k, (level, _) in got.items() if level == "none"} == set(NOT_FIXABLE)
    for key, reason in NOT_FIXABLE.items():
        assert got[key][1].startswith(reason), key
    assert all(reason == "" for level, reason in got.values() if level == "safe")
