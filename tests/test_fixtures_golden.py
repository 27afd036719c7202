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
    ("DI003", "TrtMHABackend", "FlashBackend", ""),  # fixtures/EXPECTED.md, DI003 table
}


def _run():
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        res = CliRunner().invoke(main, ["check", "fixtures", "--format", "json"])
    finally:
        os.chdir(cwd)
    return res


def test_fixture_findings_match_expected_table():
    res = _run()
    assert res.exit_code == 1, res.output
    data = json.loads(res.stdout)
    got = {(f["code"], f["class"].rsplit(".", 1)[-1], f["parent"].rsplit(".", 1)[-1], f["attribute"]) for f in data}
    assert got == EXPECTED


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
