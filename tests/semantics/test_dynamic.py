"""``deadinit.semantics.dynamic``: access to ``self``'s attributes by name, and which names it may reach."""

import pytest
from semantic_snippets import expr

from deadinit.model.kinds import PatternTag
from deadinit.semantics.dynamic import (
    ANY,
    RANGE_LIMIT,
    KeyedAccess,
    KeyedDynamic,
    KeyedRead,
    RangeLoop,
    Registered,
    access_of,
    describe,
    keyed_access,
    literal_attr_of,
    loop_names,
    matches,
    name_pattern,
    range_bounds,
    range_values,
    registered_names,
    storage_of,
    wholesale_use,
)
from deadinit.semantics.exprs import dotted


@pytest.mark.parametrize(
    ("source", "storage"),
    [("self.__dict__", True), ("self._modules", True), ("vars(self)", True), ("self.other", False), ("vars(x)", False)],
)
def test_storage_of(source, storage, adapter):
    node = expr(source, adapter)
    assert (storage_of(node, "self") is node) is storage


@pytest.mark.parametrize(
    ("source", "key"),
    [
        ("self.__dict__['w']", "w"),
        ("self._modules.get('w')", "w"),
        ("self._buffers.pop('w')", "w"),
        ("vars(self)['w']", "w"),
        ("getattr(self, 'w')", "w"),
        ("getattr(self, 'w', None)", "w"),
    ],
)
def test_keyed_access_finds_the_key(source, key, adapter):
    _, k = keyed_access(expr(source, adapter), "self")
    assert k.value == key


@pytest.mark.parametrize("source", ["self.items['w']", "getattr(other, 'w')", "self._modules.keys()", "getattr(self)"])
def test_not_keyed_access(source, adapter):
    assert keyed_access(expr(source, adapter), "self") is None


def test_name_pattern(adapter):
    assert name_pattern(expr("'w'", adapter)) == ("names", ("w",))
    assert name_pattern(expr("n", adapter)) == ANY
    assert name_pattern(expr("n", adapter), {"n": ("names", ("a", "b"))}.get) == ("names", ("a", "b"))
    assert name_pattern(expr("'pre_' + n", adapter)) == ("affix", "pre_", "")
    assert name_pattern(expr("n + '_buf'", adapter)) == ("affix", "", "_buf")
    assert name_pattern(expr("f'{k}_buffer'", adapter)) == ("affix", "", "_buffer")
    assert name_pattern(expr("a + b", adapter)) == ANY


def test_loop_names(adapter):
    assert loop_names(expr("('a', 'b')", adapter), "self") == ("names", ("a", "b"))
    assert loop_names(expr("['a', x]", adapter), "self") is None
    assert loop_names(expr("self._names", adapter), "self") == ("class-names", "_names")
    assert loop_names(expr("names", adapter), "self") is None


def test_describe_and_matches():
    listed = {"_names": ("w1", "w2")}.get
    cases = [
        (("names", ("a", "b")), "one of a, b", {"a": True, "c": False}),
        (("affix", "w", ""), "a name starting with 'w'", {"w1": True, "x": False}),
        (("affix", "", "_b"), "a name ending with '_b'", {"x_b": True, "x": False}),
        (("class-names", "_names"), "a name listed in self._names", {"w2": True, "q": False}),
        (("class-names", "_other"), "a name listed in self._other", {"q": True}),  # unknown list: anything
        (ANY, "any name", {"q": True}),
    ]
    for pattern, text, reach in cases:
        assert describe(pattern) == text
        for attr, want in reach.items():
            assert matches(pattern, attr, listed) is want, (pattern, attr)


