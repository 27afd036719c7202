"""The GPU evidence committed under docs/gpu/plain-fix-0.5.20 is one run of main's own code: its
provenance names a commit of this repository's history, its PR bodies and fix reports name the same
commit, and the PR bodies and the README's GPU section carry the figures of the run's JSON."""

import json
import re
import subprocess
from pathlib import Path

import pytest

from deadinit.gpu_check.pr_body_runs import mib

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "docs" / "gpu" / "plain-fix-0.5.20"


def _commit() -> str:
    found = re.search(r"deadinit commit: ([0-9a-f]{40})", (FOLDER / "provenance.md").read_text())
    assert found, "provenance.md names no commit"
    return found.group(1)


def test_the_evidence_names_one_commit_everywhere():
    sha = _commit()
    assert sha in (FOLDER / "command.txt").read_text()  # what the device ran, as it came back
    for body in FOLDER.glob("pr-body-*.md"):
        assert f"at commit {sha}" in body.read_text(), body.name
    for report in FOLDER.glob("*-fix-report.json"):
        assert json.loads(report.read_text())["deadinit"]["commit"] == sha, report.name


def test_the_commit_is_in_this_repository_history():
    try:
        proc = subprocess.run(
            ["git", "-C", str(REPO), "merge-base", "--is-ancestor", _commit(), "HEAD"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        pytest.skip("git is not available here")
    if proc.returncode not in (0, 1):
        pytest.skip(f"not a git checkout with history: {proc.stderr.strip()}")
    assert proc.returncode == 0, "the evidence was made by a commit main does not contain"


def test_pr_bodies_and_readme_carry_the_runs_figures():
    run = json.loads((FOLDER / "forward_trtllm_mha.json").read_text())
    (entry,) = [r for r in run["results"] if r["name"] == "TRTLLMHAAttnBackend"]
    readme = (REPO / "README.md").read_text()
    assert "(docs/gpu/plain-fix-0.5.20)" in readme
    for comp in entry["comparisons"]:
        row = (
            f"| TRTLLMHAAttnBackend | {comp['label']} | {mib(comp['original_bytes'])} | "
            f"{mib(comp['rewritten_bytes'])} | **{mib(comp['saved_bytes'])}** |"
        )
        assert row in readme, row
        body = (FOLDER / f"pr-body-{comp['label']}.md").read_text()
        assert f"| TRTLLMHAAttnBackend | {comp['label']} | {mib(comp['original_bytes'])} |" in body
        assert "Not yet measured" not in body
