"""``PathFilter.in_folder`` (what discovery calls per entry) answers like ``PathFilter.__call__``."""

import os

import pytest

from deadinit.index.discovery import discover
from deadinit.index.pathfilter import PathFilter


def _tree(root):
    (root / ".git").mkdir()
    (root / ".gitignore").write_text("*.pyc\nbuild/\n/top_only.py\ngen_*.py\n!gen_keep.py\n")
    for d in ("pkg", "pkg/sub", "pkg/sub/deep", "pkg/build", "other", "other/build"):
        (root / d).mkdir(parents=True, exist_ok=True)
    (root / "pkg" / ".gitignore").write_text("secret.py\n!gen_again.py\nsub/deep/\n")
    (root / "pkg" / "sub" / ".gitignore").write_text("!secret.py\n*.tmp.py\n")
    for f in (
        "top_only.py",
        "a.py",
        "gen_x.py",
        "gen_keep.py",
        "pkg/top_only.py",
        "pkg/secret.py",
        "pkg/gen_again.py",
        "pkg/sub/secret.py",
        "pkg/sub/x.tmp.py",
        "pkg/sub/deep/d.py",
        "pkg/build/b.py",
        "other/o.py",
        "other/build/ob.py",
        "pkg/sub/keep.py",
    ):
        (root / f).write_text("x = 1\n")


@pytest.mark.parametrize(
    "include,exclude,respect",
    [((), (), True), (("pkg/",), (), True), ((), ("other/", "*secret*"), True), ((), (), False)],
)
def test_in_folder_matches_the_full_path_answer(tmp_path, include, exclude, respect):
    _tree(tmp_path)
    pf = PathFilter(tmp_path, include, exclude, respect)
    for dirpath, dirnames, filenames in os.walk(tmp_path):
        skip = pf.in_folder(dirpath)
        for name, is_dir in [(d, True) for d in dirnames] + [(f, False) for f in filenames]:
            assert skip(name, is_dir) == pf(os.path.join(dirpath, name), is_dir), (dirpath, name, is_dir)


def test_discovery_gives_the_same_files_through_either_form(tmp_path):
    _tree(tmp_path)
    pf = PathFilter(tmp_path, (), ("other/",))
    fast = discover([str(tmp_path)], excluded=pf)
    slow = discover([str(tmp_path)], excluded=lambda p, d: pf(p, d))
    assert fast.files == slow.files and fast.errors == slow.errors
    names = {os.path.relpath(f.path, tmp_path) for f in fast.files}
    assert "pkg/sub/secret.py" in names and "pkg/secret.py" not in names and "gen_keep.py" in names
    assert not {"gen_x.py", "top_only.py", "pkg/sub/deep/d.py", "pkg/build/b.py", "other/o.py"} & names
