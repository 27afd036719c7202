"""Shared safety checks: parse/compile, bytes outside edits, encoding, line endings, atomic writes, re-analysis."""

import dataclasses
import os
import pickle
import re
import stat

import pytest
from codemod_helpers import fix
from hypothesis import given
from hypothesis import strategies as st
from incremental_runs import copy_fixtures
from production_path import fix_run
from sample_project import invoke, sample

from deadinit.analysis.analyzer import Analyzer
from deadinit.api import project
from deadinit.api.check import run_check
from deadinit.fixes import driver, safety
from deadinit.fixes.driver import run_fix
from deadinit.fixes.registry import load_strategies
from deadinit.model.fix import Change, FilePlan, FixOptions, Plan
from deadinit.runtime.summarizer import ProjectSummarizer
from deadinit.session.reanalysis import reanalyse

SRC = """import torch


class Base:
    def run(self):
        raise NotImplementedError


class P(Base):
    def __init__(self, n):
        # the workspace
        self.ws = torch.empty(1 << 20)  # caf\u00e9
        self.idx = torch.zeros(n)

    def run(self):
        return self.ws


class C(P):
    def __init__(self):
        super().__init__(4)

    def run(self):
        return self.idx
"""


@given(st.lists(st.binary(max_size=6), min_size=1, max_size=5), st.binary(max_size=30))
def test_segments_in_order_means_the_gaps_pattern_matches(segments, new):
    pattern = b"(?:.*?)".join(re.escape(seg) for seg in segments)
    assert safety._in_order(segments, new) == bool(re.fullmatch(pattern, new, re.DOTALL))


def test_outside_identical():
    old = b"a\nb\nc\nd\n"
    assert safety.outside_identical(old, b"a\nB\nB2\nc\nd\n", [(2, 2)]) is None
    assert safety.outside_identical(old, b"a\nB\nc\nD\n", [(2, 2)]) is not None
    assert safety.outside_identical(old, old, []) is None
    assert safety.outside_identical(old, b"a\nb\nc\nd\nextra\n", [(2, 3)]) is not None


def test_check_file_rejects_what_does_not_parse_or_changes_other_code():
    old = b"x = 1\ny = 2\n"
    assert "does not parse" in safety.check_file(FilePlan("m.py", old, b"x = (\ny = 2\n", [(1, 1)]))
    assert "outside" in safety.check_file(FilePlan("m.py", old, b"x = 1\ny = 3\n", [(1, 1)]))
    assert "line endings" in safety.check_file(FilePlan("m.py", old, b"x = 1\r\ny = 2\r\n", [(1, 2)]))
    assert safety.check_file(FilePlan("m.py", old, b"x = 10\ny = 2\n", [(1, 1)])) is None


