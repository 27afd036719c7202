"""``ExternalReads.install_sites``: the construction sites a run over the same summaries numbered
(``site_refs``) give the tables resolving every construction's callee gives, in the same order,
down to the analyzer's ``sites`` and ``sites_at``."""

from pathlib import Path

from deadinit.api.check import index_project

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _tables(analyzer) -> tuple:
    ext = analyzer.ext
    sites = ext.construct_sites().data
    return (
        list(sites.items()),
        list(ext.site_paths.items()),
        list(analyzer.sites.data.items()),
        list(analyzer.sites_at.data.items()),
    )


def test_installed_sites_are_the_resolved_ones():
    built = index_project([str(FIXTURES)], summarizer=None)
    refs = built.analyzer.ext.construct_sites() and built.analyzer.ext.site_refs
    assert refs and sum(map(len, refs.values())) > 20
    again = index_project([str(FIXTURES)], summarizer=None)
    # the same summaries: the second index's constructions, numbered as in the first
    again.analyzer.ext.install_sites(refs, built.analyzer.ext.site_visits)
    assert _tables(again.analyzer) == _tables(built.analyzer)
    modules = list(again.index.modules.data.values())  # the second index's own constructions
    for qn, sites in again.analyzer.ext.construct_sites().data.items():
        assert all(c is modules[m].constructs[i] for c, (m, i, _) in zip(sites, refs[qn], strict=True))
        assert [line for _, _, line in refs[qn]] == [c.line for c in sites]
