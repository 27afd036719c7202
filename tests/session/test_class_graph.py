"""The class graph an incremental run keeps (``deadinit.session.class_graph``): taken again while
nothing it read changed, built again otherwise, and always what a full run gives."""

from __future__ import annotations

from pathlib import Path

from incremental_runs import copy_fixtures, full_run, incremental_run, snapshot

from deadinit.index.project_index import ProjectIndex


def _edit_and_run(root: Path, cache: Path, path: str, edit) -> tuple[dict, str]:
    target = root / path
    target.write_text(edit(target.read_text()))
    got, stats = incremental_run(root, cache)
    assert stats["full"] is False
    assert snapshot(got) == snapshot(full_run(root))
    return stats, snapshot(got)


def test_edits_that_leave_every_base_alone_keep_the_graph(tmp_path, monkeypatch):
    root, cache = copy_fixtures(tmp_path), tmp_path / "cache"
    _, stats = incremental_run(root, cache)
    assert stats["class_graph"] == "built"
    built = []
    table = ProjectIndex.subclass_table
    monkeypatch.setattr(ProjectIndex, "subclass_table", lambda self: built.append(1) or table(self))
    _, stats = incremental_run(root, cache)  # nothing changed: no class's bases are resolved again
    assert stats["class_graph"] == "reused" and not built
    monkeypatch.undo()
    method = "\n    def added_probe(self):\n        return self.forward_metadata\n"
    stats, _ = _edit_and_run(
        root, cache, "backends/base.py", lambda s: s.replace("\n    def forward(", method + "\n    def forward(", 1)
    )
    assert stats["class_graph"] == "reused"
    stats, _ = _edit_and_run(root, cache, "backends/base.py", lambda s: "import os as _unused_probe\n" + s)
    assert stats["class_graph"] == "reused"  # no base resolves through the new name


def test_a_changed_base_builds_the_graph_again(tmp_path):
    root, cache = copy_fixtures(tmp_path), tmp_path / "cache"
    incremental_run(root, cache)
    stats, _ = _edit_and_run(
        root,
        cache,
        "backends/flash_draft.py",
        lambda s: s.replace("class FlashMultiStepDraft:", "class FlashMultiStepDraft(object):"),
    )
    assert stats["class_graph"] == "built"  # the bases as written changed (to the same graph)
    stats, _ = _edit_and_run(
        root, cache, "backends/base.py", lambda s: s.replace("class AttentionBackend:", "class AttentionBackend(dict):")
    )
    assert stats["class_graph"] == "built"


CYCLE_A = "from pkg.b import B\n\n\nclass A(B):\n    def __init__(self):\n        super().__init__()\n"
CYCLE_B = "from pkg.a import A\n\n\nclass B(A):\n    pass\n"


def test_hierarchy_problem_lines_follow_their_class_while_the_graph_is_kept(tmp_path):
    root = tmp_path / "proj" / "pkg"
    root.mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "a.py").write_text(CYCLE_A)
    (root / "b.py").write_text(CYCLE_B)
    cache = tmp_path / "cache"
    first, _ = incremental_run(root, cache)
    assert any("inherits from itself" in e and "line 4" in e for e in first.errors)
    stats, got = _edit_and_run(root, cache, "a.py", lambda s: "# moved\n\n\ndef helper():\n    return 1\n" + s)
    assert stats["class_graph"] == "reused"
    assert "line 9: class A inherits from itself" in got
