"""The construction sites and exports of a project with a few modules rewritten, taken from the
project's own, are those resolving every construction and exported name gives, in order: the
rewritten modules' and those whose resolution visited a module that binds other names are resolved
again."""

import pytest
from site_projects import HOLDER, PROJECT, SAME_NAMES, resolved, sites_after

from deadinit.analysis.liveness import variant_sites as variant_sites_module
from deadinit.analysis.liveness.variant_sites import Resolved, variant_resolved
from deadinit.analysis.reads import exports as exports_module
from deadinit.index.project_index import ProjectIndex


@pytest.fixture
def redone(monkeypatch) -> dict[str, list[str]]:
    """The modules whose constructions ("sites") and exports ("exports") are resolved again, from here on."""
    seen: dict[str, list[str]] = {"sites": [], "exports": []}
    resolve_sites, resolve_exports = variant_sites_module.module_sites, exports_module.module_exports

    def sites_counted(index, module, constructs):
        seen["sites"].append(module)
        return resolve_sites(index, module, constructs)

    def exports_counted(index, module, s, visits):
        seen["exports"].append(module)
        return resolve_exports(index, module, s, visits)

    monkeypatch.setattr(variant_sites_module, "module_sites", sites_counted)
    monkeypatch.setattr(exports_module, "module_exports", exports_counted)
    return seen


def _forget(redone: dict[str, list[str]]) -> None:
    """Count from here: the expected resolutions resolved every module."""
    for seen in redone.values():
        seen.clear()


def _same(got: Resolved | None, expected: Resolved) -> None:
    assert got == expected
    assert list(got.sites[0]) == list(expected.sites[0])  # the classes in the same order


def test_a_rewrite_binding_the_same_names_keeps_the_other_modules_resolutions(write_project, redone):
    before, was, after, changed = sites_after(write_project(PROJECT), {"pkg/b.py": SAME_NAMES})
    expected = resolved(after)
    _forget(redone)
    _same(variant_resolved(before, was, after, changed), expected)
    assert next(iter(expected.sites[0])) == "pkg.b.Holder" and next(iter(was.sites[0])) == "pkg.a.A"  # moved ahead
    assert redone == {"sites": ["pkg.b"], "exports": ["pkg.b"]}


@pytest.mark.parametrize(
    ("rel", "text", "sites", "exports"),
    [
        ("pkg/b.py", "import sys\n" + HOLDER, ["pkg.b", "pkg.c"], ["pkg", "pkg.b", "pkg.c"]),
        (
            "pkg/b.py",
            HOLDER.replace("from pkg.a import A, B", "from pkg.a import A, B as A2, B"),
            ["pkg.b", "pkg.c"],
            ["pkg", "pkg.b", "pkg.c"],
        ),
        (
            "pkg/b.py",
            HOLDER.replace("from pkg.a import A, B", "from pkg.a import A\nfrom pkg.a import A as B"),
            ["pkg.b", "pkg.c"],
            ["pkg", "pkg.b", "pkg.c"],
        ),
        (
            "pkg/a.py",
            PROJECT["pkg/a.py"] + "\n\nclass C(A):\n    pass\n",
            ["pkg.a", "pkg.b", "pkg.c"],
            ["pkg.a", "pkg.c"],
        ),
        ("pkg/a.py", PROJECT["pkg/a.py"] + "\n\nB = A\n", ["pkg.a", "pkg.b", "pkg.c"], ["pkg.a", "pkg.c"]),
    ],
    ids=["import", "alias", "rebound", "class", "constant"],
)
def test_a_rewrite_binding_other_names_resolves_the_modules_that_looked_it_up(
    write_project, redone, rel, text, sites, exports
):
    """The package's re-export looked pkg.b up, not pkg.a; pkg.c's ``__all__`` both."""
    before, was, after, changed = sites_after(write_project(PROJECT), {rel: text})
    expected = resolved(after)
    _forget(redone)
    _same(variant_resolved(before, was, after, changed), expected)
    assert redone == {"sites": sites, "exports": exports}


def test_a_name_rebound_elsewhere_builds_and_exports_another_class(write_project):
    rebound = HOLDER.replace("from pkg.a import A, B", "from pkg.a import A\nfrom pkg.a import A as B")
    before, was, after, changed = sites_after(write_project(PROJECT), {"pkg/b.py": rebound})
    got = variant_resolved(before, was, after, changed)
    assert got is not None
    built_in_c = (3, 2, 7)  # ``Again()`` in pkg.c: module number, construction number, line
    assert built_in_c in was.sites[0]["pkg.a.B"] and built_in_c in got.sites[0]["pkg.a.A"]
    assert ("pkg.a.B", "pkg.c.__all__") in was.exports[0][3] and ("pkg.a.A", "pkg.c.__all__") in got.exports[0][3]


def test_exports_unknown_before_stay_unknown(write_project, redone):
    before, was, after, changed = sites_after(write_project(PROJECT), {"pkg/b.py": SAME_NAMES})
    _forget(redone)
    got = variant_resolved(before, Resolved(was.sites), after, changed)
    assert redone["exports"] == []
    assert got is not None and got.exports is None and got.sites == resolved(after).sites


def test_other_modules_are_not_a_variant(write_project):
    before, was, _, _ = sites_after(write_project(PROJECT), {})
    fewer = ProjectIndex([s for s in before.modules.data.values() if s.module != "pkg.c"])
    assert variant_resolved(before, was, fewer, set()) is None
    assert variant_resolved(before, was, before, set()) == was
