"""The construction sites of a project with a few modules rewritten, taken from the project's own,
are those resolving every construction gives, in order: the rewritten modules' constructions and
those whose resolution visited a module that binds other names are resolved again."""

import pytest
from site_projects import HOLDER, PROJECT, SAME_NAMES, resolved, sites_after

from deadinit.analysis import variant_sites as variant_sites_module
from deadinit.analysis.variant_sites import variant_sites
from deadinit.index.project_index import ProjectIndex


@pytest.fixture
def redone(monkeypatch) -> list[str]:
    """The modules whose constructions are resolved again, from here on."""
    seen: list[str] = []
    resolve = variant_sites_module.module_sites

    def counted(index, module, constructs):
        seen.append(module)
        return resolve(index, module, constructs)

    monkeypatch.setattr(variant_sites_module, "module_sites", counted)
    return seen


def test_a_rewrite_binding_the_same_names_keeps_the_other_modules_sites(write_project, redone):
    before, sites, after, changed = sites_after(write_project(PROJECT), {"pkg/b.py": SAME_NAMES})
    got = variant_sites(before, sites, after, changed)
    expected = resolved(after)
    assert got == expected and list(got[0]) == list(expected[0])  # the same sites, the classes in the same order
    assert next(iter(expected[0])) == "pkg.b.Holder" and next(iter(sites[0])) == "pkg.a.A"  # its first site moved ahead
    assert redone == ["pkg.b"]


@pytest.mark.parametrize(
    ("rel", "text", "again"),
    [
        ("pkg/b.py", "import sys\n" + HOLDER, ["pkg.b", "pkg.c"]),
        ("pkg/b.py", HOLDER.replace("from pkg.a import A, B", "from pkg.a import A, B as A2, B"), ["pkg.b", "pkg.c"]),
        ("pkg/b.py", HOLDER.replace("from pkg.a import A, B", "from pkg.a import A\nfrom pkg.a import A as B"), None),
        ("pkg/a.py", PROJECT["pkg/a.py"] + "\n\nclass C(A):\n    pass\n", ["pkg.a", "pkg.b", "pkg.c"]),
        ("pkg/a.py", PROJECT["pkg/a.py"] + "\n\nB = A\n", ["pkg.a", "pkg.b", "pkg.c"]),
    ],
    ids=["import", "alias", "rebound", "class", "constant"],
)
def test_a_rewrite_binding_other_names_resolves_the_modules_that_looked_it_up(write_project, redone, rel, text, again):
    before, sites, after, changed = sites_after(write_project(PROJECT), {rel: text})
    got = variant_sites(before, sites, after, changed)
    expected = resolved(after)
    assert got == expected and list(got[0]) == list(expected[0])
    if again is not None:
        assert redone == again
    else:  # ``Again`` in pkg.c now builds pkg.a.A, looked up through pkg.b
        built_in_c = (3, 2, 7)  # module number, construction number, line
        assert built_in_c in expected[0]["pkg.a.A"] and built_in_c in sites[0]["pkg.a.B"]
        assert redone == ["pkg.b", "pkg.c"]


def test_other_modules_are_not_a_variant(write_project):
    before, sites, _, _ = sites_after(write_project(PROJECT), {})
    fewer = ProjectIndex([s for s in before.modules.data.values() if s.module != "pkg.c"])
    assert variant_sites(before, sites, fewer, set()) is None
    assert variant_sites(before, sites, before, set()) == sites
