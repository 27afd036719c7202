"""Evidence is a typed record; JSON, SARIF and text show it as the ``{kind, text, path, line}`` it always was."""

import json
import pickle

from sample_project import REPO, invoke

from deadinit.model.evidence import Evidence, EvidenceKind


def test_evidence_json_keeps_the_field_order_and_kind_string():
    e = Evidence(EvidenceKind.EXTERNAL_NOT_COUNTED, "`x.ws`: unrelated", "a.py", 3)
    assert (
        json.dumps(e.to_json())
        == '{"kind": "external-not-counted", "text": "`x.ws`: unrelated", "path": "a.py", "line": 3}'
    )
    assert str(e.kind) == "external-not-counted" and f"{e.kind}" == "external-not-counted"
    assert pickle.loads(pickle.dumps(e)) == e


def test_every_kind_of_the_reports_is_known():
    data = json.loads(invoke(["check", "fixtures", "--format", "json", "--no-cache"], cwd=REPO).stdout)
    kinds = {e["kind"] for f in data for e in f["evidence"]}
    assert kinds and kinds <= {k.value for k in EvidenceKind}
    assert all(list(e) == ["kind", "text", "path", "line"] for f in data for e in f["evidence"])


def test_sarif_and_text_show_evidence():
    sarif = json.loads(invoke(["check", "fixtures", "--format", "sarif", "--no-cache"], cwd=REPO).stdout)
    related = [loc["message"]["text"] for r in sarif["runs"][0]["results"] for loc in r.get("relatedLocations", [])]
    assert any(t.startswith("allocated: ") for t in related) and any(t.startswith("overwritten: ") for t in related)
    full = invoke(["check", "fixtures", "--format", "full", "--no-cache", "--color", "never"], cwd=REPO).stdout
    assert "allocated: " in full and "checked: " in full
    text = invoke(["check", "fixtures", "--no-cache", "--color", "never"], cwd=REPO).stdout
    assert "  because: " in text and "allocated: " not in text  # the decisive step only


def test_schema_lists_every_evidence_kind():
    schema = json.loads((REPO / "deadinit" / "report" / "findings.schema.json").read_text())
    item = schema["items"]["properties"]["evidence"]["items"]
    assert item["properties"]["kind"]["enum"] == [k.value for k in EvidenceKind]
    assert item["required"] == ["kind", "text", "path", "line"]
