"""gpu-check end to end on CPU with real torch tensors: the sample's skip-flag and
direct-base rewrites save exactly the skipped tensors' bytes."""

import shutil
import subprocess

import pytest
from gpu_check_helpers import DATA, PROFILE, SKIPPED_BYTES, comparison, run_gpu_check

torch = pytest.importorskip("torch")


@pytest.fixture
def sample_trees(tmp_path):
    """Copies of the three sample trees that a test may edit."""
    dest = {}
    for name in ("original", "skip_flag", "direct_base"):
        dest[name] = tmp_path / name
        shutil.copytree(DATA / name, dest[name])
    return dest


def _run(trees, *extra, only_skip=False):
    direct = () if only_skip else ("--rewritten", f"direct={trees['direct_base']}")
    return run_gpu_check(
        "--original",
        trees["original"],
        "--rewritten",
        f"skip={trees['skip_flag']}",
        *direct,
        "--profile",
        PROFILE,
        "--device",
        "cpu",
        "--jobs",
        "3",
        *extra,
    )


def test_savings_equal_the_skipped_tensors(sample_trees):
    rc, data = _run(
        sample_trees,
        "--from-fix-report",
        f"skip={DATA / 'fix_report_skip.json'}",
        "--from-fix-report",
        f"direct={DATA / 'fix_report_direct.json'}",
        "--class",
        "Child",
        "--class",
        "Parent",
    )
    assert rc == 0, data
    assert data["measure"] == "reachable" and data["stubbed"] == []
    for label in ("skip", "direct"):
        entry, comp = comparison(data, "Child", label)
        assert comp["status"] == "ok", comp
        assert comp["saved_bytes"] == SKIPPED_BYTES
        assert comp["attribute_savings"] == {"wrappers": SKIPPED_BYTES}
        assert comp["estimated_bytes"] == SKIPPED_BYTES
        rew = entry["rewritten"][label]
        assert rew["checks"]["skipped"] == {"wrappers": "none" if label == "skip" else "absent"}
        assert set(rew["checks"]["reads"].values()) == {"set"}
        # the runner's req_to_token is reachable but was not allocated by the constructor
        assert rew["reachable"]["external_bytes"] == 16 * 256 * 4
        _, parent = comparison(data, "Parent", label)
        assert parent["saved_bytes"] == 0 and parent["status"] == "ok"
    direct = comparison(data, "Child", "direct")[0]["rewritten"]["direct"]
    assert direct["bases"] == ["sample_pkg.backends.Base"]
    assert "sample_pkg.backends.Parent" not in direct["mro"]


def test_missing_read_fails_with_exit_1(sample_trees):
    path = sample_trees["skip_flag"] / "sample_pkg" / "backends.py"
    src = path.read_text()
    path.write_text(
        src.replace("        self.kv_indptr = torch.zeros(", "        self.kv_indptr = None and torch.zeros(")
    )
    rc, data = _run(sample_trees, "--class", "Child", "--expect-read", "Child:kv_indptr,page_table")
    assert rc == 1
    _, comp = comparison(data, "Child", "skip")
    assert comp["status"] == "missing reads" and comp["failed"]
    assert comp["problems"]["fail"] == ["reads kv_indptr but it is none"]
    assert comparison(data, "Child", "direct")[1]["status"] == "ok"


def test_rewritten_build_error_fails_with_traceback(sample_trees):
    path = sample_trees["direct_base"] / "sample_pkg" / "backends.py"
    path.write_text(
        path.read_text().replace(
            "self.page_table = torch.zeros((runner.max_bs, 64)", "self.page_table = torch.zeros((runner.max_batch, 64)"
        )
    )
    rc, data = _run(sample_trees, "--class", "Child")
    assert rc == 1
    entry, comp = comparison(data, "Child", "direct")
    assert comp["status"] == "rewritten failed to build"
    result = entry["rewritten"]["direct"]
    assert "max_batch" in result["error"] and "add it to the profile" in result["error"]
    assert "Traceback" in result["traceback"]


