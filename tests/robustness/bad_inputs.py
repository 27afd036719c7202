"""The bad inputs of issue 7, generated at test time next to a good file.

Each ``BadInput`` builds its input under ``root/pkg`` (which also holds
``__init__.py`` and ``good.py``, see ``robust_helpers.GOOD``) and says what deadinit
must answer: ``message`` is a pattern for the one ``deadinit: error: PATH: ...``
line naming the input, or None for odd but valid input, which must be analysed
without any error line; ``finds`` lists (path suffix, line) of findings the input's
own code must produce (proof that it was analysed, and analysed correctly).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

# a hierarchy with one DI002 (P.buf, line 3 of this text) to embed in odd-but-valid files
HIER = [
    "class P:",
    "    def __init__(self):",
    "        self.buf = torch.zeros(4096)",
    "    def run(self):",
    "        return 0",
    "class Q(P):",
    "    pass",
]


def _hier(head: list[str], sep: str = "\n") -> tuple[bytes, int]:
    lines = [*head, "import torch", *HIER]
    return sep.join(lines).encode("latin-1") + sep.encode(), len(head) + 1 + 3


@dataclass
class BadInput:
    name: str
    build: Callable[[Path], str]  # writes the input under root/pkg, returns its path relative to root
    message: str | None
    finds: list = field(default_factory=list)


def _file(rel: str, data: bytes) -> Callable[[Path], str]:
    def build(root: Path) -> str:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
        return rel

    return build


def _link(rel: str, target: str) -> Callable[[Path], str]:
    def build(root: Path) -> str:
        os.symlink(target, root / rel)
        return rel

    return build


def _fifo(root: Path) -> str:
    os.mkfifo(root / "pkg/pipe.py")
    return "pkg/pipe.py"


def _dir_named_py(root: Path) -> str:
    data, _ = _hier([])
    (root / "pkg/x.py").mkdir()
    (root / "pkg/x.py/inner.py").write_bytes(data)
    return "pkg/x.py"


def _cycle(root: Path) -> str:
    (root / "pkg/cyc_a.py").write_text("from .cyc_b import B\n\n\nclass A(B):\n    pass\n")
    (root / "pkg/cyc_b.py").write_text("from .cyc_a import A\n\n\nclass B(A):\n    pass\n")
    return "pkg/cyc_a.py"


def _ten_thousand(root: Path) -> str:
    out = [
        "import torch",
        "",
        "",
        "class Base:",
        "    def __init__(self):",
        "        self.ws = torch.zeros(4096)",
        "",
        "    def forward(self):",
        "        return self.ws",
        "",
    ]
    out += [f"class C{i}(Base):\n    pass\n" for i in range(10_000)]
    out += [
        "class Last(Base):",
        "    def __init__(self):",
        "        super().__init__()",
        "        self.ws = torch.zeros(4096)",
        "",
    ]
    (root / "pkg/tenk.py").write_text("\n".join(out))
    return "pkg/tenk.py"


def _big(root: Path) -> str:
    row = b"    (12345, 'generated row', 3.25, None),\n"
    with open(root / "pkg/huge_table.py", "wb") as f:
        f.write(b"DATA = [\n" + row * (20_000_000 // len(row) + 1) + b"]\n")
    return "pkg/huge_table.py"


_LATIN1, _LATIN1_LINE = _hier(["# -*- coding: latin-1 -*-", "# caf\xe9 cr\xe8me br\xfbl\xe9e"])
_BOM, _BOM_LINE = _hier([])
_CRLF, _CRLF_LINE = _hier(["# windows"], sep="\r\n")
_CR, _CR_LINE = _hier(["# -*- coding: latin-1 -*-", "# classic Mac, caf\xe9"], sep="\r")
_MIXED = (
    b"import torch\r\n"
    + b"\n".join(h.encode() for h in HIER[:3])
    + b"\r"
    + b"\r\n".join(h.encode() for h in HIER[3:])
    + b"\n"
)

BAD_INPUTS = [
    BadInput("python2-print", _file("pkg/py2.py", b'print "hello"\n'), r"syntax error at line 1.*Missing parentheses"),
    BadInput("unterminated-string", _file("pkg/unterminated.py", b'x = "abc\n'), r"unterminated string literal"),
    BadInput("bad-indentation", _file("pkg/indent.py", b"def f():\n    x = 1\n      y = 2\n"), r"unexpected indent"),
    BadInput("bad-dedent", _file("pkg/dedent.py", b"def f():\n        x = 1\n    y = 2\n"), r"unindent does not match"),
    BadInput("undecodable-bytes", _file("pkg/undecodable.py", b'x = "\xff\xfe\xfa"\n'), r"can't decode byte 0xff"),
    BadInput("unknown-coding-cookie", _file("pkg/klingon.py", b"# coding: klingon\nx = 1\n"), r"unknown encoding"),
    BadInput("latin-1-coding-cookie", _file("pkg/latin1.py", _LATIN1), None, [("pkg/latin1.py", _LATIN1_LINE)]),
    BadInput("utf-8-bom", _file("pkg/bom.py", b"\xef\xbb\xbf" + _BOM), None, [("pkg/bom.py", _BOM_LINE)]),
    BadInput("crlf-line-endings", _file("pkg/crlf.py", _CRLF), None, [("pkg/crlf.py", _CRLF_LINE)]),
    BadInput("mixed-line-endings", _file("pkg/mixed.py", _MIXED), None, [("pkg/mixed.py", 4)]),
    BadInput("lone-cr-line-endings-latin-1", _file("pkg/mac.py", _CR), None, [("pkg/mac.py", _CR_LINE)]),
    BadInput("nul-bytes", _file("pkg/nul.py", b"x = 1\x00\ny = 2\n"), r"null bytes"),
    BadInput("empty-file", _file("pkg/empty.py", b""), None),
    BadInput("20-MB-generated-file", _big, r"20\.0 MB is larger than max-file-size"),
    BadInput(
        "deep-brackets",
        _file("pkg/deep_paren.py", b"x = " + b"(" * 5000 + b"1" + b")" * 5000 + b"\n"),
        r"nesting too deep",
    ),
    BadInput("deep-unary", _file("pkg/deep_unary.py", b"x = " + b"-" * 100_000 + b"1\n"), r"nesting too deep"),
    BadInput(
        "deep-operator-chain",
        _file("pkg/deep_chain.py", b"x = " + b" + ".join([b"a"] * 20_000) + b"\n"),
        r"nesting too deep",
    ),
    BadInput("symlink-loop-folder", _link("pkg/loop", "."), r"symbolic link loop"),
    BadInput("symlink-loop-file", _link("pkg/self_loop.py", "self_loop.py"), r"symbolic link loop"),
    BadInput("dangling-symlink", _link("pkg/gone.py", "nowhere/missing.py"), r"dangling symbolic link"),
    BadInput(
        "folder-named-x.py", _dir_named_py, r"is a directory named like a Python file", [("pkg/x.py/inner.py", 4)]
    ),
    BadInput("fifo-named-py", _fifo, r"not a regular file"),
    BadInput("inheritance-cycle-across-files", _cycle, r"class A inherits from itself \(A -> B -> A\)"),
    BadInput(
        "class-inherits-from-itself",
        _file("pkg/selfbase.py", b"class Node(Node):\n    pass\n"),
        r"class Node: base `Node` is the class itself",
    ),
    BadInput("10000-classes-in-one-file", _ten_thousand, None, [("pkg/tenk.py", 6)]),
]
