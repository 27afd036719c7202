"""``deadinit.semantics.summary.module_names``: which receivers of ``recv.attr`` are modules."""

from summary_snippets import summarize

from deadinit.model.access import Access
from deadinit.semantics.summary.module_names import ModuleNames


def access(attr: str) -> Access:
    return Access(attr, 1, 0, "r", None, None, None)


def test_a_name_bound_only_by_import_is_a_module():
    names = ModuleNames()
    names.plain_import("pkg.layers", None)
    names.plain_import("pkg.ops", "ops")
    names.plain_import("cfg", None)
    names.bound_otherwise("cfg")  # ``cfg = ...`` too: not only a module
    reads = [access("mlp"), access("relu"), access("size"), access("x")]
    names.candidate(0, "pkg.layers", [])
    names.candidate(1, "ops", [])
    names.candidate(2, "cfg", [])
    names.candidate(3, "pkg", [{"pkg"}])  # a function binds ``pkg`` locally
    names.candidate(4, "<expr>", [])
    names.mark(reads)
    assert [a.on_module for a in reads] == [True, True, False, False]


def test_through_a_summary(adapter):
    s = summarize(
        """
        import pkg.layers
        import numpy as np
        from x import y
        pkg.layers.mlp
        np.float32
        y.z
        def f(np):
            return np.dtype
        """,
        adapter,
    )
    got = {a.attr: a.on_module for a in s.accesses}
    assert got == {"layers": True, "mlp": True, "float32": True, "z": False, "dtype": False}  # ``pkg.layers`` too
