import os
from pathlib import Path

import pytest
from corpus_paths import CORPUS_DIR, FIXTURES, REPO, sglang_tree  # noqa: F401  (re-exported)
from figures import FIGURES, merge


@pytest.fixture
def write_project(tmp_path):
    """Write {relpath: source} under tmp_path and return the root."""

    def _write(files: dict) -> Path:
        for rel, src in files.items():
            p = tmp_path / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(src)
        return tmp_path

    return _write


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory) -> Path:
    """A deadinit cache folder new with each test run and shared by the run's xdist workers
    (the per-file and result caches take concurrent writers): what one test summarised,
    e.g. all of sglang, the next one reads back."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder; each worker has its own below it
    folder = base / "deadinit-cache"
    folder.mkdir(exist_ok=True)
    return folder


def pytest_sessionfinish(session):
    if hasattr(session.config, "workeroutput"):  # an xdist worker: hand the figures to the controller
        session.config.workeroutput["deadinit_figures"] = dict(FIGURES)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    merge(getattr(node, "workeroutput", {}).get("deadinit_figures", {}))


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.write_sep("-", "deadinit robustness figures (README: Robustness)")
        for key, value in sorted(FIGURES.items()):
            terminalreporter.write_line(f"{key}: {value}")
        dead, found = FIGURES.get("runtime-dead parent allocations"), FIGURES.get("of which reported", 0)
        if dead:
            terminalreporter.write_line(f"recall: {found / dead:.1%}")
