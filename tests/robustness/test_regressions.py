"""Failing examples that the differential tests (hypothesis) and the bad-input suite found,
kept as plain regression tests so they run first and need no search to reappear.
"""

import textwrap

import pytest
from production_path import fix_run

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


def test_super_init_of_a_module_root_does_not_reach_a_mixin_after_nn_module(tmp_path):
    """``class C(Root, Mix)`` with ``class Root(nn.Module)``: the real MRO is C, Root, nn.Module,
    Mix; Root's ``super().__init__()`` runs ``nn.Module.__init__``, which does not go on, so
    ``Mix.__init__`` never runs on C (was a false DI001 of ``Mix.b``, "overwritten" by C)."""
    res = _check(
        tmp_path,
        {
            "m.py": """
        import torch
        from torch import nn

        class Root(nn.Module):
            def __init__(self):
                super().__init__()
                self.k = torch.zeros(6)

            def forward(self):
                return self.k

        class Mix:
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self.b = torch.zeros(6)

        class C(Root, Mix):
            def __init__(self):
                super().__init__()
                self.b = torch.empty(5)
        """
        },
    )
    assert _keys(res) == []


def test_a_parent_init_called_through_a_module_level_alias_is_resolved(tmp_path):
    """``_Base = Root`` then ``_Base.__init__(self, bogus=True)``: the call reaches ``Root.__init__``,
    cannot bind (DI004), and a call that binds runs Root's allocations (DI002 of ``ws``)."""
    res = _check(
        tmp_path,
        {
            "m.py": """
        import torch

        class Root:
            def __init__(self, n=4):
                self.ws = torch.zeros(n)

            def forward(self):
                return 1

        _Base = Root

        class Broken(Root):
            def __init__(self):
                _Base.__init__(self, bogus=True)

        class Child(Root):
            def __init__(self):
                _Base.__init__(self, n=8)
        """
        },
    )
    assert _keys(res) == [("DI002", "Child", "ws"), ("DI004", "Broken", "__init__")]


def test_a_parent_init_called_through_a_local_alias_is_resolved(tmp_path):
    """``base = Root`` then ``base.__init__(self, ...)`` in ``__init__``: the call reaches
    ``Root.__init__`` (DI004 when it cannot bind; Root's allocations run when it can)."""
    res = _check(
        tmp_path,
        {
            "m.py": """
        import torch

        class Root:
            def __init__(self, n=4):
                self.ws = torch.zeros(n)

            def forward(self):
                return 1

        class Broken(Root):
            def __init__(self):
                base = Root
                base.__init__(self, 1, 2)

        class Child(Root):
            def __init__(self, other=False):
                base = Root
                if other:
                    base = object
                base.__init__(self)
        """
        },
    )
    assert _keys(res) == [("DI004", "Broken", "__init__")]


def test_an_init_that_runs_twice_is_not_reported(tmp_path):
    """On C, ``Mix2.__init__`` runs once through ``Mix1``'s cooperative ``super().__init__()`` and
    again when C calls it: the first ``b`` is overwritten by Base, the second is the one C reads.
    Skipping Mix2's allocation would skip both (was a false DI001 of ``Mix2.b``)."""
    res = _check(
        tmp_path,
        {
            "m.py": """
        import torch

        class Root:
            def forward(self):
                return self.b

        class Mix1:
            def __init__(self):
                super().__init__()
                self.c = 1

        class Mix2:
            def __init__(self):
                super().__init__()
                self.b = torch.empty(8)

        class Base(Root, Mix1):
            def __init__(self):
                Mix1.__init__(self)
                self.b = torch.empty(3)

        class C(Base, Mix2):
            def __init__(self):
                Base.__init__(self)
                Mix2.__init__(self)
        """
        },
    )
    assert _keys(res) == []


def test_a_subclass_where_the_finding_only_may_hold_is_not_listed_under_one_where_it_holds(tmp_path):
    """C1 passes ``mode=1`` (Root allocates ``head``, nothing reads it); C2 skips C1 and forwards its
    own ``mode``: on C2 the allocation happens only when ``mode == 1``.  Listing C2 among the
    subclasses of C1's finding claimed it outright (it was never allocated at runtime)."""
    res = _check(
        tmp_path,
        {
            "m.py": """
        import torch
        from torch import nn

        class Root(nn.Module):
            def __init__(self, mode=0):
                super().__init__()
                self.a = torch.zeros(8)
                if mode == 1:
                    self.head = nn.Linear(8)

            def forward(self):
                return self.a

        class C1(Root):
            def __init__(self):
                super().__init__(mode=1)

        class C2(C1):
            def __init__(self, mode=0):
                Root.__init__(self, mode=mode)
        """
        },
    )
    got = {
        (f.cls.rsplit(".", 1)[-1], f.attribute): (f.extra["subclasses"], f.extra["conditional"]) for f in res.findings
    }
    assert got == {("C1", "head"): ([], False), ("C2", "head"): ([], True)}


@pytest.mark.parametrize("suppression", ["", "  # deadinit: ignore[DI004]"])
def test_skip_flag_fix_refused_when_a_call_to_the_changed_init_cannot_bind(tmp_path, suppression):
    """``Other`` passes ``Root.__init__`` a positional it cannot take (DI004, construction raises);
    a ``skip_init_*`` parameter added to ``Root.__init__`` would let that call bind, so the fix
    for ``Child`` is refused instead (found by the fix property test with every construct), also
    when the DI004 is suppressed: the call still raises today."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "m.py").write_text(
        textwrap.dedent(
            """
            import torch

            class Root:
                def __init__(self):
                    self.buf = torch.empty(4096)

            class Other(Root):
                def __init__(self):
                    super().__init__(None)SUPPRESSION

            class Child(Root):
                def __init__(self):
                    super().__init__()
            """
        ).replace("SUPPRESSION", suppression)
    )
    out = fix_run([str(pkg)], "skip-flag", tmp_path / "cache", write=False, unsafe_fixes=True)
    assert out.plan.changes == []
    assert any("DI004" in r.reason and "Other" in r.reason for r in out.plan.refusals)
