"""The fix report is written and read in one place (``deadinit.report.fix_report``): what ``fix``
writes, ``gpu-check`` reads back."""

import json
from types import SimpleNamespace

from deadinit.gpu_check.inputs import load_fix_report
from deadinit.model.fix import Plan
from deadinit.report.fix_report import fix_report, read_fix_report


def _outcome():
    return SimpleNamespace(
        before=SimpleNamespace(findings=[]),
        strategy="skip-flag",
        written=[],
        plan=Plan(),
        refusals=[],
        diff_stat=lambda: {"files": 0},
    )


def test_what_fix_writes_reads_back(tmp_path):
    path = tmp_path / "fix.json"
    report = fix_report(_outcome(), "deadinit fix .")
    path.write_text(json.dumps(report))
    back = read_fix_report(path)
    assert back == json.loads(json.dumps(report))
    assert back["command"] == "deadinit fix ." and back["changes"] == [] and back["applied"] is False
    assert load_fix_report(path) == []


def test_a_list_of_records_is_the_changes(tmp_path):
    path = tmp_path / "fix.json"
    path.write_text(json.dumps([{"class": "pkg.m.C", "attributes": ["w"]}]))
    assert read_fix_report(path) == {"changes": [{"class": "pkg.m.C", "attributes": ["w"]}]}
    assert load_fix_report(path)[0]["class"] == "pkg.m.C"
