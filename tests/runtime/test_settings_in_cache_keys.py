"""Every setting that changes a summary or a result is part of the caches' keys: changed between two
warm runs, the cached run prints what ``--no-cache`` prints under the new setting (and the setting
does change what is printed, so the comparison means something)."""

import shutil

import pytest
from sample_project import FIXTURES, invoke

# (key, value as TOML): each changes the fixtures' report
SETTINGS = [
    ("roots", '["fixtures"]'),  # module names
    ("module-bases", '["fixtures.nothing.Module"]'),
    ("exclude", '["fixtures/sized/"]'),
    ("include", '["fixtures/backends/"]'),
    ("include-generation-sources", "true"),
    ("di003-threshold", "0.9"),
    ("select", '["DI002"]'),
    ("per-file-ignores", '{ "fixtures/sized/**" = ["DI002"] }'),
    ("show-unsure", "true"),
    ("parameter-bytes", "4"),
    ("tensor-factories", '["empty"]'),
    ("tensor-modules", '["nottorch"]'),
    ("buffer-helpers", "[]"),
    ("heavy-class-pattern", '"NothingMatches$"'),
    ("weight-loaders", '["no_loader"]'),
    ("random-stream-unsafe", "true"),
    ("max-file-size", "3000"),
]
FAST = {"roots", "module-bases", "exclude", "include", "include-generation-sources", "di003-threshold"}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("settings")
    shutil.copytree(FIXTURES, root / "fixtures", ignore=shutil.ignore_patterns("__pycache__", "pyproject.toml"))
    return root


def _report(root, cache, *extra) -> list[str]:
    out = []
    for fmt in ("json", "text"):
        res = invoke(["check", "--format", fmt, "--color", "never", *extra, "fixtures"], cwd=root)
        assert res.exit_code in (0, 1), res.stderr
        out.append(res.stdout + res.stderr)
    return out


@pytest.mark.parametrize(
    ("key", "value"), [pytest.param(k, v, marks=[] if k in FAST else [pytest.mark.slow]) for k, v in SETTINGS]
)
def test_a_changed_setting_is_never_served_from_the_cache(project, tmp_path, key, value):
    cache = ["--cache-dir", str(tmp_path / "cache")]
    config = project / "pyproject.toml"
    config.write_text("[tool.deadinit]\n")
    before = _report(project, cache, *cache)
    assert _report(project, cache, *cache) == before  # warm
    config.write_text(f"[tool.deadinit]\n{key} = {value}\n")
    changed = _report(project, cache, *cache)
    assert changed == _report(project, cache, "--no-cache")
    assert changed != before, f"{key} = {value} changes nothing in the fixtures' report"
    config.write_text("[tool.deadinit]\n")
    assert _report(project, cache, *cache) == before  # and back
