"""The command line only wires options to the session's public face (``deadinit.api``) and formats
(``deadinit.report``, click, rich): it reaches no stage of the run itself."""

import ast
import sys
from pathlib import Path

import deadinit.cli

CLI = Path(deadinit.cli.__file__).parent
FACES = ("deadinit.api", "deadinit.report", "deadinit.cli")
THIRD_PARTY = {"click", "rich"}
# ``fix --pr-body`` writes the GPU check's pull-request body: gpu_check sits above api, below cli
ABOVE_THE_FACE = {"deadinit.gpu_check.pr_body"}


def _imports(path: Path) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}:{node.lineno}: a relative import"
            if node.module == "deadinit":
                out += [(node.lineno, f"deadinit.{a.name}") for a in node.names]
            elif node.module:
                out.append((node.lineno, node.module))
    return out


def _allowed(name: str) -> bool:
    top = name.split(".")[0]
    if top in sys.stdlib_module_names or top in THIRD_PARTY or name == "__future__":
        return True
    if name == "deadinit.__version__" or name in ABOVE_THE_FACE:
        return True
    return any(name == face or name.startswith(face + ".") for face in FACES)


def test_cli_imports_only_the_public_face_the_reporters_and_click():
    files = sorted(CLI.glob("*.py"))
    assert len(files) > 10
    wrong = [f"{p.name}:{line}: {name}" for p in files for line, name in _imports(p) if not _allowed(name)]
    assert wrong == []


def test_the_check_catches_a_stage_imported_directly():
    assert not _allowed("deadinit.session.run")
    assert not _allowed("deadinit.rules.registry")
    assert not _allowed("deadinit.runtime.summarizer")
    assert _allowed("deadinit.api.project") and _allowed("deadinit.report.text")
