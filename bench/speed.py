"""Speed of every deadinit command against vulture and ruff on sglang.  Run by hand:

    ../shared/corpus/fetch-sglang 0.5.5 0.5.20 0.5.23
    python bench/speed.py [--repeat 3] [--jobs N] [--skip-scaling] [--skip-cold] [--json out.json]

In one run, alternating the tools round by round (each ``--repeat`` times) on a
private copy of sglang 0.5.23, it times:

* deadinit ``check`` cold (``--no-cache``) and warm (cache full, nothing changed);
* ``check`` after one backend file changed without a code change (a comment
  appended: the stored result still holds);
* ``check`` after a code edit in one file, three kinds (each must change a summary:
  the run checks that the analysis ran): an import added at the top of a backend
  file, a new method in a backend class, an allocation's arguments changed in the
  ``__init__`` of a parent that many classes inherit;
* ``explain CLASS`` and ``fix --diff`` on the warm cache;
* vulture, and ``ruff check --no-cache`` (default rules).

Then deadinit cold on 0.5.5, 0.5.20 and 0.5.23, in lines per second, and the
generated trees of ``bench/synthetic_scaling.py`` (depth, width, many files) with
their fitted exponents.  Prints a
table of medians, ratios against vulture and ruff measured in the same rounds, the
targets met or missed, peak RSS (largest process; whole process tree summed) and
peak PSS of the tree summed (shared pages split: what the run really holds).
Needs vulture and ruff on PATH or next to this Python (they are not dependencies).
"""

from __future__ import annotations

import argparse
import ast
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import synthetic_scaling  # bench/ is on sys.path when this runs as a script

CORPUS = Path(os.environ.get("SGLANG_CORPUS_DIR", Path.home() / ".cache" / "sglang-corpus"))
CHANGED = "srt/layers/attention/flashinfer_backend.py"
METHOD_CLASS = "FlashInferAttnBackend"  # in CHANGED: gains a method
EXPLAINED = "flashinfer_backend.FlashInferAttnBackend"
# a parent whose __init__ allocates, inherited by 59 processor classes: one argument of the allocation changes
PARENT = "srt/multimodal/processors/base_processor.py"
PARENT_ALLOCATION = "            max_entries=8192,\n"
TARGETS = {
    "cold": ("vulture", 0.35),
    "warm": ("ruff", 0.25),
    "changed": ("ruff", 0.25),
    "edited": ("ruff", 0.30),
    "method": ("ruff", 0.30),
    "allocation": ("ruff", 0.30),
    "explain": ("ruff", 0.30),
    "fix": ("ruff", 1.0),
}
NAMES = {
    "cold": "deadinit check cold (`--no-cache`)",
    "warm": "deadinit check warm (nothing changed)",
    "changed": "check, a comment appended to a backend file",
    "edited": "check, an import added at the top of a backend file",
    "method": "check, a method added to a backend class",
    "allocation": "check, an allocation changed in a parent `__init__` (59 subclasses)",
    "checkout": "CI, cache restored: fresh checkout of the same code (every mtime new)",
    "checkout_edit": "CI, cache restored: fresh checkout, one file edited (import added)",
    "explain": "deadinit explain CLASS, warm",
    "fix": "deadinit fix --diff, warm",
    "vulture": "vulture",
    "ruff": "ruff check --no-cache",
}
EDITS = ("edited", "method", "allocation")  # each must make the analysis run
ANALYSED = "deadinit: summaries:"  # DEADINIT_STATS's line: printed when the stored result did not hold
GB = 1 << 30


def tool(name: str) -> str:
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else (shutil.which(name) or name)


def _tree_memory(pid: int) -> tuple[int, int]:
    """(summed RSS, summed PSS) in bytes of ``pid`` and its descendants, from /proc.

    RSS counts the pages a forked worker shares with its parent once per process;
    PSS splits shared pages between the processes sharing them, so its sum is the
    memory the run really holds."""
    rss, pss, todo = 0, 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1]) * 1024
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1]) * 1024
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return rss, pss


def run(cmd: list[str], cwd: Path, ok=(0, 1), expect_analysis: bool = False) -> dict:
    """Wall time, peak RSS of the largest process and of the process tree summed.

    ``expect_analysis``: fail unless the run summarised files and analysed (a cached
    ``check`` whose stored result held would not measure an edit)."""
    peak = [0, 0]
    env = dict(os.environ, DEADINIT_STATS="1") if expect_analysis else None
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            rss, pss = _tree_memory(proc.pid)
            peak[0], peak[1] = max(peak[0], rss), max(peak[1], pss)
            done.wait(0.05)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    done.set()
    th.join()
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in ok:
        raise SystemExit(f"{' '.join(cmd)} failed ({code}):\n{err[-2000:]}")
    if expect_analysis and ANALYSED not in err:
        raise SystemExit(f"{' '.join(cmd)}: the stored result held, the edit changed no summary")
    return {
        "wall": wall,
        "user": usage.ru_utime,
        "max_rss": usage.ru_maxrss * 1024,
        "tree_rss": peak[0],
        "tree_pss": peak[1],
    }


