"""The whole-run result cache of ``deadinit check``: hits, misses, and never a stale answer.

The differential test edits the fixtures at random (comments, blank lines, code,
suppressions, stub bodies, touches, new and removed files) and checks after every
edit that a cached run prints exactly what a ``--no-cache`` run prints.
"""

import json
import os
import random
import shutil

import pytest
from corpus_paths import FIXTURES
from sample_project import invoke

from deadinit.runtime import file_cache as cache_mod
from deadinit.runtime import result_cache as results

SRC = {
    "pkg/__init__.py": "",
    "pkg/base.py": "import torch\nclass Base:\n    def __init__(self):\n        self.ws = torch.empty(8)\n"
    "        self.buf = torch.zeros(4)\n    def run(self):\n        return self.ws\n"
    "    def use(self):\n        return self.buf\n",
    "pkg/child.py": "import torch\nfrom pkg.base import Base\nclass Child(Base):\n    def __init__(self):\n"
    "        super().__init__()\n        self.ws = torch.empty(16)\n    def run(self):\n        return 1\n",
}


def _age(root):
    """Files older than the racy-mtime window, as a checkout usually is."""
    for p in root.rglob("*.py"):
        st = p.stat()
        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns - 10 * cache_mod.RACY_NS))


def _check(root, *extra):
    res = invoke(["check", ".", "--format", "json", "--cache-dir", root.parent / "cache", *extra], cwd=root)
    assert res.exit_code in (0, 1), res.stderr
    return json.loads(res.stdout), res.stderr


def _fresh(root, *extra):
    res = invoke(["check", ".", "--format", "json", "--no-cache", *extra], cwd=root)
    assert res.exit_code in (0, 1), res.stderr
    return json.loads(res.stdout), res.stderr


@pytest.fixture
def proj(tmp_path, write_project):
    root = write_project({f"proj/{k}": v for k, v in SRC.items()}) / "proj"
    _age(root)
    return root


def test_second_run_is_answered_from_the_result_cache(proj, full_runs):
    first = _check(proj)
    second = _check(proj)
    assert len(full_runs) == 1 and first == second and first[0]
    assert list((proj.parent / "cache" / "results").glob("*.res"))


def test_touched_file_and_appended_comment_are_still_hits(proj, full_runs):
    want = _check(proj)
    os.utime(proj / "pkg" / "child.py")  # same content, new mtime
    assert _check(proj) == want
    with open(proj / "pkg" / "child.py", "a") as f:
        f.write("# a comment changes no summary\n")
    assert _check(proj) == want
    assert len(full_runs) == 1
    assert want == _fresh(proj)


def test_code_edit_is_a_miss_with_the_new_findings(proj, full_runs):
    before = _check(proj)
    p = proj / "pkg" / "base.py"
    p.write_text(p.read_text().replace("        return self.buf\n", "        return 2\n"))
    after = _check(proj)
    assert len(full_runs) == 2 and after != before and after == _fresh(proj)


def test_another_file_moved_in_with_the_same_size_and_mtime_is_a_miss(proj, full_runs):
    before = _check(proj)
    p = proj / "pkg" / "base.py"
    other = proj / "base.py.new"
    other.write_text(p.read_text().replace("return self.buf", "return self.ws2"))  # same size
    st = p.stat()
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(other, p)  # another inode, the recorded size and mtime
    after = _check(proj)
    assert len(full_runs) == 2 and after != before and after == _fresh(proj)


def test_settings_and_selection_are_part_of_the_key(proj, full_runs):
    all_codes = _check(proj)
    only = _check(proj, "--select", "DI002")
    assert len(full_runs) == 2 and only != all_codes
    assert {f["code"] for f in only[0]} <= {"DI002"}
    assert _check(proj, "--select", "DI002") == only and len(full_runs) == 2


