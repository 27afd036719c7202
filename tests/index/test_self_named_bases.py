"""A class named like the base it imports (index.hierarchy_problems): the base is the imported class,
never the class itself, also when the import leads outside the project."""

import textwrap

from deadinit.api.check import run_check


def _check(tmp_path, files: dict):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, src in files.items():
        (pkg / name).write_text(textwrap.dedent(src))
    return run_check([str(pkg)])


def test_class_named_like_a_base_imported_from_outside_is_not_the_class_itself(tmp_path):
    """``from lib import X`` (not installed) then ``class X(X)``: the base is lib's X, outside the
    project; the summary names it, and no error says the class is its own base."""
    res = _check(
        tmp_path,
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
