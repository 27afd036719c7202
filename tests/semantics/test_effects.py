"""``deadinit.semantics.effects``: what an expression reads of ``self``, what a target stores into, fills,
escapes of ``self`` and calls of an ``__init__`` on the instance."""

import pytest
from semantic_snippets import expr, stmt

from deadinit.semantics import syntax as sx
from deadinit.semantics.dynamic import ANY
from deadinit.semantics.effects import (
    FieldWrite,
    InitCall,
    Reads,
    copied_fields,
    field_write,
    filled_attr,
    holds_self,
    init_call,
    literal_attr_of_self,
    reads_of,
    self_targets,
    store_nodes,
    super_attribute,
    super_method_call,
    super_on_self,
    target_names,
)


def test_reads_of_attributes_names_and_escapes(adapter):
    r = reads_of(expr("f(self.a, n, getattr(self, 'b'), hasattr(self, 'c'), build(self))", adapter), "self")
    assert r.attrs == ["a", "b", "c"]
    assert r.names == {"f", "n", "getattr", "hasattr", "build", "self"}  # every name mentioned, self as an argument too
    # getattr/hasattr take self without letting it escape; build may give it back, to f
    assert r.passes_self == ["f", "build"]
    assert r.dynamic == []


def test_reads_of_dynamic_access(adapter):
    r = reads_of(expr("getattr(self, k) + self.__dict__['w'] + len(vars(self))", adapter), "self")
    assert r.attrs == ["w", "__dict__"]  # the key read, and the storage loaded (keyed: no wholesale use)
    assert r.dynamic == [("getattr(self, <computed>) with any name", ANY), ("vars(self)", ANY)]
    named = reads_of(expr("getattr(self, k)", adapter), "self", {"k": ("names", ("x",))}.get)
    assert named.dynamic == [("getattr(self, <computed>) with one of x", ("names", ("x",)))]


def test_reads_of_nothing_without_a_self_name(adapter):
    r = reads_of(expr("self.a", adapter), None)
    assert r == Reads(names={"self"})
    assert reads_of(None, "self").attrs == []


def test_literal_attr_of_self(adapter):
    assert literal_attr_of_self(expr("getattr(self, 'x')", adapter), "self", ("getattr",)) == "x"
    assert literal_attr_of_self(expr("hasattr(self, 'x')", adapter), "self", ("getattr",)) is None
    assert literal_attr_of_self(expr("getattr(self, name)", adapter), "self", ("getattr",)) is None


def test_targets(adapter):
    target = stmt("a, (self.b, *c), self.d[0], self.e = v", adapter).targets[0]
    assert target_names(target) == ["a", "c"]
    assert self_targets(target, "self") == ["b", "e"]
    assert [type(n).__name__ for n in store_nodes(target)] == ["Name", "Attribute", "Name", "Attribute"]


def test_filled_attr(adapter):
    assert filled_attr(expr("self.items.append(x)", adapter), "self") == "items"
    assert filled_attr(expr("self.table.update(x)", adapter), "self") == "table"
    assert filled_attr(expr("self.items.pop()", adapter), "self") is None
    assert filled_attr(expr("other.items.append(x)", adapter), "self") is None


@pytest.mark.parametrize(
    ("source", "target", "start", "args"),
    [
        ("super().__init__(a, b=1)", "super", None, 2),
        ("super(Kid, self).__init__()", "super", "Kid", 0),
        ("Base.__init__(self, a)", "Base", None, 1),
        ("pkg.Base.__init__(self)", "pkg.Base", None, 0),
    ],
)
def test_init_call(source, target, start, args, adapter):
    found = init_call(expr(source, adapter), "self")
    assert isinstance(found, InitCall)
    assert (found.target, found.start, len(found.args)) == (target, start, args)


@pytest.mark.parametrize(
    "source", ["super(Kid, other).__init__()", "Base.__init__(other)", "make().__init__(self)", "self.setup()"]
)
def test_not_an_init_call_on_self(source, adapter):
    assert init_call(expr(source, adapter), "self") is None


