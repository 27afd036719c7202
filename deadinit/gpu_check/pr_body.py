"""Write a pull request's description from a fix report and the gpu-check runs that tested it.

``render(reports, runs, root)`` returns Markdown: what changes and why (one paragraph per
fixed class, the findings' evidence in plain words), the diff statistics, the memory and
forward-run tables of the GPU runs, the commands and environment to reproduce them, and
the behaviour changes the fix could not rule out. Every figure comes from the JSON it was
given; a section whose data is missing says so instead of guessing. No torch here.

Also runnable alone::

    python -m deadinit.gpu_check.pr_body --fix-report fix.json --gpu-check run.json [--root DIR] -o PR.md
"""

from __future__ import annotations

import argparse
import ast
import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from deadinit.model.qualnames import short_name

from ..model.evidence import EvidenceKind
from ..report.fix_report import read_fix_report
from .pr_body_runs import forward_section, memory_section

OUTSIDE_EFFECT = re.compile(r"(get_buffer|register|environ|setenv|putenv|\.set$|global)", re.I)


def load_fix_report(path: Path) -> dict[str, Any]:
    return read_fix_report(path)


def short(qualname: str | None) -> str:
    return short_name((qualname or "?").replace(":", "."))


def _names(values: Iterable[str]) -> str:
    values = [f"`{v}`" for v in values]
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1] if values else "nothing"


# -- what changes and why ------------------------------------------------------------
# The steps of a finding's evidence that say why it holds; the rest (where it is allocated, the
# call chain, what was checked) the paragraph and the table already say or leave to the report.
DECIDING = (
    EvidenceKind.OVERWRITTEN,
    EvidenceKind.READ_BETWEEN,
    EvidenceKind.KEPT_ALIVE,
    EvidenceKind.READ_NOT_COUNTED,
    EvidenceKind.CONDITIONAL,
    EvidenceKind.REUSE,
)
LONG_LIST = 8  # more names than this go under the paragraph, not into its sentences


def plural(count: int, noun: str, many: str | None = None) -> str:
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def _sentence(text: str) -> str:
    text = text.strip().rstrip(".")
    return text[:1].upper() + text[1:] + "." if text else ""


def _deciding_steps(item: dict[str, Any]) -> list[str]:
    """One sentence per kind of deciding step (the first of each), in the evidence's order."""
    seen: set[str] = set()
    out = []
    for step in item.get("evidence", []):
        kind = step.get("kind")
        if kind in DECIDING and kind not in seen:
            seen.add(kind)
            line = f" (line {step['line']})" if kind == EvidenceKind.OVERWRITTEN and step.get("line") else ""
            out.append(_sentence(step["text"] + line))
    return out


def _why_items(change: dict[str, Any]) -> list[str]:
    """Why, one bullet per finding: the evidence steps that decide it, in sentences."""
    out = []
    for item in change.get("evidence") or []:
        steps = _deciding_steps(item)
        if item.get("attribute"):
            out.append(f"- `{item['attribute']}`: " + " ".join(steps or [_sentence(item.get("message", ""))]))
        elif steps:
            out.append("- " + " ".join(steps))
    if not out:
        for key in change.get("findings", []):
            code, _cls, parent, attr = [*key.split(":"), "", "", "", ""][:4]
            kind = "overwritten before any read" if code == "DI001" else "never read"
            out.append(f"- `{attr}`: built by `{short(parent)}.__init__` and {kind} by `{short(change['class'])}`.")
    return out


def _opening(change: dict[str, Any]) -> list[str]:
    """What the class is given and does not use, in sentences; long lists of names follow in a block."""
    cls, parents = short(change["class"]), [short(p) for p in change.get("parents", [])]
    overwritten = change.get("overwritten", [])
    unread = [a for a in change.get("attributes", []) if a not in overwritten]
    built = list(dict.fromkeys(overwritten + unread))
    long = len(built) > LONG_LIST
    what = []
    if overwritten:
        names = f"{len(overwritten)} of them" if long else _names(overwritten)
        what.append(f"overwrites {names} with its own before any read")
    if unread:
        what.append(
            f"never reads {len(unread)} {'others' if overwritten else 'of them'}"
            if long
            else f"never reads {_names(unread)}"
        )
    reads = change.get("reads", [])
    keeps = f"; it still reads {_names(reads)}, which {'stays' if len(reads) == 1 else 'stay'}" if reads else ""
    builds = plural(len(built), "attribute") if long else _names(built)
    out = [
        f"**`{cls}`** (`{change.get('file')}`) runs `{parents[0] if parents else '?'}.__init__`, "
        f"which builds {builds} for it. The class {' and '.join(what)}{keeps}.",
        "",
    ]
    if long:
        out += ["<details><summary>The attributes it no longer builds</summary>", ""]
        out += [f"Overwritten: {_names(overwritten)}.", ""] if overwritten else []
        out += [f"Never read: {_names(unread)}.", ""] if unread else []
        out += ["</details>", ""]
    return out


