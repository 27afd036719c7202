"""The analysis state's store: a run after an edit writes what changed to the journal, and loading
gives back exactly the state stored last, or the state of an earlier run, never a mix."""

import pickle
from array import array

import pytest

from deadinit.session import analysis_state
from deadinit.session.analysis_state import AnalysisState, ClassRecord, GraphRecord, StateStore


def _state(classes=3, keys=6) -> AnalysisState:
    s = AnalysisState()
    s.keys = [("class", f"m.C{i}") for i in range(keys)]
    s.digests = [(f"d{i}", None) for i in range(keys)]
    s.classes = {f"m.C{i}": ClassRecord(array("I", [i]), pickle.dumps([[i]])) for i in range(classes)}
    s.live = keys
    s.graph = GraphRecord(tuple(s.classes), array("I", [0]), {}, [])
    s.by_kind = analysis_state.grouped(s.keys)
    return s


def _next(old: AnalysisState, n: int) -> AnalysisState:
    """What ``session.incremental`` makes of ``old``: its lists copied, kept records taken over, a
    digest moved, a key appended, one class analysed again, one gone, one new."""
    new = AnalysisState(list(old.keys), list(old.digests), dict(old.classes), old.live, old.graph)
    new.by_kind = {kind: array("I", group) for kind, group in old.by_kind.items()}
    new.digests[1] = (f"moved{n}", None)
    new.append(("attr", f"a{n}"), (f"new{n}", None))
    new.classes["m.C0"] = ClassRecord(array("I", [0, len(new.keys) - 1]), pickle.dumps([[n]]))
    new.classes.pop(next(qn for qn in new.classes if qn != "m.C0"))
    new.classes[f"m.New{n}"] = ClassRecord(array("I", [2]), b"", broken=n % 2 == 0)
    new.inputs = f"inputs{n}"
    return new


def _same(a: AnalysisState, b: AnalysisState) -> None:
    assert (a.keys, a.digests, a.live, a.inputs) == (b.keys, b.digests, b.live, b.inputs)
    assert a.by_kind == b.by_kind == analysis_state.grouped(a.keys)  # the delta's keys grouped too
    assert {qn: (r.keys, r.findings, r.broken) for qn, r in a.classes.items()} == {
        qn: (r.keys, r.findings, r.broken) for qn, r in b.classes.items()
    }
    assert pickle.dumps(a.graph) == pickle.dumps(b.graph)


def _journal(store: StateStore) -> list[str]:
    return sorted(p.name for p in store.path.parent.glob(store.path.name + ".*"))


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-cache"))
    return StateStore(tmp_path / "cache", "k")


def test_an_edit_run_writes_a_delta_and_loading_applies_it(store):
    store.store(_state(classes=200, keys=2000))
    expected = []
    for n in range(3):
        new = _next(store.load(), n)
        store.store(new)
        expected.append(new)
        _same(StateStore(store.folder, "k").load(), new)
    assert _journal(store) == ["k.state.1", "k.state.2", "k.state.3"]


def test_a_delta_that_does_not_follow_what_was_loaded_ends_the_journal(store):
    store.store(_state(classes=200, keys=2000))
    other = StateStore(store.folder, "k")  # a concurrent run
    mine, theirs = store.load(), other.load()  # both start from the whole state
    store.store(_next(mine, 1))  # .1
    store.store(_next(store.load(), 2))  # .2 follows .1
    other.store(_next(theirs, 3))  # replaces .1: .2 no longer follows it
    assert _journal(store) == ["k.state.1", "k.state.2"]
    _same(StateStore(store.folder, "k").load(), _next(_state(classes=200, keys=2000), 3))


@pytest.mark.parametrize("damage", ["truncated", "removed"])
def test_a_damaged_delta_gives_the_state_before_it(store, damage):
    store.store(_state(classes=200, keys=2000))
    first = _next(store.load(), 1)
    store.store(first)
    store.store(_next(store.load(), 2))
    second = store.path.with_name("k.state.2")
    if damage == "truncated":
        second.write_bytes(second.read_bytes()[:-5])
    else:
        second.unlink()
    _same(StateStore(store.folder, "k").load(), first)


def test_a_long_journal_is_folded_into_the_whole_state(store, monkeypatch):
    monkeypatch.setattr(analysis_state, "MAX_DELTAS", 2)
    store.store(_state(classes=200, keys=2000))
    state = None
    for n in range(3):
        state = _next(store.load(), n)
        store.store(state)
    assert _journal(store) == []  # the third: the whole state, the journal removed
    _same(StateStore(store.folder, "k").load(), state)


def test_a_large_delta_or_renumbered_keys_store_the_whole_state(store):
    store.store(_state(classes=3, keys=6))  # small: any delta is over a quarter of it
    store.store(_next(store.load(), 1))
    assert _journal(store) == []
    big = _state(classes=200, keys=2000)
    store.store(big)
    store.load()
    renumbered = _state(classes=200, keys=2000)
    renumbered.keys.reverse()
    store.store(renumbered)
    assert _journal(store) == []
    _same(StateStore(store.folder, "k").load(), renumbered)


def test_a_whole_state_written_without_loading_removes_a_stale_journal(store):
    store.store(_state(classes=200, keys=2000))
    store.store(_next(store.load(), 1))
    assert _journal(store) == ["k.state.1"]
    fresh = _state(classes=200, keys=2000)
    StateStore(store.folder, "k").store(fresh)  # a full run: nothing loaded
    assert _journal(store) == []
    _same(StateStore(store.folder, "k").load(), fresh)
