"""Keep an edited signature or call within the line length the file already uses.

After a parameter or keyword argument is appended, a line that grew past the limit
is re-laid out the way black would: first all arguments on one indented line
between the parentheses, and when that is still too long, one per line with a
trailing comma.  Lines that fit are left exactly as they were.
"""

from __future__ import annotations

from typing import TypeVar

import libcst as cst

_Element = TypeVar("_Element", cst.Arg, cst.Param)  # an argument or a parameter: what a signature or call lays out

_EMPTY = cst.Module(body=[])


def _pw(extra: str) -> cst.ParenthesizedWhitespace:
    return cst.ParenthesizedWhitespace(
        first_line=cst.TrailingWhitespace(), empty_lines=[], indent=True, last_line=cst.SimpleWhitespace(extra)
    )


def _too_long(code: str, column: int, limit: int) -> bool:
    lines = code.split("\n")
    return column + len(lines[0]) > limit or any(column + len(ln) > limit for ln in lines[1:])


def _header(func: cst.FunctionDef) -> str:
    code = _EMPTY.code_for_node(
        func.with_changes(body=cst.SimpleStatementSuite(body=[cst.Pass()]), leading_lines=[], decorators=[])
    ).rstrip("\n")
    return code[: -len(" pass")] if code.endswith(" pass") else code


def _relayout(elements: list[_Element], ws_attr: str, indent: str, one_per_line: bool) -> list[_Element]:
    out: list[_Element] = []
    for i, el in enumerate(elements):
        last = i == len(elements) - 1
        if one_per_line:
            out.append(
                el.with_changes(
                    comma=cst.Comma(whitespace_after=_pw("" if last else indent)), **{ws_attr: cst.SimpleWhitespace("")}
                )
            )
        else:
            comma: cst.Comma | cst.MaybeSentinel = (
                cst.MaybeSentinel.DEFAULT if last else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            )
            out.append(el.with_changes(comma=comma, **{ws_attr: _pw("") if last else cst.SimpleWhitespace("")}))
    return out


def fit_call(call: cst.Call, column: int, limit: int, indent: str) -> cst.Call:
    """``call`` starts a statement at ``column``; lay its arguments out to fit ``limit``."""
    if not _too_long(_EMPTY.code_for_node(call), column, limit) or any(a.star for a in call.args):
        return call
    for one in (False, True):
        args = _relayout(list(call.args), "whitespace_after_arg", indent, one)
        new = call.with_changes(args=args, whitespace_before_args=_pw(indent))
        if one or not _too_long(_EMPTY.code_for_node(new), column, limit):
            return new
    return call  # pragma: no cover


def fit_params(func: cst.FunctionDef, column: int, limit: int, indent: str) -> cst.FunctionDef:
    """Lay the parameters of ``func`` (defined at ``column``) out to fit ``limit``."""
    if not _too_long(_header(func), column, limit):
        return func
    p = func.params
    if p.star_arg is not cst.MaybeSentinel.DEFAULT or p.star_kwarg is not None or p.posonly_params:
        return func  # unusual signatures are left as written
    for one in (False, True):
        params = _relayout(list(p.params) + list(p.kwonly_params), "whitespace_after_param", indent, one)
        new = func.with_changes(
            params=p.with_changes(params=params[: len(p.params)], kwonly_params=params[len(p.params) :]),
            whitespace_before_params=_pw(indent),
        )
        if one or not _too_long(_header(new), column, limit):
            return new
    return func  # pragma: no cover
