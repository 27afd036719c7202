"""C3 linearisation's merge, the step Python builds a method resolution order with."""

from __future__ import annotations


def c3_merge(first: str, seqs: list[list[str]]) -> list[str] | None:
    """``first`` followed by the C3 merge of ``seqs`` (the bases' orders, then the bases
    themselves; consumed); None when no order is consistent with them all."""
    result = [first]
    while seqs := [s for s in seqs if s]:
        head = next((s[0] for s in seqs if not any(s[0] in t[1:] for t in seqs)), None)
        if head is None:
            return None
        result.append(head)
        for s in seqs:
            if s[0] == head:
                del s[0]
    return result
