"""Module files found as the import system would find them, without importing anything."""

from deadinit.installed.finder import ModuleFinder
from deadinit.model.kinds import LibraryStatus


def test_first_folder_with_a_regular_package_or_module_wins(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    (a / "pkg").mkdir(parents=True)
    (a / "pkg" / "__init__.py").write_text("")
    (b / "pkg").mkdir(parents=True)
    (b / "pkg" / "__init__.py").write_text("")
    (b / "single.py").write_text("")
    finder = ModuleFinder((str(a), str(b)))
    assert finder.find("pkg").path == str(a / "pkg" / "__init__.py")
    assert finder.find("single").path == str(b / "single.py")
    assert finder.find("absent") is None
    assert finder.status("absent") == LibraryStatus.MISSING


def test_a_namespace_package_spans_its_portions(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    (a / "ns" / "one").mkdir(parents=True)
    (a / "ns" / "one" / "__init__.py").write_text("")
    (b / "ns").mkdir(parents=True)
    (b / "ns" / "two.py").write_text("")
    finder = ModuleFinder((str(a), str(b)))
    ns = finder.find("ns")
    assert ns is not None and ns.path is None and ns.is_package
    assert finder.find("ns.one").path == str(a / "ns" / "one" / "__init__.py")
    assert finder.find("ns.two").path == str(b / "ns" / "two.py")
    assert finder.status("ns") == LibraryStatus.SOURCE


def test_a_compiled_extension_only_is_no_source(tmp_path):
    (tmp_path / "fastlib.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    (tmp_path / "fastlib.abi3.so").write_bytes(b"")
    finder = ModuleFinder((str(tmp_path),))
    assert finder.find("fastlib") is None
    assert finder.status("fastlib") == LibraryStatus.COMPILED
