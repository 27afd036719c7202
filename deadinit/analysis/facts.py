"""Turn the fixpoint's result into ``AttrFact``s with their evidence chain."""

from __future__ import annotations

from deadinit.analysis.chain import ChainStmt
from deadinit.analysis.conditions import condition_text
from deadinit.analysis.reach import short
from deadinit.analysis.unsure import unsure_for


def _self_values(events: list[ChainStmt], upto: int, index) -> dict:
    vals = {}
    for c in events[:upto]:
        st = c.stmt
        if st.kind == "assign" and st.value is not None and c.active is True:
            vals[st.attr] = (st.value, index.class_module[c.owner], c.env)
    return vals


def build_facts(an, cls, events, effective, killed, live, reach, mro, unsure, ev_reads, kept=None):
    kept = kept or {}
    from deadinit.analysis.liveness import AttrFact

    index = an.index
    groups: dict[tuple[str, str], list[int]] = {}
    for i, c in enumerate(events):
        if c.owner == cls or c.stmt.kind not in ("assign", "fill"):
            continue
        groups.setdefault((c.owner, c.stmt.attr), []).append(i)
    facts = []
    for (owner, attr), idxs in groups.items():
        live_idxs = [i for i in idxs if i in effective]
        if any(events[i].stmt.fill_kind == "append" and i in killed and i not in effective for i in idxs):
            # elements replaced one by one: the (cheap) empty list itself stays
            live_idxs = [i for i in live_idxs if events[i].stmt.value != ("empty",)]
        kept_by = sorted({a for i in live_idxs for a in kept.get(i, [])})
        if live_idxs and not (kept_by and all(i in kept for i in live_idxs)):
            continue
        module = index.class_module[owner]
        allocs = [(i, events[i].stmt.alloc) for i in idxs if events[i].stmt.alloc is not None]
        kind = None
        rep = None
        for i, a in allocs:
            kind = an.classify(a, module)
            if kind:
                rep = i
                break
        if kind is None:
            continue
        fills = [i for i in idxs if events[i].stmt.kind == "fill"]
        assigns = [i for i in idxs if events[i].stmt.kind == "assign"]
        if events[rep].stmt.kind == "fill" and assigns and any(events[j].stmt.value == ("empty",) for j in assigns):
            kind = f"list of {kind}"
        killers = [killed[i] for i in idxs if i in killed]
        # an allocation overwritten by the class itself (or one between) is DI001;
        # overwritten inside the same __init__ is not an inherited waste
        status = None
        killer = None
        alloc_idxs = [i for i in idxs if events[i].stmt.kind == "assign" and events[i].stmt.value != ("empty",)] or [
            i for i in idxs if events[i].stmt.alloc is not None
        ]
        if killers and all(i in killed for i in alloc_idxs):
            kj = max(killers)
            if events[kj].owner != owner:
                status, killer = "overwritten", events[kj]
        if status is None:
            if killers or attr in live:
                continue  # overwritten inside its own __init__, or read after all
            status = "unread"
        c = events[rep]
        alloc = c.stmt.alloc
        env = c.env
        size = an.folder.alloc_bytes(alloc, module, env, _self_values(events, rep, index))
        if (
            size is not None
            and alloc.kind not in ("container",)
            and fills
            and events[rep].stmt.kind == "fill"
            and events[rep].stmt.in_loop
        ):
            size = None  # filled in a loop: count unknown
        if size == 0:
            continue  # a known-empty allocation wastes nothing worth a finding
        fact = AttrFact(
            cls,
            attr,
            owner,
            status,
            [events[i] for i in idxs],
            alloc,
            kind,
            killer,
            size,
            conditional=any(events[i].active is None for i in idxs),
            condition=condition_text(events[rep].open_guards),
        )
        fact.kept_by = kept_by
        fact.evidence = _evidence(an, fact, events, idxs, reach, mro, live)
        fact.unsure = unsure_for(unsure, attr, an.index, mro)
        fact.external_judged = bool(an.ext.by_attr.get(attr))
        facts.append(fact)
    # attributes built from a dead one
    dead = {(f.attr) for f in facts}
    for f in facts:
        f.feeds = sorted(
            {
                events[i].stmt.attr
                for i, r in enumerate(ev_reads)
                if f.attr in r
                and events[i].stmt.kind in ("assign", "fill")
                and events[i].stmt.attr in dead
                and events[i].stmt.attr != f.attr
                and i not in effective
            }
        )
    return facts


