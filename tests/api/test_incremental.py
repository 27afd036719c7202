"""Incremental analysis against the full run: random edits, one check after each, identical results.

After each edit (``tests/robustness/project_edits.py``) the project is checked twice:
``Session.incremental`` with a per-file cache and the state the previous step left,
and a full ``--no-cache`` run (``Session.full`` summarising every file again).
Everything a report reads must be equal: findings, unsure and suppressed findings
(content and order), errors, used suppressions, file counts, skipped sources.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from corpus_paths import sglang_tree
from incremental_runs import copy_fixtures, full_run, incremental_run, snapshot, summaries_of
from production_path import check_result

from deadinit.analysis.reads.exports import export_parts
from deadinit.analysis.reads.external import ExternalReads

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "robustness"))
from project_edits import Editor


def run_edits(root: Path, cache: Path, edits: int, seed: int) -> list[dict]:
    """Apply ``edits`` random edits, comparing after each; per step: what the incremental run did."""
    first, stats = incremental_run(root, cache)
    assert stats.get("full") is True
    assert stats["whole_table_reads"] == 0  # a class that iterates a whole table is analysed every time
    want = full_run(root)
    assert snapshot(first) == snapshot(want)
    before = summaries_of(want)
    editor = Editor(root, seed)
    steps = []
    for step in range(edits):
        editor.hot = [f.attribute for f in [*first.findings, *first.unsure, *first.suppressed]]
        what = editor.edit()
        got, stats = incremental_run(root, cache)
        assert stats.get("full") is False, f"step {step}: {what}: no stored state used"
        want = full_run(root)
        assert snapshot(got) == snapshot(want), f"seed {seed}, step {step}: {what}"
        assert_sites_resolved(got, f"seed {seed}, step {step}: {what}")
        after = summaries_of(want)
        changed = {m for m in before.keys() | after.keys() if before.get(m) != after.get(m)}
        elsewhere = {an.cls for an in got.analyses if got.index.class_module[an.cls] not in changed}
        steps.append({**stats, "what": what, "changed": changed, "elsewhere": elsewhere})
        before, first = after, got
    assert sum(1 for s in steps if s["changed"]) >= 0.7 * edits, "most edits must change a summary"
    assert any(s["elsewhere"] for s in steps), "some edits must reach classes of other modules"
    return steps


def assert_sites_resolved(result, what: str) -> None:
    """The construction sites and exports the run installed (stored ones, partly resolved again) are
    those resolving every construction and exported name gives, with the modules each module's
    resolution visited."""
    fresh = ExternalReads(result.index)
    fresh.construct_sites()
    ext = result.analyzer.ext
    assert ext.site_refs == fresh.site_refs and list(ext.site_refs) == list(fresh.site_refs), what
    assert ext.site_visits == fresh.site_visits, what
    assert result.analyzer.exported.parts() == export_parts(result.index), what


def test_fixtures_random_edits_fast(tmp_path):
    steps = run_edits(copy_fixtures(tmp_path), tmp_path / "cache", edits=32, seed=15)
    analysed = [s["analysed"] for s in steps]
    assert min(analysed) < max(analysed)  # some edits re-analyse less than others
    assert {s["class_graph"] for s in steps} == {"reused", "built"}  # the class graph kept or built again
    assert {s["sites"] for s in steps} == {"given", "resolved"}  # the stored sites kept, or all resolved again
    assert {s["exports"] for s in steps} == {"given", "resolved"}  # so the stored exports


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_fixtures_random_edits_slow(tmp_path, seed):
    run_edits(copy_fixtures(tmp_path), tmp_path / "cache", edits=30, seed=seed)


@pytest.mark.slow
@pytest.mark.corpus
@pytest.mark.parametrize("seed", [7, 8, 9, 10])
def test_sglang_attention_random_edits(tmp_path, seed):
    source = sglang_tree("0.5.20") / "srt" / "layers" / "attention"
    root = tmp_path / "proj" / "sglang"
    shutil.copytree(source, root / "srt" / "layers" / "attention", ignore=shutil.ignore_patterns("__pycache__"))
    for pkg in (root, root / "srt", root / "srt" / "layers"):
        (pkg / "__init__.py").write_text("")
    steps = run_edits(root, tmp_path / "cache", edits=50, seed=seed)
    analysed = [s["analysed"] for s in steps]
    assert sum(analysed) < len(analysed) * max(analysed)


def test_function_added_elsewhere_reanalyses_few_classes(tmp_path):
    root = copy_fixtures(tmp_path)
    cache = tmp_path / "cache"
    incremental_run(root, cache)
    target = root / "app.py"
    target.write_text(target.read_text() + "\n\ndef _unrelated():\n    return 1\n")
    got, stats = incremental_run(root, cache)
    assert stats["full"] is False
    assert stats["analysed"] < stats["analysed"] + stats["reused"]
    assert snapshot(got) == snapshot(full_run(root))


def test_check_command_path_after_an_edit(tmp_path):
    """``deadinit check`` (result cache, then the incremental analysis on a miss) after an edit."""
    root = copy_fixtures(tmp_path)
    cache = tmp_path / "cache"
    check_result([str(root)], cache, jobs=1)
    target = root / "backends" / "base.py"
    target.write_text("import os\n" + target.read_text())
    got = check_result([str(root)], cache, jobs=1)
    assert snapshot(got) == snapshot(full_run(root))


def test_unreadable_state_is_a_full_run(tmp_path):
    root = copy_fixtures(tmp_path)
    cache = tmp_path / "cache"
    incremental_run(root, cache)
    for state in (cache / "state").iterdir():
        state.write_bytes(state.read_bytes()[:-10])
    got, stats = incremental_run(root, cache)
    assert stats["full"] is True
    assert snapshot(got) == snapshot(full_run(root))