def test_access_of_reads_a_literal_name_and_describes_a_computed_one(adapter):
    event, _ = access_of(expr("self.__dict__['w']", adapter), "self")
    assert event == KeyedRead("w")
    event, store = access_of(expr("getattr(self, name)", adapter), "self")
    assert event == KeyedDynamic("getattr(self, <computed>) with any name", ANY) and store.id == "self"
    event, _ = access_of(expr("self._modules.get(k + '_proj')", adapter), "self")
    reason = "self._modules.get(<computed>) with a name ending with '_proj'"
    assert event == KeyedDynamic(reason, (PatternTag.AFFIX, "", "_proj"))
    event, _ = access_of(expr("vars(self)[k]", adapter), "self", {"k": (PatternTag.NAMES, ("a",))}.get)
    assert isinstance(event, KeyedDynamic)
    assert event == KeyedDynamic("vars(self)[<computed>] with one of a", (PatternTag.NAMES, ("a",)))
    assert access_of(expr("self.x[k]", adapter), "self") is None
    assert isinstance(access_of(expr("getattr(self, 'w')", adapter), "self"), KeyedAccess)


def test_wholesale_use(adapter):
    assert wholesale_use(expr("self.__dict__", adapter), "self") == "self.__dict__"
    assert wholesale_use(expr("vars(self)", adapter), "self") == "vars(self)"
    assert wholesale_use(expr("self.x", adapter), "self") is None


@pytest.mark.parametrize(
    ("source", "values"),
    [
        ("range(2)", (0, 1)),
        ("range(1, 3)", (1, 2)),
        ("range(0)", ()),
        ("range(n)", None),
        ("range(0, 4, 2)", None),  # a step: not expanded
        (f"range({RANGE_LIMIT + 1})", None),
        ("(0, 1)", None),
        ("xrange(2)", None),
    ],
)
def test_range_values(source, values, adapter):
    assert range_values(expr(source, adapter)) == values


@pytest.mark.parametrize(
    ("source", "bounds"),
    [
        ("range(depth)", (("const", 0), ("name", "depth"))),
        ("range(1, self.depth)", (("const", 1), ("self", "depth"))),
        ("range(len(self.channels))", (("const", 0), ("call", "len", (("self", "channels"),), ()))),
        ("range(0, n, 2)", None),  # a step
        ("range(*ns)", None),
        ("(0, 1)", None),
    ],
)
def test_range_bounds(source, bounds, adapter):
    """The bounds a chain evaluates (``analysis.flow.chain``) when no literal decides the range."""
    assert range_bounds(expr(source, adapter), "self") == bounds
    if bounds is not None:
        loop = RangeLoop(*bounds, False, None)
        assert (loop.start, loop.stop, loop.values) == (*bounds, None)


@pytest.mark.parametrize(
    ("source", "names", "var"),
    [
        ('"proj"', ("proj",), None),
        ("self.norm_name", ("ln",), None),  # the literal self.norm_name holds
        ("self.other_name", (), None),
        ('f"norm{i}"', ("norm0", "norm1"), "i"),
        ('f"norm{i}_x"', ("norm0_x", "norm1_x"), "i"),
        ('f"norm{j}"', (), "j"),  # not a literal range's variable: a range the chain decides may name them
        ('f"{i}"', (), None),  # no literal prefix
        ('f"{p}{i}"', (), None),  # a prefix no literal fixes
        ("name", (), None),
    ],
)
def test_registered_names(source, names, var, adapter):
    literals = {"norm_name": "ln"}
    ranges = {"i": (0, 1)}
    got = registered_names(expr(source, adapter), "self", literals.get, ranges.get)
    assert got[:2] == (names, var)
    assert got[2] == (("norm", "_x" if "_x" in source else "") if var else ("", ""))
    assert Registered(names, None, expr(source, adapter), var).names == names


@pytest.mark.parametrize(
    ("source", "read"),
    [
        ('getattr(obj, "y")', ("obj", "y")),
        ('getattr(obj, "y", None)', ("obj", "y")),
        ('hasattr(model.layer, "w")', ("model.layer", "w")),  # what it answers changes with ``w`` there or not
        ('getattr(self, "y")', None),  # a read of self's own (``access_of``)
        ("getattr(obj, name)", None),  # computed
        ('getattr(obj, "not a name")', None),
        ('getattr(*args, "y")', None),
        ('setattr(obj, "y", 1)', None),
    ],
)
def test_literal_attr_of_another_object(source, read, adapter):
    got = literal_attr_of(expr(source, adapter), "self")
    assert (None if got is None else (dotted(got[0]), got[1])) == read
