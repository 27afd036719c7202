"""The JSON report of ``deadinit fix --report``: each field's type and meaning.

gpu-check reads it (``deadinit.gpu_check.inputs``): ``new_bases`` and ``removed_bases`` are
dotted class names it checks the rewritten class against, ``notes`` the prose for reviewers.
A skip-flag change keeps the class's bases (both lists empty) and says in ``notes`` which
``__init__`` it guarded. The committed reports under docs/ must read the same way.
"""

import json
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from codemod_helpers import REPO, SCENARIOS
from jsonschema import Draft202012Validator

from deadinit import __version__
from deadinit.cli.main import main
from deadinit.fixes.registry import load_strategies
from deadinit.model.fix import Change
from deadinit.model.kinds import RefusalKind

MHA = SCENARIOS["mha_child"][0][0]
DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
COMMITTED = sorted((REPO / "docs").rglob("*fix-report.json"))
SCHEMA = json.loads((REPO / "deadinit" / "report" / "fix-report.schema.json").read_text(encoding="utf-8"))
LATER = {"command", "deadinit", "evidence"}  # fields added after docs/gpu's first reports were written
CHANGE_KEYS = {
    "id",
    "strategy",
    "class",
    "file",
    "attributes",
    "findings",
    "overwritten",
    "files",
    "flag",
    "flag_name",
    "parents",
    "estimated_bytes",
    "unknown_sizes",
    "size",
    "reads",
    "new_bases",
    "removed_bases",
    "notes",
    "evidence",
}


