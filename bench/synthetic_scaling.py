"""How deadinit's cold run grows with the shape of the code, on generated trees.  Run by hand
(``bench/speed.py`` runs it too, unless ``--skip-synthetic``):

    python bench/synthetic_scaling.py [--quick] [--family depth|width|files ...] [--json out.json]

Three families, each timed cold (``--no-cache``) at several sizes, with the exponent of a
least-squares fit of log(time) against log(size) over the sizes from the second up (the
smallest is mostly start-up):

* **depth**: one chain of N classes in one file, each adding a tensor after
  ``super().__init__()`` (50 to 1,600);
* **width**: N classes side by side under one base that allocates (1k to 10k);
* **files**: 10-deep hierarchies, one per file, N files (1k to 10k: 10k to 100k classes).

The target (issue 31) is an exponent <= 1.2 in depth and in width, and the 800-deep chain
under 10 s on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

TENSOR = "torch.zeros(1024)"


def chain(root: Path, depth: int) -> None:
    out = ["import torch", "", "class C0:", "    def __init__(self):", f"        self.a0 = {TENSOR}", ""]
    for i in range(1, depth):
        out += [f"class C{i}(C{i - 1}):", "    def __init__(self):", "        super().__init__()"]
        out += [f"        self.a{i} = {TENSOR}", ""]
    (root / "chain.py").write_text("\n".join(out))


def width(root: Path, n: int) -> None:
    out = ["import torch", "", "class Base:", "    def __init__(self):", f"        self.w = {TENSOR}", ""]
    for i in range(n):
        out += [f"class S{i}(Base):", "    def __init__(self):", "        super().__init__()"]
        out += [f"        self.w = torch.ones({i % 9 + 1})", ""]
    (root / "wide.py").write_text("\n".join(out))


def files(root: Path, n: int, depth: int = 10) -> None:
    for f in range(n):
        out = ["import torch", ""]
        for i in range(depth):
            base = f"(H{i - 1})" if i else ""
            out += [f"class H{i}{base}:", "    def __init__(self):"]
            out += ["        super().__init__()"] if i else []
            out += [f"        self.a{i} = {TENSOR}", ""]
        out += [f"class Leaf(H{depth - 1}):", "    def __init__(self):", "        super().__init__()"]
        out += ["        self.a0 = None", ""]
        (root / f"m{f:05d}.py").write_text("\n".join(out))


FAMILIES: dict[str, tuple[Callable[[Path, int], None], tuple[int, ...], tuple[int, ...]]] = {
    # name: (generator, sizes, quick sizes)
    "depth": (chain, (50, 100, 200, 400, 800, 1600), (50, 100, 200, 400)),
    "width": (width, (1000, 3000, 10000), (1000, 3000)),
    "files": (files, (1000, 3000, 10000), (300, 1000)),
}
UNITS = {"depth": "classes deep", "width": "classes under one base", "files": "files of 10-deep hierarchies"}


def timed(tree: Path) -> dict[str, float]:
    """One cold run's wall time and CPU (user + system, deadinit and its workers)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-m", "deadinit.cli.main", "check", str(tree), "--no-cache", "--quiet"],
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode not in (0, 1):
        raise SystemExit(f"deadinit failed on {tree} (exit {r.returncode}): {r.stderr.strip()[-400:]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {"wall": wall, "cpu": cpu}


def exponent(points: list[tuple[int, float]]) -> float:
    """The slope of log(time) against log(size), least squares, from the second size up."""
    pts = [(math.log(n), math.log(t)) for n, t in points[1:] if t > 0] if len(points) > 2 else []
    if len(pts) < 2:
        pts = [(math.log(n), math.log(t)) for n, t in points if t > 0]
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)


def measure(quick: bool = False, only: tuple[str, ...] = ()) -> dict[str, list[dict[str, float]]]:
    out: dict[str, list[dict[str, float]]] = {}
    for name, (make, sizes, quick_sizes) in FAMILIES.items():
        if only and name not in only:
            continue
        out[name] = []
        for n in quick_sizes if quick else sizes:
            work = Path(tempfile.mkdtemp(prefix=f"deadinit-{name}-"))
            try:
                make(work, n)
                out[name].append({"size": n, **timed(work)})
            finally:
                shutil.rmtree(work, ignore_errors=True)
            print(f"{name} {n}: {out[name][-1]['wall']:.2f} s", file=sys.stderr)
    return out


def table(results: dict[str, list[dict[str, float]]]) -> str:
    rows = [
        "| family | sizes | cold wall s | cold CPU s | fitted exponent (wall) | fitted exponent (CPU) |",
        "|---|---|---|---|---:|---:|",
    ]
    for name, runs in results.items():
        sizes = ", ".join(f"{int(m['size']):,}" for m in runs)
        walls = ", ".join(f"{m['wall']:.2f}" for m in runs)
        cpus = ", ".join(f"{m['cpu']:.2f}" for m in runs)
        ew = exponent([(int(m["size"]), m["wall"]) for m in runs])
        ec = exponent([(int(m["size"]), m["cpu"]) for m in runs])
        rows.append(f"| {name} ({UNITS[name]}) | {sizes} | {walls} | {cpus} | {ew:.2f} | {ec:.2f} |")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a look, not the README's figures)")
    ap.add_argument("--json", type=Path, help="also write the measurements here")
    ap.add_argument(
        "--family", action="append", choices=tuple(FAMILIES), default=[], help="only this family (repeatable)"
    )
    a = ap.parse_args()
    results = measure(a.quick, tuple(a.family))
    if a.json:
        a.json.write_text(json.dumps(results, indent=1))
    print(table(results))


if __name__ == "__main__":
    main()
