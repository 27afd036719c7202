"""The GPU payload (deadinit/gpu_check/payload.py): gpu_check and what it imports, importable on its own.

Each child is a fresh interpreter with ``-S`` (no ``site``: none of site-packages' ``.pth``
files run, the editable install's finder, which would serve the checkout, among them) and
``-B`` (no ``__pycache__`` left in the payload), PYTHONPATH the payload folder only and the
temporary folder as working directory; it appends this interpreter's site-packages folders
itself, for click, rich and the like. No gpu_check module imports torch at import time
today; one that does is skipped, with the reason, where torch is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from deadinit.gpu_check import payload

REPO = Path(__file__).resolve().parents[2]
# The import-linter layers below gpu_check (pyproject.toml): what it may import.
BELOW = {"api", "fixes", "report", "rules", "analysis", "index", "runtime", "frontends", "semantics", "model"}
# Runs the command instead of defining anything: tested with --help instead.
MAIN = "deadinit.gpu_check.__main__"
GPU_CHECK = [name for name in payload.start_modules() if name != MAIN]

PRELUDE = """
import json, sys
sys.path.extend(json.loads(sys.argv.pop(1)))  # site-packages, no .pth file run
"""
IMPORT_ALL = (
    PRELUDE
    + """
import importlib, importlib.util, traceback
has_torch = importlib.util.find_spec("torch") is not None
import deadinit
out = {"path": sys.path, "deadinit": deadinit.__file__, "modules": {}}
for name in json.loads(sys.argv[1]):
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if (e.name or "").partition(".")[0] == "torch" and not has_torch:
            out["modules"][name] = {"skip": f"{name} imports torch at import time and torch is not installed"}
        else:
            out["modules"][name] = {"error": traceback.format_exc()}
    except BaseException:
        out["modules"][name] = {"error": traceback.format_exc()}
    else:
        out["modules"][name] = {"file": module.__file__}
