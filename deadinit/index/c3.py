"""C3 linearisation's merge, the step Python builds a method resolution order with."""

from __future__ import annotations

from collections import Counter, deque


def c3_merge(first: str, seqs: list[list[str]]) -> list[str] | None:
    """``first`` followed by the C3 merge of ``seqs`` (the bases' orders, then the bases
    themselves); None when no order is consistent with them all.

    Each name's count of appearances outside the lists' heads is kept, so a step costs the
    number of lists, not their length: a class deep in a long chain merges in linear time."""
    if len(seqs) == 2 and seqs[0] and seqs[1] == seqs[0][:1]:
        return [first, *seqs[0]]  # one base: its order (an order never repeats a name)
    queues = [deque(s) for s in seqs if s]
    in_tails = Counter(x for q in queues for i, x in enumerate(q) if i)
    result = [first]
    while queues:
        head = next((q[0] for q in queues if not in_tails[q[0]]), None)
        if head is None:
            return None
        result.append(head)
        for q in queues:
            if q[0] == head:
                q.popleft()
                if q:
                    in_tails[q[0]] -= 1
        queues = [q for q in queues if q]
    return result
