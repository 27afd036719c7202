"""A registry's ``build`` returns some module while every class registered into it is a module; a
class that joins the registry changes that in an incremental run as in a full one."""

from incremental_runs import copy_fixtures, full_run, incremental_run, snapshot
from layer_site import SITE


def _head_found(result) -> bool:
    return any(f.attribute == "head" and f.cls.endswith("WideBottleneck") for f in result.findings)


def test_a_plain_class_joining_the_registry_ends_the_finding(tmp_path):
    root = copy_fixtures(tmp_path)
    (root.parent / "pyproject.toml").write_text(f'[tool.deadinit]\nlibrary-paths = ["{SITE}"]\n')
    cache = tmp_path / "cache"
    first, _ = incremental_run(root, cache)
    assert _head_found(first)
    heads = root / "layers" / "heads.py"
    heads.write_text(heads.read_text() + "\n\n@HEADS.register_module()\nclass Counter:\n    pass\n")
    again, stats = incremental_run(root, cache)
    assert not stats.get("full", True)
    assert not _head_found(again)
    assert snapshot(again) == snapshot(full_run(root))
