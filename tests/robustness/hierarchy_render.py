"""Python source for a generated hierarchy (``hierarchy_gen.Spec``): ``render(spec)`` gives
``{relative path: source}`` of a package whose modules import a stand-in ``torch``."""

from __future__ import annotations

import hierarchy_forms as hf
import hierarchy_mro as hm
from hierarchy_gen import ATTRS, MODULE_ATTRS, MODULES, Cls, Spec

_GUARDS = {
    "flag": "not skip_{}",
    "cls": "self.use_{}",
    "config": "config.use_{}",
    "mode0": "mode == 0",
    "mode1": "mode == 1",
}
_READS = {
    "attr": "self.{}",
    "getattr": "getattr(self, {!r})",
    "getattr_default": "getattr(self, {!r}, None)",
    "dict_get": "self.__dict__.get({!r})",
    "dict_item": "self.__dict__[{!r}]",
    "vars_item": "vars(self)[{!r}]",
    "modules_item": "self._modules[{!r}]",
    "call": "self.{}()",
    "hold_get": "self.{}.get()",
    "super": "super().{}()",
}


def _read(r) -> str:
    kind, what = r
    if kind == "dyn":
        return f"getattr(self, _NAMES[{ATTRS.index(what) if what in ATTRS else len(ATTRS) + MODULE_ATTRS.index(what)}])"
    if kind == "dyn_suffix":
        return f'getattr(self, _KV[{("k_buf", "v_buf").index(what)}] + "_buf")'
    return _READS[kind].format(what)


def _stmt(s, ind: str) -> list[str]:
    kind = s[0]
    if kind == "wrap":
        return [f"{ind}self.{s[1]} = torch.ScratchWrapper({', '.join('self.' + d for d in s[2])})"]
    if kind == "pair":
        return [f"{ind}self.{s[1]}, self.{s[2]}, _n = make_two({s[3]})"]
    if kind == "hold":
        return [f"{ind}self.{s[1]} = {s[3]}(self.{s[2]})"]
    if kind == "set":
        return [f"{ind}config.{s[1]} = {s[2]}"]
    if kind == "assert_mode":
        return [f"{ind}assert mode == 0"]
    if kind == "del":
        attr, how = s[1], s[2]
        forms = {"del": f"del self.{attr}", "delattr": f"delattr(self, {attr!r})"}
        return [ind + forms.get(how, f"self.__dict__.pop({attr!r}, None)")]
    if kind == "move":
        attr, store = s[1], s[2]
        return [f"{ind}old_{attr} = self.{store}.pop({attr!r}, None)", f"{ind}self.{attr} = old_{attr}"]
    _, attr, factory, guard, size = s
    line = hf.store(attr, factory, size, attr in MODULE_ATTRS)
    if guard is None:
        return [ind + line]
    test = _GUARDS[guard].format(attr.strip("_"))
    return [f"{ind}if {test}:", f"{ind}    {line}", f"{ind}else:", f"{ind}    self.{attr} = None"]


def _body(reads) -> str:
    return "return (" + "".join(_read(r) + ", " for r in reads) + ")"


def _base_ref(spec: Spec, c: Cls) -> str:
    parent = spec.classes[c.parent].name
    return f"{parent}[{c.subscript}]" if c.subscript else parent


def _args(spec: Spec, c: Cls, target) -> str:
    """The arguments of ``c``'s parent call (``target``: the ``__init__`` that binds them)."""
    if not isinstance(target, int):
        return ""
    params = spec.classes[target].flags() + hf.params(spec.classes[target].pre + spec.classes[target].post)
    pos = ["config"] if spec.config and c.bad != "bad_missing" else []
    if c.bad == "bad_pos":
        return ", ".join(pos + ["None"] * (len(params) + 1))
    kw = [f"{f}={f if how == 'fwd' else how}" for f, how in sorted(c.args.items())]
    if c.bad == "bad_kw":
        kw.append("bogus=True")
    return ", ".join(pos + kw)


def _with_self(args: str) -> str:
    return "self" + (", " + args if args else "")


def _parent_call(spec: Spec, c: Cls, i: int) -> list[str]:
    parent = spec.classes[c.parent]
    grand = spec.classes[parent.parent].name if parent.parent is not None else None
    args = _args(spec, c, c.target)
    call = {
        "super": f"super().__init__({args})",
        "super_self": f"super({c.name}, self).__init__({args})",
        "super_parent": f"super({parent.name}, self).__init__({args})",
        "super_grand": f"super({grand}, self).__init__({args})",
        "explicit": f"{parent.name}.__init__({_with_self(args)})",
        "explicit_grand": f"{grand}.__init__({_with_self(args)})",
        "alias": f"_Base{i}.__init__({_with_self(args)})",
        "local_alias": f"base.__init__({_with_self(args)})",
    }[c.call]
    lines = [f"base = {parent.name}"] if c.call == "local_alias" else []
    return [*lines, call]


def _mixin_call(spec: Spec, c: Cls, i: int) -> str:
    order = spec.mro.of(i)
    after = hm.receiver(spec, order, hm.first_init(spec, order, after=("mix", i)))
    return f"Mix{i}.__init__({_with_self('config' if spec.config and isinstance(after, int) else '')})"