@pytest.mark.parametrize("damage", ["truncate", "garbage", "flip", "empty"])
def test_damaged_results_file_is_a_miss_never_a_crash(proj, full_runs, damage):
    want = _check(proj)
    (path,) = (proj.parent / "cache" / "results").glob("*.res")
    data = path.read_bytes()
    path.write_bytes(
        {
            "truncate": data[: len(data) // 2],
            "garbage": b"\x00junk" * 50,
            "flip": data[:-10] + bytes(b ^ 0xFF for b in data[-10:]),
            "empty": b"",
        }[damage]
    )
    assert _check(proj) == want and len(full_runs) == 2
    assert _check(proj) == want and len(full_runs) == 2  # rewritten


def test_added_and_removed_files_are_misses(proj, full_runs):
    _check(proj)
    (proj / "pkg" / "extra.py").write_text("from pkg.base import Base\nclass Extra(Base):\n    pass\n")
    assert _check(proj) == _fresh(proj) and len(full_runs) == 3  # the cached run's and the fresh one's
    (proj / "pkg" / "extra.py").unlink()
    assert _check(proj) == _fresh(proj) and len(full_runs) == 5


def test_a_file_that_fails_to_summarise_is_never_cached_over(proj, full_runs):
    (proj / "pkg" / "broken.py").write_text("def f(:\n")
    first = _check(proj)
    assert any("broken.py" in line for line in first[1].splitlines())
    assert _check(proj) == first and len(full_runs) == 2  # no states recorded: a full run again


STUBS = {
    "pkg/__init__.py": "",
    "pkg/base.py": "import torch\nclass Parent:\n    def __init__(self):\n        self.ws = torch.empty(1024)\n"
    "        self.ws2 = torch.empty(1024)\n    def a(self):\n        return self.ws\n"
    "    def b(self):\n        return self.ws2\n    def c(self):\n        return 1\n"
    "    def d(self):\n        return 2\n",
    "pkg/child.py": "from pkg.base import Parent\nclass Child(Parent):\n"
    + "".join(f"    def {m}(self):\n        pass\n" for m in "abcd"),
}


def test_stub_answers_are_rechecked(tmp_path, write_project, full_runs):
    """A parent method's body turned into a stub changes its summary (``is_stub``), which DI003
    counts apart: the stored result must not be used."""
    root = write_project({f"st/{k}": v for k, v in STUBS.items()}) / "st"
    _age(root)
    before = _check(root)
    assert any("0/4 methods" in f["message"] for f in before[0])
    base = root / "pkg" / "base.py"
    base.write_text(base.read_text().replace("        return 1\n", "        pass\n"))
    after = _check(root)
    assert len(full_runs) == 2 and after == _fresh(root)
    assert any("0/3 methods" in f["message"] for f in after[0])


def test_lite_index_answers_like_the_index(proj):
    from deadinit.api.check import run_check

    res = run_check([str(proj)])
    lite = results.LiteIndex.of(res.index, res.findings)
    for f in res.findings:
        assert lite.mro(f.cls) == res.index.mro(f.cls)
        assert lite.file_of(f.cls).path == res.index.file_of(f.cls).path
        assert (lite.classes[f.cls].line, lite.classes[f.cls].col) == (
            res.index.classes[f.cls].line,
            res.index.classes[f.cls].col,
        )
    assert {m: s.suppressions for m, s in lite.modules.items()} == {
        m: s.suppressions for m, s in res.index.modules.items()
    }


# -- differential: random edits, cached == --no-cache after each ------------------------------------


def _edit(rng: random.Random, root, findings: list):
    """One random edit; half of them at a line some finding reports (where it matters)."""
    files = sorted(p for p in root.rglob("*.py") if ".deadinit_cache" not in p.parts)
    if findings and rng.random() < 0.5:
        f = rng.choice(findings)
        p, at = root / f["path"], f["line"] - 1
        lines = p.read_text().splitlines(keepends=True)
        kind = rng.choice(["blank_before_finding", "suppress_finding", "code_at_finding", "comment_after_finding"])
        if kind == "blank_before_finding":
            lines.insert(rng.randrange(at + 1), "\n")
        elif kind == "suppress_finding" and "#" not in lines[at] and not lines[at].rstrip().endswith(("\\", "(")):
            lines[at] = lines[at].rstrip("\n") + f"  # deadinit: ignore[{f['code']}]\n"
        elif kind == "code_at_finding":
            lines[at] = lines[at].replace("torch.empty(", "torch.zeros(").replace("torch.zeros(", "torch.ones(", 1)
        elif kind == "comment_after_finding":
            lines.insert(at + 1, " " * (len(lines[at]) - len(lines[at].lstrip())) + "# a comment line\n")
        p.write_text("".join(lines))
        os.utime(p)
        return kind
    p = rng.choice(files)
    lines = p.read_text().splitlines(keepends=True)
    kind = rng.choice(
        ["append_comment", "blank_line", "comment_in_place", "suppress", "stub", "code", "touch", "new_file", "spaces"]
    )
    i = rng.randrange(len(lines) + 1)
    if kind == "append_comment":
        lines.append(f"# edit {rng.random()}\n")
    elif kind == "blank_line":
        lines.insert(i, "\n")
    elif kind == "comment_in_place":
        idx = [k for k, ln in enumerate(lines) if ln.lstrip().startswith("#")]
        if idx:
            k = rng.choice(idx)
            lines[k] = lines[k].rstrip("\n") + " (edited)\n"
    elif kind == "suppress":
        idx = [k for k, ln in enumerate(lines) if "self." in ln and "#" not in ln and not ln.rstrip().endswith("\\")]
        if idx:
            k = rng.choice(idx)
            lines[k] = lines[k].rstrip("\n") + "  # deadinit: ignore[DI001]\n"
    elif kind == "stub":
        idx = [k for k, ln in enumerate(lines) if ln.strip() in ("raise NotImplementedError()", "pass")]
        if idx:
            k = rng.choice(idx)
            lines[k] = lines[k].replace(lines[k].strip(), "return None")
    elif kind == "code":
        idx = [k for k, ln in enumerate(lines) if "torch.empty" in ln or "return self." in ln]
        if idx:
            k = rng.choice(idx)
            lines[k] = lines[k].replace("torch.empty", "torch.zeros").replace("return self.", "return 0 and self.")
    elif kind == "spaces":
        idx = [k for k, ln in enumerate(lines) if ln.strip() and not ln.rstrip().endswith("\\")]
        if idx:
            k = rng.choice(idx)
            lines[k] = lines[k].rstrip("\n") + "   \n"
    elif kind == "new_file":
        (p.parent / f"new_{rng.randrange(10**6)}.py").write_text(
            "from backends.base import AttentionBackend\nclass Extra(AttentionBackend):\n    pass\n"
        )
    if kind != "touch":
        p.write_text("".join(lines))
    os.utime(p)
    return kind


@pytest.mark.slow
def test_random_edits_never_give_a_stale_result(tmp_path, full_runs):
    root = tmp_path / "fx"
    shutil.copytree(FIXTURES, root)
    _age(root)
    rng = random.Random(20261202)
    kinds = []
    _check(root)
    hits = changed = 0
    want = _fresh(root)
    for _ in range(30):
        kinds.append(_edit(rng, root, want[0]))
        before = len(full_runs)
        got = _check(root)
        hits += len(full_runs) == before
        changed += _fresh(root) != want
        want = _fresh(root)
        assert got == want, kinds
    assert 0 < hits < 30 and changed >= 3, (hits, changed, kinds)  # both paths, and edits that matter


@pytest.fixture
def source_stats(monkeypatch):
    """The ``os.stat`` calls this process makes on each project module (``__init__.py`` aside:
    discovery asks whether a folder is a package), by real path."""
    calls: dict = {}
    real_stat = os.stat

    def counting(path, *a, **kw):
        name = os.fspath(path) if not isinstance(path, int) else ""
        if isinstance(name, str) and name.endswith(".py") and not name.endswith("__init__.py"):
            key = os.path.realpath(name)
            calls[key] = calls.get(key, 0) + 1
        return real_stat(path, *a, **kw)

    monkeypatch.setattr(os, "stat", counting)
    return calls


def test_each_file_is_stat_ed_once_per_run(proj, full_runs, source_stats):
    """The result cache's check, discovery and (on a miss) the summarizer share one stat per file."""
    modules = {os.path.realpath(proj / "pkg" / n) for n in ("base.py", "child.py")}
    _check(proj)
    source_stats.clear()
    _check(proj)  # a hit
    assert {p: n for p, n in source_stats.items() if p in modules} == dict.fromkeys(modules, 1)
    p = proj / "pkg" / "base.py"
    p.write_text(p.read_text().replace("        return self.buf\n", "        return 2\n"))
    source_stats.clear()
    edited = _check(proj)  # a miss: the edit is summarised and analysed
    assert len(full_runs) == 2
    assert {p: n for p, n in source_stats.items() if p in modules} == dict.fromkeys(modules, 1)
    assert edited == _fresh(proj)
    source_stats.clear()
    res = invoke(["explain", "Child", ".", "--cache-dir", proj.parent / "cache"], cwd=proj)
    assert res.exit_code == 0, res.stderr
    assert {p: n for p, n in source_stats.items() if p in modules} == dict.fromkeys(modules, 1)


def test_the_key_names_the_installed_libcst_without_importlib_metadata():
    from importlib.metadata import version

    assert cache_mod._libcst_version() == version("libcst")
    assert f"libcst{version('libcst')}" in cache_mod.ENV
