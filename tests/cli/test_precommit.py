"""The pre-commit hooks for real, on a temp git repository holding the fixtures.

Fast tier, offline: the hooks of ``.pre-commit-hooks.yaml`` as ``repo: local`` hooks
(``language: system``, the entry run by this Python), driven by ``pre-commit run``.
Slow tier: ``pre-commit try-repo`` installs a committed copy of this working tree as
the hook repository, building a fresh environment from the package index (about half
a minute per run), and runs the same scenarios.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sample_project import FIXTURES, REPO, invoke

pytest.importorskip("pre_commit")
yaml = pytest.importorskip("yaml")  # a pre-commit dependency
if shutil.which("git") is None:  # pragma: no cover
    pytest.skip("git is not installed", allow_module_level=True)

GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}
FINDING = re.compile(r"^(\S+):(\d+):(\d+): (DI\d{3}) ", re.M)  # the text report's first line of a finding


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, check=True, capture_output=True, text=True).stdout


def _commit_copy(files: list[str], src: Path, dst: Path) -> Path:
    for rel in files:
        if (src / rel).is_file():
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src / rel, dst / rel)
    _git(dst, "init", "-q")
    _git(dst, "add", "-A")
    _git(dst, "commit", "-q", "-m", "snapshot")
    return dst


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> Path:
    """This repository's working tree (tracked and untracked, not ignored), committed in a temp clone."""
    if (REPO / ".git").exists():
        files = _git(REPO, "ls-files", "-co", "--exclude-standard").splitlines()
    else:  # pragma: no cover - a source tree without git
        files = [str(p.relative_to(REPO)) for p in REPO.rglob("*") if p.is_file() and ".venv" not in p.parts]
    return _commit_copy(files, REPO, tmp_path_factory.mktemp("hook-repo"))


@pytest.fixture
def user_repo(tmp_path) -> Path:
    """The fixtures in a git repository whose ``.pre-commit-config.yaml`` holds ``_local_config()``."""
    files = [str(Path("fixtures") / p.relative_to(FIXTURES)) for p in FIXTURES.rglob("*.py")]
    (tmp_path / "user").mkdir()
    (tmp_path / "user" / ".pre-commit-config.yaml").write_text(_local_config())
    return _commit_copy(files, REPO, tmp_path / "user")


def _pre_commit(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(cwd.parent / "pre-commit-home"),
        "COLUMNS": "400",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "NO_COLOR": "1",
    }
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd,
        env={**GIT_ENV, **env},
        capture_output=True,
        text=True,
        timeout=900,
    )


def try_repo(hook_repo: Path):
    """``pre-commit try-repo``: the hooks installed from ``hook_repo`` (a fresh environment)."""
    return lambda cwd, *args, hook="deadinit": _pre_commit(cwd, "try-repo", str(hook_repo), hook, *args)


def local_hooks(cwd: Path, *args: str, hook: str = "deadinit") -> subprocess.CompletedProcess:
    """``pre-commit run`` with the committed ``repo: local`` copy of the hooks (``user_repo``)."""
    return _pre_commit(cwd, "run", hook, *args)


def _local_config() -> str:
    """``.pre-commit-hooks.yaml`` as ``repo: local`` hooks that run ``deadinit`` from this Python."""
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    this = f"{shlex.quote(sys.executable)} -m deadinit.cli.main"
    for h in hooks:
        assert h["entry"].startswith("deadinit ")
        h["entry"] = this + h["entry"][len("deadinit") :]
        h["language"] = "system"
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": hooks}]})


def _expected(cwd: Path, *files: str) -> set:
    """What the hook must print, from the same engine in-process."""
    res = invoke(["check", "--project", ".", "--format", "json", *files], cwd=cwd)
    return {(f["code"], os.path.normpath(f["path"]), f["line"], f["column"]) for f in json.loads(res.stdout)}


def _reported(output: str) -> set:
    return {(m[3], os.path.normpath(m[0]), int(m[1]), int(m[2])) for m in FINDING.findall(output)}


def test_hooks_file_declares_both_hooks():
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"deadinit", "deadinit-fix"}
    for h in hooks.values():
        assert h["require_serial"] is True and h["language"] == "python" and h["types"] == ["python"]
    assert hooks["deadinit"]["entry"] == "deadinit check --project ."
    assert hooks["deadinit-fix"]["entry"] == "deadinit fix" and hooks["deadinit-fix"].get("pass_filenames", True)


def test_local_hooks_all_files_then_one_staged_file(user_repo):
    all_files_then_one_staged_file(local_hooks, user_repo)


def test_local_fix_hook_rewrites_and_fails_the_commit(user_repo):
    fix_hook_rewrites_and_fails_the_commit(local_hooks, user_repo)


@pytest.mark.slow
def test_try_repo_all_files_then_one_staged_file(hook_repo, user_repo):
    all_files_then_one_staged_file(try_repo(hook_repo), user_repo)


@pytest.mark.slow
def test_try_repo_fix_hook_rewrites_and_fails_the_commit(hook_repo, user_repo):
    fix_hook_rewrites_and_fails_the_commit(try_repo(hook_repo), user_repo)