def _init(spec: Spec, c: Cls, i: int) -> list[str]:
    params = ("config, " if spec.config else "") + "".join(f"{f}={0 if f == 'mode' else False}, " for f in c.flags())
    params += "".join(p + ", " for p in hf.params(c.pre + c.post))
    out = [f"def __init__(self, {params}".rstrip(", ") + "):"]
    if i == 0 and spec.root_base == "module":
        out.append("super().__init__()")
    for s in c.pre:
        out += _stmt(s, "")
    if c.parent is not None and c.call != "none":
        if c.mixin_call == "before":
            out.append(_mixin_call(spec, c, i))
        out += _parent_call(spec, c, i)
        if c.mixin_call == "after":
            out.append(_mixin_call(spec, c, i))
    for s in c.post:
        out += _stmt(s, "")
    return [out[0]] + ["    " + line for line in out[1:]] + ["    pass"]


def render_mixin(spec: Spec, i: int) -> list[str]:
    star = "*args, **kwargs"
    body = [f"class Mix{i}:", f"    def __init__(self, {star}):", f"        super().__init__({star})"]
    body += _stmt(spec.mixins[i][0], "        ")
    return [*body, "", ""]


def render_class(spec: Spec, c: Cls, i: int) -> list[str]:
    if c.parent is None:
        bases = {"generic": "Generic[T]", "module": "nn.Module"}.get(spec.root_base, "")
    else:
        refs = [_base_ref(spec, c)]
        if c.mixin:
            refs.insert(0 if c.mixin == "first" else 1, f"Mix{i}")
        bases = ", ".join(refs)
    lines = [f"_Base{i} = {spec.classes[c.parent].name}", ""] if c.call == "alias" else []
    lines += [f"class {c.name}({bases}):"]
    if c.parent is None and spec.defaults:
        lines += [f"    {a} = None" for a in ATTRS if not a.startswith("__")] + [""]
    own = {f"use_{a}": "True" for a in c.guard_attrs("cls")}
    for name, v in sorted({**own, **c.class_values}.items()):
        lines.append(f"    {name} = {v}")
    if c.has_init() or (c.parent is None and spec.root_base == "module"):
        lines += ["    " + line for line in _init(spec, c, i)]
    for m, reads in c.methods.items():
        lines += ["", f"    def {m}(self):", f"        {_body(reads)}"]
    if not spec.plain and (c.parent is None or c.overrides_make):
        lines += ["", "    def _make(self, n):", f"        return torch.{'empty' if c.overrides_make else 'zeros'}(n)"]
    for p, reads in c.props.items():
        lines += ["", "    @property", f"    def {p}(self):", f"        {_body(reads)}"]
    if c.dunder_call is not None:
        lines += ["", "    def __call__(self):", f"        {_body(c.dunder_call)}"]
    if len(lines) == 1 or lines[-1].endswith(":"):
        lines.append("    pass")
    return [*lines, "", ""]


def _header(spec: Spec, mi: int, own: list[int]) -> list[str]:
    head = ["import torch"] + (["from torch import nn"] if spec.root_base == "module" else [])
    head += [] if spec.plain else ["", hf.IMPORT]
    if spec.root_base == "generic":
        head += ["from typing import Generic, TypeVar"]
    head.append("")
    needed: set[int] = set()
    for i in own:
        c = spec.classes[i]
        if c.parent is not None:
            needed.add(c.parent)
            if c.call in ("super_grand", "explicit_grand"):
                needed.add(spec.classes[c.parent].parent)
    for k in sorted(needed, key=lambda k: spec.classes[k].name):
        if spec.classes[k].module != mi:
            head.append(f"from .{MODULES[spec.classes[k].module]} import {spec.classes[k].name}")
    head += ["", f"_NAMES = {list(spec.attrs())!r}", '_KV = ("k", "v")']
    if spec.root_base == "generic":
        head.append('T = TypeVar("T")')
    if spec.config and mi == 0:
        head += ["", "", "class Config:"] + [f"    use_{a.strip('_')} = True" for a in ATTRS + MODULE_ATTRS]
    return [*head, "", ""]


def render(spec: Spec) -> dict[str, str]:
    files = {"__init__.py": ""} if spec.plain else {"__init__.py": "", "factories.py": hf.FACTORIES}
    for mi, mod in enumerate(MODULES):
        own = [i for i, c in enumerate(spec.classes) if c.module == mi]
        if not own and not (mi == 0 and spec.config):
            continue
        body = []
        for i in own:
            if i in spec.mixins:
                body += render_mixin(spec, i)
            body += render_class(spec, spec.classes[i], i)
        files[f"{mod}.py"] = "\n".join(_header(spec, mi, own) + body).rstrip() + "\n"
    app = ["", ""]
    for k, (kind, what) in enumerate(spec.app):
        app += [f"def use_{k}(obj):", f"    return obj.{what}{'()' if kind == 'call' else ''}", "", ""]
    files["app.py"] = "\n".join(app).strip() + "\n"
    return files
