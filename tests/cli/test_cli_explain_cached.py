"""`explain` after `check`: it installs the subclass table and the construction sites `check`
stored while its summaries are the ones they were built from (``api.check.index_project``), builds
them otherwise, and prints what it prints without the cache either way."""

import pytest
from sample_project import invoke, sample

from deadinit.analysis.reads.external import ExternalReads
from deadinit.index.project_index import ProjectIndex

QUIET = "class A:\n    pass\n\n\nclass B(A):\n    pass\n"
EXPLAINED = [["Child"], ["pkg.base.Parent", "--verbose"], ["B"]]


@pytest.fixture
def tables(monkeypatch) -> dict[str, int]:
    """How often, from here on, the subclass table and the construction sites are built, and
    stored ones installed."""
    seen = {"built": 0, "installed": 0, "sites_built": 0, "sites_installed": 0}
    build, install = ProjectIndex.subclass_table, ProjectIndex.install_subclasses
    sites, install_sites = ExternalReads.construct_sites, ExternalReads.install_sites

    def built(self):
        seen["built"] += 1
        return build(self)

    def installed(self, table):
        seen["installed"] += 1
        return install(self, table)

    def sites_built(self):
        seen["sites_built"] += self._sites is None
        return sites(self)

    def sites_installed(self, refs, visits):
        seen["sites_installed"] += 1
        return install_sites(self, refs, visits)

    monkeypatch.setattr(ProjectIndex, "subclass_table", built)
    monkeypatch.setattr(ProjectIndex, "install_subclasses", installed)
    monkeypatch.setattr(ExternalReads, "construct_sites", sites_built)
    monkeypatch.setattr(ExternalReads, "install_sites", sites_installed)
    return seen


NONE_BUILT = {"built": 0, "installed": 1, "sites_built": 0, "sites_installed": 1}
ALL_BUILT = {"built": 1, "installed": 0, "sites_built": 1, "sites_installed": 0}


def _reset(tables: dict[str, int]) -> None:
    for k in tables:
        tables[k] = 0


@pytest.fixture
def project(write_project, tmp_path_factory):
    root = write_project(sample(extra={"pkg/quiet.py": QUIET}))
    return root, tmp_path_factory.mktemp("cache")


def _check(root, cache) -> None:
    res = invoke(["check", ".", "--cache-dir", cache, "--format", "concise"], cwd=root)
    assert res.exit_code == 1, res.stderr


def _explain(root, cache, args):
    return invoke(["explain", *args, ".", "--cache-dir", cache, "--color", "never"], cwd=root)


def _uncached(root, args):
    return invoke(["explain", *args, ".", "--no-cache", "--color", "never"], cwd=root)


def _same(got, want) -> None:
    assert (got.exit_code, got.stdout, got.stderr) == (want.exit_code, want.stdout, want.stderr)


@pytest.mark.parametrize("args", EXPLAINED)
def test_after_a_check_the_stored_table_is_installed_and_nothing_is_built(project, tables, args):
    root, cache = project
    _check(root, cache)
    _reset(tables)
    got = _explain(root, cache, args)
    assert tables == NONE_BUILT
    _same(got, _uncached(root, args))


@pytest.mark.parametrize("args", EXPLAINED)
def test_after_a_base_changed_the_stored_table_is_not_used(project, tables, args):
    root, cache = project
    _check(root, cache)
    quiet = root / "pkg/quiet.py"
    quiet.write_text(quiet.read_text().replace("class B(A):", "class B:") + "\n\nclass C(B):\n    pass\n")
    _reset(tables)
    got = _explain(root, cache, args)
    # the subclass table is not installed; the sites are the stored ones, the edited module's resolved again
    assert (tables["installed"], tables["sites_built"], tables["sites_installed"]) == (0, 0, 1)
    _same(got, _uncached(root, args))
    _check(root, cache)  # the next check stores the new tables
    _reset(tables)
    _same(_explain(root, cache, args), got)
    assert tables == NONE_BUILT


def test_explain_reads_the_stored_tables_and_writes_none(project, tables):
    root, cache = project
    got = _explain(root, cache, ["Child"])  # a cold cache: nothing stored
    assert tables == ALL_BUILT
    assert not list(cache.glob("state/*.tables"))
    _same(got, _uncached(root, ["Child"]))


def test_a_damaged_tables_file_is_no_tables(project, tables):
    root, cache = project
    _check(root, cache)
    (stored,) = cache.glob("state/*.tables")
    stored.write_bytes(stored.read_bytes()[:-8])
    _reset(tables)
    got = _explain(root, cache, ["Child"])
    assert tables == ALL_BUILT
    _same(got, _uncached(root, ["Child"]))
