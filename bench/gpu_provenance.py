"""How a GPU evidence folder was made: the deadinit commit and the exact fix commands of its trees.

    python3 bench/gpu_provenance.py --corpus DIR LABEL=FIX_REPORT.json ... > DEV_DIR/provenance.md

bench/gpu_forward_pack.sh writes it into DEV_DIR and bench/gpu_forward_run.sh puts it at the
top of the run's command.txt, so the evidence folder (docs/gpu/*) names them. The commit is
HEAD of this checkout (the gpu_check payload is copied from it); each tree's command and the
commit that ran it come from its fix report (``command`` and ``deadinit``, written by
``deadinit fix --report``). Exit 1, saying why, when a report names no commit, another commit
than the payload's, or a checkout with local changes (``ALLOW_UNRECORDED=1`` writes the file
anyway, with the same warnings in it). Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def git(*args: str) -> str | None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    out = subprocess.run(["git", *args], cwd=REPO, env=env, capture_output=True, text=True, check=False)
    return out.stdout.strip() if out.returncode == 0 else None


def checkout() -> tuple[str | None, bool]:
    """HEAD of this checkout and whether deadinit/ or bench/ differ from it."""
    head = git("rev-parse", "--verify", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=normal", "--", "deadinit", "bench")
    return head, bool(status)


def tree_lines(label: str, report: dict, corpus: str, head: str | None) -> tuple[list[str], list[str]]:
    """The tree's lines of the file, and what is wrong with its record."""
    made = report.get("deadinit") or {}
    command = report.get("command")
    problems = []
    if not command:
        problems.append(f"{label}: the fix report records no command")
    if not made.get("commit"):
        problems.append(f"{label}: the fix report names no deadinit commit (an older report, or an installed deadinit)")
    elif made["commit"] != head:
        problems.append(f"{label}: made by deadinit at {made['commit']}, the payload is from {head}")
    if made.get("modified"):
        problems.append(f"{label}: made by a checkout with local changes to deadinit/")
    changes = report.get("changes", [])
    stat = report.get("diff_stat") or {}
    lines = [
        f"- `{label}`: in a copy of `{corpus}`, with deadinit {made.get('version', '?')} at "
        f"{made.get('commit') or 'an unrecorded commit'}{' with local changes' if made.get('modified') else ''}:",
        "",
        f"      {command or '(command not recorded)'}",
        "",
        f"  {len(changes)} class(es) changed in {stat.get('files', len(report.get('files', [])))} file(s): "
        + ", ".join(f"`{c.get('class', '?').rpartition('.')[2]}`" for c in changes),
    ]
    return lines, problems


def render(reports: list[tuple[str, dict]], corpus: str, head: str | None, modified: bool) -> tuple[str, list[str]]:
    problems = [] if head else ["this checkout is not a git work tree: no commit to name"]
    if modified:
        problems.append("deadinit/ or bench/ differ from HEAD in this checkout: the payload is not that commit")
    out = [
        "# How this evidence was made",
        "",
        f"deadinit commit: {head or 'unknown'}{' (with local changes)' if modified else ''}: the gpu_check payload "
        "(deadinit/gpu_check and what it imports) and the bench scripts are from it.",
        "",
        "Trees: each `deadinit fix` below ran in its own copy of the original tree; the files it changed "
        "were laid over a fresh copy of the sglang wheel on the GPU machine.",
        "",
    ]
    for label, report in reports:
        lines, wrong = tree_lines(label, report, corpus, head)
        out += [*lines, ""]
        problems += wrong
    if problems:
        out += ["Not reproducible from the commit alone:", "", *(f"- {p}" for p in problems), ""]
    return "\n".join(out), problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", required=True, help="the folder the trees were copied from (holds sglang/)")
    parser.add_argument("reports", nargs="+", metavar="LABEL=FIX_REPORT", help="each tree's fix report")
    args = parser.parse_args(argv)
    reports = []
    for spec in args.reports:
        label, sep, path = spec.partition("=")
        if not sep:
            parser.error(f"{spec}: expected LABEL=FIX_REPORT")
        reports.append((label, json.loads(Path(path).read_text(encoding="utf-8"))))
    head, modified = checkout()
    home = str(Path.home())
    corpus = "~" + args.corpus[len(home) :] if args.corpus.startswith(home + "/") else args.corpus
    text, problems = render(reports, corpus, head, modified)
    sys.stdout.write(text)
    for p in problems:
        print(f"provenance: {p}", file=sys.stderr)
    return 1 if problems and os.environ.get("ALLOW_UNRECORDED") != "1" else 0


if __name__ == "__main__":
    sys.exit(main())
