"""Speed of `deadinit check` against vulture and ruff on sglang.  Run by hand:

    ../shared/corpus/fetch-sglang 0.5.5 0.5.20 0.5.23
    python bench/speed.py [--repeat 3] [--jobs N] [--skip-scaling] [--skip-cold] [--json out.json]

In one run, alternating the tools round by round (each at least ``--repeat`` times)
on a private copy of sglang 0.5.23, it times: deadinit cold (``--no-cache``), warm
(cache full, nothing changed), after one backend file changed (a comment appended:
the stored result still holds), after the same file was edited (an import added at
the top moves every line: the analysis runs, summaries of the other files come from
the cache); vulture; and ``ruff check --no-cache`` (default rules).  Then deadinit cold on 0.5.5, 0.5.20 and
0.5.23, in lines per second.  Prints a table of medians, ratios against the
targets, peak RSS (largest process; whole process tree summed) and peak PSS of
the tree summed (shared pages split: what the run really holds).
Needs vulture and ruff on PATH or next to this Python (they are not dependencies).
"""

from __future__ import annotations

import argparse
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

CORPUS = Path(os.environ.get("SGLANG_CORPUS_DIR", Path.home() / ".cache" / "sglang-corpus"))
CHANGED = "srt/layers/attention/flashinfer_backend.py"
TARGETS = {"cold": ("vulture", 0.35), "warm": ("ruff", 0.25), "changed": ("ruff", 0.30), "edited": ("ruff", 0.30)}
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


def run(cmd: list[str], cwd: Path, ok=(0, 1)) -> dict:
    """Wall time, peak RSS of the largest process and of the process tree summed."""
    peak = [0, 0]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
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
    return {"wall": wall, "max_rss": usage.ru_maxrss * 1024, "tree_rss": peak[0], "tree_pss": peak[1]}


def deadinit(tree: Path, cache: Path, jobs, *extra: str) -> list[str]:
    cmd = [
        sys.executable,
        "-m",
        "deadinit",
        "check",
        str(tree),
        "--format",
        "json",
        "-q",
        "-o",
        os.devnull,
        "--cache-dir",
        str(cache),
        *extra,
    ]
    return cmd + (["--jobs", str(jobs)] if jobs else [])


def lines_of(tree: Path) -> int:
    return sum(p.read_bytes().count(b"\n") for p in tree.rglob("*.py"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--skip-scaling", action="store_true")
    ap.add_argument("--skip-cold", action="store_true", help="leave out the cold and vulture runs (a quick look)")
    ap.add_argument("--json", type=Path, help="also write every measurement here")
    a = ap.parse_args()
    src = CORPUS / "sglang-0.5.23" / "sglang"
    if not src.is_dir():
        raise SystemExit(f"{src} missing: run ../shared/corpus/fetch-sglang 0.5.23")
    work = Path(tempfile.mkdtemp(prefix="deadinit-bench-"))
    tree = work / "sglang"
    shutil.copytree(src, tree)
    cache = work / "cache"
    changed = tree / CHANGED
    original = changed.read_bytes()
    kinds = ("cold", "warm", "changed", "edited", "vulture", "ruff")
    data: dict = {k: [] for k in kinds if not (a.skip_cold and k in ("cold", "vulture"))}
    try:
        for r in range(a.repeat):
            if not a.skip_cold:
                data["cold"].append(run(deadinit(tree, work / "nocache", a.jobs, "--no-cache"), work))
            if r == 0:  # fill the cache once
                run(deadinit(tree, cache, a.jobs), work)
            data["warm"].append(run(deadinit(tree, cache, a.jobs), work))
            # the benchmark's edit: a comment appended (no summary changes: the stored result holds)
            changed.write_bytes(original + f"\n# benchmark edit {r}\n".encode())
            data["changed"].append(run(deadinit(tree, cache, a.jobs), work))
            # a code edit: an import added at the top moves every line (summary differs: full analysis)
            changed.write_bytes(f"import os as _benchmark_{r}\n".encode() + original)
            data["edited"].append(run(deadinit(tree, cache, a.jobs), work))
            changed.write_bytes(original)
            run(deadinit(tree, cache, a.jobs), work)  # back to the stored state (not timed)
            if not a.skip_cold:
                data["vulture"].append(run([tool("vulture"), str(tree)], work, ok=(0, 1, 3)))  # 3: dead code found
            data["ruff"].append(run([tool("ruff"), "check", "--no-cache", str(tree)], work))
            _progress(r, data)
        changed.write_bytes(original)
        scaling = {}
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


def _s(seconds: float) -> str:
    return f"{seconds:.2f}" if seconds < 10 else f"{seconds:.1f}"


def _progress(r: int, data: dict) -> None:
    print(f"round {r + 1}: " + ", ".join(f"{k} {v[-1]['wall']:.1f}s" for k, v in data.items()), file=sys.stderr)


def table(data: dict, scaling: dict, lines: int) -> str:
    med = {k: statistics.median(m["wall"] for m in v) for k, v in data.items()}
    out = [
        f"sglang 0.5.23, {lines:,} lines, {os.cpu_count()} cores, {len(data['warm'])} alternating rounds",
        "",
        "| run | median s | all runs s | ratio | target | peak RSS, largest process | peak RSS summed "
        "| peak PSS summed (<= 1 GB) |",
        "|---|---:|---|---:|---|---:|---:|---:|",
    ]
    names = {
        "cold": "deadinit cold (`--no-cache`)",
        "warm": "deadinit warm (nothing changed)",
        "changed": "deadinit, one backend file changed (comment appended)",
        "edited": "deadinit, one backend file edited (import added at the top: analysis runs)",
        "vulture": "vulture",
        "ruff": "ruff check --no-cache",
    }
    for k, v in data.items():
        ratio, target = "", ""
        if k in TARGETS and TARGETS[k][0] in med:
            ref, limit = TARGETS[k]
            ratio = f"{med[k] / med[ref]:.2f} x {ref}"
            target = f"<= {limit} x {ref}: {'met' if med[k] <= limit * med[ref] else 'missed'}"
        rss = max(m["max_rss"] for m in v)
        tree = max(m["tree_rss"] for m in v)
        pss = max(m.get("tree_pss", 0) for m in v)
        walls = ", ".join(_s(m["wall"]) for m in v)
        out.append(
            f"| {names[k]} | {_s(med[k])} | {walls} | {ratio} | {target} "
            f"| {rss / 2**20:.0f} MiB | {tree / 2**20:.0f} MiB | {pss / 2**20:.0f} MiB"
            f"{' (over 1 GB)' if pss > GB else ''} |"
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
