"""A cached run prints each path as this run was given it, whichever spelling filled the cache:
the per-file cache keys a file by its real path, and the session says the summary's path as given."""

import pytest
from sample_project import invoke, sample


@pytest.mark.parametrize("first_absolute", [True, False])
def test_a_check_prints_the_paths_as_given_after_a_run_that_spelled_them_otherwise(
    write_project, tmp_path_factory, first_absolute
):
    parent = write_project({f"proj/{rel}": src for rel, src in sample().items()})
    cache = tmp_path_factory.mktemp("cache")
    absolute, relative = str(parent / "proj"), "proj"
    first, then = (absolute, relative) if first_absolute else (relative, absolute)
    args = ["--cache-dir", cache, "--format", "concise", "--color", "never"]
    filled = invoke(["check", first, *args], cwd=parent)
    cached = invoke(["check", then, *args], cwd=parent)
    again = invoke(["check", then, *args], cwd=parent)  # through the result cache
    fresh = invoke(["check", then, "--no-cache", "--format", "concise", "--color", "never"], cwd=parent)
    assert filled.exit_code == cached.exit_code == again.exit_code == fresh.exit_code == 1
    assert cached.stdout == again.stdout == fresh.stdout
    lines = [ln for ln in fresh.stdout.splitlines() if "DI00" in ln]
    assert lines and all(ln.startswith(then + "/") for ln in lines), fresh.stdout
