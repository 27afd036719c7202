"""Constant-fold allocation sizes where the source makes them static."""

from __future__ import annotations

from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import AllocKind
from deadinit.model.summary import AllocInfo, Expr

Env = dict[str, Expr]  # a local name -> its value
SelfValues = dict[str, tuple[Expr, str, Env]]  # self attribute -> (value, its module, the env it was bound in)

DTYPE_BYTES = {
    "uint8": 1,
    "int8": 1,
    "bool": 1,
    "float8_e4m3fn": 1,
    "float8_e5m2": 1,
    "float8_e4m3fnuz": 1,
    "float16": 2,
    "half": 2,
    "bfloat16": 2,
    "int16": 2,
    "short": 2,
    "float32": 4,
    "float": 4,
    "int32": 4,
    "int": 4,
    "uint32": 4,
    "float64": 8,
    "double": 8,
    "int64": 8,
    "long": 8,
    "uint64": 8,
    "complex64": 8,
}


class Folder:
    def __init__(self, index: ProjectIndex):
        self.index = index
        self.env_defaults: dict[str, Expr] = {}
        for s in index.modules.values():
            for k, v in s.env_defaults.items():
                self.env_defaults.setdefault(k, v)

    def fold(self, e: Expr | None, module: str, env: Env, self_vals: SelfValues, depth: int = 0) -> int | None:
        if e is None or depth > 20:
            return None
        k = e[0]
        d = depth + 1
        if k == "const":
            return e[1] if isinstance(e[1], int) and not isinstance(e[1], bool) else None
        if k == "name":
            v = env.get(e[1])
            if v is not None and v[0] == "const":
                return self.fold(v, module, env, self_vals, d)
            return self._constant(module, e[1], d)
        if k == "self":
            v = self_vals.get(e[1])
            return self.fold(v[0], v[1], v[2], self_vals, d) if v else None
        if k == "dotted":
            head, _, last = e[1].rpartition(".")
            mod = self.index.resolve_any(module, head) if head else None
            if mod and mod[0] == "module":
                return self._constant(mod[1], last, d)
            return None
        if k == "call":
            func = e[1]
            if func.endswith(".get") and not e[2]:
                name = func[:-4].split(".")[-1]
                if name in self.env_defaults:
                    return self.fold(self.env_defaults[name], module, {}, {}, d)
            return None
        if k == "bin":
            a, b = self.fold(e[2], module, env, self_vals, d), self.fold(e[3], module, env, self_vals, d)
            if a is None or b is None:
                return None
            op = e[1]
            try:
                return {
                    "+": a + b,
                    "-": a - b,
                    "*": a * b,
                    "//": a // b if b else None,
                    "<<": a << b,
                    "**": a**b if b < 64 else None,
                    "%": a % b if b else None,
                    "/": a // b if b and a % b == 0 else None,
                }[op]
            except (KeyError, OverflowError):
                return None
        if k == "ifexp":
            a, b = self.fold(e[2], module, env, self_vals, d), self.fold(e[3], module, env, self_vals, d)
            if a == b:
                return a
            test = e[1]
            if test[0] == "call" and test[1].endswith(".is_set"):
                return b  # an environment override that is not set by default
            return None
        return None

    def _constant(self, module: str, name: str, depth: int) -> int | None:
        s = self.index.modules.get(module)
        if s is None:
            return None
        if name in s.constants:
            return self.fold(s.constants[name], module, {}, {}, depth + 1)
        r = self.index._imports.get(module, {}).get(name)
        if r is not None and r.name is not None:
            src = self.index._abs_module(module, r)
            if src in self.index.modules and src != module:
                return self._constant(src, r.name, depth + 1)
        return None

    def alloc_bytes(self, alloc: AllocInfo | None, module: str, env: Env, self_vals: SelfValues) -> int | None:
        if alloc is None:
            return None
        if alloc.kind in (AllocKind.CACHED_BUFFER, AllocKind.GLOBAL_SINGLETON, AllocKind.PARAMETER, AllocKind.BUFFER):
            return self.alloc_bytes(alloc.element, module, env, self_vals)
        if alloc.kind == AllocKind.CONTAINER:
            each = self.alloc_bytes(alloc.element, module, env, self_vals)
            n = self.fold(alloc.count, module, env, self_vals) if alloc.count is not None else None
            return each * n if each is not None and n is not None else None
        if alloc.kind != AllocKind.TENSOR:
            return None
        fn = alloc.callee.rsplit(".", 1)[-1]
        shape = list(alloc.shape)
        if fn == "arange":
            folded = [self.fold(x, module, env, self_vals) for x in shape[:3]]
            vals = [v for v in folded if v is not None]
            if not vals or len(vals) < len(folded):
                return None
            start, end, step = (
                (0, vals[0], 1) if len(vals) == 1 else (vals[0], vals[1], vals[2] if len(vals) > 2 else 1)
            )
            if step == 0:  # torch refuses it
                return None
            numel = max(0, -(-(end - start) // step))
            return numel * DTYPE_BYTES.get(alloc.dtype or "int64", 8)
        if fn == "full":
            shape = shape[:1]
        if fn in ("tensor", "as_tensor", "from_numpy") or fn.endswith("_like") or not shape:
            return None
        numel = 1
        for x in shape:
            v = self.fold(x, module, env, self_vals)
            if v is None:
                return None
            numel *= v
        return numel * DTYPE_BYTES.get(alloc.dtype or "float32", 4)
