"""Rebuild the kept units of a sliced ``__init__`` into libcst statements (mixed into the inliner)."""

from __future__ import annotations

import libcst as cst

from deadinit.fixes.direct_base.slice import Unit

_PASS = cst.SimpleStatementLine([cst.Pass()])


class Rebuild:
    def _rebuild(self, units: list[Unit], owner: str, src, self_name: str, replace: dict) -> list:
        out: list = []
        line_node, smalls = None, []

        def flush():
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
            if u.kind == "small":
                if u.role == "super" and u.inline is not None:
                    flush()
                    out.extend(self._inline_call(owner, u.inline, u.receiver, replace))
                    continue
                if u.line_node is not line_node:
                    flush()
                    line_node = u.line_node
                smalls.append(u.node)
                continue
            flush()
            out.append(self._compound(u, owner, src, self_name, replace))
        flush()
        return out

    def _suite(self, suite, units, owner, src, self_name, replace):
        stmts = self._rebuild(units, owner, src, self_name, replace)
        if isinstance(suite, cst.IndentedBlock):
            return suite.with_changes(body=stmts or [_PASS])
        return cst.IndentedBlock(body=stmts or [_PASS])

    def _compound(self, u: Unit, owner, src, self_name, replace):
        n = u.node
        if u.kind in ("def", "opaque"):
            return n
        if u.kind == "if":
            body = self._suite(n.body, u.blocks[0], owner, src, self_name, replace)
            orelse = None
            if len(u.blocks) > 1 and any(x.keep for x in u.blocks[1]):
                if isinstance(n.orelse, cst.If):
                    sub = self._rebuild(u.blocks[1], owner, src, self_name, replace)
                    orelse = (
                        sub[0] if len(sub) == 1 and isinstance(sub[0], cst.If) else cst.Else(cst.IndentedBlock(sub))
                    )
                else:
                    orelse = n.orelse.with_changes(
                        body=self._suite(n.orelse.body, u.blocks[1], owner, src, self_name, replace)
                    )
            return n.with_changes(body=body, orelse=orelse)
        if u.kind in ("loop", "with"):
            body = self._suite(n.body, u.blocks[0], owner, src, self_name, replace)
            changes = {"body": body}
            if u.kind == "loop" and len(u.blocks) > 1:
                kept = any(x.keep for x in u.blocks[1])
                changes["orelse"] = (
                    n.orelse.with_changes(body=self._suite(n.orelse.body, u.blocks[1], owner, src, self_name, replace))
                    if kept
                    else None
                )
            return n.with_changes(**changes)
        if u.kind == "try":
            body = self._suite(n.body, u.blocks[0], owner, src, self_name, replace)
            handlers = [
                h.with_changes(body=self._suite(h.body, b, owner, src, self_name, replace))
                for h, b in zip(n.handlers, u.blocks[1 : 1 + len(n.handlers)])
            ]
            k = 1 + len(n.handlers)
            orelse = (
                n.orelse.with_changes(body=self._suite(n.orelse.body, u.blocks[k], owner, src, self_name, replace))
                if n.orelse is not None
                else None
            )
            final = (
                n.finalbody.with_changes(
                    body=self._suite(n.finalbody.body, u.blocks[k + 1], owner, src, self_name, replace)
                )
                if n.finalbody is not None
                else None
            )
            return n.with_changes(body=body, handlers=handlers, orelse=orelse, finalbody=final)
        return n