def _strings(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _dotted(value) -> bool:
    return _strings(value) and all(DOTTED.fullmatch(v) for v in value)


def check_change(c: dict) -> None:
    assert set(c) | {"evidence", "size"} == CHANGE_KEYS, (
        set(c) ^ CHANGE_KEYS
    )  # older reports (docs/gpu/final-0.5.20): no evidence
    assert c["strategy"] in ("skip-flag", "direct-base") and c["id"] == f"{c['strategy']}:{c['class']}"
    assert DOTTED.fullmatch(c["class"]) and isinstance(c["file"], str) and c["file"].endswith(".py")
    for key in ("attributes", "overwritten", "reads", "files"):
        assert _strings(c[key]), (key, c[key])
    assert _strings(c["findings"]) and all(re.match(r"DI\d{3}:", k) for k in c["findings"])
    assert _dotted(c["parents"]), c["parents"]
    assert c["estimated_bytes"] is None or isinstance(c["estimated_bytes"], int)
    assert isinstance(c["unknown_sizes"], int) and c["unknown_sizes"] >= 0
    # the bases: dotted names only, never prose
    assert _dotted(c["new_bases"]), ("new_bases", c["new_bases"])
    assert _dotted(c["removed_bases"]), ("removed_bases", c["removed_bases"])
    # the notes: prose for reviewers
    assert _strings(c["notes"]) and c["notes"], ("notes", c["notes"])
    assert all(" " in n for n in c["notes"]), c["notes"]
    assert c["flag_name"] == c["flag"]
    if c["strategy"] == "skip-flag":
        assert c["new_bases"] == [] and c["removed_bases"] == []  # the class keeps its bases
        assert isinstance(c["flag"], str) and c["flag"].isidentifier()
        assert any(f"`if not {c['flag']}:`" in n or f"passes {c['flag']}" in n for n in c["notes"]), c["notes"]
    else:
        assert c["flag"] is None and c["removed_bases"], c
        assert any(n.startswith("new_bases: ") for n in c["notes"]), c["notes"]
    for e in c.get("evidence", []):
        assert {"key", "message", "evidence"} <= set(e) and e["key"] in c["findings"]
        assert isinstance(e["message"], str) and isinstance(e["evidence"], list)


def check_report(data: dict) -> None:
    keys = {"command", "deadinit", "strategy", "applied", "changes", "not_fixed", "files", "diff_stat"}
    assert set(data) | {"command", "deadinit"} == keys, set(data) ^ keys  # older reports: no command, no deadinit
    assert data.get("command") is None or data["command"].startswith("deadinit fix ")
    assert data["strategy"] in ("skip-flag", "direct-base") and isinstance(data["applied"], bool)
    assert _strings(data["files"]) and isinstance(data["diff_stat"], dict)
    for c in data["changes"]:
        check_change(c)
        assert c["strategy"] == data["strategy"]
    for r in data["not_fixed"]:
        assert DOTTED.fullmatch(r["class"]) and isinstance(r["reason"], str) and _strings(r["attributes"])


def schema_errors(data: dict, *, allow_missing: frozenset[str] = frozenset()) -> list[str]:
    """What ``fix-report.schema.json`` finds wrong with ``data``; a required field in ``allow_missing`` may be absent."""
    errors = []
    for e in Draft202012Validator(SCHEMA).iter_errors(data):
        missing = {m.group(1) for m in [re.match(r"'(\w+)' is a required property", e.message)] if m}
        if e.validator == "required" and missing <= allow_missing and missing:
            continue
        errors.append(f"{'/'.join(map(str, e.absolute_path))}: {e.message}")
    return errors


def _report(*args) -> dict:
    r = CliRunner().invoke(main, ["fix", "fixtures", *args, "--report", "fix.json"], catch_exceptions=False)
    assert r.exit_code in (0, 1), r.output
    data = json.loads(Path("fix.json").read_text())
    assert schema_errors(data) == []
    return data


def test_skip_flag_report(fixture_tree):
    data = _report("--unsafe-fixes")
    check_report(data)
    (mha,) = [c for c in data["changes"] if c["class"] == MHA]
    assert mha["new_bases"] == [] and mha["removed_bases"] == []
    assert "FlashBackend.__init__ guarded by `if not skip_init_workspace_buffer:`" in mha["notes"]
    sizes = {e["attribute"]: (e["size"], e["lifetime"]) for e in mha["evidence"]}  # as check reports them
    assert sizes["workspace_buffer"] == ("8 MiB", "steady"), sizes  # overwritten, but a global cache keeps it


def test_direct_base_report(fixture_tree):
    data = _report("--strategy", "direct-base", "--class", "TrtMHABackend", "--diff")
    check_report(data)
    (change,) = data["changes"]
    assert change["new_bases"] and all(b.rpartition(".")[2] == "AttentionBackend" for b in change["new_bases"])
    assert [b.rpartition(".")[2] for b in change["removed_bases"]] == ["FlashBackend"]


@pytest.mark.parametrize("path", COMMITTED, ids=[str(p.relative_to(REPO)) for p in COMMITTED])
def test_committed_reports_read_the_same_way(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    check_report(data)
    assert schema_errors(data, allow_missing=frozenset(LATER)) == []


def test_the_schema_is_a_valid_schema_and_names_every_refusal_kind_and_strategy():
    Draft202012Validator.check_schema(SCHEMA)
    refusal_kinds = SCHEMA["$defs"]["refusal"]["properties"]["kind"]["enum"]
    assert refusal_kinds == [k.value for k in RefusalKind]
    assert set(SCHEMA["properties"]["strategy"]["enum"]) == set(load_strategies())
    assert SCHEMA["$defs"]["change"]["properties"]["strategy"] == SCHEMA["properties"]["strategy"]
    assert set(SCHEMA["$defs"]["change"]["required"]) == CHANGE_KEYS - {"size"}  # older reports have no size


def test_the_schema_rejects_notes_in_new_bases():
    """The bug the schema guards: a skip-flag change's prose in ``new_bases``, its ``notes`` empty."""
    c = Change(id="skip-flag:m.C", strategy="skip-flag", cls="m.C", file="m.py", attributes=[], findings=[])
    bad = dict(c.to_json(), new_bases=["Parent.__init__ guarded by `if not skip_init_x:`"], notes=[], evidence=[])
    report = {
        "command": None,
        "deadinit": {"version": "0", "commit": None, "modified": None},
        "strategy": "skip-flag",
        "applied": False,
        "changes": [bad],
        "not_fixed": [],
        "files": [],
        "diff_stat": {"files": 0, "insertions": 0, "deletions": 0},
    }
    errors = schema_errors(report)
    assert any(e.startswith("changes/0/new_bases/0:") for e in errors), errors
    assert any(e.startswith("changes/0/notes:") for e in errors), errors


def test_the_report_names_the_deadinit_that_wrote_it(fixture_tree):
    data = _report("--diff")
    git = subprocess.run(["git", "rev-parse", "--show-toplevel", "HEAD"], cwd=REPO, capture_output=True, text=True)
    top, _, head = git.stdout.strip().partition("\n")
    checkout = git.returncode == 0 and Path(top).resolve() == REPO.resolve()
    assert data["deadinit"]["version"] == __version__
    assert data["deadinit"]["commit"] == (head if checkout else None)
    assert isinstance(data["deadinit"]["modified"], bool) if checkout else data["deadinit"]["modified"] is None


def test_change_takes_its_fields_by_keyword_only():
    """A positional call once put a skip-flag change's notes in ``new_bases`` (fields were added before notes)."""
    with pytest.raises(TypeError):
        Change("skip-flag:m.C", "skip-flag", "m.C", "m.py", [], [])  # type: ignore[misc]
    c = Change(
        id="skip-flag:m.C", strategy="skip-flag", cls="m.C", file="m.py", attributes=[], findings=[], notes=["n"]
    )
    assert c.to_json()["notes"] == ["n"] and c.to_json()["new_bases"] == []
