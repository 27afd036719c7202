"""The pull-request description: what `deadinit fix --pr-body` and gpu-check's JSON put in it."""

import json
import os
import shutil
import textwrap

from click.testing import CliRunner
from gpu_check_helpers import REPO

from deadinit.cli.main import main
from deadinit.gpu_check import pr_body

MIB = 1 << 20


def _call(index, path, name, ran, sha="aa", stand_in=None):
    call = {
        "index": index,
        "path": path,
        "name": name,
        "target": f"lib.kernels:{name}",
        "ran": ran,
        "args": {"q": {"tensor": [2, 4], "dtype": "bfloat16", "device": "cuda", "sha256": sha}},
    }
    if stand_in:
        call["stand_in"] = stand_in
    return call


def _forward(ok=True):
    calls = [
        _call(0, "decode", "paged_decode", True),
        _call(1, "decode", "context_kernel", False, stand_in="binaries not on the machine"),
    ]
    paths = [
        {"name": "decode", "ok": True, "steps": ["init_forward_metadata", "forward_decode"]},
        {"name": "target-verify", "ok": False, "error": "ValueError: no spec info"},
    ]
    return {"paths": paths if ok else paths[:1], "calls": calls}


def gpu_run(label="skip-flag"):
    comp = {
        "label": label,
        "status": "ok",
        "failed": False,
        "original_bytes": 929 * MIB,
        "rewritten_bytes": 513 * MIB,
        "saved_bytes": 416 * MIB,
        "pinned_saved_bytes": 32 * MIB,
        "attribute_savings": {"wrappers": 400 * MIB, "tiny": 0},
        "forward": {"status": "equal", "device_equal": {"device": "cuda", "pairs": 3, "checked": 3, "equal": 3}},
    }
    return {
        "command": "deadinit gpu-check --forward ...",
        "measure": "allocated",
        "stubbed": ["sgl_kernel"],
        "environment": {"gpu": "NVIDIA H200", "torch": "2.11"},
        "trees": [{"label": "original"}, {"label": label}],
        "results": [
            {
                "name": "Child",
                "original": {"ok": True, "forward": _forward()},
                "rewritten": {label: {"ok": True, "forward": _forward()}},
                "comparisons": [comp],
            }
        ],
    }


def fix_report(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "parent.py").write_text(
        textwrap.dedent("""
        class Parent:
            def __init__(self, runner, skip_init_workspace: bool = False):
                if not skip_init_workspace:
                    self.workspace = get_buffer("shared_workspace", lambda: runner.alloc())
                    self.wrappers = [Wrapper(self.workspace)]
                else:
                    self.workspace = None
                    self.wrappers = None
    """)
    )
    change = {
        "class": "pkg.child.Child",
        "file": "pkg/child.py",
        "strategy": "skip-flag",
        "flag": "skip_init_workspace",
        "parents": ["pkg.parent.Parent"],
        "attributes": ["wrappers"],
        "overwritten": ["workspace"],
        "reads": ["kv_indptr"],
        "files": ["pkg/parent.py", "pkg/child.py"],
        "notes": ["dropped side effect: Parent.__init__ line 3: `os.environ['X'] = '1'`"],
        "evidence": [
            {
                "key": "DI002:pkg.child.Child:pkg.parent.Parent:wrappers",
                "message": "`self.wrappers` allocated by Parent.__init__ is never read by Child",
                "attribute": "wrappers",
                "parent": "pkg.parent.Parent",
                "size": "384 MiB",
                "lifetime": "steady",
                "evidence": [
                    {"kind": "allocated", "text": "Parent.__init__ assigns self.wrappers"},
                    {
                        "kind": "read-not-counted",
                        "text": "Parent.plan reads self.wrappers but is overridden by Child.plan",
                    },
                    {"kind": "checked", "text": "12 methods checked: a, b"},
                ],
            }
        ],
    }
    return {
        "command": "deadinit fix pkg --strategy skip-flag",
        "strategy": "skip-flag",
        "changes": [change],
        "files": ["pkg/parent.py", "pkg/child.py"],
        "diff_stat": {"files": 2, "insertions": 9, "deletions": 3},
    }


