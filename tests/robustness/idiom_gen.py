"""A second generator of hierarchies, seeded from the constructs of issue 35 (``idiom_differential``).

Where ``hierarchy_gen`` combines the textbook forms at random, each hierarchy here is one
*family* of code as other libraries write it, with its variants drawn from a seeded
``random.Random``; whether an allocation happens, is read or is replaced is left to the
execution (``runtime_oracle``), never to what the generator meant:

* ``config_copy``: the subclass copies its configuration (``copy.copy`` / ``copy.deepcopy`` /
  ``dataclasses.replace``), changes the field the parent's allocation is guarded by
  (``cfg.f = v``, ``setattr``, ``object.__setattr__``, a frozen dataclass) and passes the copy,
  by keyword or not (or, a trap, passes the original);
* ``emptied_collection``: the subclass sets (or empties) a collection the parent iterates to
  build an ``nn.ModuleList`` or sizes a tensor by (an empty container wastes nothing);
* ``post_super_assert``: an ``assert`` after ``super().__init__()`` that may contradict the
  guard of a parent allocation;
* ``module_walk``: ``named_children`` / ``children`` / ``modules`` / ``named_modules`` /
  ``parameters`` / ``named_parameters`` / ``buffers`` / ``state_dict`` / ``apply`` /
  ``_modules.values()`` / ``.items()`` in a method, a subclass's override or ``app.py``;
* ``spec_built``, ``construction_flow``, ``triple_rebuild``: ``idiom_gen_flow``.

Every class constructs with its defaults (``Root(Config())`` where there is a ``Config``).
"""

from __future__ import annotations

import random

import idiom_gen_flow as flow
from idiom_parts import Hier, app, reads


def generate(i: int) -> Hier:
    """Hierarchy number ``i``: family ``FAMILIES[i % 7]``, variants drawn from ``random.Random(i)``."""
    family = FAMILIES[i % len(FAMILIES)]
    make = _MAKERS.get(family) or getattr(flow, family)
    return make(random.Random(i))


FAMILIES = (
    "config_copy",
    "emptied_collection",
    "post_super_assert",
    "module_walk",
    "spec_built",
    "construction_flow",
    "triple_rebuild",
)


# -- config_copy ---------------------------------------------------------------------------------
_GUARDS = ("config.f is not None", "config.f", 'getattr(config, "f", None) is not None')


def config_copy(rng: random.Random) -> Hier:
    frozen = rng.random() < 0.3
    default = rng.choice(["4", "None"])
    guard = rng.choice(_GUARDS)
    keep = rng.random() < 0.5
    base = (
        "import dataclasses\n\nimport torch\n\n\n"
        f"@dataclasses.dataclass(frozen={frozen})\nclass Config:\n"
        f"    f: int | None = {default}\n    n: int = 4\n\n\n"
        "class Root:\n    def __init__(self, config):\n"
        + ("        self.config = config\n" if keep else "")
        + f"        if {guard}:\n            self.x = torch.zeros(config.f)\n        else:\n            self.x = None\n"
        "        self.y = torch.zeros(config.n)\n\n    def forward(self):\n" + reads(rng, ["x", "y"])
    )
    value = rng.choice(["None", "8", "None"])
    how = rng.choice(["copy", "deepcopy", "replace", "replace_then_set"])
    if how == "replace":
        lines = [f"cfg = dataclasses.replace(config, f={value})"]
    else:
        copied = {"copy": "copy.copy(config)", "deepcopy": "copy.deepcopy(config)"}.get(
            how, "dataclasses.replace(config)"
        )
        sets = ["object.__setattr__"] if frozen else ["attr", "setattr", "object.__setattr__"]
        how_set = rng.choice(sets)
        setter = {"attr": f"cfg.f = {value}", "setattr": f'setattr(cfg, "f", {value})'}.get(
            how_set, f'object.__setattr__(cfg, "f", {value})'
        )
        lines = [f"cfg = {copied}", setter]
        how += f"+{how_set}"
    passed = rng.choice(["config=cfg", "cfg", "config=cfg", "config"])  # "config": the original (a trap)
    post = rng.choice(["self.x = torch.empty(8)", "self.y = torch.empty(8)", "pass", "self.x = torch.empty(8)"])
    sub = (
        "import copy\nimport dataclasses\n\nimport torch\n\nfrom .base import Root\n\n\n"
        "class C1(Root):\n    def __init__(self, config):\n"
        + "".join(f"        {s}\n" for s in lines)
        + f"        super().__init__({passed})\n        {post}\n"
    )
    classes = ["Root", "C1"]
    if rng.random() < 0.4:
        sub += "\n\nclass C2(C1):\n    def __init__(self, config):\n        super().__init__(config)\n"
        sub += f"        {rng.choice(['pass', 'self.x = torch.empty(2)'])}\n"
        classes.append("C2")
    variant = f"{how}, f={value} (default {default}), passed {passed}"
    files = {"__init__.py": "", "base.py": base, "mod1.py": sub, "app.py": app(rng, ["x", "y"])}
    other = {"4": "None", "None": "4"}[default]
    world = {"base.py": base.replace(f"f: int | None = {default}", f"f: int | None = {other}")}
    return Hier("config_copy", variant, files, classes, config=True, worlds=[world])


