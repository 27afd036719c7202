"""What a plain ``deadinit fix`` applies (safe fixes only), and a parent's guard parameter reused."""

import pytest
from codemod_helpers import fix

from deadinit.api.check import run_check
from deadinit.fixes.driver import run_fix
from deadinit.model.fix import FixOptions

MODULES = "fixtures.modules"


def _changes(out) -> dict:
    return {c.cls.rsplit(".", 1)[-1]: c for c in out.plan.changes}


def _refusals(out) -> dict:
    return {(r.cls.rsplit(".", 1)[-1], a): r for r in out.refusals for a in r.attributes}


def test_default_fix_keeps_registered_modules_parameters_and_buffers(fixture_tree):
    out = fix(paths=("fixtures/modules",), write=False)
    refused = _refusals(out)
    for key, what in (
        (("DeepTower", "post_norm"), "registered module `post_norm`"),
        (("PlainTower", "post_norm"), "registered module `post_norm`"),
        (("FloatLinear", "weight_scale"), "registered parameter `weight_scale`"),
        (("FloatLinear", "input_scale"), "registered buffer `input_scale`"),
        (("ArgmaxSampler", "_table"), "its public method TableSampler.table_snapshot"),
    ):
        assert refused[key].kind == "unsafe" and what in refused[key].reason, key
    changes = _changes(out)
    assert changes["DeepTower"].overwritten == ["blocks"]  # re-registered under the same name: keys unchanged
    # a plain tensor attribute is no checkpoint key: safe, but 1 KiB is not worth a parameter (fix-min-bytes)
    assert refused[("FloatLinear", "lookup")].kind == "not-worth-it" and "FloatLinear" not in changes
    assert "saves 1 KiB per instance, below fix-min-bytes (4 KiB)" in refused[("FloatLinear", "lookup")].reason
    assert changes["ArgmaxSampler"].attributes == ["_scratch"]
    assert "PlainTower" not in changes


def test_guard_parameter_is_passed_instead_of_a_new_flag(fixture_tree):
    out = fix(paths=("fixtures/modules",), write=False)
    greedy = _changes(out)["GreedySampler"]
    assert greedy.flag == "keep_history" and greedy.attributes == ["history"]
    assert greedy.notes == [
        "passes keep_history=False to HistorySampler.__init__: its own parameter already guards self.history, "
        "so no new flag is added"
    ]
    new = out.plan.file("fixtures/modules/samplers.py").new.decode()
    assert "super().__init__(vocab, keep_history=False)" in new
    assert "skip_init_history" not in new and "def __init__(self, vocab, keep_history: bool = True):" in new


def test_unsafe_fixes_reuse_the_guard_of_a_registered_module(fixture_tree):
    out = fix(paths=("fixtures/modules",), classes=("PlainTower",), unsafe=True, write=False)
    (change,) = out.plan.changes
    assert change.flag == "use_post_norm" and change.attributes == ["post_norm"]
    (fp,) = out.plan.files
    assert fp.new.decode().count("use_post_norm=False") == 1


PARENT = """
import torch


class Base:
    def sample(self, x):
        raise NotImplementedError


class P(Base):
    def __init__(self, vocab, keep_history: bool = True):
{body}

    def sample(self, x):
        return self.history


class C(P):
    def __init__(self, vocab):
        super().__init__(vocab)

    def sample(self, x):
        return x
"""


def _fix_source(write_project, body: str, child_reads: str = "x") -> str:
    src = PARENT.format(body=body).replace("        return x\n", f"        return {child_reads}\n")
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": src})
    out = run_fix(run_check([str(root)]), "skip-flag", FixOptions(), write=False)
    (fp,) = out.plan.files
    return fp.new.decode()


def test_guard_parameter_reused_when_it_guards_only_the_dead_statements(write_project):
    new = _fix_source(write_project, "        if keep_history:\n            self.history = torch.zeros(1024)")
    assert "super().__init__(vocab, keep_history=False)" in new and "skip_init" not in new


def test_guard_parameter_not_reused_when_it_is_stored(write_project):
    body = (
        "        self.keep = keep_history\n"
        "        if keep_history:\n"
        "            self.history = torch.zeros(1024)\n"
        "        else:\n"
        "            self.history = None"
    )
    new = _fix_source(write_project, body)
    assert "keep_history=False" not in new and "skip_init_history=True" in new


def test_guard_parameter_not_reused_when_the_block_builds_something_live(write_project):
    body = (
        "        if keep_history:\n"
        "            self.history = torch.zeros(1024)\n"
        "            self.counts = torch.zeros(8)"
    )
    new = _fix_source(write_project, body, child_reads="self.counts")
    assert "keep_history=False" not in new


def test_default_fix_removes_a_module_only_when_the_loader_skips_unknown_names(fixture_tree):
    out = fix(paths=("fixtures/modules",), write=False)
    changes = _changes(out)
    assert changes["SkippingEmbedder"].attributes == ["draft_head"]
    assert changes["LookupEmbedder"].attributes == ["pooler"]
    refused = _refusals(out)
    for cls in ("StrictEmbedder", "RaisingEmbedder"):
        assert (
            refused[(cls, "pooler")].kind == "unsafe"
            and "registered module `pooler`" in refused[(cls, "pooler")].reason
        )


LOADED = """
import torch
from torch import nn


class P(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)
        self.head = nn.Linear(4, 4)

    def forward(self, x):
        return self.head(self.body(x))

    def load_weights(self, weights):
        params_dict = dict(self.named_parameters())
        for name, w in weights:
            if name not in params_dict:
                continue
            params_dict[name].data.copy_(w)


class C(P):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return self.body(x)
{extra}
"""


def _head_level(write_project, extra: str = "") -> tuple[str, list[str]]:
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": LOADED.format(extra=extra)})
    (f,) = [f for f in run_check([str(root)]).findings if f.attribute == "head"]
    return f.fix_safety, [e.kind for e in f.evidence]


def test_a_proven_loader_makes_the_module_fix_safe_with_evidence(write_project):
    level, kinds = _head_level(write_project)
    assert level == "safe" and "loader" in kinds and "registered" in kinds


@pytest.mark.parametrize(
    "extra",
    [
        # a subclass that inherits the fix loads its weights without skipping
        "\n\nclass D(C):\n    def load_weights(self, weights):\n        for name, w in weights:\n"
        "            self.get_parameter(name).data.copy_(w)\n",
        # load_state_dict (strict by default) on a receiver of unknown class
        "\n\ndef restore(model, sd):\n    model.load_state_dict(sd)\n",
        # a module of the project builds C as a part and has no loader of its own
        "\n\nclass Outer(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.inner = C()\n",
    ],
    ids=["subclass-loader", "load-state-dict", "container-without-loader"],
)
def test_anything_else_that_loads_the_weights_keeps_it_unsafe(write_project, extra):
    level, kinds = _head_level(write_project, extra)
    assert level == "unsafe" and "loader" not in kinds
