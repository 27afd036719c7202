"""Helpers for the fix tests (a uniquely named module: several conftest.py files exist)."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from deadinit.api.check import run_check
from deadinit.fixes.driver import run_fix
from deadinit.frontends.parse import summarize_source
from deadinit.model.fix import FixOptions

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
GOLDEN = HERE / "golden"
PROBE = HERE / "fixture_probe.py"

B = "fixtures.backends."
# scenario -> (classes to fix, --unsafe-fixes, probe keys whose construction may change)
SCENARIOS = {
    "mla_chain": (
        (B + "trt_mla_backend.TrtMLABackend", B + "speed_mla_backend.SpeedMLABackend"),
        False,
        {"TrtMLABackend", "TrtMLABackend[dsl]", "SpeedMLABackend", "TrtMLAMultiStepDraft"},
    ),
    "mha_child": ((B + "trt_mha_backend.TrtMHABackend",), True, {"TrtMHABackend", "TrtMHAMultiStepDraft"}),
    "drafts": (
        (B + "trt_mha_backend.TrtMHAMultiStepDraft", B + "trt_mla_backend.TrtMLAMultiStepDraft"),
        False,
        {"TrtMHAMultiStepDraft", "TrtMLAMultiStepDraft"},
    ),
}


def copy_fixtures(dest: Path) -> Path:
    shutil.copytree(
        REPO / "fixtures", dest / "fixtures", ignore=shutil.ignore_patterns("__pycache__", "pyproject.toml")
    )
    return dest


def fix(paths=("fixtures",), classes=(), unsafe=False, write=True, summarizer=None, **kw):
    result = run_check(list(paths), summarizer=summarizer)
    return run_fix(result, "skip-flag", FixOptions(classes=tuple(classes), unsafe_fixes=unsafe, **kw), write=write)


def probe(tree) -> dict:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.run([sys.executable, str(PROBE), str(tree)], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


class CachingSummarizer:
    """``run_check(summarizer=...)`` that re-summarises only files whose bytes changed."""

    def __init__(self):
        self.cache = {}
        self.misses = 0

    def __call__(self, items, settings):
        out = []
        for path, module, is_pkg in items:
            with open(path, "rb") as f:
                data = f.read()
            key = (path, module, is_pkg, hashlib.sha256(data).hexdigest(), settings.summary_key())
            if key not in self.cache:
                self.misses += 1
                self.cache[key] = summarize_source(data, path, module, is_pkg, settings)
            out.append(self.cache[key])
        return out
