"""The records' kinds are enums and the code compares with their members, not with string literals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deadinit.frontends.parse import summarize_source
from deadinit.model.kinds import InitStmtKind, ParamKind
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary

PACKAGE = Path(__file__).resolve().parents[2] / "deadinit"
# ``x.kind == "literal"``, ``x.kind != "literal"``, ``x.kind in ("a", "b")`` (gpu_check's report reads JSON)
LITERAL_KIND = re.compile(r"\.kind (?:==|!=|in|not in) \(?\"")
ROLE_LITERAL = re.compile(r"\.role (?:==|!=|in|not in) \(?\"")


@pytest.mark.parametrize("pattern", [LITERAL_KIND, ROLE_LITERAL], ids=["kind", "role"])
def test_no_kind_is_compared_with_a_string_literal(pattern: re.Pattern[str]) -> None:
    hits = [
        f"{path.relative_to(PACKAGE.parent)}:{n}: {line.strip()}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if "gpu_check" not in path.parts
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert hits == []


SOURCE = b"""
import torch

class A:
    def __init__(self, n, *args, k=1, **kw):
        super().__init__()
        self.x = torch.zeros(n)
        self.xs = []
        self.xs.append(torch.ones(n))
        del self.x
"""


@pytest.mark.parametrize("adapter", ["ast", "cst"])
def test_the_front_ends_build_records_holding_enum_members(adapter: str) -> None:
    summary = summarize_source(SOURCE, "m.py", "m", False, Settings(), adapter=adapter)
    assert isinstance(summary, FileSummary)
    init = next(c for c in summary.classes if c.name == "A").methods["__init__"]
    kinds = [st.kind for st in init.init_flow or ()]
    assert all(type(k) is InitStmtKind for k in kinds)
    assert {InitStmtKind.SUPER_INIT, InitStmtKind.ASSIGN, InitStmtKind.FILL, InitStmtKind.DELETE} <= set(kinds)
    params = [p.kind for p in init.params]
    assert all(type(k) is ParamKind for k in params)
    assert params == [ParamKind.NORMAL, ParamKind.STAR, ParamKind.KWONLY, ParamKind.DSTAR]
