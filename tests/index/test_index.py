"""Module names, import resolution and the class graph."""

from deadinit.api.check import summarize
from deadinit.index.discovery import module_name
from deadinit.index.project_index import ProjectIndex
from deadinit.model.settings import Settings


def index_of(root):
    sums, errors, _ = summarize([str(root)], Settings())
    assert not errors, errors
    return ProjectIndex(sums)


def test_module_names_packages_src_and_namespace(tmp_path):
    (tmp_path / "src/pkg/ns/inner").mkdir(parents=True)
    (tmp_path / "src/pkg/__init__.py").write_text("")
    (tmp_path / "src/pkg/ns/inner/mod.py").write_text("")
    assert module_name(tmp_path / "src/pkg/ns/inner/mod.py") == ("pkg.ns.inner.mod", False)
    assert module_name(tmp_path / "src/pkg/__init__.py") == ("pkg", True)
    assert module_name(tmp_path / "src/pkg/ns/inner/mod.py", (tmp_path / "src/pkg/ns",)) == ("inner.mod", False)


def test_resolution_aliases_relative_reexports_and_module_bases(write_project):
    root = write_project(
        {
            "pkg/__init__.py": "from .base import Base as Exported\n",
            "pkg/base.py": "class Base:\n    pass\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/a.py": "from ..base import Base as B\nclass A(B):\n    pass\n",
            "pkg/sub/b.py": "import pkg.base as m\nfrom pkg import Exported\nclass C(m.Base):\n    pass\nclass D(Exported):\n    pass\n",
            "pkg/sub/c.py": "from . import a\nclass E(a.A):\n    pass\n",
        }
    )
    idx = index_of(root)
    assert idx.mro("pkg.sub.a.A") == ["pkg.sub.a.A", "pkg.base.Base"]
    assert idx.mro("pkg.sub.b.C")[1] == "pkg.base.Base"
    assert idx.mro("pkg.sub.b.D")[1] == "pkg.base.Base"
    assert idx.mro("pkg.sub.c.E") == ["pkg.sub.c.E", "pkg.sub.a.A", "pkg.base.Base"]


def test_c3_mro_diamond_and_cycles(write_project):
    root = write_project(
        {
            "p/__init__.py": "",
            "p/m.py": "class A: pass\nclass B(A): pass\nclass C(A): pass\nclass D(B, C): pass\n",
            "p/x.py": "from p.y import Y\nclass X(Y): pass\n",
            "p/y.py": "from p.x import X\nclass Y(X): pass\n",
            "p/z.py": "from p.z import Z as Q\nclass Z(Q): pass\n",
        }
    )
    idx = index_of(root)
    assert idx.mro("p.m.D") == ["p.m.D", "p.m.B", "p.m.C", "p.m.A"]
    assert idx.mro("p.x.X") is None  # cycle across files: no crash, no MRO
    assert idx.bases("p.z.Z")[0].kind == "opaque"  # inherits from itself via an alias


def test_external_bases_are_opaque(write_project):
    root = write_project({"q/__init__.py": "", "q/m.py": "import torch.nn as nn\nclass L(nn.Module): pass\n"})
    idx = index_of(root)
    assert idx.bases("q.m.L")[0].kind == "external"
    assert idx.derives_from_external("q.m.L", ("torch.nn.Module",))


def test_full_mro_of_a_long_chain_is_the_same_whichever_class_is_asked_first(write_project):
    chain = "".join(f"class C{i}(C{i - 1}):\n    pass\n" for i in range(1, 600))
    root = write_project(
        {"q/__init__.py": "", "q/m.py": f"import torch.nn as nn\nclass C0(nn.Module):\n    pass\n{chain}"}
    )
    deep_first, middle_first = index_of(root), index_of(root)
    middle_first.full_mro("q.m.C300")
    got = deep_first.full_mro("q.m.C599")
    assert got == middle_first.full_mro("q.m.C599")
    assert got is not None and len(got) == 601 and got[-1] == "\0torch.nn.Module"
