"""A class named like the base it imports (index.hierarchy_problems): the base is the imported class,
never the class itself, also when the import leads outside the project."""

import textwrap

from deadinit.api.check import run_check


def _check(write_project, files: dict):
    root = write_project({"pkg/__init__.py": "", **{f"pkg/{k}": textwrap.dedent(v) for k, v in files.items()}})
    return run_check([str(root / "pkg")])


def test_class_named_like_a_base_imported_from_outside_is_not_the_class_itself(write_project):
    """``from lib import X`` (not installed) then ``class X(X)``: the base is lib's X, outside the
    project; the summary names it, and no error says the class is its own base."""
    res = _check(
        write_project,
        {
            "m.py": """
            import torch
            from outside_lib.models import Layer

            class Layer(Layer):
                def __init__(self):
                    super().__init__()
                    self.ws = torch.zeros(8)
            """
        },
    )
    assert not [e for e in res.errors if "is the class itself" in str(e)], res.errors
