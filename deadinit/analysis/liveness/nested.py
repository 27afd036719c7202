"""Parts of sub-objects that a later ``__init__`` replaces: ``self.self_attn.qkv_proj = build(...)``.

When a class's ``__init__`` chain builds ``self.block = Block(...)`` (an exact
construction of a project class) and a later ``__init__`` of the chain, in another
class, assigns ``self.block.proj`` on every path with no read of ``self.block`` in
between, whatever ``Block.__init__`` allocated for ``proj`` is thrown away, unless
``Block.__init__`` reads it after building it.  The fact is reported against the
class whose ``__init__`` allocated the part, with the chain of attributes in the
evidence.  Deeper paths (``self.model.layers.mlp = ...``) follow one exact
construction per attribute.
"""

from __future__ import annotations

from deadinit.analysis.facts import Analysis, AttrFact, Fixpoint, Overwrite
from deadinit.analysis.flow.chain import ChainStmt, init_chain
from deadinit.analysis.reads.unsure import unsure_for
from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.kinds import InitStmtKind
from deadinit.model.qualnames import short_name
from deadinit.model.summary import AllocInfo

MAX_DEPTH = 4
BINDINGS = ("assign", "kill", "delete", "fill", "nested")


def nested_facts(
    an: Analysis, cls: str, fp: Fixpoint, mro: list[str], unsure: list[tuple[str, tuple[object, ...]]]
) -> list[AttrFact]:
    """The facts ``an.reported`` keeps for parts replaced through ``self.<a>.<b> = ...`` in ``cls``'s chain."""
    events = fp.events
    out = []
    for j, k in enumerate(events):
        st = k.stmt
        if st.kind != InitStmtKind.NESTED or not k.definite or not st.attr:
            continue
        path = st.attr.split(".")
        if len(path) > MAX_DEPTH:
            continue
        i = next((m for m in range(j - 1, -1, -1) if _binds(events[m], path[0])), None)
        if i is None:
            continue
        built = events[i]
        if built.stmt.kind != InitStmtKind.ASSIGN or not built.definite or built.owner == k.owner:
            continue  # replaced in the __init__ that built it: no inherited waste
        if any(path[0] in fp.reads[m] for m in range(i + 1, j)):
            continue  # the object is used before its part is replaced
        holder = _constructed(an, built, mro)
        for attr in path[1:-1]:
            if holder is None:
                break
            inner = _part(an, holder, attr)
            holder = _constructed(an, inner[0], an.index.mro(holder) or [holder]) if inner is not None else None
        part = _part(an, holder, path[-1]) if holder is not None else None
        if part is None:
            continue
        binding, alloc, kind = part
        fact = AttrFact(
            cls,
            st.attr,
            binding.owner,
            [binding],
            alloc,
            kind,
            overwrites=[Overwrite(binding, k)],
            allocations_overwritten=True,
            part_of=path[0],
        )
        if not an.reported(fact):
            continue
        fact.evidence = _evidence(fact, built, k, holder or "")
        fact.unsure = unsure_for(unsure, path[0], an.index, mro)
        out.append(fact)
    return out


def _binds(c: ChainStmt, attr: str) -> bool:
    st = c.stmt
    return st.kind in BINDINGS and st.attr is not None and (st.attr == attr or st.attr.startswith(attr + "."))


def _constructed(an: Analysis, c: ChainStmt, mro: list[str]) -> str | None:
    """The project class ``c`` assigns an exact construction of, if any."""
    module = an.index.class_module[c.owner]
    alloc: AllocInfo | None = c.stmt.alloc
    if alloc is None and c.stmt.call is not None:
        got = an.returns.resolve(c.stmt.call, module, mro)
        alloc, module = (got.alloc, got.module) if got is not None else (None, module)
    if alloc is None or not alloc.callee or not alloc.callee.split(".")[-1][:1].isupper():
        return None
    return an.index.resolve(module, alloc.callee)


def _part(an: Analysis, holder: str, attr: str) -> tuple[ChainStmt, AllocInfo, str] | None:
    """The binding of ``attr`` that ``holder``'s ``__init__`` chain leaves, when it is a definite allocation
    nothing in that chain reads, calls a method on self after, or lets self escape after."""
    index = an.index
    chain = init_chain(index, holder)
    if chain.broken is not None:
        return None
    events = [c for c in chain.stmts if c.active is not False]
    last = next((m for m in range(len(events) - 1, -1, -1) if _binds(events[m], attr)), None)
    if last is None:
        return None
    c = events[last]
    if c.stmt.kind != InitStmtKind.ASSIGN or c.stmt.attr != attr or not c.definite:
        return None
    mro = index.mro(holder) or [holder]
    methods = {name for qn in mro for name in index.classes[qn].methods}
    for later in events[last + 1 :]:
        s = later.stmt
        if attr in s.reads or s.passes_self or methods & set(s.reads) or s.kind == InitStmtKind.SUPER_INIT:
            return None
    module = index.class_module[c.owner]
    alloc = c.stmt.alloc
    if alloc is None and c.stmt.call is not None:
        got = an.returns.resolve(c.stmt.call, module, mro)
        alloc, module = (got.alloc, got.module) if got is not None else (None, module)
    kind = an.classify(alloc, module) if alloc is not None else None
    if alloc is None or not kind:
        return None
    return c, alloc, kind


def _evidence(fact: AttrFact, built: ChainStmt, k: ChainStmt, holder: str) -> list[Evidence]:
    head = fact.attr.split(".")[0]
    b = fact.stmts[0]
    part = fact.attr.rsplit(".", 1)[-1]
    return [
        Evidence(EvidenceKind.ALLOCATED, f"{short_name(b.owner)}.__init__ assigns self.{part}", b.path, b.stmt.line),
        Evidence(
            EvidenceKind.CHAIN,
            f"self.{head} is built by {short_name(built.owner)}.__init__; self.{fact.attr} is the part "
            f"{short_name(holder)} holds as {part}",
            built.path,
            built.stmt.line,
        ),
        Evidence(
            EvidenceKind.OVERWRITTEN,
            f"{short_name(k.owner)}.__init__ replaces self.{fact.attr} on every path, "
            f"with no read of self.{head} before",
            k.path,
            k.stmt.line,
        ),
        Evidence(
            EvidenceKind.CHECKED,
            f"{short_name(b.owner)}.__init__ neither reads {part} after building it nor calls a method of self or "
            "lets self escape",
        ),
    ]
