"""``session.line_shift``: an entry a rewrite only moved is told apart from one it changed, and
``fix``'s re-analysis keeps the classes that read only moved entries and have nothing to place."""

import dataclasses
import random

import pytest
from incremental_runs import copy_fixtures

from deadinit.analysis.analyzer import Analyzer
from deadinit.api import project
from deadinit.fixes.registry import load_strategies
from deadinit.frontends.parse import summarize_source
from deadinit.model.fix import FilePlan, FixOptions
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.rules.engine import index_summaries
from deadinit.runtime.file_cache import content_hash
from deadinit.runtime.summarizer import ProjectSummarizer
from deadinit.session.incremental import Baseline, check_incremental, content_fingerprints
from deadinit.session.line_shift import Moved, MovedEntries, line_maps
from deadinit.session.reanalysis import reanalyse

PARENT = """import torch


class Parent:
    def __init__(self, n):
        self.buf = torch.empty(n, 1024, 1024)
        self.size = n


class Child(Parent):
    def __init__(self, n):
        super().__init__(n)
        self.buf = torch.zeros(n)


class Quiet(Parent):
    def __init__(self, n):
        super().__init__(n)
        print(self.buf.shape)
        self.n = n
        self.table = torch.ones(n)

    def total(self):
        return self.table.sum() + self.n + self.buf.sum()


def build(n):
    return Quiet(n)
"""


def _plan(old: str, new: str, path: str = "m.py") -> FilePlan:
    return FilePlan(path, old.encode(), new.encode(), [])


def test_line_maps_carry_the_lines_both_texts_keep():
    m = line_maps([_plan("a\nb\nc\n", "a\nx\ny\nb\nc\n")])["m.py"]
    assert m == {1: 1, 2: 4, 3: 5}


def _class(source: str, qn: str):
    s = summarize_source(source.encode(), "m.py", "m", False, Settings())
    return next(c for c in s.classes if c.qualname == qn)


@pytest.mark.parametrize(
    "edit, moved",
    [
        (lambda t: t.replace("import torch\n", "import torch\n\n# a comment\n\n"), True),  # above: one offset
        (lambda t: t + "\n# the end\n", True),  # below: not moved at all
        (lambda t: t.replace("self.n = n\n", "self.n = n + 1\n"), False),  # a fact changed
        (lambda t: t.replace("self.n = n\n", "self.n = n\n\n"), False),  # lines inside it apart
    ],
)
def test_a_class_moved_is_equal_but_for_its_lines(edit, moved):
    new = edit(PARENT)
    lines = line_maps([_plan(PARENT, new)])["m.py"]
    assert Moved(lines).equal(_class(PARENT, "m.Quiet"), _class(new, "m.Quiet")) is moved


def test_one_offset_for_a_whole_value():
    m = Moved({1: 3, 2: 5})
    assert m.line(1, 3) and not m.line(2, 5)  # moved by 2, then by 3
    assert not Moved({1: 3}).line(2, 4)  # a line the new text does not keep


def _indexed(sources: dict[str, str]):
    summaries = [summarize_source(t.encode(), p, "m", False, Settings()) for p, t in sources.items()]
    res = index_summaries(summaries, Settings(), CheckResult(), hierarchy_errors=False)
    return summaries, res.index, res.analyzer


def test_moved_entries_tell_classes_and_construction_sites():
    new = PARENT.replace("import torch\n", "import torch\nimport os\n")
    _, before, was = _indexed({"m.py": PARENT})
    _, after, now = _indexed({"m.py": new})
    was.ext.construct_sites(), now.ext.construct_sites()
    moved = MovedEntries(line_maps([_plan(PARENT, new)]), (before, was), (after, now)).moved
    assert moved(("class", "m.Quiet")) and moved(("class", "m.Child"))
    line = next(i for i, t in enumerate(PARENT.splitlines(), 1) if "Quiet(n)" in t)
    assert moved(("sites_at", ("m.py", line)))
    assert not moved(("sites_at", ("m.py", line + 1)))  # no construction there before
    assert not moved(("module", "m"))  # a whole module: not told


def test_reanalysis_keeps_a_moved_class_without_findings(tmp_path, monkeypatch):
    """A rewrite above a class that has no findings moves it: the re-analysis keeps its record,
    and finds what analysing every class again finds."""
    path = str(tmp_path / "m.py")
    summaries, _, _ = _indexed({path: PARENT})
    res, state, _ = check_incremental(summaries, Settings(), CheckResult(files=1), None)
    assert state is not None and res.index is not None
    res.baseline = Baseline(state, content_fingerprints(summaries, {path: content_hash(PARENT.encode())}), True)
    new = PARENT.replace("self.buf = torch.zeros(n)\n", "self.buf = torch.zeros(n)\n        self.k = 2\n\n")
    analysed: list[str] = []
    real = Analyzer.analyse
    monkeypatch.setattr(Analyzer, "analyse", lambda self, cls: analysed.append(cls) or real(self, cls))
    plan = [FilePlan(path, PARENT.encode(), new.encode(), [])]
    incremental = reanalyse(res, plan, Settings())
    assert "m.Child" in analysed and "m.Quiet" not in analysed
    full = reanalyse(dataclasses.replace(res, baseline=None), plan, Settings())
    assert [f.to_json() for f in incremental.findings] == [f.to_json() for f in full.findings]


def _shifted(fp: FilePlan, rng: random.Random) -> FilePlan:
    """``fp`` with comment lines added before some of its top-level statements: the classes below
    them move, the rewrite's own changes stay."""
    lines = fp.new.decode().splitlines(keepends=True)
    out = []
    for line in lines:
        if line[:1].isalpha() and rng.random() < 0.5:
            out.append("# moved\n" * rng.randint(1, 3))
        out.append(line)
    return dataclasses.replace(fp, new="".join(out).encode())


@pytest.mark.parametrize("strategy, seed", [("skip-flag", 1), ("skip-flag", 2), ("direct-base", 3)])
def test_reanalysis_of_a_rewrite_that_moves_classes_gives_the_full_findings(strategy, seed, tmp_path, monkeypatch):
    """A plan whose files also gain lines above their classes: the re-analysis from the stored
    state (classes that read only moved entries kept) finds what analysing every class finds."""
    root = copy_fixtures(tmp_path)
    monkeypatch.chdir(root)
    cfg = project.configure(["."])
    result = project.Session(["."], cfg, ProjectSummarizer(jobs=1, cache_dir=str(tmp_path / "cache"))).for_fix()
    assert result.baseline is not None
    plan = load_strategies()[strategy](result, FixOptions(settings=cfg.settings))
    assert plan.files
    rng = random.Random(seed)
    files = [_shifted(fp, rng) for fp in plan.files]
    incremental = reanalyse(result, files, cfg.settings)
    full = reanalyse(dataclasses.replace(result, baseline=None), files, cfg.settings)
    for got, want in zip(
        (incremental.findings, incremental.unsure, incremental.suppressed),
        (full.findings, full.unsure, full.suppressed),
        strict=True,
    ):
        assert [f.to_json() for f in got] == [f.to_json() for f in want]
    assert incremental.used_suppressions == full.used_suppressions
