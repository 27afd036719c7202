"""Golden test of the full JSON report on the shipped fixtures (fixtures/EXPECTED.md, table A).

Regenerate after an intended change with ``DEADINIT_UPDATE_GOLDEN=1 python -m pytest tests`` (the one
switch for every golden file) and review the diff.
"""

import json
import os

import pytest
from click.testing import CliRunner
from corpus_paths import REPO

from deadinit.cli.main import main

GOLDEN = REPO / "tests" / "golden" / "fixtures_report.json"

EXPECTED = {  # fixtures/EXPECTED.md, table A
    ("DI001", "TrtMHABackend", "FlashBackend", "workspace_buffer"),
    ("DI002", "TrtMHABackend", "FlashBackend", "qo_indptr"),
    ("DI002", "TrtMHABackend", "FlashBackend", "prefill_wrapper_ragged"),
    ("DI002", "TrtMHABackend", "FlashBackend", "prefill_wrappers_paged"),
    ("DI002", "TrtMHABackend", "FlashBackend", "decode_wrappers"),
    ("DI002", "TrtMHABackend", "FlashBackend", "indices_updater_prefill"),
    ("DI002", "TrtMHABackend", "FlashBackend", "indices_updater_decode"),
    ("DI001", "TrtMLABackend", "FlashMLABackend", "workspace_buffer"),
    ("DI002", "TrtMLABackend", "FlashMLABackend", "decode_wrapper"),
    ("DI002", "TrtMLABackend", "FlashMLABackend", "indices_updater_decode"),
    ("DI002", "SpeedMLABackend", "TrtMLABackend", "workspace_buffer"),
    ("DI002", "SpeedMLABackend", "TrtMLABackend", "kv_split_counter"),
    ("DI001", "TrtMHAMultiStepDraft", "FlashMultiStepDraft", "attn_backends"),
    ("DI001", "TrtMLAMultiStepDraft", "FlashMLAMultiStepDraft", "attn_backends"),
    ("DI001", "AliasedFlash", "FlashBackend", "prefill_wrapper_ragged"),
    ("DI001", "FromModule", "Parent", "scratch"),
    ("DI002", "modeling_widget.WidgetAttention", "RotaryAttention", "cos_sin_cache"),  # generated, imported
    ("DI002", "modular_gadget.GadgetAttention", "RotaryAttention", "cos_sin_cache"),  # template, imported
    ("DI002", "modular_sprocket.SprocketAttention", "RotaryAttention", "cos_sin_cache"),  # ambiguous origin
    ("DI003", "TrtMHABackend", "FlashBackend", ""),  # fixtures/EXPECTED.md, DI003 table
    ("DI002", "TinyEmbedder", "TinyLM", "layers"),  # fixtures/EXPECTED.md, table S
    ("DI002", "TinyEmbedder", "TinyLM", "lm_head"),
    ("DI001", "TinyTiedLM", "TinyLM", "lm_head"),
    ("DI001", "draft.TinyDecoderLayer", "TinyDecoderLayer", "mlp"),
    ("DI002", "HubNormOnly", "HubLM", "lm_head"),
}
SIZES = {  # fixtures/EXPECTED.md, table S: (estimated_bytes, size_expr)
    ("TinyEmbedder", "layers"): (541_081_600, None),
    ("TinyEmbedder", "lm_head"): (262_144_000, None),
    ("TinyTiedLM", "lm_head"): (262_144_000, None),
    ("draft.TinyDecoderLayer", "mlp"): (270_532_608, None),
    ("HubNormOnly", "lm_head"): (None, "hidden_size × vocab_size × 2 B"),
}
NOT_REPORTED_CLASSES = {  # fixtures/EXPECTED.md, "Code-generation sources"
    "fixtures.generated.modular_widget.WidgetAttention",  # a generation source: skipped
    "fixtures.generated.modeling_sprocket.SprocketAttention",  # reads the cache through forward
    "fixtures.generated.modeling_gadget.GadgetAttention",  # flattened: no parent
}


def _run(fmt: str = "json"):
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        res = CliRunner().invoke(main, ["check", "fixtures", "--format", fmt])
    finally:
        os.chdir(cwd)
    return res


def test_fixture_findings_match_expected_table():
    res = _run()
    assert res.exit_code == 1, res.output
    data = json.loads(res.stdout)
    got = {(f["code"], _short(f["class"]), f["parent"].rsplit(".", 1)[-1], f["attribute"]) for f in data}
    assert got == EXPECTED


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


def test_text_report_puts_the_largest_first():
    out = _run("text").stdout
    order = [out.index(f"`self.{a}` (") for a in ("layers", "mlp")]
    assert order == sorted(order)
    assert out.index("fixtures.sized.models.TinyEmbedder ") < out.index("fixtures.sized.models.HubNormOnly ")
    assert "(draft.TinyDecoderLayer -> models.TinyDecoderLayer)" in " ".join(out.split())


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
