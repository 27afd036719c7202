"""`explain`, `graph` and `fix` on `check`'s path: the per-file cache, the result cache, the workers.

After a warm `check`, each of them summarises no file again (``DEADINIT_STATS`` prints
the summarizer's counts) and prints what it prints without the cache; libcst loads
only in `fix`, and parses only the files a fix touches.
"""

import ast
import subprocess
import sys

import libcst
import pytest
from sample_project import invoke, sample

STATS = {"DEADINIT_STATS": "1"}


def _stats(stderr: str) -> list[dict]:
    """Every ``deadinit: summaries: {...}`` line the run printed."""
    prefix = "deadinit: summaries: "
    return [ast.literal_eval(ln[len(prefix) :]) for ln in stderr.splitlines() if ln.startswith(prefix)]


@pytest.fixture
def warm(write_project, tmp_path_factory):
    """The sample project (one DI001, one DI002) after a `check` that filled its cache."""
    root = write_project(sample(extra={"pkg/quiet.py": "class A:\n    pass\n\n\nclass B(A):\n    pass\n"}))
    cache = tmp_path_factory.mktemp("cache")
    res = invoke(["check", ".", "--cache-dir", cache, "--format", "concise"], cwd=root)
    assert res.exit_code == 1, res.stderr
    return root, cache


@pytest.mark.parametrize(
    "args",
    [
        ["explain", "Child", "."],
        ["explain", "pkg.base.Parent", ".", "--verbose"],
        ["graph", "."],
        ["graph", "--all", "."],
        ["graph", "Parent", "."],
        ["fix", "--diff", "."],
        ["fix", "--diff", "--strategy", "direct-base", "."],
    ],
)
def test_after_a_warm_check_nothing_is_summarised_and_the_output_is_the_uncached_one(warm, args):
    root, cache = warm
    cached = invoke([*args, "--cache-dir", cache, "--jobs", "2", "--color", "never"], cwd=root, env=STATS)
    fresh = invoke([*args, "--no-cache", "--color", "never"], cwd=root, env=STATS)
    stats = _stats(cached.stderr)
    assert stats and all(s["summarised"] == 0 for s in stats), cached.stderr
    assert all(s["summarised"] == s["files"] for s in _stats(fresh.stderr))
    assert cached.exit_code == fresh.exit_code
    assert cached.stdout == fresh.stdout


def test_graph_takes_the_findings_from_the_result_cache(warm, monkeypatch):
    root, cache = warm
    from deadinit.session import pipeline

    def no_full_analysis(*a, **k):
        raise AssertionError("graph analysed every hierarchy although check's result was stored")

    monkeypatch.setattr(pipeline, "check_summaries", no_full_analysis)
    res = invoke(["graph", ".", "--cache-dir", cache, "--color", "never"], cwd=root)
    assert res.exit_code == 0, res.stderr
    assert any("Child  pkg.child.Child  DI001 x1, DI002 x1" in ln for ln in res.stdout.splitlines()), res.stdout


@pytest.fixture
def analysed(monkeypatch) -> list[str]:
    """The classes ``Analyzer.analyse`` is asked for, in order, from here on."""
    from deadinit.analysis.analyzer import Analyzer

    seen: list[str] = []
    real = Analyzer.analyse

    def spy(self, cls):
        seen.append(cls)
        return real(self, cls)

    monkeypatch.setattr(Analyzer, "analyse", spy)
    return seen


def test_explain_analyses_only_the_hierarchy_it_shows(warm, analysed):
    root, cache = warm
    res = invoke(["explain", "Child", ".", "--cache-dir", cache, "--color", "never"], cwd=root)
    assert res.exit_code == 0, res.stderr
    assert analysed == ["pkg.child.Child"]


def test_explain_and_graph_summarise_a_changed_file_again_and_see_the_change(warm):
    root, cache = warm
    child = root / "pkg/child.py"
    child.write_text(child.read_text().replace("self.ws = torch.empty(16)", "self.other = torch.empty(16)"))
    res = invoke(["explain", "Child", ".", "--cache-dir", cache, "--color", "never"], cwd=root, env=STATS)
    assert [s["summarised"] for s in _stats(res.stderr)] == [1]
    assert "Parent.ws  DI001" not in res.stdout and "Parent.ws" in res.stdout
    graph = invoke(["graph", ".", "--cache-dir", cache, "--color", "never"], cwd=root)
    assert "DI001" not in graph.stdout and "DI002 x1" in graph.stdout


def test_fix_parses_with_libcst_only_the_files_of_the_classes_it_fixes(warm, monkeypatch):
    root, cache = warm
    parsed: list[bytes] = []
    real = libcst.parse_module

    def spy(source, *a, **k):
        parsed.append(source if isinstance(source, bytes) else source.encode())
        return real(source, *a, **k)

    monkeypatch.setattr(libcst, "parse_module", spy)
    res = invoke(["fix", "--diff", ".", "--cache-dir", cache, "--color", "never"], cwd=root)
    assert res.exit_code == 1 and "+++ b/" in res.stdout, res.stderr
    untouched = [root / p for p in ("pkg/__init__.py", "pkg/other.py", "pkg/quiet.py")]
    assert parsed and not any(p.read_bytes() in parsed for p in untouched if p.read_bytes())


def test_fix_takes_the_findings_from_the_result_cache_and_analyses_only_what_it_plans_for(warm, analysed):
    root, cache = warm
    res = invoke(["fix", "--diff", ".", "--cache-dir", cache, "--color", "never"], cwd=root)
    assert res.exit_code == 1 and "+++ b/" in res.stdout, res.stderr
    # the re-analysis of the rewritten project analyses every class once; before it, only the subclass it fixes
    assert analysed.count("pkg.child.Child") == 2
    assert all(analysed.count(c) == 1 for c in set(analysed) - {"pkg.child.Child"}), analysed


