"""The dependency recorder: what a recording sees, and memos whose answers do not depend on who asked first."""

from __future__ import annotations

from deadinit.index.dependencies import Memo, Recorded, recording


def test_a_memo_hit_replays_the_keys_its_entry_read():
    table = Recorded("t", {"a": 1, "b": 2})
    memo: Memo[str, int] = Memo()
    with recording():
        memo.get_or("x", lambda: table["a"] + table.get("c", 0))
    with recording() as keys:
        assert memo.get_or("x", lambda: -1) == 1
    assert keys == {("t", "a"), ("t", "c")}


def cyclic(memo: Memo[str, tuple[str, ...]], graph: dict[str, list[str]]):
    """Each node's answer: itself, then its successors' answers (a cycle answers ())."""

    def value(node: str) -> tuple[str, ...]:
        return memo.get_or(node, lambda: (node, *[v for nxt in graph[node] for v in value(nxt)]), cycle=())

    return value


def test_an_answer_inside_a_cycle_is_the_same_whoever_asked_first():
    graph = {"a": ["b"], "b": ["c"], "c": ["a"], "d": ["b"]}
    answers = []
    for order in (["a", "b", "c", "d"], ["d", "c", "b", "a"], ["b", "d", "a", "c"]):
        memo: Memo[str, tuple[str, ...]] = Memo()
        value = cyclic(memo, graph)
        answers.append({node: value(node) for node in order})
    assert answers[0] == answers[1] == answers[2]
    assert answers[0]["b"] == ("b", "c", "a")


def test_a_memo_keeps_no_entry_of_a_cycle_and_those_around_it():
    graph = {"x": ["a"], "a": ["b"], "b": ["a", "c"], "c": []}
    memo: Memo[str, tuple[str, ...]] = Memo()
    assert cyclic(memo, graph)("x") == ("x", "a", "b", "c")
    assert set(memo.values) == {"x", "c"}  # a and b saw the cycle cut short
