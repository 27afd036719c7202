"""The state ``check_incremental`` leaves for the next run."""

import pickle

from corpus_paths import FIXTURES

from deadinit.api.check import summarize
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.rules import incremental


def test_a_first_run_numbers_the_keys_as_compacting_would():
    settings = Settings()
    summaries, _, _ = summarize([str(FIXTURES)], settings)
    _, state, _ = incremental.check_incremental(summaries, settings, CheckResult(), None)
    assert state is not None and state.live == len(state.keys)
    assert pickle.dumps(incremental._compacted(state)) == pickle.dumps(state)
