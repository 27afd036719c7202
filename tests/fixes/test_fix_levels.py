"""What a plain ``deadinit fix`` applies (safe fixes only), and a parent's guard parameter reused."""

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
    assert changes["FloatLinear"].attributes == ["lookup"]  # a plain tensor attribute is no checkpoint key
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
