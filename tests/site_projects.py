"""A small project whose construction sites and exports the variant-sites tests resolve, and how
they rewrite it."""

from deadinit.analysis.liveness.variant_sites import Resolved
from deadinit.analysis.reads.exports import export_parts
from deadinit.analysis.reads.external import ExternalReads
from deadinit.api.check import summarize
from deadinit.frontends.parse import summarize_source
from deadinit.index.project_index import ProjectIndex
from deadinit.model.settings import Settings

PROJECT = {
    "pkg/__init__.py": "from pkg.b import Holder\n",
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
from pkg.b import B as Again

h = Holder()
a = A()
b = Again()

__all__ = ["Again", "a"]
""",
}
HOLDER = PROJECT["pkg/b.py"]

SAME_NAMES = HOLDER.replace(
    "        self.a = A()\n",
    "        self.first = Holder()\n        self.a = A()\n        if self.a:\n            self.again = B()\n",
)


def sites_after(root, rewrites: dict[str, str]):
    """(the project's index, its complete sites and exports with their visits, the rewritten index,
    the rewritten modules)."""
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
    return before, Resolved((ext.site_refs, ext.site_visits), export_parts(before)), ProjectIndex(after), changed


def resolved(index: ProjectIndex) -> Resolved:
    """The sites and exports resolving every construction and exported name gives, with the modules
    each module's resolution visited."""
    ext = ExternalReads(index)
    ext.construct_sites()
    return Resolved((ext.site_refs, ext.site_visits), export_parts(index))