@pytest.mark.parametrize("strategy", [["skip-flag"], ["direct-base", "--class", "Child"]])
def test_fix_after_an_edit_since_the_warm_check_is_the_uncached_fix(warm, strategy):
    root, cache = warm
    args = ["fix", "--diff", "--strategy", *strategy, ".", "--color", "never"]
    before = invoke([*args, "--cache-dir", cache], cwd=root)
    base = root / "pkg/base.py"
    text = base.read_text().replace("        self.buf = torch.zeros(10)\n", "        self.buf = None\n")
    base.write_text(text.replace("        return 3\n", "        return 5\n"))  # buf not DI002; a copied method
    cached = invoke([*args, "--cache-dir", cache], cwd=root)
    fresh = invoke([*args, "--no-cache"], cwd=root)
    assert cached.stdout != before.stdout
    assert cached.exit_code == fresh.exit_code
    assert cached.stdout == fresh.stdout


@pytest.mark.parametrize("command", [["check", "--format", "json"], ["explain", "Child"], ["graph"]])
def test_the_analysing_commands_but_fix_never_import_libcst(write_project, tmp_path, command):
    """Workers included: they are forked from the parent and print their imports to the same stderr."""
    root = write_project(sample())
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "deadinit", *command, ".", "--jobs", "2", "--no-cache"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode in (0, 1), out.stderr[-2000:]
    assert "deadinit.semantics.summary.builder" in out.stderr  # files were summarised here
    assert "libcst" not in out.stderr


def _check_loading(root, cache, *modules: str, fmt: str = "concise") -> tuple[str, str]:
    """(stdout, which of ``modules`` the main process of a cached ``check`` imported)."""
    script = (
        "import sys\nfrom deadinit.cli.main import main\n"
        f"sys.argv = ['deadinit', 'check', '.', '--cache-dir', {str(cache)!r}, '--format', {fmt!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"print('loaded:', sorted(m for m in {modules!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=False)
    loaded = out.stdout.rsplit("loaded: ", 1)
    assert len(loaded) == 2, out.stdout[-2000:] + out.stderr[-2000:]
    return loaded[0], loaded[1].strip()


# what a cached check needs only when it prints a progress bar, starts workers, reads a
# pattern (none in the sample project) or libcst has no version module
NOT_ON_THE_CACHED_PATH = ("importlib.metadata", "rich.progress", "pathspec")


def test_after_an_edit_the_parser_loads_only_in_the_process_that_summarises(warm):
    """The edited file is summarised again in the helper (or a worker); the main process only
    hashes it, and never imports the parser or the summary builder."""
    root, cache = warm
    target = root / "pkg" / "child.py"
    target.write_text(target.read_text() + "\n\ndef added(x):\n    return x.buf\n")
    parser = ("deadinit.frontends.parse", "deadinit.semantics.summary.builder")
    stdout, loaded = _check_loading(root, cache, *parser, *NOT_ON_THE_CACHED_PATH)
    assert loaded == "[]"
    assert "DI001" in stdout  # the run analysed the project and reported


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_a_machine_readable_check_with_nothing_to_say_on_stderr_never_loads_rich(warm, fmt):
    root, cache = warm
    stdout, loaded = _check_loading(root, cache, "rich", "rich.console", fmt=fmt)
    assert loaded == "[]"
    assert "DI001" in stdout


def test_a_check_answered_from_the_result_cache_loads_no_analysis_and_no_worker_pool(warm):
    root, cache = warm
    analysis = ("deadinit.api.check", "deadinit.analysis.analyzer", "deadinit.rules.engine")
    stdout, loaded = _check_loading(root, cache, *analysis, *NOT_ON_THE_CACHED_PATH, "concurrent.futures")
    assert loaded == "[]"
    assert "DI001" in stdout


# what a check answered from the result cache never uses: the summaries' records (the result holds
# none), the fix records and writers, the installed-library resolution, the state of the incremental
# analysis, the parsers, a close-match search (only for a name that matches nothing), rich's emoji table
NOT_ON_THE_WARM_PATH = (
    "deadinit.model.summary",
    "deadinit.model.access",
    "deadinit.model.fix",
    "deadinit.fixes",
    "deadinit.installed.finder",
    "deadinit.installed.library_index",
    "deadinit.session.incremental",
    "deadinit.session.analysis_state",
    "deadinit.frontends.parse",
    "deadinit.semantics",
    "libcst",
    "hypothesis",
    "difflib",
    "rich._emoji_codes",
)


@pytest.mark.parametrize("fmt", ["concise", "full", "json"])
def test_a_warm_check_imports_nothing_it_does_not_use(warm, fmt):
    root, cache = warm
    stdout, loaded = _check_loading(root, cache, *NOT_ON_THE_WARM_PATH, fmt=fmt)
    assert loaded == "[]"
    assert "DI001" in stdout


def test_the_version_loads_neither_the_cache_nor_the_helper():
    script = (
        "import sys\nfrom deadinit.cli.main import main\nsys.argv = ['deadinit', '--version']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('loaded:', sorted(m for m in ('deadinit.runtime.file_cache', 'deadinit.runtime.helper',"
        " 'multiprocessing', 'hashlib', 'dataclasses') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert out.stdout.rsplit("loaded: ", 1)[-1].strip() == "[]", out.stdout + out.stderr