@pytest.mark.parametrize("variant", ["bom-crlf", "latin1-tabs", "cr"])
def test_encoding_line_endings_and_mode_are_kept(variant, tmp_path, monkeypatch):
    """A file of classic Mac line ends (a lone "\r") too: libcst drops a module's last one, and each
    ``__init__`` parsed alone ends its module ("cr")."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text("")
    if variant == "bom-crlf":
        data = b"\xef\xbb\xbf" + SRC.replace("\n", "\r\n").encode("utf-8")
    elif variant == "cr":
        data = SRC.replace("\n", "\r").encode("utf-8")
    else:
        data = ("# -*- coding: latin-1 -*-\n" + SRC.replace("    ", "\t")).encode("latin-1")
    path = tmp_path / "pkg/m.py"
    path.write_bytes(data)
    os.chmod(path, 0o640)
    monkeypatch.chdir(tmp_path)
    out = fix(paths=["pkg"])
    assert out.written == ["pkg/m.py"]
    new = path.read_bytes()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    compile(new, "m.py", "exec")
    if variant == "bom-crlf":
        assert new.startswith(b"\xef\xbb\xbf") and new.count(b"\n") == new.count(b"\r\n")
        assert "caf\u00e9".encode("utf-8") in new
        assert b"\r\n        if not skip_init_ws:\r\n            self.ws = torch.empty(1 << 20)" in new
    elif variant == "cr":
        assert b"\n" not in new and new.endswith(b"        return self.idx\r")
        assert b"\r        if not skip_init_ws:\r            self.ws = torch.empty(1 << 20)" in new
        assert b"self.idx = torch.zeros(n)\r\r    def run(self):" in new  # the blank line after it kept
    else:
        assert b"caf\xe9" in new
        assert b"\n\t\tif not skip_init_ws:\n\t\t\tself.ws = torch.empty(1 << 20)" in new
    assert not [p for p in os.listdir(tmp_path / "pkg") if p.endswith(".deadinit-tmp")]


@pytest.mark.parametrize("end", [b"\r\n", b"\r"], ids=["crlf", "cr"])
def test_direct_base_keeps_the_line_ends(end, tmp_path, monkeypatch):
    """direct-base read files with Python's newline translation: a CRLF file's rewrite was LF and
    refused at the write ("changed on disk"), so the whole run wrote nothing."""
    root = copy_fixtures(tmp_path)
    path = root / "backends/trt_mha_backend.py"
    path.write_bytes(path.read_bytes().replace(b"\n", end))
    monkeypatch.chdir(root.parent)
    out = fix_run(["fixtures"], "direct-base", tmp_path / "cache")
    assert out.written == ["fixtures/backends/trt_mha_backend.py"]
    new = path.read_bytes()
    assert new.count(end) == len(new.splitlines()) and (end == b"\r\n" or b"\n" not in new)
    assert not fix_run(["fixtures"], "direct-base", tmp_path / "cache").plan.files  # nothing left to fix


def test_a_file_libcst_cannot_read_is_refused_not_a_crash(tmp_path, monkeypatch):
    """A coding cookie in a file of lone "\r" line ends: CPython and ``check`` read it, libcst finds
    no cookie (it reads lines up to "\n"), so the rewrite is refused with a reason."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text("")
    data = ("# -*- coding: latin-1 -*-\n" + SRC).replace("\n", "\r").encode("latin-1")
    (tmp_path / "pkg/m.py").write_bytes(data)
    monkeypatch.chdir(tmp_path)
    out = fix(paths=["pkg"])
    assert out.written == [] and (tmp_path / "pkg/m.py").read_bytes() == data
    assert [r.reason for r in out.plan.refusals] == ["cannot locate C.__init__ in pkg/m.py"]


def test_write_files_is_all_or_nothing(tmp_path, monkeypatch):
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_bytes(b"x = 1\n")
    b.write_bytes(b"y = 1\n")
    real = safety.atomic_write

    def flaky(path, data):
        if path.endswith("b.py") and data == b"y = 2\n":
            raise OSError(28, "No space left on device")
        real(path, data)

    monkeypatch.setattr(safety, "atomic_write", flaky)
    err = safety.write_files(
        [FilePlan(str(a), b"x = 1\n", b"x = 2\n", [(1, 1)]), FilePlan(str(b), b"y = 1\n", b"y = 2\n", [(1, 1)])]
    )
    assert "No space left" in err and "every file left as it was" in err
    assert a.read_bytes() == b"x = 1\n" and b.read_bytes() == b"y = 1\n"
    err = safety.write_files([FilePlan(str(a), b"changed meanwhile\n", b"x = 3\n", [(1, 1)])])
    assert "changed on disk" in err and a.read_bytes() == b"x = 1\n"


def _fake_strategy(rewrite, claims):
    def plan(result, options):
        if "fake" in options.exclude:
            return Plan()
        path = "pkg/m.py"
        old = open(path, "rb").read()
        keys = [f.key for f in result.findings if f.code == "DI002"] if claims else []
        return Plan(
            [FilePlan(path, old, rewrite(old), [(1, old.count(b"\n"))], ["fake"])],
            [
                Change(
                    id="fake", strategy="fake", cls="pkg.m.C", file=path, attributes=["ws"], findings=keys, files=[path]
                )
            ],
        )

    return plan


NEW_SUBCLASS = b"""

class E(P):
    def __init__(self):
        super().__init__(4)
        self.ws = torch.zeros(2)
"""


@pytest.mark.parametrize(
    "rewrite, claims, why",
    [
        (lambda old: old + b"# touched\n", True, "still reports"),
        (lambda old: old + NEW_SUBCLASS, False, "new finding DI001 E.ws"),
    ],
)
@pytest.mark.parametrize("cached", [False, True], ids=["full", "incremental"])
def test_driver_refuses_plans_the_reanalysis_rejects(rewrite, claims, why, cached, tmp_path, monkeypatch):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text("")
    (tmp_path / "pkg/m.py").write_text(SRC)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(driver, "load_strategies", lambda: {"fake": _fake_strategy(rewrite, claims)})
    if cached:  # re-analysed from the analysis state of the project on disk
        result = project.Session(["pkg"], project.configure(["pkg"]), ProjectSummarizer(jobs=1)).for_fix()
        assert result.baseline is not None
    else:
        result = run_check(["pkg"])
    out = run_fix(result, "fake", FixOptions())
    assert not out.written and not out.plan.files
    (r,) = out.rejected
    assert r.kind == "unsafe-rewrite" and why in r.reason
    assert (tmp_path / "pkg/m.py").read_text() == SRC