def test_super_on_self_and_super_attribute(adapter):
    assert super_on_self(expr("super()", adapter), "self") == (True, None)
    assert super_on_self(expr("super(K, self)", adapter), "self") == (True, "K")
    assert super_on_self(expr("super(type(self), self)", adapter), "self") == (False, None)
    assert super_on_self(expr("super(*a)", adapter), "self") == (False, None)
    assert super_attribute(expr("super(K, self).forward", adapter), "self") == (True, "K")
    assert super_attribute(expr("self.forward", adapter), "self") == (False, None)


def test_super_method_call_names_the_method_and_its_call(adapter):
    name, call = super_method_call(expr("super().setup(a, k=1)", adapter), "self")
    assert (name, call.target, call.start, [x.keyword for x in call.args]) == ("setup", "super", None, [None, "k"])
    name, call = super_method_call(expr("super(Kid, self).build()", adapter), "self")
    assert (name, call.start, call.args) == ("build", "Kid", ())


@pytest.mark.parametrize(
    "source", ["super().__init__()", "super(Kid, other).setup()", "self.setup()", "Base.setup(self)", "super()()"]
)
def test_not_a_super_method_call(source, adapter):
    assert super_method_call(expr(source, adapter), "self") is None


@pytest.mark.parametrize("source", ["record(self)", "record(owner=self)"])
def test_reads_of_self_passed_whole(source, adapter):
    assert reads_of(expr(source, adapter), "self").passes_self == ["record"]


@pytest.mark.parametrize("source", ["record([self])", "record((self, 1))", "record({'o': self})", "record(x := self)"])
def test_reads_of_self_passed_inside_an_expression_escapes(source, adapter):
    assert reads_of(expr(source, adapter), "self").passes_self == ["record"]


@pytest.mark.parametrize("source", ['setattr(cfg, "f", None)', 'object.__setattr__(cfg, "f", None)'])
def test_field_write_of_a_literal_field_on_another_object(source, adapter):
    got = field_write(expr(source, adapter), "self")
    assert isinstance(got, FieldWrite) and (got.obj, got.field) == ("cfg", "f")
    assert isinstance(got.value, sx.Name) and got.value.id == "None"


@pytest.mark.parametrize(
    "source", ['setattr(self, "f", None)', "setattr(cfg, name, None)", 'setattr(cfg, "f")', 'print(cfg, "f", 1)']
)
def test_no_field_write(source, adapter):
    assert field_write(expr(source, adapter), "self") is None


def test_copied_fields_of_a_replaced_copy(adapter):
    canon = {"replace": "dataclasses.replace"}.get
    got = copied_fields(expr("replace(config, f=None, g=2)", adapter), "cfg", lambda n: canon(n, n))
    assert [(w.obj, w.field) for w in got] == [("cfg", "f"), ("cfg", "g")]
    assert copied_fields(expr("make(config, f=None)", adapter), "cfg", lambda n: n) == ()
    assert copied_fields(expr("config", adapter), "cfg", lambda n: n) == ()


@pytest.mark.parametrize(
    "source", ["self", "[self]", "{'o': self}", "(x := self)", "f(self)", "lambda: self", "(me, 1)", "self if c else 2"]
)
def test_holds_self(source, adapter):
    assert holds_self(expr(source, adapter), ("self", "me"))


@pytest.mark.parametrize("source", ["self.a", "[self.a, n]", "getattr(self, 'a')", "isinstance(self, K)", "other"])
def test_does_not_hold_self(source, adapter):
    assert not holds_self(expr(source, adapter), ("self", "me"))


def test_reads_of_an_alias_of_self(adapter):
    r = reads_of(expr("f(me.a, getattr(me, 'b'), hasattr(me, 'c'), g([me]))", adapter), "self", aliases=("me",))
    assert r.attrs == ["a", "b", "c"]
    assert r.passes_self == ["f", "g"]
    assert reads_of(expr("f(me.a, g([me]))", adapter), "self").attrs == []  # not an alias: another object