def _sizes_table(change: dict[str, Any]) -> list[str]:
    """What is no longer allocated, each size in its column (held for the object's life, or built then
    replaced), as check reports it."""
    items = [i for i in change.get("evidence") or [] if i.get("attribute")]
    if not items:
        return []
    out = ["| attribute | built by | held for the object's life | built then replaced |", "|---|---|---|---|"]
    for i in items:
        steady = i.get("size", "unknown") if i.get("lifetime") == "steady" else "-"
        transient = i.get("size", "unknown") if i.get("lifetime") == "transient" else "-"
        out.append(f"| `{i['attribute']}` | `{short(i.get('parent'))}.__init__` | {steady} | {transient} |")
    return [*out, ""]


def _rewrite_sentence(change: dict[str, Any]) -> str:
    cls = short(change["class"])
    parents = [short(p) for p in change.get("parents", [])] or ["the parent"]
    if change.get("strategy") == "direct-base":
        new = ", ".join(f"`{short(b)}`" for b in change.get("new_bases", []))
        old = ", ".join(f"`{short(b)}`" for b in change.get("removed_bases", []))
        copied = [n for n in change.get("notes", []) if n.startswith(("copied", "helpers copied", "class attributes"))]
        return (
            f"The rewrite re-bases `{cls}` on {new} instead of {old} and inlines the parent `__init__` "
            f"statements it still uses" + (f" ({'; '.join(copied)})" if copied else "") + "."
        )
    flag = change.get("flag") or change.get("flag_name")
    return (
        f"The rewrite gives `{parents[0]}.__init__` a parameter `{flag}: bool = False`; the statements "
        f"that build only these attributes run under `if not {flag}:` (the `else:` sets each to `None`), "
        f"and `{cls}` passes `{flag}=True`. Other subclasses of `{parents[0]}` are unchanged."
    )


def changes_section(report: dict[str, Any]) -> list[str]:
    out = ["## What changes and why", ""]
    fixed = [c for c in report.get("changes", []) if c.get("attributes") or c.get("overwritten")]
    others = [c for c in report.get("changes", []) if c not in fixed]
    for change in fixed:
        out += _opening(change)
        why = _why_items(change)
        out += ["Why, for each attribute:", "", *why, ""] if why else []
        out += _sizes_table(change)
        out += [_rewrite_sentence(change), ""]
    if others:
        out.append(
            "Also in the report, with nothing skipped for them: "
            + ", ".join(f"`{short(c['class'])}`" for c in others)
            + "."
        )
        out.append("")
    return out


def diff_section(report: dict[str, Any]) -> list[str]:
    stat = report.get("diff_stat") or {}
    out = ["## Diff", ""]
    if stat:
        out.append(
            f"{plural(stat.get('files', len(report.get('files', []))), 'file')} changed, "
            f"+{stat.get('insertions', '?')} \N{MINUS SIGN}{stat.get('deletions', '?')}:"
        )
    out += [f"- `{f}`" for f in report.get("files", [])] + [""]
    return out


# -- reproduce, and what the run cannot rule out ---------------------------------------
def reproduce_section(
    reports: Sequence[tuple[str | None, dict[str, Any]]], runs: Sequence[dict[str, Any]]
) -> list[str]:
    out = ["## Reproduce", "", "```sh"]
    for _label, report in reports:
        made = report.get("deadinit") or {}
        if made.get("commit"):
            changed = " with local changes" if made.get("modified") else ""
            out.append(f"# deadinit {made.get('version')} at commit {made['commit']}{changed}")
        out.append(
            report.get("command")
            or "deadinit fix " + " ".join(report.get("files", [])) + f" --strategy {report.get('strategy')}"
        )
    for number, run in enumerate(runs, start=1):
        out += [f"# run {number}", run.get("command") or "(command not recorded)"]
    out += ["```", ""]
    for run in runs[:1]:
        env = run.get("environment") or {}
        out.append("Environment: " + ", ".join(f"{k} {v}" for k, v in env.items() if k != "gpu_total_bytes") + ".")
        if run.get("stubbed"):
            out.append(
                f"Packages stood in by stub modules (missing on the machine, never called by the code "
                f"measured): {', '.join(run['stubbed'])}."
            )
        out.append("")
    return out


def guarded_statements(root: Path | None, change: dict[str, Any]) -> list[str]:
    """Source lines of the statements a skip flag now skips, in the files the change touched."""
    flag = change.get("flag") or change.get("flag_name")
    if not flag or root is None:
        return []
    found = []
    for rel in change.get("files", []):
        path = Path(root) / rel
        try:
            source = path.read_text(encoding="utf-8")
            tree = ast.parse(source)
        except (OSError, SyntaxError):
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.If)
                and isinstance(node.test, ast.UnaryOp)
                and isinstance(node.test.op, ast.Not)
                and isinstance(node.test.operand, ast.Name)
                and node.test.operand.id == flag
            ):
                for stmt in node.body:
                    for call in (n for n in ast.walk(stmt) if isinstance(n, ast.Call)):
                        name = ast.unparse(call.func)
                        if OUTSIDE_EFFECT.search(name):
                            found.append(f"`{ast.unparse(call)[:120]}` ({rel}:{call.lineno})")
    return list(dict.fromkeys(found))


