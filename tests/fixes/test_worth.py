"""A fix adds a parameter to a parent's ``__init__``: a plain fix makes it only when it is worth
that (``analysis.fix_safety.worth``, the ``fix-min-bytes`` setting). Each case is a module of
``tests/fixes/worth/``; the rewritten file, where there is one, is compared byte for byte with
``<case>.out.py``.

Regenerate with ``DEADINIT_UPDATE_GOLDEN=1 pytest tests/fixes/test_worth.py`` and read the diff.
"""

import dataclasses
import os
import shutil
from pathlib import Path

import pytest

from deadinit.api.check import run_check
from deadinit.fixes.driver import run_fix
from deadinit.model.fix import FixOptions
from deadinit.model.kinds import RefusalKind
from deadinit.model.settings import Settings

CASES = Path(__file__).resolve().parent / "worth"


def _fix(name: str, tmp_path: Path, **settings):
    src = tmp_path / f"{name}.py"
    shutil.copy(CASES / f"{name}.py", src)
    chosen = dataclasses.replace(Settings(), **settings)
    result = run_check([str(tmp_path)], settings=chosen)
    return result, run_fix(result, "skip-flag", FixOptions(settings=chosen)), src


def _expect(src: Path, name: str) -> None:
    expected = CASES / f"{name}.out.py"
    if os.environ.get("DEADINIT_UPDATE_GOLDEN"):
        expected.write_text(src.read_text())
        pytest.skip("expected file rewritten")
    assert src.read_text() == expected.read_text()


def test_a_small_saving_is_reported_and_left_with_the_reason(tmp_path):
    result, out, src = _fix("small_tensor", tmp_path)
    (f,) = [f for f in result.findings if f.attribute]  # DI003 restates the class's waste
    assert f.fix_safety == "safe" and f.verdict.deferred
    assert f.fix_text == (
        "fix not applied by default: it saves 1 KiB per instance, below fix-min-bytes (4 KiB): not worth a new "
        "parameter of Table.__init__; set fix-min-bytes = 0 to apply it"
    )
    assert out.written == [] and src.read_bytes() == (CASES / "small_tensor.py").read_bytes()
    (r,) = out.refusals
    assert r.kind == RefusalKind.NOT_WORTH_IT and r.reason == f.fix_text  # fix says what check says


def test_fix_min_bytes_zero_makes_every_safe_fix(tmp_path):
    _result, out, src = _fix("small_tensor", tmp_path, fix_min_bytes=0)
    assert out.written == [str(src)]
    _expect(src, "small_tensor")


def test_what_holds_nothing_is_no_finding(tmp_path):
    result, out, _src = _fix("holds_nothing", tmp_path)
    assert result.findings == [] and out.written == []  # an activation, a dropout: nothing is wasted


def test_a_small_allocation_rides_along_with_a_large_one(tmp_path):
    result, out, src = _fix("rides_along", tmp_path)
    found = [f for f in result.findings if f.attribute]
    assert {f.attribute for f in found} == {"workspace", "lens"}
    assert not any(f.verdict.deferred for f in found)  # one flag skips both: 1 MiB is worth it
    assert out.written == [str(src)]
    _expect(src, "rides_along")
