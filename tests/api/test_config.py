"""[tool.deadinit]: discovery, every key, bad input, include/exclude/.gitignore, per-file-ignores."""

import json
from pathlib import Path

import pytest
from sample_project import DI001_KEY, DI002_KEY, assert_one_line_error, invoke, sample

from deadinit.index.pathfilter import PathFilter
from deadinit.session.config import ConfigError, find_config, load_config, validate_codes


def _keys(res) -> set:
    return {f["key"] for f in json.loads(res.stdout)}


def _pyproject(root: Path, body: str) -> Path:
    p = root / "pyproject.toml"
    p.write_text("[project]\nname = 'x'\n\n[tool.deadinit]\n" + body)
    return p


def test_found_by_walking_up_from_the_paths(tmp_path):
    _pyproject(tmp_path, 'select = ["DI002"]\n')
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert find_config([str(tmp_path / "a" / "b")]) == tmp_path / "pyproject.toml"
    cfg = load_config([str(tmp_path / "a" / "b")])
    assert cfg.settings.select == ("DI002",)
    assert cfg.root == tmp_path.resolve()


def test_pyproject_without_table_is_skipped(tmp_path):
    _pyproject(tmp_path, 'ignore = ["DI001"]\n')
    inner = tmp_path / "inner"
    inner.mkdir()
    (inner / "pyproject.toml").write_text("[project]\nname = 'inner'\n")
    assert load_config([str(inner)]).settings.ignore == ("DI001",)


def test_every_key_parses(tmp_path):
    _pyproject(
        tmp_path,
        """
include = ["src/"]
exclude = ["src/gen/"]
respect-gitignore = false
select = ["ALL"]
ignore = ["unread-parent-allocation"]
per-file-ignores = { "tests/**" = ["DI001"] }
roots = ["src"]
show-unsure = true
tensor-modules = ["torch", "mytorch"]
tensor_factories = ["empty"]
buffer-helpers = ["get_buffer", "cached"]
heavy-class-pattern = "(Wrapper|Pool)$"
module-bases = ["torch.nn.Module"]
di003-threshold = 0.5
flag-name-template = "no_{name}"
weight-loaders = ["load_weights", "load_checkpoint"]
""",
    )
    cfg = load_config([str(tmp_path)])
    s = cfg.settings
    assert cfg.include == ("src/",) and cfg.exclude == ("src/gen/",) and cfg.respect_gitignore is False
    assert {"DI001", "DI002"} <= set(s.select) and s.ignore == ("DI002",)
    assert s.per_file_ignores == (("tests/**", ("DI001",)),)
    assert s.roots == (str((tmp_path / "src").resolve()),)
    assert s.show_unsure and s.tensor_modules == ("torch", "mytorch") and s.tensor_factories == ("empty",)
    assert s.buffer_helpers == ("get_buffer", "cached") and s.heavy_class_pattern == "(Wrapper|Pool)$"
    assert s.di003_threshold == 0.5 and s.flag_name_template == "no_{name}"
    assert s.weight_loaders == ("load_weights", "load_checkpoint")


@pytest.mark.parametrize(
    "body, needle",
    [
        ("selcet = ['DI001']\n", "unknown key 'selcet'"),
        ("select = 'DI001'\n", "select: expected a list of strings"),
        ("select = ['DI999']\n", "unknown rule code or name 'DI999'"),
        ("ignore = ['unread-parent-alocation']\n", "did you mean"),
        ("per-file-ignores = { 'a/*' = ['XX1'] }\n", "per-file-ignores: pattern 'a/*'"),
        ("heavy-class-pattern = '(Wrapper'\n", "heavy-class-pattern: invalid regular expression"),
        ("di003-threshold = 3\n", "di003-threshold: expected a number between 0 and 1"),
        ("flag-name-template = 'skip'\n", "flag-name-template"),
        ("flag-name-template = 'skip-{name}'\n", "does not make a Python identifier"),
        ("respect-gitignore = 'yes'\n", "respect-gitignore: expected true or false"),
        ("roots = [1]\n", "roots: expected a list of strings"),
        ("weight-loaders = 'load_weights'\n", "weight-loaders: expected a list of strings"),
        ("select = [\n", "invalid TOML"),
    ],
)
def test_bad_config_is_one_line_exit_2(tmp_path, write_project, body, needle):
    root = write_project(sample())
    _pyproject(root, body)
    with pytest.raises(ConfigError, match=r"pyproject\.toml"):
        load_config([str(root)])
    res = invoke(["check", "."], cwd=root)
    assert_one_line_error(res, needle, "pyproject.toml")