def caveats_section(reports, runs, root: Path | None) -> list[str]:
    out = ["## What this does not rule out", ""]
    for _label, report in reports:
        for change in report.get("changes", []):
            cls = short(change["class"])
            for note in change.get("notes", []):
                if note.startswith("dropped side effect"):
                    out.append(
                        f"- `{cls}`: {note}; the parent's `__init__` did this for the class, the rewrite "
                        "does not. Code that relied on that setting sees the default instead."
                    )
            for call in guarded_statements(root, change):
                out.append(
                    f"- `{cls}` no longer makes the call {call}: anything it does besides building the "
                    "skipped attribute (a shared registry entry, a cache) now happens when another "
                    "object makes that call, or not at all."
                )
            for base in change.get("removed_bases", []):
                out.append(
                    f"- `{cls}` is no longer a `{short(base)}`: `isinstance`/`issubclass` checks and "
                    f"attributes looked up on `{short(base)}` by name elsewhere behave differently; the "
                    "forward run does not exercise them."
                )
    covered = {
        p["name"]
        for run in runs
        for e in run.get("results", [])
        for c in e.get("comparisons", [])
        for p in (c.get("forward") or {}).get("paths", [])
    }
    missing = [] if "target-verify" in covered else ["target verify"]
    missing += ["draft extend", "multi-step draft backends", "sliding-window and FP4 KV variants"]
    out.append(
        f"- Paths the forward run did not drive ({', '.join(missing)}) are not covered"
        + (f"; it drove {', '.join(sorted(covered))}." if covered else ".")
    )
    out.append(
        "- Kernels that stood in at the boundary did not compute: the comparison covers what they "
        "were given, not what they would return."
    )
    return [*out, ""]


def render(
    reports: Sequence[tuple[str | None, dict[str, Any]]], runs: Sequence[dict[str, Any]], root: Path | None = None
) -> str:
    classes = [
        short(c["class"])
        for _l, r in reports
        for c in r.get("changes", [])
        if c.get("attributes") or c.get("overwritten")
    ]
    strategies = sorted({r.get("strategy") or "?" for _l, r in reports})
    labels = {label for label, _r in reports if label} or None
    unique = list(dict.fromkeys(classes))
    one = len(unique) == 1
    named = ", ".join(f"`{c}`" for c in unique) if len(unique) <= 3 else plural(len(unique), "class", "classes")
    title = (
        f"Stop {named} from building parent state {'it' if one else 'they'} never use{'s' if one else ''} "
        f"({', '.join(strategies)})"
        if classes
        else "Remove unused parent allocations"
    )
    out = [f"# {title}", ""]
    for _label, report in reports:
        out += changes_section(report) + diff_section(report)
    out += memory_section(runs, labels) + forward_section(runs, labels)
    out += reproduce_section(reports, runs) + caveats_section(reports, runs, root)
    out.append(
        "_Written by `deadinit` from the fix report and the gpu-check JSON; every figure above is from those files._"
    )
    return "\n".join(out) + "\n"


def write_pr_body(
    path: str, report: dict[str, Any], gpu_check_files: Sequence[str] = (), root: Path | None = None
) -> None:
    """``deadinit fix --pr-body``: the report of this fix, the gpu-check runs given with it.

    The runs' rows are limited to the tree labelled like the fix's strategy, when one is.
    """
    runs = [json.loads(Path(p).read_text(encoding="utf-8")) for p in gpu_check_files]
    labels = {t["label"] for run in runs for t in run.get("trees", [])}
    label = report.get("strategy") if report.get("strategy") in labels else None
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(render([(label, report)], runs, root or Path.cwd()), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m deadinit.gpu_check.pr_body", description=__doc__.split("\n")[0])
    parser.add_argument("--fix-report", action="append", required=True, metavar="[LABEL=]FILE")
    parser.add_argument("--gpu-check", action="append", default=[], metavar="FILE")
    parser.add_argument("--root", type=Path, help="the rewritten tree (for the statements a flag skips)")
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args(argv)
    reports = []
    for value in args.fix_report:
        label, _, path = value.rpartition("=") if "=" in value and not value.startswith(("/", ".")) else ("", "", value)
        reports.append((label or None, load_fix_report(Path(path))))
    runs = [json.loads(Path(p).read_text(encoding="utf-8")) for p in args.gpu_check]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(render(reports, runs, args.root), encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