def test_skipped_attribute_still_built_warns_and_strict_fails(sample_trees):
    args = ("--class", "Child", "--expect-skipped", "Child:wrappers,kv_indptr")
    rc, data = _run(sample_trees, *args, only_skip=True)
    assert rc == 0
    comp = comparison(data, "Child", "skip")[1]
    assert comp["status"] == "check warnings"
    assert comp["problems"]["warn"] == ["skipped attribute kv_indptr is still built"]
    rc, _ = _run(sample_trees, *args, "--strict", only_skip=True)
    assert rc == 1


def test_unexpected_bases_warn(sample_trees):
    rc, data = _run(
        sample_trees, "--class", "Child", "--expect-base", "Child:Base", "--expect-not-in-mro", "Child:Parent"
    )
    assert rc == 0
    assert comparison(data, "Child", "direct")[1]["status"] == "ok"
    skip = comparison(data, "Child", "skip")[1]
    assert skip["status"] == "check warnings"
    assert any("Parent is still in the MRO" in w for w in skip["problems"]["warn"])


def test_rewritten_ref_builds_the_tree_from_git(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(DATA / "original", repo / "src")

    def git(*args):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True, capture_output=True
        )

    git("init", "-q")
    git("add", ".")
    git("commit", "-qm", "original")
    shutil.copy(DATA / "skip_flag" / "sample_pkg" / "backends.py", repo / "src" / "sample_pkg" / "backends.py")
    git("commit", "-qam", "skip-flag")
    git("tag", "rewritten")
    git("checkout", "-q", "HEAD~1")
    rc, data = run_gpu_check(
        "--original",
        repo / "src",
        "--rewritten-ref",
        "rewritten",
        "--class",
        "Child",
        "--profile",
        PROFILE,
        "--device",
        "cpu",
    )
    assert rc == 0, data
    assert data["trees"][1]["label"] == "rewritten" and "git ref" in data["trees"][1]["source"]
    assert data["results"][0]["comparisons"][0]["saved_bytes"] == SKIPPED_BYTES


def test_text_output_has_the_table(sample_trees):
    out = subprocess.run(
        [
            __import__("sys").executable,
            "-m",
            "deadinit.gpu_check",
            "--original",
            str(sample_trees["original"]),
            "--rewritten",
            str(sample_trees["skip_flag"]),
            "--class",
            "Child",
            "--profile",
            str(PROFILE),
            "--device",
            "cpu",
        ],
        capture_output=True,
        text=True,
        cwd=str(DATA.parents[2]),
    )
    assert out.returncode == 0, out.stderr
    assert "saved MiB" in out.stdout and "1.12" in out.stdout and "ok" in out.stdout


def test_bad_inputs_are_usage_errors(sample_trees):
    out = subprocess.run(
        [
            __import__("sys").executable,
            "-m",
            "deadinit.gpu_check",
            "--original",
            str(sample_trees["original"]),
            "--class",
            "NoSuchClass",
            "--profile",
            str(PROFILE),
            "--device",
            "cpu",
        ],
        capture_output=True,
        text=True,
        cwd=str(DATA.parents[2]),
    )
    assert out.returncode == 2 and "not found" in out.stderr


def test_shipped_fixtures_build_on_cpu():
    """The repository's CPU fixtures (another package's tree) build through the same harness."""
    repo = DATA.parents[2]
    if not (repo / "fixtures" / "runner_stub.py").exists():
        pytest.skip("fixtures/ absent")
    rc, data = run_gpu_check(
        "--original",
        repo,
        "--class",
        "fixtures.backends.flash_backend.FlashBackend",
        "--class",
        "TrtMHABackend",
        "--profile",
        DATA / "fixtures_profile.toml",
        "--device",
        "cpu",
        "--jobs",
        "2",
    )
    assert rc == 0, data
    flash, trt = (e["comparisons"][0] for e in data["results"])
    assert flash["status"] == trt["status"] == "ok"
    assert trt["original_bytes"] > flash["original_bytes"] > 0  # the child pays for the parent too
