"""The state ``check_incremental`` leaves for the next run."""

import pickle
from array import array

from corpus_paths import FIXTURES

from deadinit.api.check import summarize
from deadinit.frontends.parse import summarize_source
from deadinit.model.file_error import FileError
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.session import incremental
from deadinit.session.analysis_state import AnalysisState, ClassRecord, grouped


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


def test_the_keys_stay_grouped_by_kind_through_runs_and_compacting():
    """``by_kind`` is what the next run compares by: after a first run, after a run that appends
    keys (a new module with a subclass) and after compacting."""
    settings = Settings()
    summaries, _, _ = summarize([str(FIXTURES)], settings)
    _, first, _ = incremental.check_incremental(summaries, settings, CheckResult(), None)
    assert first is not None and first.by_kind == grouped(first.keys)
    parent = next(c for s in summaries for c in s.classes if "__init__" in c.methods)
    module, name = parent.qualname.rsplit(".", 1)
    source = (
        f"from {module} import {name}\n\nclass Extra({name}):\n    def __init__(self):\n        super().__init__()\n"
    )
    extra = summarize_source(source.encode(), "extra.py", "extra", False, settings)
    assert not isinstance(extra, FileError)
    _, after, stats = incremental.check_incremental([*summaries, extra], settings, CheckResult(), first)
    assert after is not None and len(after.keys) > len(first.keys) and stats["analysed"] > 0
    assert after.by_kind == grouped(after.keys)
    assert first.by_kind == grouped(first.keys)  # the state a run starts from is left as it was
    compacted = incremental._compacted(after)
    assert compacted.by_kind == grouped(compacted.keys)
