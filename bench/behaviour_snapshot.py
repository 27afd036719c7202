"""Record what deadinit says about a few projects, and compare a later run with the record byte for byte.

    python bench/behaviour_snapshot.py record DIR    # before a behaviour-preserving change
    python bench/behaviour_snapshot.py compare DIR   # after it: exit 0 when every output is identical

For each project it runs, with the deadinit of this Python, from the project's parent folder:

* ``deadinit check PROJECT --format json --no-cache`` (the findings);
* ``deadinit fix PROJECT --diff --no-cache --strategy skip-flag`` and ``--strategy direct-base``
  (the rewrites, written nowhere);

and keeps each command's stdout, stderr and exit code.  The projects are the repository's
``fixtures`` and, when the corpus is present (``$SGLANG_CORPUS_DIR``, else
``~/.cache/sglang-corpus``; ``../shared/corpus/fetch-sglang 0.5.20 0.5.23``), all of sglang
0.5.20 and 0.5.23.  ``--only NAME`` (repeatable) limits a run to some projects; ``compare``
checks the projects its run and the record have in common and says which it left out.
"""

from __future__ import annotations

import argparse
import difflib
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("SGLANG_CORPUS_DIR", Path.home() / ".cache" / "sglang-corpus"))
SGLANG_VERSIONS = ("0.5.20", "0.5.23")
COMMANDS = {
    "check": ("check", "--format", "json", "--no-cache"),
    "fix-skip-flag": ("fix", "--diff", "--no-cache", "--strategy", "skip-flag"),
    "fix-direct-base": ("fix", "--diff", "--no-cache", "--strategy", "direct-base"),
}
STREAMS = ("stdout", "stderr", "rc")


@dataclass(frozen=True)
class Project:
    name: str
    cwd: Path  # the commands run here, so every path they print is relative to it
    path: str  # the project, as the commands are given it


def projects() -> list[Project]:
    """The fixtures, then each sglang version whose corpus is complete."""
    found = [Project("fixtures", REPO, "fixtures")]
    for version in SGLANG_VERSIONS:
        root = CORPUS / f"sglang-{version}"
        if (root / ".complete").exists():
            found.append(Project(f"sglang-{version}", root, "sglang"))
    return found


def run_one(project: Project, args: tuple[str, ...]) -> dict[str, bytes]:
    """One command's outputs, with a plain environment (no colour, fixed width)."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    env.pop("FORCE_COLOR", None)
    done = subprocess.run(
        [sys.executable, "-m", "deadinit", *args[:1], project.path, *args[1:]],
        cwd=project.cwd,
        env=env,
        capture_output=True,
        check=False,
    )
    return {"stdout": done.stdout, "stderr": done.stderr, "rc": f"{done.returncode}\n".encode()}


def run_all(selected: list[Project], into: Path) -> None:
    """Run every command on every selected project and write its outputs under ``into``."""
    into.mkdir(parents=True, exist_ok=True)
    for project in selected:
        for name, args in COMMANDS.items():
            start = time.perf_counter()
            outputs = run_one(project, args)
            for stream, data in outputs.items():
                (into / f"{project.name}.{name}.{stream}").write_bytes(data)
            seconds = time.perf_counter() - start
            print(f"{project.name:16} {name:16} rc={outputs['rc'].decode().strip()} {seconds:6.1f} s", flush=True)


def _recorded_projects(record: Path) -> set[str]:
    return {p.name.removesuffix(".check.rc") for p in record.glob("*.check.rc")}


def compare(record: Path, selected: list[Project], scratch: Path) -> int:
    """Run again into ``scratch``; print what differs from ``record``; 0 when nothing does."""
    recorded = _recorded_projects(record)
    common = [p for p in selected if p.name in recorded]
    for name in sorted(recorded - {p.name for p in common}):
        print(f"{name}: recorded but not run now (corpus absent or --only)")
    for project in selected:
        if project.name not in recorded:
            print(f"{project.name}: not in the record")
    run_all(common, scratch)
    differences = 0
    for project in common:
        for name in COMMANDS:
            for stream in STREAMS:
                file = f"{project.name}.{name}.{stream}"
                before, after = (record / file).read_bytes(), (scratch / file).read_bytes()
                if before == after:
                    continue
                differences += 1
                print(f"DIFFERENT: {file}")
                lines = difflib.unified_diff(
                    before.decode(errors="replace").splitlines(),
                    after.decode(errors="replace").splitlines(),
                    "recorded",
                    "now",
                    lineterm="",
                )
                for line in list(lines)[:40]:
                    print(f"    {line}")
    compared = len(common) * len(COMMANDS) * len(STREAMS)
    print(f"{compared - differences} of {compared} outputs identical")
    return 0 if differences == 0 and common else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("record", "compare"))
    parser.add_argument("dir", type=Path, help="the record's folder")
    parser.add_argument("--only", action="append", default=[], help="a project name (fixtures, sglang-0.5.20, ...)")
    parser.add_argument("--scratch", type=Path, help="compare: where this run's outputs go (default DIR.now)")
    options = parser.parse_args(argv)
    selected = [p for p in projects() if not options.only or p.name in options.only]
    if options.action == "record":
        run_all(selected, options.dir)
        return 0
    return compare(options.dir, selected, options.scratch or options.dir.with_name(options.dir.name + ".now"))


if __name__ == "__main__":
    sys.exit(main())
