"""A two-file project with one DI001 and one DI002, shared by the CLI tests.

Parent (pkg/base.py) allocates ``ws`` (line 11) and ``buf`` (line 12); Child
(pkg/child.py, class line 5) re-assigns ``ws`` on line 8 and overrides the only
reader of ``buf``; it reuses Parent's helpers, so DI003 stays quiet.  pkg/other.py
takes part in neither finding.
"""

import os
import traceback
from pathlib import Path

from click.testing import CliRunner

from deadinit.cli.main import main

REPO = Path(__file__).resolve().parent.parent  # not `from conftest import`: several conftest modules exist
FIXTURES = REPO / "fixtures"

BASE = """import torch


class Base:
    def forward(self, x):
        raise NotImplementedError


class Parent(Base):
    def __init__(self):
        self.ws = torch.empty(1024){ws}
        self.buf = torch.zeros(10){buf}

    def forward(self, x):
        return self.ws, self.buf

    def scale(self):
        return 2

    def shift(self):
        return 3

    def offset(self):
        return 4
"""

CHILD = """import torch
from pkg.base import Parent


class Child(Parent):{cls}
    def __init__(self):
        super().__init__()
        self.ws = torch.empty(16){overwrite}

    def forward(self, x):
        return self.ws * self.scale() + self.shift() + self.offset()
"""

DI001_KEY = "DI001:pkg.child.Child:pkg.base.Parent:ws"
DI002_KEY = "DI002:pkg.child.Child:pkg.base.Parent:buf"


def sample(ws="", buf="", cls="", overwrite="", extra=None) -> dict:
    """Files of the sample project; the arguments append comments to the marked lines."""
    files = {
        "pkg/__init__.py": "",
        "pkg/base.py": BASE.format(ws=ws, buf=buf),
        "pkg/child.py": CHILD.format(cls=cls, overwrite=overwrite),
        "pkg/other.py": "def helper():\n    return 1\n",
    }
    files.update(extra or {})
    return files


def invoke(args, cwd=None, env=None):
    """Run the CLI in ``cwd``; returns click's Result (stdout and stderr apart)."""
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        env = {"COLUMNS": "200", **(env or {})}  # rich wraps at 80 columns off a terminal
        res = CliRunner().invoke(main, [str(a) for a in args], env=env)
    finally:
        os.chdir(old)
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise AssertionError("".join(traceback.format_exception(res.exception)))
    return res


def assert_one_line_error(res, *needles):
    """Exit 2 with a single ``deadinit: error:`` line naming the problem, no traceback."""
    assert res.exit_code == 2, (res.exit_code, res.stdout, res.stderr)
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("deadinit: error: "), res.stderr
    assert "Traceback" not in res.stderr
    for n in needles:
        assert n in lines[0], (n, lines[0])
