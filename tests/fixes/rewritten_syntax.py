"""What a skip-flag rewrite must never contain, read from the rewritten file's syntax (a uniquely named
module: several conftest.py files exist): a guard whose branches are identical, and a guard over
statements that allocate nothing (the semantic model's ``InitStmt.alloc`` / ``call``: a value built
or returned by a call the analysis follows)."""

import ast
import difflib
import subprocess

from deadinit.fixes.formatter import ruff_binary, style_for
from deadinit.frontends.parse import summarize_source
from deadinit.model.kinds import FormatterKind
from deadinit.model.settings import Settings


def guard_problems(path: str, new: bytes, flags: set[str]) -> list[str]:
    """One line per guard of ``flags`` in ``new`` with identical branches or nothing it allocates."""
    tree = ast.parse(new)
    summary = summarize_source(new, path, "m", False, Settings())
    flows = {
        m.line: m.init_flow or []
        for c in getattr(summary, "classes", [])
        for name, m in c.methods.items()
        if name == "__init__"
    }
    out = []
    for func in ast.walk(tree):
        if not (isinstance(func, ast.FunctionDef) and func.name == "__init__"):
            continue
        flow = flows.get(func.lineno) or next(
            (f for ln, f in flows.items() if func.lineno <= ln <= func.body[0].lineno), []
        )
        for node in ast.walk(func):
            if not isinstance(node, ast.If):
                continue
            tested = {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)} & flags
            if not tested:
                continue
            where = f"{path}:{node.lineno}"
            if node.orelse and [ast.dump(s) for s in node.body] == [ast.dump(s) for s in node.orelse]:
                out.append(f"{where}: both branches of `if` on {sorted(tested)} are the same")
            first, last = node.body[0].lineno, node.body[-1].end_lineno
            built = [s for s in flow if first <= s.line <= last and (s.alloc is not None or s.call is not None)]
            if not built:
                out.append(f"{where}: the guard on {sorted(tested)} holds nothing that allocates")
    return out


def formatter_diff_lines(path: str, data: bytes) -> int:
    """Lines the project's formatter would change in ``data`` (``path`` names its configuration)."""
    style = style_for(path)
    args = [ruff_binary(), "format", "--stdin-filename", path, "-"]
    if style.kind != FormatterKind.RUFF:
        args[2:2] = ["--isolated", "--line-length", str(style.line_length)]
    p = subprocess.run(args, input=data, capture_output=True, check=True)
    a, b = data.decode().splitlines(), p.stdout.decode().splitlines()
    return sum(
        1 for ln in difflib.unified_diff(a, b, lineterm="", n=0) if ln[:1] in "+-" and ln[:3] not in ("+++", "---")
    )