out["loaded"] = {n: getattr(m, "__file__", None) for n, m in sys.modules.items() if n.partition(".")[0] == "deadinit"}
print(json.dumps(out))
"""
)
RUN_MAIN = PRELUDE + "import runpy; runpy.run_module('deadinit.gpu_check', run_name='__main__', alter_sys=True)"


def _site_dirs() -> list[str]:
    dirs = [*site.getsitepackages(), site.getusersitepackages()]
    return [d for d in dict.fromkeys(dirs) if os.path.isdir(d)]


def _inside(path, folder) -> bool:
    return Path(path).resolve().is_relative_to(Path(folder).resolve())


def _child(code: str, folder: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(folder)
    return subprocess.run(
        [sys.executable, "-S", "-B", "-c", code, json.dumps(_site_dirs()), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _import_all(folder: Path, cwd: Path, names: list[str] = GPU_CHECK) -> dict:
    out = _child(IMPORT_ALL, folder, cwd, json.dumps(names))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("payload")
    folder = tmp / "payload"
    files = payload.build(folder)
    return tmp, folder, files, _import_all(folder, tmp)


def test_the_payload_holds_gpu_check_its_imports_and_profiles(built):
    _, folder, files, _ = built
    names = {f.as_posix() for f in files}
    assert {
        "deadinit/__init__.py",
        "deadinit/gpu_check/__init__.py",
        "deadinit/gpu_check/runner.py",
        "deadinit/runtime/__init__.py",
        "deadinit/runtime/orphans.py",  # runner imports it; harness loads it by path
        "deadinit/gpu_check/profiles/sglang_mha.toml",
        "deadinit/gpu_check/profiles/sglang_mla.toml",
    } <= names
    assert sorted(p.relative_to(folder) for p in folder.rglob("*") if p.is_file()) == files
    assert not any("__pycache__" in n for n in names)
    # not the whole package: only what gpu_check reaches
    assert "deadinit/cli/__init__.py" not in names and "deadinit/fixes/driver.py" not in names


def test_the_payload_stays_in_the_layers_below_gpu_check():
    packages = {name.split(".")[1] for name in payload.needed_modules() if name.count(".")}
    assert packages - {"gpu_check"} <= BELOW


def test_the_child_sees_the_payload_and_not_the_checkout(built):
    tmp, folder, _, result = built
    assert _inside(result["deadinit"], folder), result["deadinit"]
    # no folder on the path but the payload holds a deadinit package (the checkout's root would)
    holders = [p for p in result["path"] if (Path(p or tmp) / "deadinit").exists()]
    assert [Path(p).resolve() for p in holders] == [folder.resolve()], result["path"]
    assert not any(Path(p or tmp).resolve() == REPO for p in result["path"]), result["path"]
    for name, file in result["loaded"].items():
        assert file is None or _inside(file, folder), (name, file)
    assert set(result["loaded"]) <= set(payload.needed_modules())


@pytest.mark.parametrize("name", GPU_CHECK)
def test_every_gpu_check_module_imports_from_the_payload(built, name):
    _, folder, _, result = built
    got = result["modules"][name]
    if "skip" in got:
        pytest.skip(got["skip"])
    assert "error" not in got, got["error"]
    assert _inside(got["file"], folder), got["file"]


def test_python_m_deadinit_gpu_check_runs_from_the_payload(built):
    tmp, folder, _, _ = built
    out = _child(RUN_MAIN, folder, tmp, "--help")
    assert out.returncode == 0, out.stderr
    assert "--original" in out.stdout


def test_the_old_hand_kept_layout_fails_in_the_child(tmp_path):
    """What bench/gpu_forward_pack.sh copied before (__init__.py and gpu_check/): runner cannot import."""
    folder = tmp_path / "old"
    (folder / "deadinit").mkdir(parents=True)
    shutil.copy(REPO / "deadinit/__init__.py", folder / "deadinit")
    shutil.copytree(
        REPO / "deadinit/gpu_check", folder / "deadinit/gpu_check", ignore=shutil.ignore_patterns("__pycache__")
    )
    result = _import_all(folder, tmp_path)
    assert "No module named 'deadinit.runtime'" in result["modules"]["deadinit.gpu_check.runner"]["error"]


def test_imports_are_followed_relative_lazy_and_not_under_type_checking(tmp_path):
    pkg = tmp_path / "deadinit"
    for rel, text in {
        "__init__.py": "",
        "gpu_check/__init__.py": "",
        "gpu_check/a.py": "from . import b\nfrom .b import thing\n",
        "gpu_check/b.py": "def f():\n    from ..model import x  # lazy\n    import deadinit.index.y\n",
        "gpu_check/sub/__init__.py": "from ...runtime.z import w\n",
        "gpu_check/profiles/p.toml": "",
        "model/__init__.py": "",
        "model/x.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from deadinit.fixes import q\n",
        "index/__init__.py": "",
        "index/y.py": "",
        "runtime/__init__.py": "",
        "runtime/z.py": "",
        "fixes/__init__.py": "",
        "fixes/q.py": "",
    }.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text)
    assert payload.needed_modules(tmp_path) == [
        "deadinit",
        "deadinit.gpu_check",
        "deadinit.gpu_check.a",
        "deadinit.gpu_check.b",
        "deadinit.gpu_check.sub",
        "deadinit.index",
        "deadinit.index.y",
        "deadinit.model",
        "deadinit.model.x",
        "deadinit.runtime",
        "deadinit.runtime.z",
    ]
    assert [p.as_posix() for p in payload.data_files(tmp_path)] == ["deadinit/gpu_check/profiles/p.toml"]
    (pkg / "gpu_check/b.py").write_text("import deadinit.missing\n")
    with pytest.raises(payload.PayloadError, match=r"deadinit\.missing"):
        payload.needed_modules(tmp_path)


def test_build_refuses_a_folder_that_has_deadinit_already(tmp_path):
    (tmp_path / "deadinit").mkdir()
    with pytest.raises(payload.PayloadError, match="already exists"):
        payload.build(tmp_path)


def test_a_module_that_imports_torch_is_skipped_where_torch_is_missing(tmp_path):
    folder = tmp_path / "payload"
    payload.build(folder)
    (folder / "deadinit/gpu_check/needs_torch.py").write_text("import torch\n")
    got = _import_all(folder, tmp_path, ["deadinit.gpu_check.needs_torch"])["modules"]["deadinit.gpu_check.needs_torch"]
    if "file" in got:  # torch is installed here
        assert _inside(got["file"], folder)
    else:
        assert got == {"skip": "deadinit.gpu_check.needs_torch imports torch at import time and torch is not installed"}
