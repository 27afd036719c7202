"""Name resolution across modules, and the modules a resolution visits: each module whose names it
looked up, so that one whose visited modules bind what they bound resolves as it did."""

import pytest

from deadinit.api.check import summarize
from deadinit.index.project_index import ProjectIndex
from deadinit.model.settings import Settings

PROJECT = {
    "pkg/__init__.py": "from pkg.a import A as Exported\n",
    "pkg/a.py": "class A:\n    class Inner:\n        pass\n",
    "pkg/b.py": "from pkg.a import A\n",
    "pkg/c.py": "from pkg.b import A as X\nimport pkg.a\nfrom pkg import *\nAlias = X\n",
    "pkg/d.py": "from .c import Alias\n",
}


@pytest.fixture
def index(write_project) -> ProjectIndex:
    summaries, errors, _ = summarize([str(write_project(PROJECT))], Settings())
    assert not errors
    return ProjectIndex(summaries)


@pytest.mark.parametrize(
    ("module", "dotted", "built", "visited"),
    [
        ("pkg.c", "X", "pkg.a.A", {"pkg.c", "pkg.b", "pkg.a"}),  # through a re-export
        ("pkg.c", "pkg.a.A", "pkg.a.A", {"pkg.c", "pkg", "pkg.a"}),  # a module's attribute
        ("pkg.c", "X.Inner", "pkg.a.A.Inner", {"pkg.c", "pkg.b", "pkg.a", "pkg.a.A"}),  # a nested class
        ("pkg.c", "Exported", "pkg.a.A", {"pkg.c", "pkg", "pkg.a"}),  # a star import
        # a relative import of an alias, looked for in the star import first
        ("pkg.d", "Alias", "pkg.a.A", {"pkg.d", "pkg.c", "pkg", "pkg.b", "pkg.a"}),
        ("pkg.c", "Missing", None, {"pkg.c", "pkg"}),  # not bound: every module that could bind it
    ],
)
def test_a_resolution_visits_every_module_whose_names_it_looked_up(index, module, dotted, built, visited):
    visits: set[str] = set()
    assert index.resolve_visiting(module, dotted, visits) == built == index.resolve(module, dotted)
    assert visits == visited


def test_a_plain_resolution_records_no_visits(index):
    visits: set[str] = set()
    index.resolve_visiting("pkg.c", "X", visits)
    index.resolve("pkg.d", "Alias")
    assert "pkg.d" not in visits
