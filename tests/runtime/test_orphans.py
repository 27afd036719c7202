"""Child processes end when the process that started them is killed (``deadinit.runtime.orphans``).

Each test runs a small script that starts children the way deadinit does (the worker
pool with fork and with the fork server, the result-cache helper, a gpu-check
measurement child, a plain forked child), SIGKILLs the script, and checks that no
descendant is still running a few seconds later.  ``no-prctl`` turns Linux's
parent-death signal off, so that the portable watchers are what ends the children.
"""

import os
import signal
import subprocess
import sys
import textwrap

import pytest
from process_tree import ProcessTree, kill_leftovers, require_proc

from deadinit.runtime import orphans
from deadinit.runtime.pool import default_jobs

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PREAMBLE = """
import os, sys, threading, time
sys.path.insert(0, {repo!r})
import deadinit.runtime.orphans as orphans
if "no-prctl" in sys.argv:
    orphans.arm_parent_death_signal = lambda: False
"""

POOL = """
from deadinit.runtime.pool import Pool, _context

def nap(x):
    time.sleep(120)

if __name__ == "__main__":
    if "thread" in sys.argv:  # a second thread: the pool uses the fork server
        threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
    assert _context().get_start_method() == ("forkserver" if "thread" in sys.argv else "fork")
    with Pool(2) as pool:
        pool.map(nap, [1, 2, 3, 4])
"""

HELPER = """
from deadinit.runtime import helper
helper.prestart()
assert helper._STARTED.available
time.sleep(120)
"""

FORKED = """
parent = os.getpid()
if os.fork() == 0:
    orphans.end_with_parent(parent)
    time.sleep(120)
    os._exit(0)
time.sleep(120)
"""

GPU_CHILD = """
from deadinit.gpu_check import runner
job = {{"class": "slow_import.Slow", "tree": {tree!r}, "label": "original", "device": "cpu", "stub": [],
       "profile": {{}}, "depth": 2, "extra_paths": [], "expect_read": [], "expect_skipped": []}}
runner.run_child(job, runner.Options(device="cpu", timeout=300), {{}})
"""


def _kill_and_check(tmp_path, body: str, args: list[str], children: int) -> None:
    require_proc()
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(PREAMBLE.format(repo=REPO)) + textwrap.dedent(body))
    proc = subprocess.Popen([sys.executable, str(script), *args], cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    tree = ProcessTree(proc.pid)
    try:
        assert tree.wait_until(children, timeout=60), (tree.descendants(), proc.poll(), proc.stderr.read())
        tree.wait_until(children + 1, timeout=1.0)  # the children settle (their guards run)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        left = tree.wait_all_ended(timeout=5.0)
        assert not left, f"still running 5 s after the parent was killed: {left}"
    finally:
        tree.stop()
        kill_leftovers(tree)
        proc.stderr.close()


@pytest.mark.slow
@pytest.mark.parametrize("watcher", ["prctl", "no-prctl"])
def test_forked_pool_workers_end_with_the_killed_parent(tmp_path, watcher):
    _kill_and_check(tmp_path, POOL, [watcher], children=2)


@pytest.mark.slow
@pytest.mark.parametrize("watcher", ["prctl", "no-prctl"])
def test_fork_server_pool_workers_and_the_fork_server_end_with_the_killed_parent(tmp_path, watcher):
    # the fork server, its two workers and multiprocessing's resource tracker
    _kill_and_check(tmp_path, POOL, [watcher, "thread"], children=4)


@pytest.mark.slow
@pytest.mark.skipif(default_jobs() < 2, reason="the helper is only forked with two cores or more")
@pytest.mark.parametrize("watcher", ["prctl", "no-prctl"])
def test_result_cache_helper_ends_with_the_killed_parent(tmp_path, watcher):
    _kill_and_check(tmp_path, HELPER, [watcher], children=1)


@pytest.mark.slow
@pytest.mark.parametrize("watcher", ["prctl", "no-prctl"])
def test_plain_forked_child_ends_with_the_killed_parent(tmp_path, watcher):
    _kill_and_check(tmp_path, FORKED, [watcher], children=1)


@pytest.mark.slow
def test_gpu_check_measurement_child_ends_with_the_killed_parent(tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "slow_import.py").write_text("import time\ntime.sleep(120)\n\n\nclass Slow:\n    pass\n")
    _kill_and_check(tmp_path, GPU_CHILD.format(tree=str(tree)), [], children=1)


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


@pytest.mark.parametrize("watcher", ["prctl", "no-prctl"])
def test_a_child_whose_parent_is_already_gone_ends_at_once(tmp_path, watcher):
    """The parent died before the child armed the signal: the child checks and exits."""
    code = (
        f"import sys; sys.path.insert(0, {REPO!r})\n"
        "import deadinit.runtime.orphans as o\n"
        "if sys.argv[1] == 'no-prctl': o.arm_parent_death_signal = lambda: False\n"
        f"o.end_with_parent({_dead_pid()})\n"
        "print('still running')\n"
    )
    p = subprocess.run([sys.executable, "-c", code, watcher], capture_output=True, text=True, timeout=60)
    assert p.returncode == orphans.EXIT_STATUS and "still running" not in p.stdout, (p.returncode, p.stdout, p.stderr)


def test_gpu_check_harness_whose_parent_is_already_gone_ends_at_once(tmp_path):
    harness = os.path.join(REPO, "deadinit", "gpu_check", "harness.py")
    env = dict(os.environ, **{orphans.PARENT_PID_VARIABLE: str(_dead_pid())})
    p = subprocess.run([sys.executable, harness, "job.json", "out.json"], cwd=tmp_path, env=env, timeout=60)
    assert p.returncode == orphans.EXIT_STATUS
    assert not (tmp_path / "out.json").exists()


def test_a_child_with_its_parent_alive_runs_on():
    p = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {REPO!r})\n"
         "import os, deadinit.runtime.orphans as o\no.end_with_parent(os.getppid())\nprint('ran')"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert p.returncode == 0 and p.stdout == "ran\n", (p.returncode, p.stderr)


def test_process_running():
    assert orphans.process_running(os.getpid())
    assert not orphans.process_running(_dead_pid())
