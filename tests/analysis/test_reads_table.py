"""``ReadsByAttr`` holds what the eager table of every ``obj.x`` read held, in the same order,
whether the summaries were pickled or not."""

import pickle
from pathlib import Path

from deadinit.analysis.reads.table import ReadsByAttr
from deadinit.frontends.parse import summarize_source
from deadinit.model.settings import Settings

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _modules(pickled: bool):
    out = {}
    for p in sorted(FIXTURES.rglob("*.py")):
        s = summarize_source(
            p.read_bytes(), str(p), str(p.relative_to(FIXTURES))[:-3].replace("/", "."), False, Settings()
        )
        if not isinstance(s, Exception):
            out[s.module] = pickle.loads(pickle.dumps(s)) if pickled else s
    return out


def _eager(modules):
    table: dict = {}
    for mod, s in modules.items():
        for a in s.accesses:
            if not a.on_module:
                table.setdefault(a.attr, []).append((a, mod))
    return table


def test_same_reads_as_the_eager_table():
    plain = _modules(pickled=False)
    expected = _eager(plain)
    for modules in (plain, _modules(pickled=True)):
        table = ReadsByAttr(modules)
        assert set(table) == set(expected) and len(table) == len(expected)
        for attr, reads in expected.items():
            assert attr in table
            assert [(m, t[0]) for m, t in table.places(attr)] == _counts(reads)
            assert table.shapes(attr) == [(m, t[1]) for m, t in table.places(attr)]
            assert [table.line_at(attr, i) for i in range(len(reads) + 1)] == [(m, a.line) for a, m in reads] + [None]
            assert table[attr] == reads
        assert "no_such_attribute_anywhere" not in table


def test_readers_weight_sums_the_weights_of_the_modules_that_read():
    modules = _modules(pickled=True)
    table = ReadsByAttr(modules)
    assert table.modules() == list(modules)
    weights = [3**k for k in range(len(modules))]  # each module's share can be told apart
    number = {m: k for k, m in enumerate(modules)}
    for attr, reads in _eager(_modules(pickled=False)).items():
        readers = [m for m, _ in _counts(reads)]
        assert table.readers_weight(attr, weights) == (sum(weights[number[m]] for m in readers), len(readers))
    assert table.readers_weight("no_such_attribute_anywhere", weights) == (0, 0)


def test_only_the_asked_reads_are_unpickled():
    modules = _modules(pickled=True)
    table = ReadsByAttr(modules)
    attr = next(iter(table))
    table[attr]
    for s in modules.values():
        if s.accesses:
            assert s.accesses._data is None  # never the whole list
            assert set(s.accesses._groups) <= {attr}


def _counts(reads):
    out: list = []
    for _, mod in reads:
        if out and out[-1][0] == mod:
            out[-1] = (mod, out[-1][1] + 1)
        else:
            out.append((mod, 1))
    return out
