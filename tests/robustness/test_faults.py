"""Faults during ``deadinit fix``: SIGINT / SIGKILL at random points, a read-only file, a full disk.

Every file must end up byte for byte the old or the new version and parse; Ctrl-C
and write failures restore every file already rewritten (all old, or all new when the
writes had finished).  Random points come from fixed seeds (shown on failure).
"""

import errno
import os
import random
import resource
import shutil
import signal
import subprocess
import time

import pytest
from robust_helpers import (
    CRASH_MARKERS,
    FIGURES,
    assert_no_crash,
    cli,
    deadinit_cmd,
    env,
    error_lines,
    fixable_tree,
    parses,
    snapshot,
)

from deadinit.api.check import run_check
from deadinit.fixes.driver import run_fix
from deadinit.model.fix import FixOptions


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    """A pristine tree of 25 fixable packages, the same tree fully fixed, and the fix's duration."""
    base = tmp_path_factory.mktemp("faults")
    old = fixable_tree(base / "old", 25)
    shutil.copytree(old, base / "new" / "tree")
    t0 = time.monotonic()
    p = cli("fix", "--unsafe-fixes", "--quiet", "tree", cwd=base / "new")
    duration = time.monotonic() - t0
    assert p.returncode == 0, p.stderr
    before, after = snapshot(old), snapshot(base / "new" / "tree")
    changed = [k for k in before if before[k] != after[k]]
    assert len(changed) == 50  # both files of every package
    return old, before, after, duration


def _wait_for_first_write(tree, before, proc, limit: float) -> bool:
    end = time.monotonic() + limit
    while time.monotonic() < end and proc.poll() is None:
        for rel, data in before.items():
            try:
                if (tree / rel).read_bytes() != data:
                    return True
            except OSError:
                pass
    return False


def _trials() -> list:
    """(seed, signal): Ctrl-C during the writes and SIGKILL anywhere in the fast tier, all ten in the slow one."""
    fast = {(0, signal.SIGINT), (1, signal.SIGKILL)}
    return [
        pytest.param(seed, sig, id=f"{seed}-{sig.name}", marks=() if (seed, sig) in fast else pytest.mark.slow)
        for sig in (signal.SIGINT, signal.SIGKILL)
        for seed in range(5)
    ]


@pytest.mark.parametrize(("seed", "sig"), _trials())
def test_interrupted_fix_leaves_old_or_new_files(trees, tmp_path, sig, seed):
    old, before, after, duration = trees
    rng = random.Random(seed * 7919 + sig)
    tree = tmp_path / "tree"
    shutil.copytree(old, tree)
    proc = subprocess.Popen(
        deadinit_cmd("fix", "--unsafe-fixes", "--quiet", "tree"),
        cwd=tmp_path,
        env=env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    if seed % 2 == 0:  # during the writes
        _wait_for_first_write(tree, before, proc, duration * 3 + 10)
        time.sleep(rng.uniform(0, 0.02))
    else:  # anywhere in the run
        time.sleep(rng.uniform(0, duration))
    if proc.poll() is None:
        proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    now = snapshot(tree)
    assert set(now) == set(before)
    states = {rel: "old" if now[rel] == before[rel] else "new" if now[rel] == after[rel] else "CORRUPT" for rel in now}
    temps = [p.name for p in tree.rglob("*") if "deadinit-tmp" in p.name]
    for key, n in (
        ("interrupt trials", 1),
        ("files checked after interrupts", len(now)),
        ("temp files left", len(temps)),
        (
            "files lost or corrupted",
            sum(s == "CORRUPT" for s in states.values()) + sum(not parses(d) for d in now.values()),
        ),
    ):
        FIGURES[key] = FIGURES.get(key, 0) + n
    assert "CORRUPT" not in states.values(), (seed, [r for r, s in states.items() if s == "CORRUPT"])
    assert all(parses(d) for d in now.values())
    changed = {r for r in before if before[r] != after[r]}
    new = {r for r, s in states.items() if s == "new" and r in changed}
    FIGURES["interrupted mid-write"] = FIGURES.get("interrupted mid-write", 0) + (0 < len(new) < len(changed))
    if sig == signal.SIGINT:
        assert not any(m in err for m in CRASH_MARKERS), err
        assert proc.returncode in (0, 130), (proc.returncode, err)
        assert err.strip() in ("", "deadinit: interrupted"), err
        assert new in (set(), changed), f"seed {seed}: Ctrl-C left {len(new)} of {len(changed)} files rewritten"
    else:
        assert proc.returncode in (0, -signal.SIGKILL)
    assert all(t.endswith(".deadinit-tmp") for t in temps)  # never taken for source (not *.py)
    # a re-run finishes the job cleanly
    again = cli("fix", "--unsafe-fixes", "--quiet", "tree", cwd=tmp_path)
    assert_no_crash(again)
    assert all(parses(d) for d in snapshot(tree).values())


def test_read_only_file_leaves_every_file_intact(tmp_path):
    tree = fixable_tree(tmp_path, 3)
    locked = tree / "p1" / "child.py"
    locked.chmod(0o444)
    before = snapshot(tree)
    p = cli("fix", "--unsafe-fixes", "--quiet", "tree", cwd=tmp_path)
    assert_no_crash(p)
    assert p.returncode == 2
    assert error_lines(p.stderr) == [
        "deadinit: error: cannot write tree/p1/child.py: the file is read-only; nothing written"
    ]
    assert snapshot(tree) == before
    assert oct(locked.stat().st_mode & 0o777) == oct(0o444)


def test_full_disk_in_the_middle_restores_every_file(tmp_path, monkeypatch):
    tree = fixable_tree(tmp_path, 4)
    monkeypatch.chdir(tmp_path)
    before = snapshot(tree)
    real_fsync, calls = os.fsync, []

    def fsync(fd):
        calls.append(fd)
        if len(calls) == 9:  # the fifth file, after four were replaced
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    out = run_fix(run_check(["tree"]), "skip-flag", FixOptions(unsafe_fixes=True))
    assert out.error and "No space left on device" in out.error and "every file left as it was" in out.error
    assert out.written == []
    assert snapshot(tree) == before
    assert not [p for p in tree.rglob("*") if "deadinit-tmp" in p.name]


def test_file_size_limit_during_write_restores_every_file(tmp_path):
    """A real failing write (EFBIG under RLIMIT_FSIZE), through the command line."""
    tree = fixable_tree(tmp_path, 3)
    before = snapshot(tree)
    limit = max(len(d) for d in before.values())  # every old text fits, the longer new ones do not

    def limited():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    p = subprocess.run(
        deadinit_cmd("fix", "--unsafe-fixes", "--quiet", "tree"),
        cwd=tmp_path,
        env=env(tmp_path),
        capture_output=True,
        text=True,
        preexec_fn=limited,
        timeout=300,
    )
    assert_no_crash(p)
    assert p.returncode == 2
    errs = error_lines(p.stderr)
    assert len(errs) == 1 and "File too large" in errs[0] and "every file left as it was" in errs[0], errs
    assert snapshot(tree) == before
