"""The shared ``__init__`` unit model (``deadinit.fixes.init_units``) both fix strategies read."""

import textwrap

import libcst as cst

from deadinit.fixes.init_units import UnitKind
from deadinit.fixes.parsed import ParsedModule

SOURCE = """
import torch

_g = None


class Parent(Base):
    def __init__(me, n, *args, flag=False, **kw):
        global _g
        super().__init__(n, flag=flag)
        # workspace
        me.ws = torch.empty(n); size = n * 2
        me.items = []
        for i in range(size):
            me.items.append(torch.zeros(i))
        me.items[0] = None
        me.pool.start()
        me.count += 1
        other.x = me.ws
        x: int
        if flag:
            me.a = 1
        elif n:
            me.a = 2
        else:
            pass
        try:
            me.b = risky()
        except ValueError as err:
            me.b = err
        finally:
            done()
        with lock(me.ws) as held:
            me.c = held
        def helper(k=size):
            return me.items[k]
        match n:
            case 1:
                me.d = 1
        if n: me.e = n
"""


def parsed(source=SOURCE) -> ParsedModule:
    text = textwrap.dedent(source)
    return ParsedModule("m.py", text, cst.parse_module(text))


def body_of(sf: ParsedModule, cls="Parent"):
    cnode = next(s for s in sf.module.body if isinstance(s, cst.ClassDef) and s.name.value == cls)
    func = next(s for s in cnode.body.body if isinstance(s, cst.FunctionDef))
    return sf.init_body(func)


def test_units_mirror_the_libcst_statements():
    sf = parsed()
    body = body_of(sf)
    assert body.self_name == "me"
    assert body.params() == ["me", "n", "flag", "args", "kw"] and body.has_star()
    assert [u.kind for u in body.units] == [
        UnitKind.LINE, UnitKind.LINE, UnitKind.LINE, UnitKind.LINE, UnitKind.LOOP, UnitKind.LINE, UnitKind.LINE, UnitKind.LINE, UnitKind.LINE, UnitKind.LINE, UnitKind.IF, UnitKind.TRY, UnitKind.WITH, UnitKind.DEF, UnitKind.OTHER, UnitKind.IF,
    ]  # fmt: skip
    func_lines = body.func.body.body
    assert [u.node for u in body.units] == list(func_lines)
    assert all(body.by_node[id(u.node)] is u for u in body.walk())
    assert sf.init_body(body.func) is body  # parsed once


def test_a_line_of_two_statements_is_one_unit():
    body = body_of(parsed())
    line = body.units[2]
    assert line.start == line.end == 12 and line.lead == 1  # the comment above belongs to it
    assert [f.line for f in line.statements] == [12, 12] and [f.col for f in line.statements] == [8, 32]
    assert line.statements[0].node is line.node.body[0]
    assert line.self_assigns == ["ws"] and line.names_bound == {"size"}
    assert line.names_read == {"torch", "n"} and not line.untracked_writes


def test_writes_fills_and_untracked_writes():
    units = body_of(parsed()).units
    glob, sup, _, items, loop, item, pool, count, other, bare = units[:10]
    assert glob.globals_declared == {"_g"} and glob.weight == 0
    assert sup.statements[0].init_call.target == "super" and sup.untracked_writes
    assert items.self_assigns == ["items"]
    assert loop.names_bound == {"i"} and loop.self_reads == {} and loop.names_read == {"range", "size"}
    append = loop.blocks[0][0]
    assert append.self_fills == {"items"} and append.appends == ["items"] and not append.untracked_writes
    assert append.self_reads == {"items": append.start}
    assert item.self_fills == item.self_items == {"items"}
    assert pool.methods_called_on == {"pool"} and not pool.self_fills and pool.untracked_writes
    assert count.self_fills == {"count"} and "count" in count.self_reads
    assert other.untracked_writes and other.self_reads == {"ws": other.start}
    assert bare.weight == 0 and not bare.names_bound


def test_compound_statements_and_their_blocks():
    units = body_of(parsed()).units
    if_, try_, with_, def_, match, suite = units[10:]
    assert if_.self_reads == {} and if_.names_read == {"flag"}
    assert len(if_.blocks) == 2 and if_.blocks[0][0].self_assigns == ["a"]
    elif_ = if_.blocks[1][0]
    assert elif_.kind == UnitKind.IF and not elif_.can_wrap and elif_.blocks[1][0].weight == 0
    assert len(try_.blocks) == 3 and try_.names_bound == {"err"} and try_.names_read == {"ValueError"}
    assert with_.names_bound == {"held"} and with_.self_reads == {"ws": with_.start}
    assert with_.blocks[0][0].self_assigns == ["c"]
    assert def_.names_bound == {"helper"} and def_.names_read == {"size"} and "items" in def_.self_reads
    assert match.kind == UnitKind.OTHER and not match.blocks
    assert suite.blocks[0][0].node is suite.node.body  # ``if n: me.e = n``: the suite is the line
    assert suite.blocks[0][0].self_assigns == ["e"]


def test_init_call_at_finds_the_libcst_call():
    body = body_of(parsed())
    call = body.init_call_at(10)
    assert isinstance(call, cst.Call) and call is body.units[1].node.body[0].value
    assert body.init_call_at(9) is None


def test_nested_classes_and_suites():
    sf = parsed("class Outer:\n    class Inner:\n        def __init__(self): self.x = 1; super().__init__()\n")
    outer = sf.module.body[0]
    inner = outer.body.body[0]
    body = sf.init_body(inner.body.body[0])
    (line,) = body.units
    assert line.kind == UnitKind.LINE and line.self_assigns == ["x"] and line.node is body.func.body
    assert body.init_call_at(3) is line.node.body[1].value
