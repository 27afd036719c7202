"""A corrupt, truncated, planted or misplaced cache is rebuilt, never trusted, never a crash.

Corrupt per-file entries in the fast tier; a corrupt result file, cache key or cache folder in
the slow one (``tests/runtime`` covers those paths quickly too).
"""

import json
import pickle
import shutil

import pytest
from robust_helpers import assert_no_crash, cli, count, error_lines, fixable_tree

from deadinit.runtime import file_cache as cache
from deadinit.runtime import result_cache as results


class _Trap:
    """Unpickling this writes a marker file."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def _corruptions(entry: bytes, marker) -> list[bytes]:
    head_end = entry.index(b"\n", len(cache.MAGIC))
    head = json.loads(entry[len(cache.MAGIC) : head_end])
    evil = pickle.dumps(_Trap(marker))
    planted = dict(head, length=len(evil))  # a well-formed entry whose digest the planter cannot compute
    flipped = bytearray(entry)
    flipped[-5] ^= 0xFF
    return [
        b"",
        entry[: len(entry) // 2],
        bytes(flipped),
        b"\x00" * len(entry),
        b"garbage\n" * 40,
        cache.MAGIC + b"{not json\n" + entry[head_end + 1 :],
        cache.MAGIC + json.dumps(planted).encode() + b"\n" + evil,
    ]


def _run(tmp_path, cache_dir):
    p = cli("check", "--cache-dir", cache_dir, "--format", "json", "tree", cwd=tmp_path)
    assert_no_crash(p)
    assert error_lines(p.stderr) == []
    return p.returncode, json.loads(p.stdout)


def test_corrupt_cache_entries_are_rebuilt(tmp_path):
    fixable_tree(tmp_path, 4)
    marker = tmp_path / "unpickled"
    first = _run(tmp_path, tmp_path / "cache")
    assert first[0] == 1 and first[1]
    entries = sorted((tmp_path / "cache" / "entries").rglob("*.bin"))
    assert len(entries) >= 12
    # an unchanged tree is answered by the stored whole-run result without reading any
    # entry (deadinit.runtime.result_cache): remove it, so that every entry is read
    shutil.rmtree(tmp_path / "cache" / "results", ignore_errors=True)
    originals = {}
    for i, path in enumerate(entries):
        originals[path] = path.read_bytes()
        bad = _corruptions(originals[path], marker)
        path.write_bytes(bad[i % len(bad)])
        count("cache entries corrupted")
    assert _run(tmp_path, tmp_path / "cache") == first
    assert not marker.exists(), "a planted cache entry was unpickled"
    for path in entries:  # rebuilt: whole, authentic entries again
        data = path.read_bytes()
        assert data.startswith(cache.MAGIC) and len(data) > 100
    assert _run(tmp_path, tmp_path / "cache") == first


@pytest.mark.slow
def test_corrupt_or_planted_results_file_is_rebuilt(tmp_path):
    """The whole-run result (``results/*.res``) is signed like the entries: damaged or
    planted, it is never unpickled; the run analyses and writes it again."""
    fixable_tree(tmp_path, 2)
    marker = tmp_path / "unpickled"
    first = _run(tmp_path, tmp_path / "cache")
    (res,) = (tmp_path / "cache" / "results").glob("*.res")
    good = res.read_bytes()
    evil = pickle.dumps(_Trap(marker))
    for bad in (
        b"",
        good[: len(good) // 2],
        good[:-5] + b"\xff" * 5,
        b"garbage\n" * 40,
        results.MAGIC + b"0" * 32 + b"\n" + evil,
    ):
        res.write_bytes(bad)
        count("cache entries corrupted")
        assert _run(tmp_path, tmp_path / "cache") == first
        assert not marker.exists(), "a planted results file was unpickled"
        assert res.read_bytes().startswith(results.MAGIC) and len(res.read_bytes()) > 100


@pytest.mark.slow
def test_corrupt_cache_key_and_misplaced_cache_folder(tmp_path):
    fixable_tree(tmp_path, 2)
    first = _run(tmp_path, tmp_path / "cache")
    key = tmp_path / ".xdg-cache" / "deadinit" / "cache-key"
    assert key.exists()
    key.write_bytes(b"short")  # a corrupt key: every entry fails authentication and is rebuilt
    assert _run(tmp_path, tmp_path / "cache") == first
    (tmp_path / "not-a-folder").write_text("x")
    assert _run(tmp_path, tmp_path / "not-a-folder") == first  # the cache cannot be written: slower, same answer
    assert _run(tmp_path, tmp_path / "not-a-folder" / "below") == first
