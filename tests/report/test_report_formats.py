"""json (documented schema), github annotations, concise lines, statistics rows."""

import json

import jsonschema
import pytest
from sample_project import REPO, invoke, sample

from deadinit.model.finding import Finding
from deadinit.model.kinds import AttrStatus, FixSafety, Lifetime
from deadinit.model.verdict import Verdict
from deadinit.report import github, statistics

JSON_SCHEMA = json.loads((REPO / "deadinit" / "report" / "findings.schema.json").read_text())


def _finding(**kw):
    base = dict(
        code="DI002",
        name="unread-parent-allocation",
        path="a, b.py",
        line=3,
        column=5,
        cls="m.C",
        parent="m.P",
        attribute="x",
        kind="tensor",
        estimated_bytes=2048,
        message="50% of it: gone\nreally",
    )
    base.update(kw)
    return Finding(**base)


def test_json_matches_documented_schema(write_project):
    for args, cwd in ((["check", "fixtures"], REPO), (["check", ".", "--report-unused-ignores"], None)):
        if cwd is None:
            cwd = write_project(sample(ws="  # deadinit: ignore[DI002]"))
        data = json.loads(invoke([*args, "--format", "json"], cwd=cwd).stdout)
        assert data
        jsonschema.Draft202012Validator(JSON_SCHEMA).validate(data)


def test_readme_documents_every_json_field():
    readme = (REPO / "README.md").read_text()
    for key in JSON_SCHEMA["items"]["required"]:
        assert f"`{key}`" in readme, key


def test_github_annotation_escaping():
    line = github.annotation(_finding())
    assert line == (
        "::warning file=a%2C b.py,line=3,col=5,title=DI002::"
        "50%25 of it: gone%0Areally (unread-parent-allocation, ~2 KiB per instance)"
    )
    assert github.error("x.py: syntax error at line 1") == "::error file=x.py,title=deadinit::syntax error at line 1"


def test_github_format_end_to_end(write_project):
    root = write_project(sample(extra={"pkg/bad.py": "def (:\n"}))
    res = invoke(["check", ".", "--format", "github"], cwd=root)
    assert res.exit_code == 1
    lines = res.stdout.splitlines()
    assert lines[0].startswith("::error file=pkg/bad.py,line=1,col=5,title=deadinit::")
    assert lines[1].startswith("::warning file=pkg/base.py,line=11,col=9,title=DI001::`self.ws`")
    assert lines[2].startswith("::warning file=pkg/base.py,line=12,col=9,title=DI002::")
    assert res.stderr == ""  # errors went out as annotations only


def _judged(lifetime=Lifetime.STEADY, certain=True, size_text=None, **kw):
    f = _finding(**kw)
    f.verdict = Verdict(
        status=AttrStatus.UNREAD,
        safety=FixSafety(f.fix_safety),
        lifetime=lifetime,
        bytes=f.estimated_bytes,
        size_text=size_text or f.size_text,
        certain=certain,
    )
    return f


def test_statistics_rows():
    rows = statistics.rows(
        [
            _judged(),
            _judged(estimated_bytes=None, fix_safety="unsafe"),
            _judged(estimated_bytes=None, size_expr="n × 4 B", size_text="n × 4 B"),
            _judged(code="DI001", estimated_bytes=1 << 30, lifetime=Lifetime.TRANSIENT),
            _judged(code="DI001", estimated_bytes=1 << 20, lifetime=Lifetime.NONE),  # kept alive: not waste
            _judged(code="DI001", estimated_bytes=1 << 20, certain=False),  # only under a condition
            _finding(code="DI003", estimated_bytes=2048, kind="inheritance"),  # restates the DI002 bytes
        ]
    )
    assert [r["code"] for r in rows] == ["DI001", "DI002", "DI003"]  # the largest waste first
    assert rows[0]["transient_bytes"] == 1 << 30 and rows[0]["steady_bytes"] == 0
    assert rows[0]["kept_alive"] == 1 and rows[0]["conditional"] == 1
    assert rows[1] == {
        "code": "DI002",
        "name": "unread-parent-allocation",
        "count": 3,
        "fixable": 2,
        "steady_bytes": 2048,
        "transient_bytes": 0,
        "estimated_bytes": 2048,
        "symbolic_size": 1,
        "unknown_size": 1,
        "kept_alive": 0,
        "conditional": 0,
        "steady": "2 KiB (+1 by expression, +1 unknown)",
        "transient": "-",
    }
    assert rows[2]["estimated_bytes"] == 0  # counted once, on DI002


def test_unsafe_fix_reason_in_text_json_and_sarif(write_project):
    files = sample(extra={"pkg/__init__.py": "from pkg.child import Child\n"})  # exported: `buf` is public
    cwd = write_project(files)
    (buf,) = [
        f for f in json.loads(invoke(["check", ".", "--format", "json"], cwd=cwd).stdout) if f["attribute"] == "buf"
    ]
    reason = "Child is exported (re-exported by package pkg) and `buf` is public: code outside the project may read it"
    assert buf["fix_safety"] == "unsafe" and buf["fix_safety_reason"] == reason
    assert f"unsafe fix: {reason}" in invoke(["check", ".", "--format", "full"], cwd=cwd).stdout
    assert f"--unsafe-fixes --class Child  (unsafe: {reason})" in invoke(["check", "."], cwd=cwd).stdout
    sarif = json.loads(invoke(["check", ".", "--format", "sarif"], cwd=cwd).stdout)
    props = [r["properties"] for r in sarif["runs"][0]["results"] if r["properties"]["attribute"] == "buf"]
    assert props[0]["fixSafetyReason"] == reason


def test_sizes_as_expressions_in_github_and_json():
    f = _finding(estimated_bytes=None, size_expr="hidden_size × vocab_size × 2 B")
    assert "~hidden_size × vocab_size × 2 B per instance" in github.annotation(f)
    assert f.size_text == "hidden_size × vocab_size × 2 B"
    assert f.to_json()["size_expr"] == "hidden_size × vocab_size × 2 B"
    assert "size_rank" not in f.to_json()
    assert _finding(estimated_bytes=None).size_text == "unknown"


@pytest.mark.parametrize("fmt", ["text", "full"])
def test_text_report_lists_the_largest_first(write_project, fmt):
    root = write_project(
        {
            "pkg/__init__.py": "",
            "pkg/m.py": """
import torch
from torch import nn

class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.small = torch.empty(16)
    def forward(self, x):
        return self.small

class Big(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.big = torch.empty(1 << 20)
        self.sym = torch.empty(n, n)
        self.unknown = torch.tensor(n)
    def forward(self, x):
        return self.big, self.sym, self.unknown

class A(Small):
    def forward(self, x):
        return x

class B(Big):
    def forward(self, x):
        return x
""",
        }
    )
    out = invoke(["check", ".", "--select", "DI002", "--no-cache", "--format", fmt], cwd=root).stdout
    classes = ("pkg.m.B ", "pkg.m.A ") if fmt == "full" else ("pkg/m.py:15:9:", "run on A ")
    order = [out.index(s) for s in (classes[0], "`self.big`", "`self.sym`", "`self.unknown`", classes[1])]
    assert order == sorted(order), out
    assert "[4 MiB]" in out and "[n × n × 4 B]" in out and "[unknown]" in out
    assert "+ 1 sized by an expression + 1 of unknown size" in " ".join(out.split())