def deadinit(tree: Path, cache: Path, jobs, *extra: str, command: tuple[str, ...] = ()) -> list[str]:
    """``deadinit check`` (or ``command``: its arguments before the tree) on ``tree`` with ``cache``."""
    args = [*command, str(tree)] if command else ["check", str(tree), "--format", "json", "-q", "-o", os.devnull]
    cmd = [sys.executable, "-m", "deadinit", *args, "--cache-dir", str(cache), *extra]
    return cmd + (["--jobs", str(jobs)] if jobs else [])


def with_method(source: bytes, cls: str, r: int) -> bytes:
    """``source`` with a method appended to the body of top-level class ``cls``."""
    tree = ast.parse(source)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    indent = b" " * node.body[-1].col_offset
    lines = source.splitlines(keepends=True)
    method = indent + f"def _benchmark_{r}(self):\n".encode() + indent + b"    return self.__class__\n"
    return b"".join(lines[: node.end_lineno]) + b"\n" + method + b"".join(lines[node.end_lineno :])


def with_allocation_changed(source: bytes, r: int) -> bytes:
    old = PARENT_ALLOCATION.encode()
    if source.count(old) != 1:
        raise SystemExit(f"{PARENT}: {PARENT_ALLOCATION.strip()!r} is not there once: pick another allocation")
    return source.replace(old, old.replace(b"8192", f"{8000 + r}".encode()))


def _source() -> Path:
    src = CORPUS / "sglang-0.5.23" / "sglang"
    if not src.is_dir():
        raise SystemExit(f"{src} missing: run ../shared/corpus/fetch-sglang 0.5.23")
    return src


def _new_mtimes(tree: Path) -> None:
    """What a fresh checkout does to the tree: every file's mtime is now."""
    for p in tree.rglob("*.py"):
        os.utime(p)


