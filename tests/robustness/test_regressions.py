"""Failing examples that the differential tests (hypothesis) and the bad-input suite found,
kept as plain regression tests so they run first and need no search to reappear.
"""

import textwrap

from deadinit.api.check import run_check


def _check(tmp_path, files: dict):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, src in files.items():
        (pkg / name).write_text(textwrap.dedent(src))
    return run_check([str(pkg)])


def _keys(res):
    return sorted((f.code, f.cls.rsplit(".", 1)[-1], f.attribute) for f in res.findings)


def test_class_private_names_are_mangled_not_overwritten(tmp_path):
    """``self.__p`` in Child is ``_Child__p``: it does not overwrite Base's ``_Base__p``,
    which Base's own method still reads (was a false DI001)."""
    res = _check(
        tmp_path,
        {
            "m.py": """
        import torch

        class Base:
            def __init__(self):
                self.__p = torch.zeros(4)

            def forward(self):
                return self.__p.sum()

        class Child(Base):
            def __init__(self):
                super().__init__()
                self.__p = torch.zeros(8)

            def extra(self):
                return self.__p
        """
        },
    )
    assert _keys(res) == []


def test_class_private_name_unread_in_subclass_is_still_found(tmp_path):
    res = _check(
        tmp_path,
        {
            "m.py": """
        import torch

        class Root:
            def forward(self):
                raise NotImplementedError

        class Base(Root):
            def __init__(self):
                self.__p = torch.zeros(4)

            def forward(self):
                return self.__old()

            def __old(self):
                return self.__p

        class Child(Base):
            def __init__(self):
                super().__init__()

            def forward(self):
                return 2
        """
        },
    )
    assert ("DI002", "Child", "_Base__p") in _keys(res)


def test_getattr_with_a_private_literal_stays_quiet(tmp_path):
    """``getattr(self, "__p")`` reads the attribute literally named ``__p`` at runtime, but
    summaries do not tell a literal from a written name: it counts as a read of
    ``_Base__p``.  That can only hide a finding, never invent one (quiet when unsure)."""
    res = _check(
        tmp_path,
        {
            "m.py": """
        import torch

        class Base:
            def __init__(self):
                self.__p = torch.zeros(4)

            def forward(self):
                return getattr(self, "__p", None)

        class Child(Base):
            def __init__(self):
                super().__init__()
        """
        },
    )
    assert _keys(res) == []


def test_class_named_like_its_imported_base_is_not_a_cycle(tmp_path):
    """``from .a import X`` then ``class X(X)``: the base is the imported X."""
    res = _check(
        tmp_path,
        {
            "a.py": """
            import torch

            class X:
                def __init__(self):
                    self.ws = torch.zeros(4)

                def forward(self):
                    return 1
            """,
            "b.py": """
            from .a import X

            class X(X):
                def __init__(self):
                    super().__init__()
            """,
        },
    )
    assert not [e for e in res.errors if "inherits from itself" in str(e)]
    assert ("DI002", "X", "ws") in _keys(res)


def test_cycle_across_files_is_one_error_line_per_cycle(tmp_path):
    res = _check(
        tmp_path,
        {"a.py": "from .b import B\n\nclass A(B):\n    pass\n", "b.py": "from .a import A\n\nclass B(A):\n    pass\n"},
    )
    lines = [str(e) for e in res.errors if "inherits from itself" in str(e)]
    assert len(lines) == 1 and ("A -> B -> A" in lines[0] or "B -> A -> B" in lines[0]), lines


def test_methods_of_the_main_root_stay_entry_points_with_a_mixin_among_the_bases(tmp_path):
    """``class C(Root, Mix)``: the last class of C's MRO is the mixin, but ``Root`` is a root of the
    hierarchy too; the methods it declares are the interface (was a false DI002 of ``Root.c``,
    read by ``Root.m1``)."""
    res = _check(
        tmp_path,
        {
            "m.py": """
        import torch

        class Root:
            def __init__(self):
                self.c = torch.zeros(7)

            def m1(self):
                return self.c

        class Mix:
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self.w = torch.empty(3)

        class C(Root, Mix):
            def __init__(self):
                super().__init__()
        """
        },
    )
    assert _keys(res) == []
