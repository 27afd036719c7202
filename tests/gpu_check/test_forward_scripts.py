"""bench/gpu_forward_{trees,pack,run}.sh and bench/gpu_provenance.py: the evidence names its commit and fix commands.

The trees are made from a small ``sglang`` package written here (the scripts expect that
folder name), with the fix commands given as knobs; the run script is driven with a stand-in
``PY`` that does nothing, so only what it writes about the run is checked, not a GPU run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "bench"
pytestmark = pytest.mark.skipif(not (shutil.which("bash") and shutil.which("git")), reason="needs bash and git")

BACKEND = """import torch


class Parent:
    def __init__(self, n):
        self.workspace = torch.empty(n, dtype=torch.uint8, device="cuda")
        self.scratch = torch.empty(n, dtype=torch.uint8, device="cuda")

    def run(self):
        return self.workspace.sum() + self.scratch.sum()


class Child(Parent):
    def __init__(self, n):
        super().__init__(n)
        self.workspace = torch.zeros(n, dtype=torch.uint8, device="cuda")

    def run(self):
        return self.workspace.sum()
"""
SKIP_FIX = "sglang --strategy skip-flag"
DIRECT_FIX = "sglang --strategy direct-base --class sglang.backend.Child"


def _load_provenance():
    spec = importlib.util.spec_from_file_location("gpu_provenance", BENCH / "gpu_provenance.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


provenance = _load_provenance()


def _git(*args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return subprocess.run(["git", *args], cwd=REPO, env=env, capture_output=True, text=True).stdout.strip()


HEAD = _git("rev-parse", "--verify", "HEAD")
MODIFIED = bool(_git("status", "--porcelain", "--untracked-files=normal", "--", "deadinit", "bench"))


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "GIT_"))}
    return {**env, **extra}


@pytest.fixture(scope="module")
def packed(tmp_path_factory):
    if not HEAD:
        pytest.skip("not a git checkout")
    tmp = tmp_path_factory.mktemp("forward")
    corpus = tmp / "corpus"
    (corpus / "sglang").mkdir(parents=True)
    (corpus / "sglang" / "__init__.py").write_text("")
    (corpus / "sglang" / "backend.py").write_text(BACKEND)
    dev = tmp / "dev"
    env = _env(
        CORPUS=str(corpus),
        SKIP_FIX=SKIP_FIX,
        DIRECT_FIX=DIRECT_FIX,
        NO_WHEELS="1",
        ALLOW_UNRECORDED="1",  # the checkout may have uncommitted work while tests run
        PY=sys.executable,
        WORK=str(tmp / "trees"),
    )
    out = subprocess.run(
        ["bash", str(BENCH / "gpu_forward_trees.sh"), str(dev)], env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return tmp, corpus, dev


def test_the_trees_are_made_by_this_checkout_with_the_commands_given(packed):
    _, _, dev = packed
    for label, args in (("skip-flag", SKIP_FIX), ("direct-base", DIRECT_FIX)):
        report = json.loads((dev / label / "fix-report.json").read_text())
        assert report["command"] == f"deadinit fix {args} --report fix-report.json"
        assert report["deadinit"]["commit"] == HEAD
        assert [c["class"] for c in report["changes"]] == ["sglang.backend.Child"]
        assert (dev / label / "sglang" / "backend.py").is_file()
    assert (dev / "src" / "deadinit" / "gpu_check" / "runner.py").is_file()
    assert (dev / "bench" / "gpu_forward_run.sh").is_file()


def test_provenance_names_the_commit_and_each_fix_command(packed):
    _, corpus, dev = packed
    text = (dev / "provenance.md").read_text()
    assert text.startswith("# How this evidence was made\n")
    assert f"deadinit commit: {HEAD}" in text
    home = str(Path.home())
    shown = "~" + str(corpus)[len(home) :] if str(corpus).startswith(home + "/") else str(corpus)
    for label, args in (("skip-flag", SKIP_FIX), ("direct-base", DIRECT_FIX)):
        assert f"- `{label}`: in a copy of `{shown}`, with deadinit " in text
        assert f"      deadinit fix {args} --report fix-report.json\n" in text
    assert ("Not reproducible from the commit alone" in text) == MODIFIED


def test_the_run_puts_the_provenance_at_the_top_of_command_txt(packed, tmp_path):
    _, corpus, dev = packed
    fake = tmp_path / "py"
    fake.write_text("#!/bin/sh\nexit 0\n")  # stands in for python: env.txt's probe and gpu-check
    fake.chmod(0o755)
    out = tmp_path / "out"
    env = _env(PY=str(fake), NO_INSTALL="1", SGLANG_ROOT=str(corpus), OUT=str(out), WORK=str(tmp_path / "work"))
    run = subprocess.run(
        ["bash", str(dev / "bench" / "gpu_forward_run.sh"), str(dev)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    command = (out / "command.txt").read_text()
    assert command.startswith((dev / "provenance.md").read_text())
    head, _, rest = command.partition("\n## Commands run on the GPU machine\n\n")
    assert f"deadinit commit: {HEAD}" in head
    lines = rest.splitlines()
    assert sum("-m deadinit.gpu_check " in line for line in lines) == 2
    assert "skip-flag: sglang/backend.py" in lines and "direct-base: sglang/backend.py" in lines


def _report(commit: str | None, modified: bool | None = False) -> dict:
    made = {"version": "0.1.0", "commit": commit, "modified": modified}
    return {"command": "deadinit fix sglang", "deadinit": made, "changes": [{"class": "a.B"}], "files": ["a.py"]}


def test_render_says_when_a_tree_is_not_from_the_payloads_commit():
    other = "f" * 40
    text, problems = provenance.render([("skip-flag", _report(HEAD or "e" * 40))], "C", HEAD or "e" * 40, False)
    assert problems == [] and "Not reproducible" not in text
    assert "      deadinit fix sglang\n" in text and "1 class(es) changed in 1 file(s): `B`" in text
    _, problems = provenance.render([("t", _report(other))], "C", "e" * 40, False)
    assert problems == [f"t: made by deadinit at {other}, the payload is from {'e' * 40}"]
    _, problems = provenance.render([("t", {"changes": []})], "C", "e" * 40, True)
    assert problems == [
        "deadinit/ or bench/ differ from HEAD in this checkout: the payload is not that commit",
        "t: the fix report records no command",
        "t: the fix report names no deadinit commit (an older report, or an installed deadinit)",
    ]
    _, problems = provenance.render([("t", _report("e" * 40, True))], "C", "e" * 40, False)
    assert problems == ["t: made by a checkout with local changes to deadinit/"]


def test_a_report_without_a_commit_stops_the_pack_unless_allowed(tmp_path):
    report = tmp_path / "old.json"
    report.write_text(json.dumps({"command": "deadinit fix sglang", "changes": [], "files": []}))
    cmd = [sys.executable, str(BENCH / "gpu_provenance.py"), "--corpus", "C", f"skip-flag={report}"]
    strict = subprocess.run(cmd, env=_env(), capture_output=True, text=True)
    assert strict.returncode == 1 and "names no deadinit commit" in strict.stderr
    allowed = subprocess.run(cmd, env=_env(ALLOW_UNRECORDED="1"), capture_output=True, text=True)
    assert allowed.returncode == 0 and "Not reproducible from the commit alone" in allowed.stdout


EVIDENCE = sorted(p for p in (REPO / "docs" / "gpu").iterdir() if p.is_dir())
COMMIT_REF = re.compile(r"commit(?:ted in)?:?\s+`?([0-9a-f]{7,40})\b")


@pytest.mark.parametrize("folder", EVIDENCE, ids=[p.name for p in EVIDENCE])
def test_every_evidence_folder_names_a_deadinit_commit(folder):
    text = "\n".join(
        p.read_text(encoding="utf-8") for p in (folder / "README.md", folder / "command.txt") if p.exists()
    )
    refs = COMMIT_REF.findall(text)
    assert refs, f"{folder.name}: its README.md or command.txt names no commit"
    if not HEAD or _git("rev-parse", "--is-shallow-repository") == "true":
        pytest.skip("no full git history here to look the commit up in")
    known = [r for r in refs if _git("cat-file", "-t", f"{r}^{{commit}}") == "commit"]
    assert known, f"{folder.name}: {refs} name no commit of this repository"