QUIET = "class A:\n    def __init__(self):\n        self.n = 1\n\n\nclass B(A):\n    pass\n"


def _findings(result) -> list:
    return [[f.to_json() for f in fs] for fs in (result.findings, result.unsure, result.suppressed)]


@pytest.mark.parametrize(
    "project_of, strategy, unsafe",
    [
        ("sample", "skip-flag", False),
        ("fixtures", "skip-flag", False),
        ("fixtures", "skip-flag", True),
        ("fixtures", "direct-base", False),
    ],
)
def test_incremental_reanalysis_gives_the_full_reanalysis_findings(project_of, strategy, unsafe, tmp_path, monkeypatch):
    """A plan re-analysed from the stored analysis state (a miss: the state this run made; a hit:
    the one ``check`` stored) finds what every class analysed again finds, and analyses fewer."""
    analysed: list[str] = []
    real = Analyzer.analyse
    monkeypatch.setattr(Analyzer, "analyse", lambda self, cls: analysed.append(cls) or real(self, cls))
    if project_of == "sample":
        for rel, src in sample(extra={"pkg/quiet.py": QUIET}).items():
            (tmp_path / "proj" / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / "proj" / rel).write_text(src)
        root = tmp_path / "proj"
    else:
        root = copy_fixtures(tmp_path)
    monkeypatch.chdir(root)
    cfg = project.configure(["."])
    for run in ("miss", "hit"):
        summarizer = ProjectSummarizer(jobs=1, cache_dir=str(tmp_path / "cache"))
        result = project.Session(["."], cfg, summarizer).for_fix()
        assert result.baseline is not None, run
        plan = load_strategies()[strategy](result, FixOptions(settings=cfg.settings, unsafe_fixes=unsafe))
        assert plan.files, run
        stored = pickle.dumps(result.baseline.state)
        analysed.clear()
        incremental = reanalyse(result, plan.files, cfg.settings)
        some = len(analysed)
        assert pickle.dumps(result.baseline.state) == stored, run  # the next attempt starts from it again
        analysed.clear()
        full = reanalyse(dataclasses.replace(result, baseline=None), plan.files, cfg.settings)
        assert _findings(incremental) == _findings(full), run
        assert incremental.used_suppressions == full.used_suppressions, run
        assert some < len(analysed), run


def _stored_runs(cache) -> dict:
    """The stored results and analysis states, with their modification times."""
    files = [p for folder in ("results", "state") for p in (cache / folder).rglob("*") if p.is_file()]
    return {p.relative_to(cache): (p.read_bytes(), p.stat().st_mtime_ns) for p in files}


def test_fix_diff_stores_no_state_or_result_of_the_rewritten_tree(tmp_path):
    """The re-analysis of a plan is of files not on disk: ``fix --diff`` after ``check`` leaves the
    stored results and states as they were, and ``check`` afterwards is answered by them."""
    root = tmp_path / "proj"
    for rel, src in sample().items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(src)
        os.utime(root / rel, ns=(1_600_000_000 * 10**9,) * 2)  # old enough to be trusted at once
    cache = tmp_path / "cache"
    checked = invoke(["check", ".", "--cache-dir", cache, "--format", "concise"], cwd=root)
    assert checked.exit_code == 1, checked.stderr
    before = _stored_runs(cache)
    assert {p.parts[0] for p in before} == {"results", "state"}
    for args in (["fix", "--diff"], ["fix", "--diff", "--unsafe-fixes"]):
        res = invoke([*args, ".", "--cache-dir", cache, "--color", "never"], cwd=root)
        assert res.exit_code == 1 and res.stdout.startswith("--- a/"), res.stderr
        assert _stored_runs(cache) == before, args
    again = invoke(["check", ".", "--cache-dir", cache, "--format", "concise"], cwd=root)
    assert again.stdout == checked.stdout and _stored_runs(cache) == before
