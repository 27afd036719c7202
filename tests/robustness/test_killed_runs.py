"""A killed run leaves nothing behind: no process of it keeps running, and the next run removes its temporary files.

``check``, ``fix`` and ``explain`` (the first two with ``--jobs 2``) are killed with
SIGKILL or SIGINT at several moments: while starting (the result-cache helper is
forked then), while the worker processes summarise (they write cache entries), and
while ``fix`` writes the rewritten files.  Every process the run started must have
ended within 5 seconds, and after the next run no temporary file of deadinit's is
left in the tree or in the cache.  Linux only (the processes are followed in /proc).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from process_tree import ProcessTree, kill_leftovers, require_proc
from robust_helpers import CRASH_MARKERS, cli, count, deadinit_cmd, env, fixable_tree, snapshot, write

from deadinit.runtime.file_cache import temp_folder
from deadinit.runtime.pool import default_jobs
from deadinit.runtime.temp_files import SUFFIX, host_tag

PACKAGES = 40  # 120 files: two workers summarise them in a second or two
COMMANDS = {
    "check": ["check", "--jobs", "2", "--quiet", "tree"],
    "fix": ["fix", "--jobs", "2", "--unsafe-fixes", "--quiet", "tree"],
    "explain": ["explain", "Child0", "tree"],  # one process: explain has no workers
}
MOMENTS = {
    "check": ["starting", "summarising"],
    "fix": ["starting", "summarising", "writing"],
    "explain": ["starting", "analysing"],
}
WORKERS_SEEN = {"check": 2 + (default_jobs() >= 2), "fix": 2}  # check: the helper (two cores or more), two workers
CASES = [(c, m, s) for c in COMMANDS for m in MOMENTS[c] for s in ("SIGKILL", "SIGINT")]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    base = tmp_path_factory.mktemp("killed")
    return fixable_tree(base, PACKAGES), snapshot(base / "tree")


def _deadinit_temp_files(root) -> list[str]:
    return sorted(
        str(p.relative_to(root)) for p in root.rglob("*") if "deadinit-tmp" in p.name or p.name.startswith(".tmp-")
    )


def _wait_for_moment(moment: str, command: str, proc, tree: ProcessTree, source, before: dict) -> None:
    if moment == "starting":
        time.sleep(0.4)
    elif moment == "summarising":
        assert tree.wait_until(WORKERS_SEEN[command], timeout=120), tree.descendants()
        time.sleep(0.3)
    elif moment == "analysing":
        time.sleep(1.0)
    else:  # writing: the first rewritten file is in place
        mtimes = {rel: (source / rel).stat().st_mtime_ns for rel in before}
        end = time.monotonic() + 300
        while time.monotonic() < end and proc.poll() is None:
            for rel, mtime in mtimes.items():
                with contextlib.suppress(OSError):
                    if (source / rel).stat().st_mtime_ns != mtime:
                        return
            time.sleep(0.005)


@pytest.mark.slow
@pytest.mark.parametrize(("command", "moment", "sig"), CASES, ids=["-".join(c) for c in CASES])
def test_killed_run_leaves_no_process_and_the_next_run_no_temporary_file(pristine, tmp_path, command, moment, sig):
    require_proc()
    shutil.copytree(pristine[0], tmp_path / "tree")
    proc = subprocess.Popen(
        deadinit_cmd(*COMMANDS[command]),
        cwd=tmp_path,
        env=env(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    tree = ProcessTree(proc.pid)
    try:
        _wait_for_moment(moment, command, proc, tree, tmp_path / "tree", pristine[1])
        finished_first = proc.poll() is not None
        proc.send_signal(getattr(signal, sig))
        _, err = proc.communicate(timeout=120)
        left = tree.wait_all_ended(timeout=5.0)
        assert not left, f"still running 5 s after the run ended: {left}"
    finally:
        tree.stop()
        kill_leftovers(tree)
    if sig == "SIGINT" and moment != "starting":
        assert not any(m in err for m in CRASH_MARKERS), err
        assert proc.returncode in (0, 1, 130), (proc.returncode, err)
    count("killed runs (check, fix, explain; SIGKILL, SIGINT)")
    count("their processes still running 5 s later", 0)
    count("killed runs that had finished already", finished_first)
    count("temporary files left by a killed run", len(_deadinit_temp_files(tmp_path)))

    after = cli(*COMMANDS["check"], cwd=tmp_path)
    assert not any(m in after.stderr for m in CRASH_MARKERS), after.stderr
    assert _deadinit_temp_files(tmp_path) == []
    assert os.listdir(temp_folder(tmp_path / ".deadinit_cache")) == []


def test_the_next_run_removes_only_temporary_files_of_processes_that_are_gone(tmp_path):
    """Planted leftovers: a dead process's beside a source file and in the cache are removed;
    a running process's, another machine's and anything not named by deadinit stay."""
    fixable_tree(tmp_path, 2)
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    dead, other_host = p.pid, "000000" if host_tag() != "000000" else "111111"
    cache_tmp = temp_folder(tmp_path / ".deadinit_cache")
    cache_tmp.mkdir(parents=True)
    planted = {
        f"tree/p0/.child.py.{dead}-{host_tag()}-0123abcd{SUFFIX}": False,
        f".deadinit_cache/tmp/.ab12.bin.{dead}-{host_tag()}-0123abcd{SUFFIX}": False,
        f"tree/p1/.base.py.{os.getppid()}-{host_tag()}-0123abcd{SUFFIX}": True,
        f"tree/p1/.child.py.{dead}-{other_host}-0123abcd{SUFFIX}": True,
        f"tree/p1/notes.{dead}{SUFFIX}": True,
    }
    write(tmp_path, dict.fromkeys(planted, "x = 1\n"))
    before = snapshot(tmp_path / "tree")
    assert cli("check", "--quiet", "tree", cwd=tmp_path).returncode == 1
    for rel, kept in planted.items():
        assert (tmp_path / rel).exists() == kept, rel
    assert snapshot(tmp_path / "tree") == before
