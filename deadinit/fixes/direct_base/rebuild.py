"""Rebuild the kept units of a sliced ``__init__`` into libcst statements."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from deadinit.fixes.direct_base.slice import SliceKind, SliceRole, SliceUnit

_PASS = cst.SimpleStatementLine([cst.Pass()])

Replacements = dict[int, cst.BaseExpression]  # id(Name) -> the node put in its place
InlineCall = Callable[[str, cst.Call, str, Replacements], list[cst.BaseStatement]]


class UnitRebuilder:
    """``inline_call(owner, call, target, replace)``: the statements that replace a kept call
    of another dropped ``__init__`` (inlined in turn)."""

    def __init__(self, inline_call: InlineCall) -> None:
        self.inline_call = inline_call

    def rebuild(self, units: list[SliceUnit], owner: str, replace: Replacements) -> list[cst.BaseStatement]:
        out: list[cst.BaseStatement] = []
        line_node: cst.CSTNode | None = None
        smalls: list[cst.BaseSmallStatement] = []

        def flush() -> None:
            nonlocal line_node, smalls
            if smalls:
                smalls[-1] = smalls[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
                if isinstance(line_node, cst.SimpleStatementLine):
                    out.append(line_node.with_changes(body=smalls))
                else:
                    out.append(cst.SimpleStatementLine(body=smalls))
            line_node, smalls = None, []

        for u in units:
            if not u.keep:
                continue
            if u.kind == SliceKind.SMALL:
                if u.role == SliceRole.SUPER and u.inline is not None:
                    flush()
                    out.extend(self.inline_call(owner, u.inline, u.receiver, replace))
                    continue
                if u.line_node is not line_node:
                    flush()
                    line_node = u.line_node
                assert isinstance(u.node, cst.BaseSmallStatement)  # a SMALL unit's statement
                smalls.append(u.node)
                continue
            flush()
            out.append(self._compound(u, owner, replace))
        flush()
        return out

    def _suite(
        self, suite: cst.BaseSuite, units: list[SliceUnit], owner: str, replace: Replacements
    ) -> cst.IndentedBlock:
        stmts = self.rebuild(units, owner, replace)
        if isinstance(suite, cst.IndentedBlock):
            return suite.with_changes(body=stmts or [_PASS])
        return cst.IndentedBlock(body=stmts or [_PASS])

    def _compound(self, u: SliceUnit, owner: str, replace: Replacements) -> cst.BaseStatement:
        n = u.node
        assert isinstance(n, cst.BaseCompoundStatement)  # the statement of a compound unit
        if u.kind in (SliceKind.DEF, SliceKind.OPAQUE):
            return n
        if u.kind == SliceKind.IF:
            assert isinstance(n, cst.If)
            body = self._suite(n.body, u.blocks[0], owner, replace)
            orelse: cst.If | cst.Else | None = None
            if len(u.blocks) > 1 and any(x.keep for x in u.blocks[1]):
                if isinstance(n.orelse, cst.If):
                    sub = self.rebuild(u.blocks[1], owner, replace)
                    orelse = (
                        sub[0] if len(sub) == 1 and isinstance(sub[0], cst.If) else cst.Else(cst.IndentedBlock(sub))
                    )
                elif n.orelse is not None:
                    orelse = n.orelse.with_changes(body=self._suite(n.orelse.body, u.blocks[1], owner, replace))
            return n.with_changes(body=body, orelse=orelse)
        if u.kind in (SliceKind.LOOP, SliceKind.WITH):
            assert isinstance(n, (cst.For, cst.While, cst.With))
            body = self._suite(n.body, u.blocks[0], owner, replace)
            changes: dict[str, cst.CSTNode | None] = {"body": body}
            if isinstance(n, (cst.For, cst.While)) and len(u.blocks) > 1:
                kept = any(x.keep for x in u.blocks[1])
                changes["orelse"] = (
                    n.orelse.with_changes(body=self._suite(n.orelse.body, u.blocks[1], owner, replace))
                    if kept and n.orelse is not None
                    else None
                )
            return n.with_changes(**changes)
        if u.kind == SliceKind.TRY:
            assert isinstance(n, (cst.Try, cst.TryStar))
            body = self._suite(n.body, u.blocks[0], owner, replace)
            old: Sequence[cst.ExceptHandler | cst.ExceptStarHandler] = n.handlers
            handlers = [
                h.with_changes(body=self._suite(h.body, b, owner, replace))
                for h, b in zip(old, u.blocks[1 : 1 + len(n.handlers)], strict=True)
            ]
            k = 1 + len(n.handlers)
            orelse = (
                n.orelse.with_changes(body=self._suite(n.orelse.body, u.blocks[k], owner, replace))
                if n.orelse is not None
                else None
            )
            final = (
                n.finalbody.with_changes(body=self._suite(n.finalbody.body, u.blocks[k + 1], owner, replace))
                if n.finalbody is not None
                else None
            )
            return n.with_changes(body=body, handlers=handlers, orelse=orelse, finalbody=final)
        return n
