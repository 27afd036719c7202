"""The families of ``idiom_gen`` where values flow through other objects or several ``__init__``s:

* ``spec_built``: a layer built by calling a class held by a dataclass field (annotated
  ``type``, ``type[nn.Module]`` or ``Union[ModuleSpec, type]``), a ``type[nn.Module]``
  parameter, or a project builder ``build_module(spec, n)`` that calls what the spec names;
  the parent may configure it (``self.linear_proj.sequence_parallel = True``), a subclass may
  rebuild it;
* ``construction_flow``: a parent buffer (or a slice of it, ``self.kv_indptr[i]``) passed, by
  keyword or not, into the constructors of helper objects (``StepBackend``) whose attribute is
  read by their ``forward``, is dead there, is read only by a method nothing calls, or goes on
  into an ``Updater`` that reads it or not; the subclass calls the helpers or not;
* ``triple_rebuild``: ``Root`` -> ``Mid`` -> ``Leaf``, each building the same attribute
  (whole, or a list refilled element by element), the leaf perhaps not.
"""

from __future__ import annotations

import random

import idiom_parts as ig

# -- spec_built ---------------------------------------------------------------------------------
_ANNOTATIONS = ("type", "type[nn.Module]", "Union[ModuleSpec, type]")


def spec_built(rng: random.Random):
    how = rng.choice(["field", "field", "builder", "modulespec", "type_param"])
    annotation = rng.choice(_ANNOTATIONS)
    default = "dataclasses.field(default_factory=lambda: ModuleSpec(nn.Linear))" if how == "modulespec" else "nn.Linear"
    if how == "modulespec":
        annotation = "Union[ModuleSpec, type]"
    build = {
        "field": "submodules.linear_proj(n)",
        "builder": "build_module(submodules.linear_proj, n)",
        "modulespec": "build_module(submodules.linear_proj, n)",
        "type_param": "proj_cls(n)",
    }[how]
    params = "proj_cls: type[nn.Module] = nn.Linear, n=4" if how == "type_param" else "submodules=None, n=4"
    configure = rng.random() < 0.4
    base = (
        "import dataclasses\nfrom typing import Union\n\nimport torch\nfrom torch import nn\n\n\n"
        "@dataclasses.dataclass\nclass ModuleSpec:\n    module: type\n\n\n"
        f"@dataclasses.dataclass\nclass AttnSubmodules:\n    linear_proj: {annotation} = {default}\n\n\n"
        "def build_module(spec, *args):\n    if isinstance(spec, ModuleSpec):\n        return spec.module(*args)\n"
        "    return spec(*args)\n\n\n"
        f"class Root(nn.Module):\n    def __init__(self, {params}):\n        super().__init__()\n"
        + ("" if how == "type_param" else "        submodules = submodules or AttnSubmodules()\n")
        + f"        self.linear_proj = {build}\n"
        + ("        self.linear_proj.sequence_parallel = True\n" if configure else "")
        + "        self.core = nn.Linear(n)\n        self.bias = torch.zeros(n)\n\n"
        "    def forward(self):\n" + ig.reads(rng, ["linear_proj", "core", "bias"])
    )
    rebuild = rng.choice(
        ["self.linear_proj = nn.Linear(8)", "self.linear_proj = build_module(AttnSubmodules().linear_proj, 8)", "pass"]
    )
    passed = rng.choice(["", "n=4", "AttnSubmodules(linear_proj=nn.Linear)" if how != "type_param" else "nn.Linear"])
    sub = (
        "from torch import nn\n\nfrom .base import AttnSubmodules, Root, build_module\n\n\n"
        f"class C1(Root):\n    def __init__(self):\n        super().__init__({passed})\n        {rebuild}\n"
    )
    variant = f"{how} ({annotation}){', configured' if configure else ''}{'' if rebuild == 'pass' else ', rebuilt'}"
    files = {"__init__.py": "", "base.py": base, "mod1.py": sub, "app.py": ig.app(rng, ["linear_proj", "core"])}
    return ig.Hier("spec_built", variant, files, ["Root", "C1"])


# -- construction_flow --------------------------------------------------------------------------
_HELPER_USES = {
    "live": "        return self.kv_indptr\n",
    "dead": "        return self.n\n",
    "read by an uncalled method": "        return self.n\n\n    def prefill(self):\n        return self.kv_indptr\n",
    "into a dead updater": "        return self.n\n",
    "into a live updater": "        return self.updater.get()\n",
}


