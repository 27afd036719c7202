"""SARIF 2.1.0 output validated against the official OASIS schema (tests/data, errata01)."""

import json

import jsonschema
import pytest
from sample_project import REPO, invoke, sample

SCHEMA = json.loads((REPO / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())


def _validate(doc):
    cls = jsonschema.validators.validator_for(SCHEMA, default=jsonschema.Draft4Validator)
    cls.check_schema(SCHEMA)
    cls(SCHEMA, format_checker=cls.FORMAT_CHECKER).validate(doc)


def test_vendored_schema_is_the_official_one():
    assert SCHEMA["id"] == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    assert len(SCHEMA["definitions"]) == 52


def test_fixtures_sarif_validates_and_carries_rule_metadata():
    res = invoke(["check", "fixtures", "--format", "sarif"], cwd=REPO)
    assert res.exit_code == 1
    doc = json.loads(res.stdout)
    _validate(doc)
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    by_id = {r["id"]: r for r in rules}
    assert {"DI001", "DI002"} <= set(by_id)
    for r in rules:
        assert r["shortDescription"]["text"] and r["fullDescription"]["text"]
        assert "## Why is this bad?" in r["help"]["markdown"] and r["help"]["text"]
    results = run["results"]
    assert results and len(results) == len(
        json.loads(invoke(["check", "fixtures", "--format", "json"], cwd=REPO).stdout)
    )
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
        loc = r["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert not loc["artifactLocation"]["uri"].startswith(("/", "./", "file:"))
        assert (REPO / loc["artifactLocation"]["uri"]).is_file()
        assert r["partialFingerprints"]["deadinitKey/v1"].startswith(r["ruleId"] + ":")
        if r["ruleId"] in ("DI001", "DI002"):  # the allocation is in the parent: point at the subclass too
            assert any(rel["message"]["text"].startswith("subclass ") for rel in r["relatedLocations"])


@pytest.mark.parametrize("args", [[], ["--report-unused-ignores"]])
def test_small_project_sarif_validates(write_project, args):
    root = write_project(sample(cls="  # deadinit: ignore[DI777]", extra={"pkg/bad.py": "def (:\n"}))
    doc = json.loads(invoke(["check", ".", "--format", "sarif", *args], cwd=root).stdout)
    _validate(doc)
    run = doc["runs"][0]
    assert any("pkg/bad.py" in n["message"]["text"] for n in run["invocations"][0]["toolExecutionNotifications"])
    assert ("DI100" in {r["ruleId"] for r in run["results"]}) == bool(args)


def test_empty_run_validates(write_project):
    root = write_project({"a.py": "x = 1\n"})
    res = invoke(["check", ".", "--format", "sarif"], cwd=root)
    assert res.exit_code == 0
    doc = json.loads(res.stdout)
    _validate(doc)
    assert doc["runs"][0]["results"] == []


BROKEN_CALL = {
    "pkg/__init__.py": "",
    "pkg/m.py": """import torch


class P:
    def __init__(self, dim):
        self.ws = torch.empty(dim)

    def run(self):
        return 0


class C(P):
    def __init__(self, dim):
        super().__init__(dim, "cuda")
""",
}


def test_levels_follow_the_rules_severity(write_project):
    root = write_project(BROKEN_CALL)
    doc = json.loads(invoke(["check", ".", "--format", "sarif"], cwd=root).stdout)
    _validate(doc)
    run = doc["runs"][0]
    levels = {r["id"]: r["defaultConfiguration"]["level"] for r in run["tool"]["driver"]["rules"]}
    assert levels == {"DI001": "warning", "DI002": "warning", "DI003": "warning", "DI004": "error", "DI100": "warning"}
    assert [(r["ruleId"], r["level"]) for r in run["results"]] == [("DI004", "error")]
    github = invoke(["check", ".", "--format", "github"], cwd=root).stdout.splitlines()
    assert len(github) == 1 and github[0].startswith("::error file=pkg/m.py,line=14,col=9,title=DI004::")