# -- emptied_collection -------------------------------------------------------------------------
def emptied_collection(rng: random.Random) -> Hier:
    tensor = rng.random() < 0.3
    if tensor:
        build = "torch.zeros(len(self.indexes))"
    else:
        loop = rng.choice(["for i in range(len(self.indexes))", "for _ in self.indexes"])
        build = f"nn.ModuleList([nn.Linear(4) {loop}])"
    source = rng.choice(['config.indexes if hasattr(config, "indexes") else [0, 1]', "list(config.indexes)"])
    base = (
        "import torch\nfrom torch import nn\n\n\nclass Config:\n    def __init__(self):\n"
        "        self.indexes = [0, 1, 2]\n\n\n"
        "class Root(nn.Module):\n    def __init__(self, config):\n        super().__init__()\n"
        f"        self.indexes = {source}\n        self.mergers = {build}\n        self.norm = nn.Linear(4)\n\n"
        "    def forward(self):\n" + reads(rng, ["mergers", "norm"])
    )
    value = rng.choice(["[]", "[]", "[7]", None])
    copied = rng.random() < 0.4
    pre = []
    if value is not None:
        pre = ["cfg = copy.copy(config)", f"cfg.indexes = {value}"] if copied else [f"config.indexes = {value}"]
    passed = "cfg" if value is not None and copied else "config"
    post = rng.choice(["pass", "self.mergers = nn.ModuleList([nn.Linear(8)])", "pass"])
    sub = (
        "import copy\n\nfrom torch import nn\n\nfrom .base import Root\n\n\n"
        "class C1(Root):\n    def __init__(self, config):\n"
        + "".join(f"        {s}\n" for s in pre)
        + f"        super().__init__({passed})\n        {post}\n"
    )
    variant = (
        f"{'tensor' if tensor else 'ModuleList'} sized by indexes = {value or 'unchanged'}{' (copy)' if copied else ''}"
    )
    files = {"__init__.py": "", "base.py": base, "mod1.py": sub, "app.py": app(rng, ["mergers", "norm"])}
    return Hier("emptied_collection", variant, files, ["Root", "C1"], config=True)


# -- post_super_assert --------------------------------------------------------------------------
_PARENT_GUARDS = ("head_dim == 512", "self.head_dim == 512", "use_fp4", "not self.use_fp4", "head_dim >= 256")
_ASSERTS = (
    "self.head_dim == 128",
    "self.head_dim == 128 and self.use_fp4",
    "self.use_fp4",
    "not self.use_fp4",
    "self.head_dim != 512",
    "self.head_dim == 512",
    "self.head_dim in (128, 256)",
)


