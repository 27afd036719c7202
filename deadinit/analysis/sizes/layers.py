"""Parameters of the common layers, from their constructor arguments.

A layer is recognised by its class name, or the name of a class in its MRO, for
project classes (``ColumnParallelLinear(LinearBase)`` is a linear layer): ``...Linear``,
``...Embedding``, ``...Norm``, ``...Conv1d/2d/3d``.  Its arguments are bound to its
parameters by name (a project class's own ``__init__``, else the ``torch.nn``
signature), and the sizes come from the names the parameters conventionally carry
(``in_features`` / ``input_size``, ``num_embeddings``...).  A layer whose parameters do
not carry those names is not a layer here: a project class is then summed from its
``__init__`` instead.
"""

from __future__ import annotations

import re

from deadinit.analysis.sizes.symbolic import Poly, Size
from deadinit.analysis.sizes.values import Context, Values, truth
from deadinit.model.kinds import AllocKind, ExprTag, ParamKind
from deadinit.model.summary import AllocInfo, Expr, MethodSummary

TORCH_SIGNATURES: dict[str, tuple[tuple[str, ...], dict[str, bool]]] = {
    "Linear": (("in_features", "out_features", "bias"), {"bias": True}),
    "Embedding": (("num_embeddings", "embedding_dim"), {}),
    "EmbeddingBag": (("num_embeddings", "embedding_dim"), {}),
    "LayerNorm": (
        ("normalized_shape", "eps", "elementwise_affine", "bias"),
        {"elementwise_affine": True, "bias": True},
    ),
    "RMSNorm": (("normalized_shape", "eps", "elementwise_affine"), {"elementwise_affine": True}),
    "GroupNorm": (("num_groups", "num_channels", "eps", "affine"), {"affine": True}),
    "BatchNorm1d": (("num_features", "eps", "momentum", "affine"), {"affine": True}),
    "BatchNorm2d": (("num_features", "eps", "momentum", "affine"), {"affine": True}),
    "BatchNorm3d": (("num_features", "eps", "momentum", "affine"), {"affine": True}),
}
CONV_SIGNATURE = ("in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups", "bias")
PARAMETER_FREE = re.compile(
    r"^(Identity|Dropout\w*|ReLU6?|GELU|SiLU|Mish|Tanh|Sigmoid|Softmax|LogSoftmax|Softplus|LeakyReLU|ELU|SELU|"
    r"Hardswish|Hardtanh|Hardsigmoid|GLU|Flatten|Unflatten|Upsample\w*|PixelShuffle|PixelUnshuffle|"
    r"\w*Pool[123]d|\w*Pad[123]d)$"
)
IN = ("in_features", "input_size", "in_dim", "input_dim")
OUT = ("out_features", "output_size", "out_dim", "output_dim")
NORM_SIZE = ("normalized_shape", "hidden_size", "num_features", "num_channels", "dim", "d_model")
CONV_KIND = re.compile(r"Conv(?:Transpose)?([123])d$")


def layer_kind(names: list[str]) -> str | None:
    """``linear`` / ``embedding`` / ``norm`` / ``conv1d``... for the first class name in ``names`` that says."""
    for n in names:
        m = CONV_KIND.search(n)
        if m:
            return f"conv{m.group(1)}"
        if n.endswith("Linear"):
            return "linear"
        if n.endswith("Embedding") or n.endswith("EmbeddingBag"):
            return "embedding"
        if n.endswith("Norm") or re.search(r"Norm[123]d$", n):
            return "norm"
    return None


def layer_parameters(
    values: Values,
    alloc: AllocInfo,
    ctx: Context,
    mro_names: list[str] | None,
    method: MethodSummary | None,
    width: Poly,
) -> Size | None:
    """The bytes of a layer's parameters (``width`` bytes each), or None when ``alloc`` is not a
    layer this module knows.  ``mro_names``: the class names of a project class's MRO, None
    for a class from outside the project."""
    last = alloc.callee.rsplit(".", 1)[-1]
    torch_layer = alloc.kind == AllocKind.MODULE and mro_names is None
    if torch_layer and PARAMETER_FREE.match(last):
        return Size(Poly.const(0))
    kind = layer_kind([last] if torch_layer else mro_names or [])
    if kind is None:
        return None
    if method is not None and mro_names is not None:
        order = tuple(p.name for p in method.params if p.kind in (ParamKind.POSONLY, ParamKind.NORMAL))
        defaults = {p.name: truth(p.default) for p in method.params if p.default is not None}
        if "bias" not in order and not any(p.name == "bias" for p in method.params):
            defaults["bias"] = False  # a project layer without a ``bias`` parameter: its weights only
    elif torch_layer:
        fallback = (CONV_SIGNATURE, {"bias": True}) if kind.startswith("conv") else ((), {})
        order, flags = TORCH_SIGNATURES.get(last, fallback)
        defaults = dict(flags)
    else:
        return None
    args = _bound(order, alloc)
    count = _count(values, kind, last, args, defaults, ctx)
    if count is None:
        return None
    total = count.mul(width)
    return Size(total) if total is not None else None


