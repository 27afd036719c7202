"""``deadinit.semantics.summary.scope``: the walk's state and the small facts of definitions."""

import pytest
from semantic_snippets import PARSE, function

from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary, Param
from deadinit.semantics.summary.scope import (
    BuilderState,
    FunctionScope,
    canonical,
    decorator_names,
    followable,
    signature_param,
)


def test_canonical():
    imports = {"nn": "torch.nn", "np": "numpy"}
    assert canonical(imports, "nn.Linear") == "torch.nn.Linear"
    assert canonical(imports, "np") == "numpy"
    assert canonical(imports, "other.x") == "other.x"


def test_decorators_and_what_they_let_a_call_return(adapter):
    fn = function("@staticmethod\n@torch.no_grad()\n@cache\n@(lambda f: f)\ndef f():\n    pass\n", adapter)
    names = decorator_names(fn.decorators)
    assert names == ("staticmethod", "torch.no_grad", "cache")
    assert not followable(names)
    assert followable(("staticmethod", "classmethod")) and followable(())


@pytest.mark.parametrize(
    ("params", "want"),
    [
        ("a", Param("a", None)),
        ("a=2", Param("a", ("const", 2))),
        ("*args", Param("args", None, "star")),
        ("**kw", Param("kw", None, "dstar")),
        ("*, k: Block = None", Param("k", ("const", None), "kwonly", "Block")),
        ("a: 'Block | Other'", Param("a", None)),  # two classes: no one annotation
    ],
)
def test_signature_param(params, want, adapter):
    fn = function(f"def f({params}):\n    pass\n", adapter)
    assert signature_param(fn.params[-1], PARSE[adapter]) == want


def test_builder_state_starts_at_module_level(adapter):
    state = BuilderState(FileSummary("m.py", "m", False), Settings(), PARSE[adapter])
    assert state._module_level() and state.s.accesses is state.reads
    state.import_map["nn"] = "torch.nn"
    assert state.canon("nn.Linear") == "torch.nn.Linear"  # bound to the import map as it grows


def test_a_function_scope_starts_empty():
    scope = FunctionScope("f", "self", None)
    assert (scope.name, scope.self_name, scope.method, scope.generator) == ("f", "self", None, False)
    assert (scope.types, scope.bound, scope.pending, scope.typing) == ({}, set(), [], None)
