"""The state ``check_incremental`` leaves for the next run."""

import pickle
from array import array

from corpus_paths import FIXTURES

from deadinit.api.check import summarize
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.rules import incremental
from deadinit.runtime.analysis_state import AnalysisState, ClassRecord


def test_a_first_run_numbers_the_keys_as_compacting_would():
    settings = Settings()
    summaries, _, _ = summarize([str(FIXTURES)], settings)
    _, state, _ = incremental.check_incremental(summaries, settings, CheckResult(), None)
    assert state is not None and state.live == len(state.keys)
    assert pickle.dumps(incremental._compacted(state)) == pickle.dumps(state)


def _record(keys):
    return ClassRecord(array("I", keys), b"")


def test_compacting_takes_a_key_appended_twice_together():
    """A run numbers only the keys the analysed classes read before (``_known_ids``); a key that
    another class read already is appended again, and compacting keeps its first number."""
    state = AnalysisState(keys=[("a", 1), ("b", 2), ("a", 1)], digests=["x", "y", "x"])
    state.classes = {"A": _record([0, 1]), "B": _record([2])}
    out = incremental._compacted(state)
    assert out.keys == [("a", 1), ("b", 2)] and out.digests == ["x", "y"]
    assert list(out.classes["A"].keys) == [0, 1] and list(out.classes["B"].keys) == [0]
