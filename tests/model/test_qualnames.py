"""The short form of a qualified name, and that every layer takes it from one place."""

from __future__ import annotations

import re
from pathlib import Path

from deadinit.model.qualnames import short_name

PACKAGE = Path(__file__).resolve().parents[2] / "deadinit"


def test_the_short_name_is_the_last_dotted_part() -> None:
    assert short_name("torch.nn.Linear") == "Linear"
    assert short_name("pkg.mod.Outer.Inner") == "Inner"
    assert short_name("Linear") == "Linear"
    assert short_name("") == ""


def test_no_module_spells_its_own_short_name() -> None:
    own = re.compile(r"^def (short|short_name)\(qualname: str\)")
    hits = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "qualnames.py" and any(own.match(line) for line in path.read_text().splitlines())
    ]
    assert hits == []