def post_super_assert(rng: random.Random) -> Hier:
    guard = rng.choice(_PARENT_GUARDS)
    base = (
        "import torch\n\n\nclass Root:\n    def __init__(self, head_dim=512, use_fp4=False):\n"
        "        self.head_dim = head_dim\n        self.use_fp4 = use_fp4\n"
        f"        if {guard}:\n            self.x = torch.zeros(head_dim)\n        else:\n            self.x = None\n"
        "        self.y = torch.zeros(4)\n\n    def forward(self):\n" + reads(rng, ["x", "y"])
    )
    head_dim, use_fp4 = rng.choice([128, 512]), rng.choice([True, False])
    state = {"self": type("S", (), {"head_dim": head_dim, "use_fp4": use_fp4})()}
    holding = [a for a in _ASSERTS if eval(a, {}, state)]
    cond = rng.choice(holding)
    call = rng.choice(["head_dim, use_fp4", "head_dim=head_dim, use_fp4=use_fp4"])
    post = rng.choice(["self.x = torch.empty(8)", "pass", "self.y = torch.empty(8)"])
    sub = (
        "import torch\n\nfrom .base import Root\n\n\n"
        f"class C1(Root):\n    def __init__(self, head_dim={head_dim}, use_fp4={use_fp4}):\n"
        f"        super().__init__({call})\n        assert {cond}\n        {post}\n"
    )
    classes = ["Root", "C1"]
    if rng.random() < 0.4:
        sub += (
            "\n\nclass C2(C1):\n    def __init__(self):\n        super().__init__()\n        self.x = torch.empty(2)\n"
        )
        classes.append("C2")
    variant = f"guard {guard}, assert {cond}"
    files = {"__init__.py": "", "base.py": base, "mod1.py": sub, "app.py": app(rng, ["x", "y"])}
    own = f"head_dim={head_dim}, use_fp4={use_fp4}"
    worlds = [
        {"mod1.py": sub.replace(own, f"head_dim={h}, use_fp4={u}")}
        for h in (128, 256, 512)
        for u in (True, False)
        if (h, u) != (head_dim, use_fp4)
    ]
    return Hier("post_super_assert", variant, files, classes, worlds=worlds)


# -- module_walk --------------------------------------------------------------------------------
_MEMBERS = {
    "proj": "self.proj = nn.Linear(n)",
    "norm": "self.norm = nn.Linear(n)",
    "blocks": "self.blocks = nn.ModuleList([nn.Linear(n), nn.Linear(n)])",
    "weight": "self.weight = nn.Parameter(torch.zeros(n))",
    "scale": 'self.register_buffer("scale", torch.zeros(n))',
    "plain": "self.plain = torch.zeros(n)",
}
WALKS = {
    "named_children": "{name: child for name, child in obj.named_children()}",
    "children": "list(obj.children())",
    "modules": "[m for m in obj.modules()]",
    "named_modules": "dict(obj.named_modules())",
    "parameters": "list(obj.parameters())",
    "named_parameters": "dict(obj.named_parameters())",
    "buffers": "list(obj.buffers())",
    "state_dict": "obj.state_dict()",
    "apply": "obj.apply(_visit)",
    "_modules.values": "list(obj._modules.values())",
    "_modules.items": "dict(obj._modules.items())",
}


def module_walk(rng: random.Random) -> Hier:
    members = [m for m in _MEMBERS if rng.random() < 0.6] or ["proj", "plain"]
    walk = rng.choice(sorted(WALKS))
    where = rng.choice(["root", "override", "app"])
    expr = WALKS[walk]
    in_root = expr.replace("obj", "self") if where == "root" else "{}"
    base = (
        "import torch\nfrom torch import nn\n\n\ndef _visit(m):\n    return m\n\n\n"
        "class Root(nn.Module):\n    def __init__(self, n=4):\n        super().__init__()\n"
        + "".join(f"        {_MEMBERS[m]}\n" for m in members)
        + "\n    def forward(self):\n"
        + reads(rng, members)
        + f"\n    def sharded_state_dict(self):\n        return {in_root}\n"
    )
    replaced = rng.choice([*members, None, None])
    post = f"self.{replaced} = nn.Linear(8)" if replaced in ("proj", "norm") else "pass"
    sub = (
        "from torch import nn\n\nfrom .base import Root, _visit\n\n\n"
        f"class C1(Root):\n    def __init__(self):\n        super().__init__()\n        {post}\n"
    )
    if where == "override":
        sub += f"\n    def sharded_state_dict(self):\n        return {expr.replace('obj', 'self')}\n"
    app_src = app(rng, members)
    if where == "app":
        app_src = f"from .base import _visit\n\n\ndef use_walk(obj):\n    return {expr}\n" + app_src
    variant = f"{walk} in {where}{', replaces ' + replaced if post != 'pass' else ''}"
    files = {"__init__.py": "", "base.py": base, "mod1.py": sub, "app.py": app_src}
    return Hier("module_walk", variant, files, ["Root", "C1"])


_MAKERS = {
    "config_copy": config_copy,
    "emptied_collection": emptied_collection,
    "post_super_assert": post_super_assert,
    "module_walk": module_walk,
}
