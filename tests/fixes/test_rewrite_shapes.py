"""Each rewrite shape of skip-flag on a small module written for it, compared byte for byte with
the expected file (``tests/fixes/shapes/<shape>.out.py``).

Regenerate with ``DEADINIT_UPDATE_GOLDEN=1 pytest tests/fixes/test_rewrite_shapes.py`` and read the diff.
"""

import os
import shutil
from pathlib import Path

import pytest
from rewritten_syntax import guard_problems

from deadinit.api.check import run_check
from deadinit.fixes.driver import run_fix
from deadinit.model.fix import FixOptions

SHAPES = Path(__file__).resolve().parent / "shapes"
REPO = SHAPES.parent.parent.parent
OPTIONS = {"flag_name": FixOptions(flag_name="skip_sampling_scratch")}
NAMES = sorted(p.name[: -len(".py")] for p in SHAPES.glob("*.py") if not p.name.endswith(".out.py"))


def rewrite(name: str, tmp_path: Path) -> str:
    src = tmp_path / f"{name}.py"
    shutil.copy(SHAPES / f"{name}.py", src)
    out = run_fix(run_check([str(tmp_path)]), "skip-flag", OPTIONS.get(name, FixOptions()))
    assert out.error is None and not out.rejected, [r.reason for r in out.rejected]
    assert out.written == [str(src)], [r.reason for r in out.refusals]
    assert not out.remaining(), [f.key for f in out.remaining()]
    return src.read_text()


@pytest.mark.parametrize("name", NAMES)
def test_rewrite_shape(name, tmp_path):
    got = rewrite(name, tmp_path)
    expected = SHAPES / f"{name}.out.py"
    if os.environ.get("DEADINIT_UPDATE_GOLDEN"):
        expected.write_text(got)
        pytest.skip("expected file rewritten")
    assert got == expected.read_text()


def test_every_shape_has_its_expected_file():
    assert NAMES and all((SHAPES / f"{n}.out.py").exists() for n in NAMES)


def test_plain_fix_of_the_fixtures_has_no_empty_or_identical_guard():
    out = run_fix(run_check([str(REPO / "fixtures")]), "skip-flag", FixOptions(), write=False)
    flags = {c.flag for c in out.plan.changes if c.flag}
    assert out.plan.files and flags
    assert [p for fp in out.plan.files for p in guard_problems(fp.path, fp.new, flags)] == []
