"""Generated trees no project is written like, but a generated-code base or a hostile input can
be: each is written into a folder and checked through the CLI (``test_hostile_trees``)."""

from __future__ import annotations

from pathlib import Path


def cycle(root: Path, n: int) -> None:
    """``class C0(C{n-1})``, ``class C1(C0)``, …: one inheritance cycle through ``n`` classes."""
    lines = ["import torch", "", f"class C0(C{n - 1}):", "    def __init__(self):", "        self.a = torch.zeros(4)"]
    lines += [f"class C{i}(C{i - 1}):\n    pass" for i in range(1, n)]
    (root / "cycle.py").write_text("\n".join(lines) + "\n")


def chain(root: Path, depth: int) -> None:
    """``depth`` classes, each adding one tensor after ``super().__init__()``, and a leaf that
    overwrites the root's tensor."""
    out = ["import torch", "", "class C0:", "    def __init__(self):", "        self.a0 = torch.zeros(4)", ""]
    for i in range(1, depth):
        out += [
            f"class C{i}(C{i - 1}):",
            "    def __init__(self):",
            "        super().__init__()",
            f"        self.a{i} = torch.zeros(4)",
            "",
        ]
    out += [f"class Leaf(C{depth - 1}):", "    def __init__(self):", "        super().__init__()"]
    out += ["        self.a0 = torch.ones(2)", ""]
    (root / "chain.py").write_text("\n".join(out))


def many_attributes(root: Path, n: int) -> None:
    """A base whose ``__init__`` sets ``n`` tensors, a subclass that overwrites every other one."""
    out = ["import torch", "", "class Base:", "    def __init__(self):"]
    out += [f"        self.a{i} = torch.zeros({i % 7 + 1})" for i in range(n)]
    out += ["", "class Sub(Base):", "    def __init__(self):", "        super().__init__()"]
    out += [f"        self.a{i} = None" for i in range(0, n, 2)]
    (root / "attrs.py").write_text("\n".join(out) + "\n")


def long_init(root: Path, lines: int) -> None:
    """An ``__init__`` of ``lines`` statements (locals, branches, one tensor per hundred lines)."""
    out = ["import torch", "", "class Base:", "    def __init__(self, n):"]
    for i in range(lines):
        if i % 100 == 0:
            out.append(f"        self.t{i} = torch.zeros(n)")
        elif i % 10 == 0:
            out.append(f"        if n > {i}:\n            v{i} = n + {i}")
        else:
            out.append(f"        v{i} = n * {i}")
    out += ["", "class Sub(Base):", "    def __init__(self):", "        super().__init__(3)", "        self.t0 = None"]
    (root / "long_init.py").write_text("\n".join(out) + "\n")


def many_files(root: Path, n: int) -> None:
    """``n`` files of one line each, in folders of a hundred."""
    for i in range(n):
        folder = root / f"d{i // 100}"
        folder.mkdir(exist_ok=True)
        (folder / f"m{i}.py").write_text(f"x{i} = {i}\n")


def classes_only(root: Path, n: int) -> None:
    """A file whose every line is a class, each deriving from one above it (a binary tree)."""
    out = ["class K0: pass"] + [f"class K{i}(K{(i - 1) // 2}): pass" for i in range(1, n)]
    (root / "classes.py").write_text("\n".join(out) + "\n")