def all_files_then_one_staged_file(run, user_repo):
    everything = _expected(user_repo)
    assert everything
    res = run(user_repo, "--all-files")
    out = res.stdout + res.stderr
    assert res.returncode == 1, out
    assert "deadinit" in out and "Failed" in out
    assert _reported(out) == everything, out

    # one staged subclass file: only the findings whose subclass, allocation or overwrite lies there
    staged = "fixtures/backends/speed_mla_backend.py"
    with open(user_repo / staged, "a") as f:
        f.write("# touched\n")
    _git(user_repo, "add", staged)
    scoped = _expected(user_repo, staged)
    assert scoped and scoped < everything
    res = run(user_repo)
    out = res.stdout + res.stderr
    assert res.returncode == 1, out
    assert _reported(out) == scoped, out
    _git(user_repo, "commit", "-q", "-m", "touch")

    # a staged file no finding touches: the hook passes
    quiet = "fixtures/negatives/super_call.py"
    assert _expected(user_repo, quiet) == set()
    with open(user_repo / quiet, "a") as f:
        f.write("# touched\n")
    _git(user_repo, "add", quiet)
    res = run(user_repo)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "Passed" in out, out


def fix_hook_rewrites_and_fails_the_commit(run, user_repo):
    before = _expected(user_repo)
    res = run(user_repo, "--all-files", hook="deadinit-fix")
    out = res.stdout + res.stderr
    assert res.returncode == 1, out
    assert "files were modified by this hook" in out, out
    assert _git(user_repo, "status", "--porcelain").strip()  # the working tree was rewritten
    after = _expected(user_repo)
    assert len(after) < len(before)


def test_local_fix_hook_rewrites_only_what_the_staged_file_touches(user_repo):
    fix_hook_stays_in_its_lane(local_hooks, user_repo)


def _changed(repo: Path) -> set[str]:
    return {line[3:] for line in _git(repo, "status", "--porcelain").splitlines() if line[:2].strip() == "M"}


def fix_hook_stays_in_its_lane(run, user_repo):
    """A one-comment commit of a subclass file rewrites that subclass's hierarchy only, not the project."""
    staged = "fixtures/backends/speed_mla_backend.py"
    with open(user_repo / staged, "a") as f:
        f.write("# touched\n")
    _git(user_repo, "add", staged)
    found = invoke(["check", "--format", "json", staged], cwd=user_repo)
    touched = {os.path.normpath(p) for f in json.loads(found.stdout) for p in [f["path"], *f["related_paths"]]}
    res = run(user_repo, hook="deadinit-fix")
    out = res.stdout + res.stderr
    assert res.returncode == 1 and "files were modified by this hook" in out, out
    changed = _changed(user_repo)
    assert changed and changed <= touched | {staged}, (changed, touched)
    _git(user_repo, "checkout", "--", *changed)
    run(user_repo, "--all-files", hook="deadinit-fix")
    assert len(_changed(user_repo)) > len(changed), (changed, _changed(user_repo))


def _readme_snippets() -> list[str]:
    """The README's ``.pre-commit-config.yaml`` snippets: the quick start's and Use in CI's."""
    text = (REPO / "README.md").read_text()
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    return [b for b in blocks if "repo: local" in b]


def test_the_readme_snippets_are_one_hook():
    snippets = [yaml.safe_load(b) for b in _readme_snippets()]
    assert len(snippets) == 2
    assert snippets[0] == snippets[1]
    (hook,) = snippets[0]["repos"][0]["hooks"]
    assert hook["id"] == "deadinit" and hook["entry"] == "deadinit check"


def test_the_readme_snippet_installed_blocks_a_commit_with_a_finding_and_passes_one_without(tmp_path):
    """As a user sets it up: deadinit installed (on PATH), the snippet as written, ``pre-commit install``,
    then ``git commit``."""
    files = [str(Path("fixtures") / p.relative_to(FIXTURES)) for p in FIXTURES.rglob("*.py")]
    repo = _commit_copy(files, REPO, tmp_path / "user")
    (repo / ".pre-commit-config.yaml").write_text(_readme_snippets()[0])
    _git(repo, "add", ".pre-commit-config.yaml")
    _git(repo, "commit", "-q", "-m", "hooks")
    env = {
        **GIT_ENV,
        "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),  # deadinit installed
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "NO_COLOR": "1",
    }
    subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=repo, env=env, check=True, capture_output=True)

    def commit(path: str) -> subprocess.CompletedProcess:
        with open(repo / path, "a") as f:
            f.write("# touched\n")
        subprocess.run(["git", "add", path], cwd=repo, env=env, check=True)
        return subprocess.run(["git", "commit", "-m", "edit"], cwd=repo, env=env, capture_output=True, text=True)

    blocked = commit("fixtures/backends/speed_mla_backend.py")
    out = blocked.stdout + blocked.stderr
    assert blocked.returncode != 0 and "Failed" in out, out
    assert _reported(out) and all(code.startswith("DI") for code, *_ in _reported(out)), out
    assert _git(repo, "diff", "--cached", "--name-only").strip()  # nothing was committed
    _git(repo, "reset", "-q", "--hard")
    passed = commit("fixtures/negatives/super_call.py")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "deadinit" in passed.stdout + passed.stderr and "Passed" in passed.stdout + passed.stderr