def _bound(order: tuple[str, ...], alloc: AllocInfo) -> dict[str, Expr]:
    out = dict(zip(order, alloc.args, strict=False))
    out.update(alloc.kwargs)
    return out


def _flag(name: str, args: dict[str, Expr], defaults: dict[str, bool | None], fallback: bool) -> bool | None:
    if name in args:
        return truth(args[name])
    d = defaults.get(name)
    return fallback if d is None and name not in defaults else d


def _first(args: dict[str, Expr], names: tuple[str, ...]) -> Expr | None:
    return next((args[n] for n in names if n in args), None)


def _count(
    values: Values, kind: str, last: str, args: dict[str, Expr], defaults: dict[str, bool | None], ctx: Context
) -> Poly | None:
    """The number of parameters."""
    v = values.value
    if kind == "linear":
        if "head_size" in args and "total_num_heads" in args and "hidden_size" in args:
            return _qkv(values, args, defaults, ctx)
        a, b = _first(args, IN), _first(args, OUT)
        if a is None or b is None:
            return None
        n_in, n_out = v(a, ctx), v(b, ctx)
        bias = _flag("bias", args, defaults, True)
        if n_in is None or n_out is None or bias is None:
            return None
        weight = n_in.mul(n_out)
        return weight.add(n_out) if weight is not None and bias else weight
    if kind == "embedding":
        a, b = args.get("num_embeddings"), args.get("embedding_dim")
        n = v(a, ctx) if a is not None else None
        d = v(b, ctx) if b is not None else None
        return n.mul(d) if n is not None and d is not None else None
    if kind == "norm":
        return _norm(values, last, args, defaults, ctx)
    return _conv(values, int(kind[-1]), args, defaults, ctx)


def _qkv(values: Values, args: dict[str, Expr], defaults: dict[str, bool | None], ctx: Context) -> Poly | None:
    """A fused query/key/value projection: ``hidden * head_size * (heads + 2 * kv_heads)`` (+ bias)."""
    v = values.value
    hidden, head, heads = v(args["hidden_size"], ctx), v(args["head_size"], ctx), v(args["total_num_heads"], ctx)
    kv_expr = args.get("total_num_kv_heads")
    kv = v(kv_expr, ctx) if kv_expr is not None and kv_expr != (ExprTag.CONST, None) else heads
    bias = _flag("bias", args, defaults, True)
    if hidden is None or head is None or heads is None or kv is None or bias is None:
        return None
    kv2 = kv.scale(2)
    outputs = heads.add(kv2)
    out = head.mul(outputs) if outputs is not None else None
    weight = hidden.mul(out) if out is not None else None
    if weight is None or out is None:
        return None
    return weight.add(out) if bias else weight


def _norm(
    values: Values, last: str, args: dict[str, Expr], defaults: dict[str, bool | None], ctx: Context
) -> Poly | None:
    size = _first(args, NORM_SIZE)
    n = values.value(size, ctx) if size is not None else None
    if n is None:
        return None
    affine = _flag("elementwise_affine", args, defaults, True) and _flag("affine", args, defaults, True)
    if affine is False:
        return Poly.const(0)
    with_bias = ("RMSNorm" not in last) and _flag("bias", args, defaults, "LayerNorm" in last or "GroupNorm" in last)
    return n.scale(2) if with_bias else n


def _conv(
    values: Values, dims: int, args: dict[str, Expr], defaults: dict[str, bool | None], ctx: Context
) -> Poly | None:
    v = values.value
    a, b, k = args.get("in_channels"), args.get("out_channels"), args.get("kernel_size")
    if a is None or b is None or k is None:
        return None
    n_in, n_out = v(a, ctx), v(b, ctx)
    kernel = _kernel(values, k, dims, ctx)
    groups = values.number(args["groups"], ctx) if "groups" in args else 1
    bias = _flag("bias", args, defaults, True)
    if n_in is None or n_out is None or kernel is None or not groups or bias is None:
        return None
    per_group = n_in.divide(groups) if groups != 1 else n_in
    if per_group is None:
        return None
    w = per_group.mul(n_out)
    weight = w.mul(kernel) if w is not None else None
    return weight.add(n_out) if weight is not None and bias else weight


def _kernel(values: Values, k: Expr, dims: int, ctx: Context) -> Poly | None:
    items = k[1] if k[0] == ExprTag.TUPLE else (k,) * dims
    out: Poly | None = Poly.const(1)
    for item in items:
        x = values.value(item, ctx)
        if x is None or out is None:
            return None
        out = out.mul(x)
    return out
