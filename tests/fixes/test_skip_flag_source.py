"""The skip-flag rewrite parses each ``__init__`` alone (``fixes.lone_function``); a file it cannot
parse so is parsed whole, and both ways give the same rewrite."""

import ast
from pathlib import Path

import pytest
from codemod_helpers import SCENARIOS, fix

from deadinit.fixes.skip_flag import source


def _rewrites(classes, unsafe) -> list[tuple[str, bytes]]:
    out = fix(classes=classes, unsafe=unsafe, write=False)
    assert out.error is None
    return [(fp.path, fp.new) for fp in out.plan.files]


def _both_ways(monkeypatch, classes, unsafe) -> list[tuple[str, bytes]]:
    alone = _rewrites(classes, unsafe)
    monkeypatch.setattr(source, "layout", lambda data: None)  # every file parsed whole
    assert alone and alone == _rewrites(classes, unsafe)
    return alone


def _comment_after_inits(path: Path) -> None:
    """Comments after the last statement of every ``__init__``, one indented deeper than its body."""
    lines = path.read_text().splitlines(keepends=True)
    for node in sorted(ast.walk(ast.parse("".join(lines))), key=lambda n: -getattr(n, "end_lineno", 0) or 0):
        if isinstance(node, ast.FunctionDef) and node.name == "__init__":
            pad = " " * node.body[-1].col_offset
            lines.insert(node.end_lineno, f"{pad}    # deeper\n{pad}# after the body\n\n")
    path.write_text("".join(lines))


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_whole_files_give_the_same_rewrite(scenario, fixture_tree, monkeypatch):
    classes, unsafe, _ = SCENARIOS[scenario]
    _both_ways(monkeypatch, classes, unsafe)


def test_comments_after_the_body_stay_where_a_whole_parse_puts_them(fixture_tree, monkeypatch):
    for path in (fixture_tree / "fixtures").rglob("*.py"):
        _comment_after_inits(path)
    classes, unsafe, _ = SCENARIOS["mla_chain"]
    assert all(b"    # deeper" in new for _, new in _both_ways(monkeypatch, classes, unsafe))
