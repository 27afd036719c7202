"""A file's read tallies kept as names and three byte strings give each attribute's tally as a
dict of tuples would, and pickle to the same bytes each time."""

import hashlib
import pickle
from array import array

import pytest

from deadinit.model.read_tally import DIGEST_SIZE, ReadTallies


def _tally(lines: list[int], shape: str) -> tuple[int, bytes, bytes]:
    digest = hashlib.blake2b(shape.encode(), digest_size=DIGEST_SIZE).digest()
    return len(lines), digest, array("I", lines).tobytes()


def test_compact_tallies_act_as_the_dict():
    plain = {"a": _tally([3, 9], "x"), "bb": _tally([4], "y"), "c": _tally([1, 2, 5, 8], "z")}
    tallies = ReadTallies.of(plain.items())
    assert tallies == plain and list(tallies) == list(plain) and len(tallies) == 3
    assert tallies["c"] == plain["c"] and tallies["a"] == plain["a"]  # any order of reads
    assert "bb" in tallies and "d" not in tallies and tallies.get("d") is None
    back = pickle.loads(pickle.dumps(tallies))
    assert back == plain and pickle.dumps(back) == pickle.dumps(tallies)
    assert ReadTallies.of([]) == {}
    assert [tallies.count(attr) for attr in plain] == [2, 1, 4]
    assert [tallies.shapes(attr) for attr in plain] == [tally[1] for tally in plain.values()]


def test_a_malformed_tally_is_refused():
    _, digest, lines = _tally([1, 2], "x")
    with pytest.raises(ValueError):
        ReadTallies.of([("a", (3, digest, lines))])
