"""Discovery's walk finds exactly what the reference walk (``reference_discovery``: the walk
before it was made cheaper) finds: the same files in the same order, with the same real paths
and modules, the same notes and the same temporary files, on trees with every kind of entry
discovery treats specially, on the fixtures and (corpus) on sglang."""

import dataclasses
import os
from pathlib import Path

import pytest
import reference_discovery as reference
from corpus_paths import FIXTURES, sglang_tree

from deadinit.index import discovery
from deadinit.index.pathfilter import PathFilter
from deadinit.runtime.stat_memo import StatMemo
from deadinit.runtime.temp_files import SUFFIX


def _both(paths, roots=(), excluded=None, max_bytes=None):
    got = []
    for module in (reference, discovery):
        module._TOP_CACHE.clear()
        module._HIGHEST.clear()
        found = module.discover(paths, roots, excluded() if excluded else None, max_bytes)
        got.append(([dataclasses.astuple(f) for f in found.files], found.errors, found.temp_files))
    return got


def _same(paths, **kw):
    old, new = _both(paths, **kw)
    assert new == old
    return new


def _write(root: Path, rel: str, text: str = "x = 1\n") -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text)


def _awkward_tree(root: Path) -> Path:
    """Packages, namespace folders, folders that are no identifiers, links of every kind,
    skipped folders, a folder named like a module, a fifo, large files, temporary files."""
    (root / ".git").mkdir()
    (root / ".gitignore").write_text("ignored_*.py\nbuild_out/\n")
    proj = root / "proj"
    for rel in (
        "pkg/__init__.py",
        "pkg/a.py",
        "pkg/sub/__init__.py",
        "pkg/sub/b.py",
        "pkg/ns/c.py",  # a namespace folder inside a package
        "pkg/ns/deeper/__init__.py",
        "pkg/ns/deeper/d.py",
        "pkg/my-folder/e.py",  # not an identifier
        "pkg/x.py/inner.py",  # a folder named like a module
        "pkg/ignored_one.py",
        "pkg/build_out/f.py",
        "pkg/__pycache__/g.py",
        "pkg/build/h.py",
        "pkg/thing.egg-info/i.py",
        "loose/j.py",
        "loose/__init__.py",
        "top.py",
        "src/inner/__init__.py",
        "src/inner/k.py",
        "Z_upper.py",
        "pkg/sub/.hidden.py",
    ):
        _write(proj, rel)
    _write(proj, "pkg/big.py", "x = 1\n" * 5000)
    (proj / f"pkg/edit.py{SUFFIX}").write_text("")
    (proj / f"loose/left{SUFFIX}").write_text("")
    os.mkfifo(proj / "pkg/pipe.py")
    os.symlink("sub", proj / "pkg/alias")  # an alias of a folder walked anyway
    os.symlink(".", proj / "pkg/sub/loop")  # a loop
    os.symlink("../a.py", proj / "pkg/sub/a_link.py")  # a link to a file inside
    os.symlink("missing.py", proj / "pkg/gone.py")  # dangling
    os.symlink("self_loop.py", proj / "pkg/self_loop.py")  # a loop of its own
    outside = root / "outside"
    _write(outside, "o.py")
    os.symlink(outside, proj / "pkg/out_dir")  # escapes the analysed folders
    os.symlink(outside / "o.py", proj / "pkg/out_file.py")
    return proj


def test_the_walk_matches_the_reference_on_an_awkward_tree(tmp_path):
    proj = _awkward_tree(tmp_path)
    found = _same([str(proj)])
    assert found[0] and found[1] and found[2]  # files, notes and temporary files all compared
    _same([str(proj)], max_bytes=10_000)
    _same([str(proj / "pkg"), str(proj / "loose" / "j.py"), str(proj / "top.py")])
    _same([str(proj / "pkg"), str(proj / "pkg" / "sub"), str(proj / "nowhere"), str(proj / "pkg" / "gone.py")])
    _same([str(proj)], roots=(str(proj / "src"), str(proj)))
    _same([str(proj / "pkg" / "sub")], roots=(str(proj / "pkg"),))
    os.symlink("pkg", proj / "pkg_link")
    _same([str(proj / "pkg_link"), str(proj)])


def test_the_walk_matches_the_reference_with_relative_and_unnormalised_paths(tmp_path, monkeypatch):
    proj = _awkward_tree(tmp_path)
    monkeypatch.chdir(proj)
    _same(["."])
    _same(["pkg/", "./loose", "pkg//sub"])
    _same(["./pkg/../pkg"])


@pytest.mark.parametrize(
    "include,exclude,respect",
    [((), (), True), (("pkg/",), (), True), ((), ("loose/", "*_link.py", "pkg/sub/"), True), ((), (), False)],
)
def test_the_walk_matches_the_reference_through_the_path_filter(tmp_path, include, exclude, respect):
    proj = _awkward_tree(tmp_path)
    (proj / "pkg" / ".gitignore").write_text("a.py\n!ignored_one.py\n")
    _same([str(proj)], excluded=lambda: PathFilter(proj, include, exclude, respect))
    pf = PathFilter(proj, include, exclude, respect)
    _same([str(proj)], excluded=lambda: lambda path, is_dir: pf(path, is_dir))  # any callable


def test_the_walk_matches_the_reference_on_the_fixtures():
    assert _same([str(FIXTURES)])[0]


def test_stats_taken_before_are_used_and_those_taken_are_kept(tmp_path):
    proj = _awkward_tree(tmp_path)
    memo = StatMemo()
    first = discovery.discover([str(proj)], stats=memo)
    assert {f.path for f in first.files} <= set(memo.results)
    # a stat the memo holds is the one discovery goes by: here it says the file is too large
    big = os.stat(proj / "pkg" / "big.py")
    memo.results[str(proj / "pkg" / "a.py")] = big
    again = discovery.discover([str(proj)], max_bytes=big.st_size - 1, stats=memo)
    assert str(proj / "pkg" / "a.py") in {p for p, _ in again.errors}


@pytest.mark.corpus
def test_the_walk_matches_the_reference_on_sglang(monkeypatch):
    tree = sglang_tree("0.5.23")
    monkeypatch.chdir(tree.parent)
    pf = PathFilter(tree.parent)
    files, _, _ = _same(["sglang"], excluded=lambda: pf)
    assert len(files) > 4000
    _same([str(tree)])
