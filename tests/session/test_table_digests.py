"""``TableDigests.compare_stored`` takes the stored keys kind by kind: it finds what ``compare`` finds
key by key, after edits that move reads, constructions, classes and imports."""

from pathlib import Path

import pytest
from corpus_paths import FIXTURES

from deadinit.api.check import summarize
from deadinit.frontends.parse import summarize_source
from deadinit.index.dependencies import ALL
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.rules.engine import index_summaries
from deadinit.session import incremental
from deadinit.session.class_graph import GRAPH_DERIVED
from deadinit.session.table_digests import TableDigests

ADDED = """

def _added(holder, other):
    holder.workspace_buffer.zero_()
    return other.weight, other.cache, holder.decode_wrappers[0]
"""


def _digests(summaries, settings) -> TableDigests:
    res = index_summaries(summaries, settings, CheckResult(), hierarchy_errors=False)
    fps = {m: incremental.summary_fingerprint(s) for m, s in res.index.modules.data.items()}
    return TableDigests(res.index, res.analyzer, fps)


def _edited(summaries, settings, edit):
    out = []
    for s in summaries:
        text = Path(s.path).read_text(encoding="utf-8")
        new = edit(s.module, text)
        out.append(s if new == text else summarize_source(new.encode(), s.path, s.module, s.is_package, settings))
    return out


EDITS = {
    "reads added": lambda mod, text: text + ADDED if mod.endswith(("app", "backends.base")) else text,
    "half of a file": lambda mod, text: (
        text[: len(text) // 2].rsplit("\n\n", 1)[0] + "\n" if mod.endswith("backends.flash_backend") else text
    ),
    "import added": lambda mod, text: "import os\n" + text if "." in mod and mod.count(".") == 1 else text,
}


@pytest.mark.parametrize("edit", list(EDITS), ids=list(EDITS))
def test_kind_by_kind_finds_what_key_by_key_finds(edit):
    settings = Settings()
    summaries, _, _ = summarize([str(FIXTURES)], settings)
    _, state, _ = incremental.check_incremental(summaries, settings, CheckResult(), None)
    assert state is not None
    after = _edited(summaries, settings, EDITS[edit])
    assert any(a is not b for a, b in zip(after, summaries, strict=True))

    whole = [(kind, ALL) for kind in ("attr", "class_module", "imports.", "module", "subclasses")]
    keys, stored = [*state.keys, *whole], [*state.digests, *[(None, None)] * len(whole)]  # read whole: changed
    bulk, now, changed = _digests(after, settings), list(stored), set()
    later = bulk.compare_stored(keys, stored, range(len(keys)), now, changed, GRAPH_DERIVED)
    assert sorted(later) == [i for i, (kind, _) in enumerate(keys) if kind in GRAPH_DERIVED]

    one, expected_now, expected = _digests(after, settings), list(stored), set()
    for i, key in enumerate(keys):
        if key[0] not in GRAPH_DERIVED:
            moved, expected_now[i] = one.compare(key, stored[i])
            if moved:
                expected.add(i)
    assert changed == expected and now == expected_now
    assert set(range(len(state.keys), len(keys) - 1)) <= changed  # the whole-table reads; "subclasses" later
    assert 0 < len(changed) < len(keys)
