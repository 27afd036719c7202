"""A rule's doc in ruff's shape, with the rule's own (tested) examples as its examples.

``## Example`` shows the first INVALID example and what it reports, then the first
VALID one; ``## Fix`` shows the first fix example as the diff ``deadinit fix --diff``
prints for it.
"""

from __future__ import annotations

import difflib


def source_text(src: str) -> str:
    """An example file as written: its source without the newline after the opening quotes."""
    return src.removeprefix("\n")


def _sources(files: dict[str, str]) -> str:
    """The non-empty files of an example; each under a ``# path`` line when there are several."""
    shown = {path: src.strip("\n") for path, src in files.items() if src.strip()}
    if len(shown) == 1:
        return next(iter(shown.values()))
    return "\n\n".join(f"# {path}\n{src}" for path, src in shown.items())


def _reported(expect) -> str:
    def one(code: str, where: str, attribute: str) -> str:
        if attribute:
            return f"`{code}` on `{where}.{attribute}`"
        return f"`{code}` at `{where}`" if ":" in where else f"`{code}` on `{where}`"

    return "Reported: " + "; ".join(one(*e) for e in expect) + "."


def _block(lang: str, text: str) -> list[str]:
    return [f"```{lang}", text.rstrip("\n"), "```"]


def fix_diff(example) -> str:
    """The unified diff from a fix example's files to its expected rewrite (``deadinit fix --diff``'s form)."""
    out: list[str] = []
    for path, after in example.expected.items():
        a = source_text(example.files.get(path, "")).splitlines(True)
        b = source_text(after).splitlines(True)
        out.extend(difflib.unified_diff(a, b, f"a/{path}", f"b/{path}"))
    return "".join(line if line.endswith("\n") else line + "\n" for line in out)


def _examples(rule) -> list[str]:
    parts = ["## Example"]
    if rule.INVALID:
        bad = rule.INVALID[0]
        parts += [*_block("python", _sources(bad.files)), "", _reported(bad.expect)]
    if rule.VALID:
        good = rule.VALID[0]
        files = good.files
        shared = rule.INVALID and any(rule.INVALID[0].files.get(p) == src for p, src in files.items() if src.strip())
        if shared:  # a variant of the example above: only the files that differ
            files = {p: src for p, src in files.items() if rule.INVALID[0].files.get(p) != src}
        label = (
            "Not reported"
            + (f" ({good.note})" if good.note else "")
            + (", the other files as above:" if shared else ":")
        )
        parts += ["", label, "", *_block("python", _sources(files))]
    return [*parts, ""]


def _fix(rule) -> list[str]:
    if not rule.fix and not rule.FIXES:
        return []
    parts = ["## Fix"]
    if rule.fix:
        parts.append(rule.fix.strip())
    if rule.FIXES:
        first = rule.FIXES[0]
        flags = " --unsafe-fixes" if first.unsafe_fixes else ""
        flags += "".join(f" --class {c}" for c in first.classes)
        command = f"`deadinit fix --strategy {first.strategy}{flags}`"
        if rule.INVALID and first.files == rule.INVALID[0].files:
            parts += ["", f"{command} on the example above:", ""]
        else:
            parts += ["", f"{command} on", "", *_block("python", _sources(first.files)), "", "rewrites it as:", ""]
        parts += _block("diff", fix_diff(first))
    return [*parts, ""]


def render_doc(rule) -> str:
    parts = [
        f"# {rule.name} ({rule.code})",
        "",
        rule.summary,
        "",
        "## What it does",
        rule.what_it_does.strip(),
        "",
        "## Why is this bad?",
        rule.why_bad.strip(),
        "",
        *_examples(rule),
        *_fix(rule),
        "## Fix safety",
        rule.fix_safety.strip(),
        "",
    ]
    if rule.options:
        parts += ["## Options", rule.options.strip(), ""]
    return "\n".join(parts)
