"""fixtures/layers against the stand-in layer library (fixtures/EXPECTED.md, table L): without it
the summary names the calls left unanalysed; with it, on a configured path or installed in the
active virtual environment, what its builders and classes make counts."""

import sys

from corpus_paths import FIXTURES
from layer_site import SITE

from deadinit.api.check import run_check
from deadinit.installed import environment
from deadinit.model.kinds import LibraryStatus
from deadinit.model.result import Unanalysed
from deadinit.model.settings import Settings
from deadinit.report.text import unanalysed_clause

LAYERS = str(FIXTURES / "layers")
WITH_LIBRARY = {  # (attribute, kind): DI001 on WideBottleneck, parent Bottleneck
    ("stem", "module"),
    ("conv1", "module"),
    ("norm1", "module"),
    ("conv2", "module"),
    ("conv3", "module"),
    ("planner", "object"),
    ("head", "module"),
}
WITHOUT_LIBRARY = {("tiles", "wrapper")}  # the heavy-class pattern, the fallback for an unread class


def found(result) -> set[tuple[str, str]]:
    assert {(f.code, f.cls.rsplit(".", 1)[-1], f.parent.rsplit(".", 1)[-1]) for f in result.findings} <= {
        ("DI001", "WideBottleneck", "Bottleneck")
    }
    return {(f.attribute, f.kind) for f in result.findings}


def test_without_the_library_the_summary_names_the_unanalysed_calls():
    result = run_check([LAYERS], Settings(installed_packages=False))
    assert found(result) == WITHOUT_LIBRARY
    assert result.unanalysed == [Unanalysed("layerlib", 17, 3, LibraryStatus.MISSING)]
    assert unanalysed_clause(result.unanalysed) == (
        "; 17 calls into `layerlib` and 3 base classes from `layerlib` were not analysed (not installed here)"
    )


def test_on_a_configured_path_the_findings_appear():
    result = run_check([LAYERS], Settings(installed_packages=False, library_paths=(str(SITE),)))
    assert found(result) == WITH_LIBRARY
    assert result.unanalysed == []
    assert "layerlib" not in sys.modules  # read, never imported


def test_installed_in_the_active_virtual_environment(venv, monkeypatch, tmp_path):
    monkeypatch.setenv("VIRTUAL_ENV", str(venv))
    result = run_check([LAYERS], Settings())
    assert found(result) == WITH_LIBRARY
    groups = [p.name for p in (tmp_path / "xdg" / "deadinit" / "installed").iterdir()]
    assert [g.rsplit("-", 1)[0] for g in groups] == ["layerlib-1.0"]  # kept per distribution and version


def test_a_warm_run_reads_the_summaries_kept_for_the_distribution(venv, monkeypatch):
    monkeypatch.setenv("VIRTUAL_ENV", str(venv))
    run_check([LAYERS], Settings())
    cold = next(iter(environment._indexes.values())).store.stats
    assert cold["summarised"] > 0 and cold["read"] == 0
    environment._indexes.clear()  # a new process
    result = run_check([LAYERS], Settings())
    warm = next(iter(environment._indexes.values())).store.stats
    assert warm == {"read": cold["summarised"], "summarised": 0}
    assert found(result) == WITH_LIBRARY


def test_an_edited_library_file_is_read_again(tmp_path, monkeypatch):
    import shutil

    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    settings = Settings(installed_packages=False, library_paths=(str(site),))
    assert ("planner", "object") in found(run_check([LAYERS], settings))
    kernels = site / "layerlib" / "kernels.py"
    kernels.write_text(kernels.read_text().replace("torch.empty(size, dtype=torch.uint8, device=device)", "None"))
    environment._indexes.clear()
    assert ("planner", "object") not in found(run_check([LAYERS], settings))


def test_no_findings_inside_the_library():
    result = run_check([LAYERS], Settings(installed_packages=False, library_paths=(str(SITE),)))
    assert all(f.path.startswith(str(FIXTURES)) or f.path.startswith("fixtures") for f in result.findings)
    assert all("layerlib" not in qn for qn in result.index.classes)


def test_the_heavy_class_pattern_is_the_fallback_for_an_unread_class(tmp_path):
    """An installed ``...Wrapper`` that allocates stays a wrapper; one that does not is no allocation;
    one no library defines is what the pattern says (README: installed libraries)."""
    site = tmp_path / "site"
    (site / "kern").mkdir(parents=True)
    (site / "kern" / "__init__.py").write_text(
        "import torch\n\n\nclass PagedWrapper:\n    def __init__(self, n):\n"
        "        self.ws = torch.empty(n)\n\n\nclass ViewWrapper:\n    def __init__(self, ws):\n"
        "        self.ws = ws\n"
    )
    project = tmp_path / "proj"
    (project / "app").mkdir(parents=True)
    (project / "app" / "__init__.py").write_text("")
    (project / "app" / "m.py").write_text(
        "from kern import PagedWrapper, ViewWrapper\nfrom missing_lib import RemoteWrapper\n\n\n"
        "class B:\n    def __init__(self):\n        self.a = PagedWrapper(8)\n        self.b = ViewWrapper(None)\n"
        "        self.c = RemoteWrapper()\n\n    def use(self):\n        return self.a, self.b, self.c\n\n\n"
        "class C(B):\n    def __init__(self):\n        super().__init__()\n"
        "        self.a = self.b = self.c = None\n"
    )
    result = run_check([str(project / "app")], Settings(installed_packages=False, library_paths=(str(site),)))
    assert {(f.attribute, f.kind) for f in result.findings} == {("a", "wrapper"), ("c", "wrapper")}
    assert [u.package for u in result.unanalysed] == ["missing_lib"]
