"""Baselines: write today's findings, report only new ones, keys survive line moves, bad files exit 2."""

import json

from sample_project import DI001_KEY, DI002_KEY, assert_one_line_error, invoke, sample


def _keys(res) -> set:
    return {f["key"] for f in json.loads(res.stdout)}


def test_write_then_only_new_findings(write_project):
    root = write_project(sample())
    (root / "pkg" / "child.py").write_text(
        (root / "pkg" / "child.py").read_text().replace("        self.ws = torch.empty(16)\n", "")
    )  # today: only DI002 on buf
    res = invoke(["check", ".", "--write-baseline", "bl.json"], cwd=root)
    assert res.exit_code == 0 and "wrote 1 finding(s)" in res.stderr
    doc = json.loads((root / "bl.json").read_text())
    assert doc["format"] == "deadinit-baseline" and [e["key"] for e in doc["findings"]] == [DI002_KEY]

    clean = invoke(["check", ".", "--baseline", "bl.json"], cwd=root)
    assert clean.exit_code == 0 and "1 finding(s) hidden by baseline" in clean.stderr

    # lines move (code added above everything) and a new finding appears
    root = write_project(sample(extra={"pkg/base.py": "# moved\n\n\n" + (root / "pkg" / "base.py").read_text()}))
    res = invoke(["check", ".", "--baseline", "bl.json", "--format", "json"], cwd=root)
    assert res.exit_code == 1 and _keys(res) == {DI001_KEY}


def test_stale_entries_are_mentioned(write_project):
    root = write_project(sample())
    invoke(["check", ".", "--write-baseline", "bl.json"], cwd=root)
    (root / "pkg" / "child.py").write_text("")
    res = invoke(["check", ".", "--baseline", "bl.json"], cwd=root)
    assert res.exit_code == 0 and "2 baseline entries no longer found" in res.stderr


def test_unreadable_baselines(write_project):
    root = write_project(sample())
    assert_one_line_error(
        invoke(["check", ".", "--baseline", "nope.json"], cwd=root), "baseline file not found: nope.json"
    )
    (root / "bad.json").write_text("{not json")
    assert_one_line_error(invoke(["check", ".", "--baseline", "bad.json"], cwd=root), "bad.json", "not valid JSON")
    (root / "other.json").write_text('{"findings": []}')
    assert_one_line_error(invoke(["check", ".", "--baseline", "other.json"], cwd=root), "not a deadinit baseline")
    (root / "damaged.json").write_text('{"format": "deadinit-baseline", "version": 1, "findings": [1]}')
    assert_one_line_error(invoke(["check", ".", "--baseline", "damaged.json"], cwd=root), "damaged")
    assert_one_line_error(invoke(["check", ".", "--baseline", "pkg"], cwd=root), "is a directory")
    assert_one_line_error(
        invoke(["check", ".", "--write-baseline", "no/such/dir/bl.json"], cwd=root), "cannot write baseline"
    )
