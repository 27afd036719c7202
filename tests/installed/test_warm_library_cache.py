"""A warm ``deadinit check`` takes the installed library's summaries from the cache kept per
distribution (``installed.store``): after a one-line edit the analysis reads them again and
summarises none (``DEADINIT_STATS`` prints ``deadinit: installed: {...}``).  Not a timing test."""

import ast
import os
import shutil
import subprocess
import sys

from corpus_paths import FIXTURES
from layer_site import SITE

PREFIX = "deadinit: installed: "


def _check(project, cache) -> tuple[dict[str, int] | None, str]:
    cmd = [sys.executable, "-m", "deadinit", "check", ".", "--format", "concise", "--cache-dir", str(cache)]
    env = dict(os.environ, DEADINIT_STATS="1")
    done = subprocess.run(cmd, cwd=project, capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 1, done.stderr[-2000:]
    lines = [ln[len(PREFIX) :] for ln in done.stderr.splitlines() if ln.startswith(PREFIX)]
    return (ast.literal_eval(lines[-1]) if lines else None), done.stdout


def test_a_warm_run_reads_the_library_summaries_from_the_cache(tmp_path):
    project = tmp_path / "proj"
    shutil.copytree(FIXTURES / "layers", project / "layers", ignore=shutil.ignore_patterns("__pycache__"))
    (project / "pyproject.toml").write_text(f'[tool.deadinit]\nlibrary-paths = ["{SITE.as_posix()}"]\n')
    cache = tmp_path / "cache"
    cold, findings = _check(project, cache)
    assert cold is not None and cold["summarised"] > 0 and cold["read"] == 0
    assert "conv2" in findings  # the library's builders count (fixtures/EXPECTED.md, table L)
    unchanged, again = _check(project, cache)
    assert unchanged is None and again == findings  # the result cache answers: no library read at all
    blocks = project / "layers" / "blocks.py"
    blocks.write_text(blocks.read_text().replace("ConvBlock(c, c, kernel=5)", "ConvBlock(c, c, kernel=7)", 1))
    edited, after = _check(project, cache)  # the edited class is analysed again, its library facts read
    assert edited == {"read": cold["summarised"], "summarised": 0}
    assert after == findings