def test_unknown_code_on_the_command_line(write_project):
    root = write_project(sample())
    assert_one_line_error(invoke(["check", ".", "--select", "DI001,nope"], cwd=root), "--select", "'nope'")
    assert_one_line_error(invoke(["check", ".", "--ignore", "DX1"], cwd=root), "--ignore")


def test_codes_names_prefixes_and_all():
    assert validate_codes(["di001", "unread-parent-allocation"]) == ("DI001", "DI002")
    group = set(validate_codes(["DI00"]))
    assert {"DI001", "DI002"} <= group and "DI100" not in group
    assert "DI100" in validate_codes(["ALL"])
    with pytest.raises(ValueError):
        validate_codes(["DI9"])


def test_config_option_overrides_discovery(tmp_path, write_project):
    root = write_project(sample())
    _pyproject(root, 'select = ["DI001"]\n')
    other = tmp_path / "elsewhere.toml"
    other.write_text('select = ["DI002"]\n')  # a dedicated file holds the keys at top level
    assert _keys(invoke(["check", ".", "--format", "json"], cwd=root)) == {DI001_KEY}
    assert _keys(invoke(["check", ".", "--format", "json", "--config", str(other)], cwd=root)) == {DI002_KEY}
    assert_one_line_error(invoke(["check", ".", "--config", "missing.toml"], cwd=root), "missing.toml")


def test_cli_select_replaces_and_ignore_extends(write_project):
    root = write_project(sample())
    _pyproject(root, 'select = ["DI001"]\n')
    assert _keys(invoke(["check", ".", "--format", "json", "--select", "DI002"], cwd=root)) == {DI002_KEY}
    _pyproject(root, 'ignore = ["DI001"]\n')
    res = invoke(["check", ".", "--format", "json", "--ignore", "DI002"], cwd=root)
    assert res.exit_code == 0 and _keys(res) == set()


def test_exclude_and_include_patterns(write_project):
    root = write_project(sample())
    _pyproject(root, 'exclude = ["pkg/child.py"]\n')
    assert _keys(invoke(["check", ".", "--format", "json"], cwd=root)) == set()
    _pyproject(root, 'include = ["pkg/base.py", "pkg/__init__.py"]\n')
    assert _keys(invoke(["check", ".", "--format", "json"], cwd=root)) == set()
    _pyproject(root, 'include = ["pkg/"]\n')
    assert _keys(invoke(["check", ".", "--format", "json"], cwd=root)) == {DI001_KEY, DI002_KEY}


def test_gitignore_respected_unless_turned_off(write_project):
    root = write_project(sample())
    (root / ".gitignore").write_text("child.py\n")
    (root / ".git").mkdir()
    assert _keys(invoke(["check", ".", "--format", "json"], cwd=root)) == set()
    _pyproject(root, "respect-gitignore = false\n")
    assert _keys(invoke(["check", ".", "--format", "json"], cwd=root)) == {DI001_KEY, DI002_KEY}


def test_nested_gitignore_and_negation(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("*.py\n!keep.py\nbuild/\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".gitignore").write_text("!local.py\n")
    f = PathFilter(tmp_path)
    assert f(str(tmp_path / "a.py"), False)
    assert not f(str(tmp_path / "keep.py"), False)
    assert not f(str(tmp_path / "sub" / "local.py"), False)
    assert f(str(tmp_path / "sub" / "other.py"), False)
    assert f(str(tmp_path / "build"), True)
    assert not f(str(tmp_path / "sub"), True)


def test_per_file_ignores_match_any_file_of_the_finding(write_project):
    root = write_project(sample())
    _pyproject(root, 'per-file-ignores = { "pkg/child.py" = ["DI002"] }\n')  # the subclass's file
    assert _keys(invoke(["check", ".", "--format", "json"], cwd=root)) == {DI001_KEY}
    _pyproject(root, 'per-file-ignores = { "pkg/base.py" = ["overwritten-parent-allocation"] }\n')
    assert _keys(invoke(["check", ".", "--format", "json"], cwd=root)) == {DI002_KEY}
    _pyproject(root, 'per-file-ignores = { "pkg/other.py" = ["DI001", "DI002"] }\n')
    assert _keys(invoke(["check", ".", "--format", "json"], cwd=root)) == {DI001_KEY, DI002_KEY}


def test_allocation_patterns_change_findings(write_project):
    root = write_project(sample())
    _pyproject(root, 'tensor-factories = ["ones"]\n')  # empty/zeros are no longer allocations
    assert _keys(invoke(["check", ".", "--format", "json"], cwd=root)) == set()
