"""Estimate what an allocation weighs, project-wide: a number of bytes where the source fixes it,
an expression over the quantities it depends on otherwise.

* a tensor factory: the product of its shape times its dtype's width;
* a layer (``nn.Linear``, ``nn.Embedding``, ``nn.Conv*``, norms, and project classes of
  the same kind): its parameters from the constructor arguments (``analysis.sizes.layers``);
* any other project class: the sum of what its ``__init__`` chain keeps on the instance,
  its constructor arguments bound to the parameters (recursively, bounded, cycles cut);
* a container: an element times the number of elements.

A value folds when it is a literal, a module constant, an environment variable's
default, or a field of a configuration object whose class is known (a parameter
annotated with a project class): the default of that class's ``__init__`` parameter or
class attribute of that name.  Anything else stays a name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deadinit.analysis.flow.chain import Chain, ChainStmt, init_chain
from deadinit.analysis.flow.returns import Binding
from deadinit.analysis.sizes.layers import layer_parameters
from deadinit.analysis.sizes.symbolic import Poly, Size
from deadinit.analysis.sizes.values import DTYPE_BYTES, Context, Values, bind_call, bind_params
from deadinit.index.dependencies import Memo
from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import AllocKind, ExprTag, InitStmtKind
from deadinit.model.qualnames import short_name
from deadinit.model.settings import Settings
from deadinit.model.summary import AllocInfo, Expr, InitStmt, MethodSummary, Param
from deadinit.semantics.arguments import spread_fills

MAX_DEPTH = 6
HOLD_NOTHING_BASES = frozenset({"object", "builtins.object", "abc.ABC", "typing.Generic", "typing.Protocol"})
KEEPS_NOTHING = frozenset({ExprTag.CONST, ExprTag.SELF})  # values an attribute may hold in a class that holds nothing
CHEAP_CALLS = frozenset({"int", "float", "bool", "str", "len", "getattr", "isinstance", "max", "min", "round", "range"})


def _plain_value(value: Expr | None) -> Size | None:
    """What a value that is not an allocation weighs: nothing when it is a reference or a literal;
    unknown when it is the result of a call deadinit does not follow (``norm_layer(dim)``)."""
    if value is not None and value[0] == ExprTag.CALL and value[1] not in CHEAP_CALLS:
        return None
    return Size(Poly.const(0))


@dataclass
class SizeModel:
    index: ProjectIndex
    settings: Settings
    values: Values = field(init=False)
    _chains: Memo[str, Chain] = field(default_factory=Memo)
    _classes: Memo[tuple[object, ...], Size | None] = field(default_factory=Memo)
    _cut_below: int = 1 << 30  # frames (``stack`` positions) from here on read a size a cycle cut short

    def __post_init__(self) -> None:
        self.values = Values(self.index)

    # -- one allocation --------------------------------------------------------
    def size(self, alloc: AllocInfo | None, ctx: Context, depth: int = 0, stack: tuple[str, ...] = ()) -> Size | None:
        if alloc is None or depth > MAX_DEPTH:
            return None
        if alloc.kind in (AllocKind.CACHED_BUFFER, AllocKind.GLOBAL_SINGLETON, AllocKind.PARAMETER, AllocKind.BUFFER):
            return self.size(alloc.element, ctx, depth + 1, stack)
        if alloc.kind == AllocKind.CONTAINER:
            return self._container(alloc, ctx, depth, stack)
        if alloc.kind == AllocKind.TENSOR:
            return self._tensor(alloc, ctx) if not alloc.items else self._joined(alloc, ctx, depth, stack)
        if alloc.kind == AllocKind.MODULE and alloc.element is not None:
            return self.size(alloc.element, ctx, depth + 1, stack)  # nn.Parameter(tensor): the tensor
        return self._constructed(alloc, ctx, depth, stack)

    def _container(self, alloc: AllocInfo, ctx: Context, depth: int, stack: tuple[str, ...]) -> Size | None:
        each = self.size(alloc.element, ctx, depth + 1, stack)
        n = self.values.value(alloc.count, ctx) if alloc.count is not None else None
        if each is None or n is None:
            return None
        total = each.poly.mul(n)
        return Size(total, each.partial) if total is not None else None

    def _joined(self, alloc: AllocInfo, ctx: Context, depth: int, stack: tuple[str, ...]) -> Size | None:
        """``torch.cat`` / ``torch.stack`` of parts: what the parts weigh together (unknown if one is)."""
        total: Size | None = Size(Poly.const(0))
        for item in alloc.items:
            part = self.size(item, ctx, depth + 1, stack)
            if part is None or total is None:
                return None
            total = total.plus(part)
        return total

    def _tensor(self, alloc: AllocInfo, ctx: Context) -> Size | None:
        fn = alloc.callee.rsplit(".", 1)[-1]
        shape = list(alloc.shape)
        if fn == "arange":
            return self._arange(alloc, ctx)
        if fn == "full":
            shape = shape[:1]
        if fn in ("tensor", "as_tensor", "from_numpy") or fn.endswith("_like") or not shape:
            return None
        numel: Poly | None = Poly.const(1)
        for x in shape:
            v = self.values.value(x, ctx)
            if v is None or numel is None:
                return None
            numel = numel.mul(v)
        width = self.dtype_width(alloc.dtype or "float32")
        total = numel.mul(width) if numel is not None else None
        return Size(total) if total is not None else None

    def _arange(self, alloc: AllocInfo, ctx: Context) -> Size | None:
        folded = [self.values.number(x, ctx) for x in alloc.shape[:3]]
        vals = [v for v in folded if v is not None]
        if not vals or len(vals) < len(folded):
            return None
        start, end, step = (0, vals[0], 1) if len(vals) == 1 else (vals[0], vals[1], vals[2] if len(vals) > 2 else 1)
        if step == 0:  # torch refuses it
            return None
        numel = max(0, -(-(end - start) // step))
        width = DTYPE_BYTES.get(alloc.dtype or "int64")
        return Size(Poly.const(numel * width)) if width is not None else None

    @staticmethod
    def dtype_width(dtype: str) -> Poly:
        """Bytes per element; a dtype the source does not name (``dtype=self.dtype``) stays a name."""
        width = DTYPE_BYTES.get(dtype)
        return Poly.const(width) if width is not None else Poly.symbol(f"sizeof({dtype})")

    # -- layers and project classes -------------------------------------------
    def _constructed(self, alloc: AllocInfo, ctx: Context, depth: int, stack: tuple[str, ...]) -> Size | None:
        qn = self.index.resolve(ctx.module, alloc.callee)
        method = self._init_of(qn) if qn is not None else None
        names = self.mro_names(qn) if qn is not None else None
        layer = layer_parameters(self.values, alloc, ctx, names, method, self.param_width(alloc))
        if layer is not None:
            return layer
        if qn is None or method is None:
            return None
        if qn in stack:  # a cycle: ``qn``'s own frame and those inside it see it cut short
            self._cut_below = min(self._cut_below, len(stack) - 1 - stack[::-1].index(qn))
            return None
        env = bind_call(self.values, method, alloc.args, alloc.kwargs, ctx)
        return self.class_size(qn, env, depth + 1, (*stack, qn))

    def _init_of(self, qn: str) -> MethodSummary | None:
        mro = self.index.mro(qn) or [qn]
        found = self.index.resolve_method(mro, "__init__")
        return found[1] if found is not None else None

    def mro_names(self, qn: str) -> list[str]:
        return [short_name(q) for q in self.index.mro(qn) or [qn]]

    def chain(self, qn: str) -> Chain:
        return self._chains.get_or(qn, lambda: init_chain(self.index, qn))

    def class_size(self, qn: str, env: dict[str, Poly | None], depth: int, stack: tuple[str, ...]) -> Size | None:
        """What an instance of project class ``qn`` holds once its ``__init__`` chain ran with ``env``."""
        key = (qn, tuple(sorted(env.items(), key=lambda kv: kv[0])), depth)
        if key in self._classes:
            return self._classes[key]
        with self._classes.computing(key):
            result = self._class_size(qn, env, depth, stack)
        if len(stack) - 1 < self._cut_below:  # no cycle cut short inside it: the same answer whoever asked first
            self._classes[key] = result
            self._cut_below = 1 << 30
        return result

    def _class_size(self, qn: str, env: dict[str, Poly | None], depth: int, stack: tuple[str, ...]) -> Size | None:
        chain = self.chain(qn)
        envs = self._chain_envs(chain, qn, env)
        kept: dict[str, tuple[Size | None, bool]] = {}  # attribute -> (size of the value it keeps, definite)
        self_values: dict[str, tuple[Expr, Context]] = {}
        for c in chain.stmts:
            st = c.stmt
            if c.active is False or st.kind not in (InitStmtKind.ASSIGN, InitStmtKind.FILL) or not st.attr:
                continue
            ctx = Context(
                self.index.class_module[c.owner], envs.get(c.owner, {}), c.env, self._params(c.owner), dict(self_values)
            )
            if st.kind == InitStmtKind.ASSIGN and st.value is not None and c.active is True:
                self_values[st.attr] = (st.value, ctx)
            size = self.size(st.alloc, ctx, depth, stack) if st.alloc is not None else _plain_value(st.value)
            if st.kind == InitStmtKind.FILL:
                size = self.filled(c, size, ctx)
                before = kept.get(st.attr, (Size(Poly.const(0)), True))
                total = before[0].plus(size) if before[0] is not None else None
                kept[st.attr] = (total, before[1] and c.active is True)
            else:
                kept[st.attr] = (size, c.definite)
        result: Size | None = None
        unknown = False
        for size, definite in kept.values():
            if size is None or not definite:
                unknown = unknown or size is None or (size.poly.number != 0)
                continue
            result = size if result is None else result.plus(size)
        if result is not None and unknown:
            result = Size(result.poly, True)
        if result is None or result.poly.number == 0:
            # nothing it holds weighs anything: empty when nothing in it can hide an allocation, else unknown
            return Size(Poly.const(0)) if not unknown and self._holds_nothing(qn, chain) else None
        return result

    def _holds_nothing(self, qn: str, chain: Chain) -> bool:
        """Every ``__init__`` of the class is the project's or ``nn.Module``'s and keeps nothing but literals
        and its own attributes (bound methods): an instance holds no parameter, buffer or tensor."""
        known = {*self.settings.module_bases, *HOLD_NOTHING_BASES}
        if any(b.name not in known for b in self.index.external_bases(qn)):
            return False
        for c in chain.stmts:
            st = c.stmt
            if (
                c.active is False
                or st.kind == InitStmtKind.SUPER_INIT
                or (st.kind in (InitStmtKind.EFFECT, InitStmtKind.ASSERT) and _leaves_self(st))
            ):
                continue  # a call that is given nothing of self cannot make the instance hold anything
            value = c.stmt.value
            if (
                c.stmt.kind != InitStmtKind.ASSIGN
                or c.stmt.alloc is not None
                or value is None
                or value[0] not in KEEPS_NOTHING
            ):
                return False  # another object's attribute, an argument, a call: it may hold a tensor alive
        return True

    def filled(self, c: ChainStmt, size: Size | None, ctx: Context) -> Size | None:
        """``self.x.append(alloc)`` in ``for _ in range(n)``: n allocations."""
        if size is None or not c.stmt.in_loop:
            return size
        it = c.stmt.loop_iter
        if it is None or it[0] != ExprTag.CALL or it[1] != "range" or len(it[2]) != 1:
            return None
        n = self.values.value(it[2][0], ctx)
        total = size.poly.mul(n) if n is not None else None
        return Size(total, size.partial) if total is not None else None

    def followed_context(self, ctx: Context, bindings: tuple[Binding, ...]) -> Context:
        """Where an allocation made inside followed project functions is read: each callee's parameters bound
        to the arguments its call passes, read in the caller's context (the first caller's is ``ctx``)."""
        for b in bindings:
            env = bind_params(self.values, b.params, b.call.args, b.call.kwargs, ctx, defaults=not b.call.star_args)
            ctx = Context(b.module, env, {}, {p.name: p for p in b.params})
        return ctx

    def _params(self, owner: str) -> dict[str, Param]:
        m = self.index.classes[owner].methods.get("__init__")
        return {p.name: p for p in m.params} if m is not None else {}

    def _chain_envs(self, chain: Chain, top: str, env: dict[str, Poly | None]) -> dict[str, dict[str, Poly | None]]:
        """Each ``__init__`` of the chain with its parameters bound to values (the top one to ``env``)."""
        envs: dict[str, dict[str, Poly | None]] = {top: env}
        for owner in chain.inits[1:]:
            call = chain.calls.get(owner)
            method = self.index.classes[owner].methods.get("__init__")
            if call is None or method is None:
                continue
            caller, st, folded = call
            caller_env = envs.get(caller, {})
            ctx = Context(self.index.class_module[caller], caller_env, folded, self._params(caller))
            envs[owner] = bind_call(self.values, method, st.args, st.kwargs, ctx, spread_fills(method.params, st))
        return envs

    def param_width(self, alloc: AllocInfo) -> Poly:
        """Bytes per parameter of a layer: a literal ``dtype=`` / ``params_dtype=``, else the setting."""
        for k, v in alloc.kwargs:
            if k in ("dtype", "params_dtype") and v[0] == ExprTag.DOTTED:
                width = DTYPE_BYTES.get(v[1].rsplit(".", 1)[-1])
                if width is not None:
                    return Poly.const(width)
        return Poly.const(self.settings.parameter_bytes)


def _leaves_self(st: InitStmt) -> bool:
    """The statement neither passes ``self`` on nor calls its methods nor writes to it."""
    return not (st.passes_self or st.self_calls or st.constructs or st.method or st.attr or st.dynamic)
