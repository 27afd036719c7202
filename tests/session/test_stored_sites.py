"""The construction sites and exports of a ``check`` after an edit, from the tables the last run
stored: those resolving every construction and exported name gives."""

import pytest
from site_projects import HOLDER, PROJECT, SAME_NAMES, resolved, sites_after

from deadinit.analysis.reads.external import ExternalReads
from deadinit.index.lazy_tables import bound_digest
from deadinit.index.project_index import ProjectIndex
from deadinit.session import stored_sites as stored_sites_module
from deadinit.session.analysis_state import StoredTables
from deadinit.session.incremental import summary_fingerprint
from deadinit.session.stored_sites import stored_resolved, stored_tables


def fingerprints_of(index: ProjectIndex) -> dict[str, str]:
    """Path -> a fingerprint of its summary (as ``session.incremental.summary_fingerprint``)."""
    return {s.path: summary_fingerprint(s) for s in index.modules.data.values()}


def stored_before(before: ProjectIndex, was) -> StoredTables:
    ext = ExternalReads(before)
    ext.install_sites(*was.sites)
    return stored_tables("inputs", before, ext, was.exports, fingerprints_of(before), None)


def test_stored_sites_after_an_edit_binding_the_same_names_are_the_resolved_ones(write_project):
    before, was, after, _ = sites_after(write_project(PROJECT), {"pkg/b.py": SAME_NAMES})
    stored = stored_before(before, was)
    got = stored_resolved(stored, after, fingerprints_of(after))
    expected = resolved(after)
    assert got == expected and list(got.sites[0]) == list(expected.sites[0])
    assert stored_resolved(stored, before, fingerprints_of(before)) == was  # nothing changed: the stored ones


@pytest.mark.parametrize(
    ("rel", "text"),
    [
        ("pkg/b.py", "import sys\n" + HOLDER),
        ("pkg/b.py", HOLDER.replace("from pkg.a import A, B", "from pkg.a import A\nfrom pkg.a import A as B")),
        ("pkg/a.py", PROJECT["pkg/a.py"] + "\n\nB = A\n"),
    ],
    ids=["import", "rebound", "constant"],
)
def test_stored_sites_after_an_edit_binding_other_names_are_the_resolved_ones(write_project, rel, text):
    before, was, after, _ = sites_after(write_project(PROJECT), {rel: text})
    got = stored_resolved(stored_before(before, was), after, fingerprints_of(after))
    expected = resolved(after)
    assert got == expected and list(got.sites[0]) == list(expected.sites[0])


def test_stored_sites_need_the_same_modules_and_every_fingerprint(write_project):
    before, was, _, _ = sites_after(write_project(PROJECT), {})
    stored = stored_before(before, was)
    fewer = ProjectIndex([s for s in before.modules.data.values() if s.module != "pkg.c"])
    assert stored_resolved(stored, fewer, fingerprints_of(fewer)) is None
    partial = fingerprints_of(before)
    partial.pop(next(iter(partial)))
    assert stored_resolved(stored, before, partial) is None
    assert stored_resolved(None, before, fingerprints_of(before)) is None


def test_stored_tables_keep_the_bound_digests_of_unchanged_modules(write_project, monkeypatch):
    before, was, after, _ = sites_after(write_project(PROJECT), {"pkg/b.py": SAME_NAMES})
    stored = stored_before(before, was)
    assert stored.bound == tuple(bound_digest(s) for s in before.modules.data.values())
    digested = []
    monkeypatch.setattr(stored_sites_module, "bound_digest", lambda s: digested.append(s.module) or bound_digest(s))
    ext = ExternalReads(after)
    again = stored_tables("inputs", after, ext, resolved(after).exports, fingerprints_of(after), stored)
    assert digested == ["pkg.b"] and again.bound == stored.bound  # the same names bound
    assert ((again.sites, again.visits), (again.exports, again.export_visits)) == resolved(after)
    assert again.modules == stored.modules
