"""The small node interface the semantic model reads: one tree shape for both parsers.

``deadinit.frontends.ast_adapter`` (CPython's ``ast``) and
``deadinit.frontends.cst_adapter`` (libcst) turn a module into these nodes; the
semantic model and the summary builder read nothing else, so both parsers give the
same facts by construction (a property test and a corpus test check the adapters).

Positions are libcst's: 1-based lines, 0-based *character* columns, the start of
the node's own text (an attribute ``a.b`` starts at ``a``; a decorated function at
``def``).  Children keep source order, which is the order facts are recorded in.
Only what the model reads is kept: operators as short strings, identifiers as
``str``, literals as Python values; anything the model has no rule for is an
``Other`` (expression) or ``OtherStmt`` (statement) that still holds its children.

The nodes are defined in ``node`` (the base), ``expressions`` and
``statements`` of this package; the rest of deadinit reads them through this module
(``from deadinit.semantics import syntax as sx``).
"""

from __future__ import annotations

from deadinit.semantics.syntax.expressions import (
    Arg,
    Attribute,
    BinOp,
    BoolOp,
    Call,
    Compare,
    Comprehension,
    Const,
    Dict,
    DictItem,
    Expr,
    FString,
    Generator,
    IfExp,
    Lambda,
    Name,
    Other,
    Param,
    ParamGroup,
    Sequence,
    Starred,
    Subscript,
    UnaryOp,
)
from deadinit.semantics.syntax.node import Node
from deadinit.semantics.syntax.statements import (
    AnnAssign,
    Assert,
    Assign,
    AugAssign,
    Body,
    ClassDef,
    Delete,
    ExprStmt,
    For,
    FunctionDef,
    Handler,
    If,
    Import,
    ImportName,
    Module,
    Names,
    OtherStmt,
    Raise,
    Return,
    Simple,
    Stmt,
    Try,
    While,
    With,
    WithItem,
)
from deadinit.semantics.syntax.words import Jump, NameScope, OtherWhat

__all__ = [
    "AnnAssign",
    "Arg",
    "Assert",
    "Assign",
    "Attribute",
    "AugAssign",
    "BinOp",
    "Body",
    "BoolOp",
    "Call",
    "ClassDef",
    "Compare",
    "Comprehension",
    "Const",
    "Delete",
    "Dict",
    "DictItem",
    "Expr",
    "ExprStmt",
    "FString",
    "For",
    "FunctionDef",
    "Generator",
    "Handler",
    "If",
    "IfExp",
    "Import",
    "ImportName",
    "Jump",
    "Lambda",
    "Module",
    "Name",
    "NameScope",
    "Names",
    "Node",
    "Other",
    "OtherStmt",
    "OtherWhat",
    "Param",
    "ParamGroup",
    "Raise",
    "Return",
    "Sequence",
    "Simple",
    "Starred",
    "Stmt",
    "Subscript",
    "Target",
    "Try",
    "UnaryOp",
    "While",
    "With",
    "WithItem",
]

Target = Name | Attribute | Subscript | Sequence | Starred
