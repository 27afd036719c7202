"""deadinit's temporary files: recognisable names, and only a dead process's own files are removed."""

import os
import stat
import subprocess
import sys
import time

import pytest

from deadinit.index.discovery import discover
from deadinit.runtime import orphans, temp_files
from deadinit.runtime.file_cache import Cache, new_entry, remove_leftovers, temp_folder
from deadinit.runtime.temp_files import SUFFIX, create, host_tag, is_leftover, remove_leftovers_in

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="nothing is removed on Windows")


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def _name(target: str, pid: int, host: str | None = None) -> str:
    return f".{target}.{pid}-{host or host_tag()}-0123abcd{SUFFIX}"


def test_created_names_carry_the_pid_and_host_and_are_private(tmp_path):
    fd, path = create(tmp_path, "child.py")
    os.close(fd)
    name = os.path.basename(path)
    assert os.path.dirname(path) == str(tmp_path)
    assert name.startswith(f".child.py.{os.getpid()}-{host_tag()}-") and name.endswith(SUFFIX)
    assert temp_files.is_temp_name(name) and not name.endswith(".py")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert not is_leftover(path)  # this process still runs


def test_long_target_names_are_cut(tmp_path):
    fd, path = create(tmp_path, "x" * 240 + ".py")
    os.close(fd)
    assert len(os.path.basename(path)) < 160 and temp_files.is_temp_name(os.path.basename(path))


def test_only_a_dead_process_own_temporary_files_are_removed(tmp_path):
    dead = _dead_pid()
    files = {
        "dead": _name("a.py", dead),
        "dead, cache entry": _name("0123.bin", dead),
        "this process": _name("b.py", os.getpid()),
        "a running process": _name("c.py", os.getppid()),
        "another machine": _name("d.py", dead, host="ffffff" if host_tag() != "ffffff" else "000000"),
        "no pid (an older deadinit)": ".e.py.k3j4h5g6.deadinit-tmp",
        "source": "f.py",
        "source named like one": _name("g.py", dead) + ".py",
        "other suffix": _name("h.py", dead)[: -len(SUFFIX)] + ".tmp",
    }
    for name in files.values():
        (tmp_path / name).write_text("x = 1\n")
    (tmp_path / "target.py").write_text("kept = True\n")
    link = tmp_path / _name("link", dead)
    link.symlink_to(tmp_path / "target.py")
    folder = tmp_path / _name("folder", dead)
    folder.mkdir()

    assert remove_leftovers_in(tmp_path) == 2
    left = set(os.listdir(tmp_path))
    assert files["dead"] not in left and files["dead, cache entry"] not in left
    for what, name in files.items():
        if not what.startswith("dead"):
            assert name in left, what
    assert link.is_symlink() and folder.is_dir() and (tmp_path / "target.py").read_text() == "kept = True\n"


def test_a_zombie_counts_as_ended():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        end = time.monotonic() + 30
        while orphans.process_running(child.pid) and time.monotonic() < end:
            time.sleep(0.02)
        assert os.path.exists(f"/proc/{child.pid}") or sys.platform != "linux"  # not reaped yet: a zombie
        assert not orphans.process_running(child.pid)
    finally:
        child.wait()


def test_cache_writes_go_through_its_temp_folder_and_leftovers_there_are_removed(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("x = 1\n")
    cache = Cache(tmp_path / "cache", "key")
    cache.store(str(src), "m", False, new_entry(os.stat(src), "h", b"summary"))
    assert cache.load(str(src), "m", False) is not None
    assert os.listdir(temp_folder(tmp_path / "cache")) == []
    stale = temp_folder(tmp_path / "cache") / _name("0a1b.bin", _dead_pid())
    live = temp_folder(tmp_path / "cache") / _name("0a1c.bin", os.getpid())
    stale.write_bytes(b"half an entry")
    live.write_bytes(b"an entry being written")
    assert remove_leftovers(tmp_path / "cache") == 1
    assert not stale.exists() and live.exists()


def test_discovery_lists_temporary_files_in_walked_folders_and_beside_given_files(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub" / "m.py").write_text("")
    in_walk = tmp_path / "pkg" / "sub" / _name("m.py", 1)
    in_walk.write_text("")
    (tmp_path / "single").mkdir()
    (tmp_path / "single" / "one.py").write_text("")
    beside = tmp_path / "single" / _name("one.py", 1)
    beside.write_text("")
    disc = discover([str(tmp_path / "pkg"), str(tmp_path / "single" / "one.py")])
    assert sorted(disc.temp_files) == sorted([str(in_walk), str(beside)])
    assert all(f.path.endswith(".py") for f in disc.files) and len(disc.files) == 3
