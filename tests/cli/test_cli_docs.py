"""README: the set-up commands match .ci/run, the rule table matches the rule docs, hooks are declared."""

from sample_project import REPO

from deadinit.cli import readme
from deadinit.cli.rules import rule_rows

README = REPO / "README.md"


def test_readme_rule_table_matches_rules():
    text = README.read_text()
    assert readme.current_section(text) == readme.expected_section(), (
        "README rule table is stale: run `python -m deadinit.cli.readme`"
    )
    for row in rule_rows():
        assert f"| {row['code']} | `{row['name']}` |" in text


def test_sync_rewrites_a_stale_table(tmp_path):
    stale = tmp_path / "README.md"
    stale.write_text(f"intro\n\n{readme.START}\n| old |\n{readme.END}\n\nafter\n")
    assert readme.sync(stale, write=False) is False
    assert readme.sync(stale) is False
    assert readme.sync(stale, write=False) is True
    text = stale.read_text()
    assert text.startswith("intro\n") and text.endswith("\n\nafter\n") and "| DI002 |" in text


def test_setup_commands_match_ci():
    text = README.read_text()
    install = "pip install -e '.[dev]' && deadinit check fixtures"
    test_cmd = "python -m pytest -q -p no:cacheprovider tests"
    assert install in text and test_cmd in text
    ci = (REPO / ".ci" / "run").read_text()
    assert test_cmd in ci and "pip install -q -e '.[dev]'" in ci


def test_readme_use_in_ci_section():
    text = README.read_text()
    ci = text[text.index("## Use in CI") :]
    for needle in (
        "upload-sarif",
        "--format sarif",
        "--format github",
        "security-events: write",
        ".pre-commit-config.yaml",
        "id: deadinit",
    ):
        assert needle in ci, needle


def test_readme_config_example_is_valid(tmp_path):
    import re

    from deadinit.session.config import load_config

    text = README.read_text()
    section = text[text.index("## Configuration") :]
    block = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    (tmp_path / "pyproject.toml").write_text(block)
    cfg = load_config([str(tmp_path)])
    assert cfg.path == tmp_path / "pyproject.toml" and cfg.settings.select == ("DI001", "DI002")


def test_lint_tools_are_in_the_dev_extra_not_in_what_users_install():
    import pytest

    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    lint = ("mypy", "import-linter", "vulture")

    def names(reqs):
        return {r.split(";")[0].split("=")[0].split(">")[0].split("[")[0].strip() for r in reqs}

    assert not names(project["dependencies"]) & {*lint, "ruff", "pytest"}
    assert not names(extras["test"]) & set(lint)
    assert set(lint) <= names(extras["dev"]) and "deadinit[test]" in extras["dev"]  # dev: everything to work on it
