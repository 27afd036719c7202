"""The index's per-module tables, built per module on first read, hold what tables built for
every module at once hold; reading one module's entry unpickles that module's names only."""

import dataclasses
import pickle
from pathlib import Path

from deadinit.api.check import summarize
from deadinit.index.lazy_tables import BuiltOnRead, ModuleFunctions, bound_digest, bound_names
from deadinit.index.project_index import ProjectIndex
from deadinit.model.settings import Settings
from deadinit.model.summary import MODULE_NAMES

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _summaries():
    sums, errors, _ = summarize([str(FIXTURES)], Settings())
    assert not errors, errors
    return [pickle.loads(pickle.dumps(s)) for s in sums]  # as a cached run reads them


def _eager(modules) -> dict:
    """The tables as built for every module at once."""
    return {
        "constants": {m: s.constants for m, s in modules.items()},
        "imports": {m: {i.local: i for i in s.imports if i.local != "*"} for m, s in modules.items()},
        "stars": {m: [i for i in s.imports if i.local == "*"] for m, s in modules.items()},
        "toplevel": {
            m: {c.name: c.qualname for c in s.classes if c.qualname == f"{m}.{c.name}"} for m, s in modules.items()
        },
        "functions_in": {
            m: {name: f"{m}.{name}" for name in (*s.functions, *s.return_types)} for m, s in modules.items()
        },
        "function": {f"{m}.{name}": (m, name, r) for m, s in modules.items() for name, r in s.functions.items()},
    }


def test_tables_built_on_read_are_the_eager_ones():
    index = ProjectIndex(_summaries())
    tables = {
        "constants": index.constants.data,
        "imports": index._imports.data,
        "stars": index._stars.data,
        "toplevel": index._toplevel.data,
        "functions_in": index._functions.data,
        "function": index.functions.data,
    }
    eager = _eager(index.modules.data)
    assert eager["function"], "the fixtures define functions that return allocations"
    for kind, table in tables.items():
        assert list(table) == list(eager[kind]), kind  # the same keys, in the same order
        assert len(table) == len(eager[kind])
        assert dict(table.items()) == eager[kind], kind
        assert "no.such.module" not in table and table.get("no.such.module", 7) == 7


def test_reading_one_module_unpickles_its_names_only():
    index = ProjectIndex(_summaries())
    assert not any(set(MODULE_NAMES) & s.__dict__.keys() for s in index.modules.data.values())
    module = list(index.modules.data)[3]
    index.import_of(module, "torch")
    index.constant_of(module, "X")
    unpickled = [m for m, s in index.modules.data.items() if set(MODULE_NAMES) & s.__dict__.keys()]
    assert unpickled == [module]


def test_module_functions_and_built_on_read():
    table = BuiltOnRead({"a": 1, "b": 2}, lambda v: [v])
    assert table["b"] == [2] and table["b"] is table["b"] and table.get("c") is None and list(table) == ["a", "b"]
    functions = ModuleFunctions({})
    assert "f" not in functions and ".f" not in functions and functions.get("m.f", 0) == 0 and len(functions) == 0


def test_bound_digest_tells_bound_names_apart():
    summaries = _summaries()
    fresh, _, _ = summarize([str(FIXTURES)], Settings())
    for s, again in zip(summaries, fresh, strict=True):  # unpickled or fresh: other objects, the same names
        assert bound_digest(s) == bound_digest(again)
    digests = {bound_digest(s): bound_names(s) for s in summaries}
    assert len(digests) == len(summaries)
    s = next(s for s in summaries if s.imports and s.classes)
    moved = dataclasses.replace(s, imports=[dataclasses.replace(i, line=i.line + 7) for i in s.imports])
    assert bound_names(moved) == bound_names(s) and bound_digest(moved) == bound_digest(s)  # lines are not names
    first = s.imports[0]
    for change in ({"local": first.local + "_x"}, {"module": first.module + ".x"}, {"level": first.level + 1}):
        other = dataclasses.replace(s, imports=[dataclasses.replace(first, **change), *s.imports[1:]])
        assert bound_names(other) != bound_names(s) and bound_digest(other) != bound_digest(s)
    with_class = dataclasses.replace(s, classes=[*s.classes, dataclasses.replace(s.classes[0], qualname="x.Y")])
    assert bound_digest(with_class) != bound_digest(s)