def lines_of(tree: Path) -> int:
    return sum(p.read_bytes().count(b"\n") for p in tree.rglob("*.py"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--skip-scaling", action="store_true")
    ap.add_argument("--skip-synthetic", action="store_true", help="leave out the generated trees' scaling rows")
    ap.add_argument("--skip-cold", action="store_true", help="leave out the cold and vulture runs (a quick look)")
    ap.add_argument("--json", type=Path, help="also write every measurement here")
    ap.add_argument("--table", type=Path, help="print the table of a --json file (a run cut short) and stop")
    a = ap.parse_args()
    if a.table:
        saved = json.loads(a.table.read_text())
        print(table({k: v for k, v in saved["runs"].items() if v}, saved["scaling"], lines_of(_source())))
        return
    src = _source()
    # deadinit's bytecode compiled once, as installing a wheel does (an editable install, or
    # PYTHONDONTWRITEBYTECODE, would otherwise compile every module again in every run)
    compileall.compile_dir(Path(__file__).resolve().parent.parent / "deadinit", quiet=1)
    work = Path(tempfile.mkdtemp(prefix="deadinit-bench-"))
    tree = work / "sglang"
    shutil.copytree(src, tree)
    cache = work / "cache"
    changed, parent = tree / CHANGED, tree / PARENT
    original, parent_original = changed.read_bytes(), parent.read_bytes()
    data: dict = {k: [] for k in NAMES if not (a.skip_cold and k in ("cold", "vulture"))}
    warm_cmd = deadinit(tree, cache, a.jobs)
    scaling = {}
    try:
        for r in range(a.repeat):
            if not a.skip_cold:
                data["cold"].append(run(deadinit(tree, work / "nocache", a.jobs, "--no-cache"), work))
            if r == 0:  # fill the cache once
                run(warm_cmd, work)
            data["warm"].append(run(warm_cmd, work))
            # no code change: a comment appended (the summary is the stored one: the stored result holds)
            changed.write_bytes(original + f"\n# benchmark edit {r}\n".encode())
            data["changed"].append(run(warm_cmd, work))
            # code edits: each changes one summary, so the analysis runs (checked)
            changed.write_bytes(f"import os as _benchmark_{r}\n".encode() + original)
            data["edited"].append(run(warm_cmd, work, expect_analysis=True))
            changed.write_bytes(with_method(original, METHOD_CLASS, r))
            data["method"].append(run(warm_cmd, work, expect_analysis=True))
            changed.write_bytes(original)
            parent.write_bytes(with_allocation_changed(parent_original, r))
            data["allocation"].append(run(warm_cmd, work, expect_analysis=True))
            parent.write_bytes(parent_original)
            run(warm_cmd, work)  # back to the stored state (not timed)
            explain = deadinit(tree, cache, a.jobs, "--color", "never", command=("explain", EXPLAINED))
            data["explain"].append(run(explain, work, ok=(0,)))
            data["fix"].append(run(deadinit(tree, cache, a.jobs, "-q", command=("fix", "--diff")), work))
            # CI with .deadinit_cache restored: a checkout gives every file a new mtime (last: for
            # a few seconds after, every run hashes every file again, which is the CI rows' cost)
            _new_mtimes(tree)
            data["checkout"].append(run(warm_cmd, work))
            _new_mtimes(tree)
            changed.write_bytes(f"import os as _benchmark_ci_{r}\n".encode() + original)
            data["checkout_edit"].append(run(warm_cmd, work, expect_analysis=True))
            changed.write_bytes(original)
            run(warm_cmd, work)  # back to the stored state (not timed)
            if not a.skip_cold:
                data["vulture"].append(run([tool("vulture"), str(tree)], work, ok=(0, 1, 3)))  # 3: dead code found
            data["ruff"].append(run([tool("ruff"), "check", "--no-cache", str(tree)], work))
            _progress(r, data)
            if a.json:  # what the rounds so far measured, in case the run is cut short
                a.json.write_text(json.dumps({"runs": data, "scaling": {}}, indent=1))
        changed.write_bytes(original)
        parent.write_bytes(parent_original)
        if not a.skip_scaling and not a.skip_cold:
            for v in ("0.5.5", "0.5.20", "0.5.23"):
                t = CORPUS / f"sglang-{v}" / "sglang"
                if t.is_dir():
                    m = run(deadinit(t, work / "nocache", a.jobs, "--no-cache"), work)
                    scaling[v] = {"lines": lines_of(t), **m}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if a.json:
        a.json.write_text(json.dumps({"runs": data, "scaling": scaling}, indent=1))
    print(table(data, scaling, lines_of(src)))
    if not a.skip_synthetic:  # after the timed rounds, so they do not share the machine with it
        print("\n" + synthetic_scaling.table(synthetic_scaling.measure()))


def _s(seconds: float) -> str:
    return f"{seconds:.2f}" if seconds < 10 else f"{seconds:.1f}"


def _progress(r: int, data: dict) -> None:
    print(f"round {r + 1}: " + ", ".join(f"{k} {v[-1]['wall']:.1f}s" for k, v in data.items()), file=sys.stderr)
    print(f"uptime: {os.getloadavg()}", file=sys.stderr)


def table(data: dict, scaling: dict, lines: int) -> str:
    med = {k: statistics.median(m["wall"] for m in v) for k, v in data.items()}
    rounds = len(data["warm"])
    out = [
        f"sglang 0.5.23, {lines:,} lines, {os.cpu_count()} cores, {rounds} alternating rounds (medians of {rounds})",
        "",
        "| run | median s | all runs s | median user CPU s | ratio (same rounds) | target | met "
        "| peak RSS, largest process | peak PSS, process tree |",
        "|---|---:|---|---:|---:|---|:---:|---:|---:|",
    ]
    deadinit_pss = 0
    for k, v in data.items():
        ratio, target, met = "", "", ""
        if k in TARGETS and TARGETS[k][0] in med:
            ref, limit = TARGETS[k]
            ratio = f"{med[k] / med[ref]:.2f} x {ref}"
            target = f"<= {limit} x {ref}"
            met = "**yes**" if med[k] <= limit * med[ref] else "no"
        rss = max(m["max_rss"] for m in v)
        pss = max(m.get("tree_pss", 0) for m in v)
        if k not in ("vulture", "ruff"):
            deadinit_pss = max(deadinit_pss, pss)
        walls = ", ".join(_s(m["wall"]) for m in v)
        out.append(
            f"| {NAMES[k]} | {_s(med[k])} | {walls} | {_s(statistics.median(m.get('user', 0) for m in v))} "
            f"| {ratio} | {target} | {met} "
            f"| {rss / 2**20:.0f} MiB | {pss / 2**20:.0f} MiB |"
        )
    out.append(
        f"| peak memory of every deadinit run (PSS, process tree) | | | | | <= 1 GB "
        f"| {'**yes**' if deadinit_pss <= GB else 'no'} | | {deadinit_pss / 2**20:.0f} MiB |"
    )
    if scaling:
        out += ["", "| sglang | lines | deadinit cold s | lines/s | peak PSS summed |", "|---|---:|---:|---:|---:|"]
        for v, m in scaling.items():
            out.append(
                f"| {v} | {m['lines']:,} | {m['wall']:.1f} | {m['lines'] / m['wall']:,.0f} "
                f"| {m.get('tree_pss', 0) / 2**20:.0f} MiB |"
            )
    return "\n".join(out)


if __name__ == "__main__":
    main()