def _ev(kind: str, text: str, path: str = "", line: int = 0) -> dict:
    return {"kind": kind, "text": text, "path": path, "line": line}


def _evidence(an, fact, events, idxs, reach, mro, live) -> list[dict]:
    index = an.index
    out = []
    for i in idxs:
        c = events[i]
        cond = "" if c.active is True else " (conditionally)"
        verb = "fills" if c.stmt.kind == "fill" else "assigns"
        out.append(_ev("allocated", f"{short(c.owner)}.__init__ {verb} self.{fact.attr}{cond}", c.path, c.stmt.line))
    chain_text = " -> ".join(f"{short(x)}.__init__" for x in _inits(events))
    out.append(_ev("chain", f"runs {chain_text}"))
    if fact.killer is not None:
        k = fact.killer
        out.append(
            _ev(
                "overwritten",
                f"{short(k.owner)}.__init__ re-assigns self.{fact.attr} on every path, before any read that counts",
                k.path,
                k.stmt.line,
            )
        )
        for i in idxs:
            for note in an._between.get(i, []):
                out.append(
                    _ev(
                        "read-between",
                        f"an element is read before being replaced: {note.replace('(read) ', 'self.')}; the fix must keep that value",
                    )
                )
        for h in getattr(fact, "kept_by", []):
            out.append(
                _ev(
                    "kept-alive",
                    f"the first value lives on inside self.{h}, which is live: not fixable by skipping the allocation",
                )
            )
    checked = sorted({f"{short(o)}.{m}" for o, m in reach.methods})
    out.append(
        _ev(
            "checked",
            f"{len(checked)} methods reachable on {short(fact.cls)} checked: "
            + ", ".join(checked[:40])
            + (" ..." if len(checked) > 40 else ""),
        )
    )
    # reads that exist but do not count
    reached = set(reach.methods)
    for qn in mro:
        for name, m in index.classes[qn].methods.items():
            if name == "__init__":
                continue
            if any(a == fact.attr for a, _, _ in m.reads) and (qn, name) not in reached:
                res = index.resolve_method(mro, name)
                if res is not None and res[0] != qn:
                    why = f"overridden by {short(res[0])}.{name}"
                else:
                    why = "not reachable on this class (no entry point calls it)"
                line = next(ln for a, ln, _ in m.reads if a == fact.attr)
                out.append(
                    _ev(
                        "read-not-counted",
                        f"{short(qn)}.{name} reads self.{fact.attr} but is {why}",
                        index.file_of(qn).path,
                        line,
                    )
                )
    for c in events:
        if (
            fact.attr in c.stmt.reads
            and c.stmt.kind in ("assign", "fill")
            and c.stmt.attr != fact.attr
            and c.owner != fact.cls
        ):
            out.append(
                _ev(
                    "read-not-counted",
                    f"{short(c.owner)}.__init__ reads it only to build self.{c.stmt.attr}, which is dead too",
                    c.path,
                    c.stmt.line,
                )
            )
    for a, mod in an.ext.by_attr.get(fact.attr, [])[:20]:
        ok, reason = an.ext.could_hold(a, mod, fact.cls)
        if not ok:
            out.append(
                _ev("external-not-counted", f"`{a.receiver}.{fact.attr}`: {reason}", index.modules[mod].path, a.line)
            )
        else:
            out.append(
                _ev(
                    "external-not-counted",
                    f"`{a.receiver}.{fact.attr}` is inside a class built only by dead statements",
                    index.modules[mod].path,
                    a.line,
                )
            )
    return out


def _inits(events) -> list[str]:
    seen = []
    for c in events:
        if c.owner not in seen:
            seen.append(c.owner)
    return seen