def construction_flow(rng: random.Random):
    helper_use = rng.choice(sorted(_HELPER_USES))
    updater = "updater" in helper_use
    helpers = (
        "class Updater:\n    def __init__(self, buf):\n        self.buf = buf\n\n    def get(self):\n        return self.buf\n\n\n"
        "class StepBackend:\n    def __init__(self, kv_indptr_buf=None, n=4):\n"
        + ("        self.updater = Updater(kv_indptr_buf)\n" if updater else "        self.kv_indptr = kv_indptr_buf\n")
        + "        self.n = n\n\n    def forward(self):\n"
        + _HELPER_USES[helper_use]
    )
    qo = rng.random() < 0.5
    base = (
        "import torch\n\n\nclass Root:\n    def __init__(self, n=4):\n        self.kv_indptr = torch.zeros(n)\n"
        + ("        self.qo_indptr = torch.zeros(n)\n" if qo else "")
        + "\n    def forward(self):\n"
        + ig.reads(rng, ["kv_indptr", "qo_indptr"] if qo else ["kv_indptr"])
    )
    arg = rng.choice(["kv_indptr_buf=self.kv_indptr[i]", "self.kv_indptr[i]", "kv_indptr_buf=self.kv_indptr"])
    calls = rng.random() < 0.7
    stored = rng.choice(["list", "one"])
    if stored == "list":
        build = f"self.steps = [StepBackend({arg}) for i in range(2)]"
        use = "        return [s.forward() for s in self.steps]\n"
    else:
        build = f"self.step = StepBackend({arg.replace('[i]', '[0]')})"
        use = "        return self.step.forward()\n"
    sub = (
        "from .base import Root\nfrom .helpers import StepBackend\n\n\n"
        f"class C1(Root):\n    def __init__(self, n=4):\n        super().__init__(n)\n        {build}\n"
        + (f"\n    def forward(self):\n{use}" if calls else "")
    )
    variant = f"{arg.split('=')[0]}, helper {helper_use}, {stored}, {'called' if calls else 'not called'}"
    files = {"__init__.py": "", "base.py": base, "helpers.py": helpers, "mod1.py": sub, "app.py": "\n"}
    return ig.Hier(
        "construction_flow",
        variant,
        files,
        ["Root", "C1"],
        holders=(("helpers", "StepBackend"), ("helpers", "Updater")),
    )


# -- triple_rebuild -----------------------------------------------------------------------------
_WHOLE = ("nn.ModuleList([nn.Linear(n) for _ in range(3)])", "torch.zeros(n)", "nn.Linear(n)")
_LIST = "[torch.zeros(n) for _ in range(3)]"
_REFILL = "for i in range(3):\n            self.steps[i] = torch.empty(n)"


def triple_rebuild(rng: random.Random):
    module = rng.random() < 0.5
    elementwise = rng.random() < 0.4
    first = _LIST if elementwise else rng.choice(_WHOLE if module else _WHOLE[1:2])
    head = "import torch\nfrom torch import nn\n\n"

    def rebuild() -> str:
        if elementwise:
            return _REFILL
        return "self.steps = " + rng.choice(_WHOLE if module else _WHOLE[1:2])

    mid_guard = rng.random() < 0.3
    mid = rebuild()
    if mid_guard:
        mid = "if self.rebuild:\n            " + mid.replace("\n", "\n    ")
    leaf = rng.choice([rebuild(), rebuild(), "pass"])
    base = (
        head
        + f"\nclass Root{'(nn.Module)' if module else ''}:\n    rebuild = True\n\n    def __init__(self, n=4):\n"
        + ("        super().__init__()\n" if module else "")
        + f"        self.steps = {first}\n        self.other = torch.zeros(n)\n\n"
        "    def forward(self):\n" + ig.reads(rng, ["steps", "other"])
    )
    mid_src = (
        head
        + "from .base import Root\n\n\nclass Mid(Root):\n"
        + (f"    rebuild = {rng.choice(['True', 'False'])}\n\n" if mid_guard else "")
        + f"    def __init__(self, n=4):\n        super().__init__(n)\n        {mid}\n"
    )
    leaf_src = (
        head
        + "from .mod1 import Mid\n\n\nclass Leaf(Mid):\n    def __init__(self, n=4):\n"
        + f"        super().__init__(n)\n        {leaf}\n"
    )
    if rng.random() < 0.3:
        leaf_src += "\n    def forward(self):\n        return self.steps\n"
    variant = f"{'element-wise' if elementwise else 'whole'}{', mid guarded' if mid_guard else ''}{', leaf keeps' if leaf == 'pass' else ''}"
    files = {
        "__init__.py": "",
        "base.py": base,
        "mod1.py": mid_src,
        "mod2.py": leaf_src,
        "app.py": ig.app(rng, ["steps"]),
    }
    return ig.Hier("triple_rebuild", variant, files, ["Root", "Mid", "Leaf"], lists=True)
