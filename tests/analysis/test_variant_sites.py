"""The construction sites of a project with a few modules rewritten, taken from the project's own
where the rewrite binds the same names, are those resolving every construction gives, in order."""

import pytest
from site_projects import HOLDER, PROJECT, SAME_NAMES, resolved, sites_after

from deadinit.analysis.variant_sites import variant_sites
from deadinit.index.project_index import ProjectIndex


def test_a_rewrite_binding_the_same_names_keeps_the_other_modules_sites(write_project):
    before, refs, after, changed = sites_after(write_project(PROJECT), {"pkg/b.py": SAME_NAMES})
    got = variant_sites(before, refs, after, changed)
    expected = resolved(after)
    assert got == expected and list(got) == list(expected)  # the same sites, the classes in the same order
    assert next(iter(expected)) == "pkg.b.Holder" and next(iter(refs)) == "pkg.a.A"  # its first site moved ahead


@pytest.mark.parametrize(
    ("rel", "text"),
    [
        ("pkg/b.py", "import sys\n" + HOLDER),
        ("pkg/b.py", HOLDER.replace("from pkg.a import A, B", "from pkg.a import A, B as A2, B")),
        ("pkg/a.py", PROJECT["pkg/a.py"] + "\n\nclass C(A):\n    pass\n"),
        ("pkg/a.py", PROJECT["pkg/a.py"] + "\n\nB = A\n"),
    ],
    ids=["import", "alias", "class", "constant"],
)
def test_a_rewrite_binding_other_names_resolves_every_construction(write_project, rel, text):
    before, refs, after, changed = sites_after(write_project(PROJECT), {rel: text})
    assert variant_sites(before, refs, after, changed) is None


def test_other_modules_are_not_a_variant(write_project):
    before, refs, _, _ = sites_after(write_project(PROJECT), {})
    fewer = ProjectIndex([s for s in before.modules.data.values() if s.module != "pkg.c"])
    assert variant_sites(before, refs, fewer, set()) is None
    assert variant_sites(before, refs, before, set()) == refs
