"""What the libcst adapter (``deadinit.frontends.cst_adapter``) writes for libcst's operator and container
nodes: the short strings of ``deadinit.semantics.syntax``."""

from __future__ import annotations

import libcst as cst

BINOPS = {
    cst.Add: "+",
    cst.Subtract: "-",
    cst.Multiply: "*",
    cst.Divide: "/",
    cst.FloorDivide: "//",
    cst.Modulo: "%",
    cst.Power: "**",
    cst.LeftShift: "<<",
    cst.RightShift: ">>",
    cst.BitAnd: "&",
    cst.BitOr: "|",
    cst.BitXor: "^",
    cst.MatrixMultiply: "@",
}
AUGOPS = {
    cst.AddAssign: "+",
    cst.SubtractAssign: "-",
    cst.MultiplyAssign: "*",
    cst.DivideAssign: "/",
    cst.FloorDivideAssign: "//",
    cst.ModuloAssign: "%",
    cst.PowerAssign: "**",
    cst.LeftShiftAssign: "<<",
    cst.RightShiftAssign: ">>",
    cst.BitAndAssign: "&",
    cst.BitOrAssign: "|",
    cst.BitXorAssign: "^",
    cst.MatrixMultiplyAssign: "@",
}
CMPOPS = {
    cst.Equal: "==",
    cst.NotEqual: "!=",
    cst.LessThan: "<",
    cst.LessThanEqual: "<=",
    cst.GreaterThan: ">",
    cst.GreaterThanEqual: ">=",
    cst.Is: "is",
    cst.IsNot: "is not",
    cst.In: "in",
    cst.NotIn: "not in",
}
UNARY = {cst.Not: "not", cst.Minus: "-", cst.Plus: "+", cst.BitInvert: "~"}
SEQUENCES = {cst.Tuple: "tuple", cst.List: "list", cst.Set: "set"}
COMPREHENSIONS = {cst.ListComp: "list", cst.SetComp: "set", cst.GeneratorExp: "generator"}