def test_body_has_every_section_and_claims_only_what_was_measured(tmp_path):
    text = pr_body.render([("skip-flag", fix_report(tmp_path))], [gpu_run()], tmp_path)
    assert text.startswith("# Stop `Child` from building parent state it never uses (skip-flag)")
    for heading in (
        "## What changes and why",
        "## Diff",
        "## Memory, measured on the GPU",
        "## Forward run",
        "## Reproduce",
        "## What this does not rule out",
    ):
        assert heading in text
    # why, one bullet per attribute: the step that decides it, not the finding's message again
    assert "- `wrappers`: Parent.plan reads self.wrappers but is overridden by Child.plan." in text
    assert "allocated by Parent.__init__ is never read" not in text
    assert "| `wrappers` | `Parent.__init__` | 384 MiB | - |" in text  # what is no longer allocated, in its column
    assert "methods checked" not in text and "step(s)" not in text  # nothing about the tool's internals
    assert "2 files changed, +9 \N{MINUS SIGN}3" in text and "(s)" not in text
    assert "| Child | skip-flag | 929.00 | 513.00 | 416.00 | 32.00 | ok |" in text
    assert "| `wrappers` | 400.00 |" in text and "`tiny`" not in text
    assert "| 1 | Child | skip-flag | decode | 2 | 1 / 1 | 3 / 3 | **equal** |" in text
    assert "`paged_decode` (run 1)" in text  # ran
    assert "- `context_kernel` (run 1): binaries not on the machine" in text  # stood in, said so
    assert "target-verify: raised in both trees (ValueError: no spec info)" in text
    assert "no longer makes the call `get_buffer('shared_workspace'" in text
    assert "`Wrapper(self.workspace)`" not in text  # building the skipped attribute is the point
    assert "dropped side effect: Parent.__init__ line 3: `os.environ['X'] = '1'`" in text
    assert "deadinit fix pkg --strategy skip-flag" in text and "# run 1" in text
    assert "sgl_kernel" in text and "NVIDIA H200" in text


def test_reproduce_names_the_deadinit_commit_that_made_the_rewrite(tmp_path):
    report = fix_report(tmp_path)
    text = pr_body.render([("skip-flag", report)], [gpu_run()], tmp_path)
    assert "at commit" not in text  # an older report, or an installed deadinit: no commit known
    sha = "0123456789abcdef0123456789abcdef01234567"
    report["deadinit"] = {"version": "0.1.0", "commit": sha, "modified": False}
    text = pr_body.render([("skip-flag", report)], [gpu_run()], tmp_path)
    assert f"# deadinit 0.1.0 at commit {sha}\ndeadinit fix pkg --strategy skip-flag\n" in text
    report["deadinit"]["modified"] = True
    text = pr_body.render([("skip-flag", report)], [gpu_run()], tmp_path)
    assert f"# deadinit 0.1.0 at commit {sha} with local changes\n" in text


def test_without_a_gpu_run_the_body_says_nothing_was_measured(tmp_path):
    text = pr_body.render([(None, fix_report(tmp_path))], [], tmp_path)
    assert "No gpu-check run was given: nothing was measured." in text
    assert "No forward run was given: the forward path was not exercised." in text
    assert "saved MiB |" not in text  # no measured table


def test_fix_writes_the_pr_body_with_evidence(tmp_path):
    shutil.copytree(REPO / "fixtures", tmp_path / "fixtures")
    (tmp_path / "run.json").write_text(json.dumps(gpu_run()))
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(
            main,
            [
                "fix",
                "fixtures",
                "--class",
                "TrtMHABackend",
                "--unsafe-fixes",
                "--report",
                "fix.json",
                "--pr-body",
                "pr.md",
                "--pr-evidence",
                "run.json",
            ],
            catch_exceptions=False,
        )
    finally:
        os.chdir(cwd)
    assert result.exit_code in (0, 1), result.output
    report = json.loads((tmp_path / "fix.json").read_text())
    (change,) = report["changes"]
    assert change["evidence"] and all(e["message"] and e["evidence"] for e in change["evidence"])
    text = (tmp_path / "pr.md").read_text()
    assert "**`TrtMHABackend`**" in text and "skip_init_workspace_buffer=True" in text
    assert "| Child | skip-flag |" in text  # the run's rows for the tree labelled like the strategy


def test_many_classes_and_long_attribute_lists_stay_readable(tmp_path):
    """A title names at most three classes; a class given more than a few attributes lists them below."""
    report = fix_report(tmp_path)
    (change,) = report["changes"]
    many = [dict(change, id=f"skip-flag:pkg.c{i}.C{i}", **{"class": f"pkg.c{i}.C{i}"}) for i in range(4)]
    attrs = [f"a{i}" for i in range(12)]
    many[0] = dict(many[0], attributes=attrs, overwritten=["b"])
    text = pr_body.render([("skip-flag", dict(report, changes=many))], [], tmp_path)
    assert text.startswith("# Stop 4 classes from building parent state they never use (skip-flag)")
    assert "which builds 13 attributes for it. The class overwrites 1 of them with its own" in text
    assert "never reads 12 others" in text and "Never read: `a0`, `a1`" in text and "<details>" in text


def test_per_attribute_savings_that_overlap_say_so(tmp_path):
    run, report = gpu_run(), fix_report(tmp_path)
    assert "adds up to" not in pr_body.render([("skip-flag", report)], [run], tmp_path)
    run["results"][0]["comparisons"][0]["attribute_savings"] = {"wrappers": 400 * MIB, "decode": 48 * MIB}
    text = pr_body.render([("skip-flag", report)], [run], tmp_path)
    assert "The column adds up to 448.00 MiB, more than the 416.00 MiB saved" in text
