"""The construction sites of a project with a few modules rewritten, taken from the project's own
where the rewrite binds the same names, are those resolving every construction gives, in order."""

import pytest

from deadinit.analysis.external import ExternalReads
from deadinit.analysis.variant_sites import variant_sites
from deadinit.api.check import summarize
from deadinit.frontends.parse import summarize_source
from deadinit.index.project_index import ProjectIndex
from deadinit.model.settings import Settings

PROJECT = {
    "pkg/__init__.py": "",
    "pkg/a.py": """class A:
    def __init__(self):
        self.x = 1


class B(A):
    pass
""",
    "pkg/b.py": """from pkg.a import A, B


class Holder:
    def __init__(self):
        self.a = A()
        self.b = B()


import os  # after the class: an edit above it moves its line
""",
    "pkg/c.py": """from pkg.a import A
from pkg.b import Holder

h = Holder()
a = A()
""",
}
HOLDER = PROJECT["pkg/b.py"]

SAME_NAMES = HOLDER.replace(
    "        self.a = A()\n",
    "        self.first = Holder()\n        self.a = A()\n        if self.a:\n            self.again = B()\n",
)


def sites_after(root, rewrites: dict[str, str]):
    """(the project's index and complete sites, the rewritten index, the rewritten modules)."""
    settings = Settings()
    summaries, errors, _ = summarize([str(root)], settings)
    assert not errors
    before = ProjectIndex(summaries)
    ext = ExternalReads(before)
    ext.construct_sites()
    paths = {str(root / rel): text for rel, text in rewrites.items()}
    after = [
        summarize_source(paths[s.path].encode(), s.path, s.module, s.is_package, settings) if s.path in paths else s
        for s in summaries
    ]
    changed = {s.module for s in after if s.path in paths}
    return before, ext.site_refs, ProjectIndex(after), changed


def resolved(index: ProjectIndex) -> dict:
    ext = ExternalReads(index)
    ext.construct_sites()
    return ext.site_refs


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
