"""Random edits of a Python project on disk, of the kinds users make between two checks.

``Editor(root, seed).edit()`` applies one edit and returns a line saying what it did:
an import at the top, a method added, an allocation added or removed in an
``__init__``, a ``super().__init__`` call removed or added, a base class replaced, a
class attribute set, an ``obj.x`` read or a construction site in another file, a
suppression comment, a comment, a class renamed or removed, a file added (with a
class), removed or renamed, a syntax error introduced or fixed.  Edits are textual (one line inserted, replaced or removed), so a
file that no longer parses stays a valid step: the check must report it the same way.
"""

from __future__ import annotations

import ast
import random
import re
from dataclasses import dataclass
from pathlib import Path

ALLOCATIONS = ("torch.empty({n}, {n})", "torch.zeros({n})", "torch.full(({n},), 0)", "[None] * {n}", "dict()")
ASSIGN = re.compile(r"^(\s*)self\.(\w+)\s*=.*$")


@dataclass
class ClassSite:
    path: Path
    name: str
    line: int  # the class statement
    end_line: int
    body_indent: int
    init: tuple[int, int] | None  # (line of the first statement of __init__, its indent)
    header_single_line: bool


class Editor:
    def __init__(self, root: Path, seed: int):
        self.root = root
        self.rng = random.Random(seed)
        self.broken: dict[Path, str] = {}  # file -> the text before a syntax error was introduced
        self.counter = 0
        self.hot: list[str] = []  # attributes worth reading or assigning: e.g. those of the current findings
        self.kinds = [
            self.import_at_top,
            self.new_method,
            self.allocation_added,
            self.allocation_removed,
            self.super_call_toggled,
            self.base_replaced,
            self.class_value_set,
            self.read_elsewhere,
            self.construction_elsewhere,
            self.suppression_added,
            self.comment_appended,
            self.class_renamed,
            self.class_removed,
            self.file_added,
            self.file_removed,
            self.file_renamed,
            self.syntax_error,
            self.syntax_fixed,
            self.export_added,
        ]

    # -- what the project holds ------------------------------------------------
    def files(self) -> list[Path]:
        return sorted(p for p in self.root.rglob("*.py") if ".deadinit_cache" not in p.parts)

    def module_of(self, path: Path) -> str:
        parts = list(path.relative_to(self.root.parent).with_suffix("").parts)
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    def classes(self) -> list[ClassSite]:
        out = []
        for path in self.files():
            try:
                tree = ast.parse(path.read_text())
            except (SyntaxError, ValueError, UnicodeDecodeError):
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.body:
                    init = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
                    first = (init.body[0].lineno, init.body[0].col_offset) if init is not None else None
                    single = node.body[0].lineno > node.lineno and not node.decorator_list
                    out.append(
                        ClassSite(
                            path,
                            node.name,
                            node.lineno,
                            node.end_lineno or node.lineno,
                            node.body[0].col_offset,
                            first,
                            single and path.read_text().splitlines()[node.lineno - 1].rstrip().endswith(":"),
                        )
                    )
        return out

    def attrs(self) -> list[str]:
        if self.hot and self.rng.random() < 0.6:
            return sorted(set(self.hot))
        found = set()
        for path in self.files():
            for line in path.read_text(errors="replace").splitlines():
                m = ASSIGN.match(line)
                if m:
                    found.add(m.group(2))
        return sorted(found) or ["buffer"]

    # -- text helpers ------------------------------------------------------------
    def _insert(self, path: Path, line: int, text: str) -> None:
        lines = path.read_text().splitlines(keepends=True)
        lines.insert(line - 1, text if text.endswith("\n") else text + "\n")
        path.write_text("".join(lines))

    def _replace(self, path: Path, line: int, text: str) -> None:
        lines = path.read_text().splitlines(keepends=True)
        lines[line - 1] = text + "\n"
        path.write_text("".join(lines))

    def _append(self, path: Path, text: str) -> None:
        body = path.read_text()
        path.write_text(body + ("" if body.endswith("\n") or not body else "\n") + text)

    def _name(self, stem: str) -> str:
        self.counter += 1
        return f"{stem}{self.counter}"

    def _pick(self, seq):
        return self.rng.choice(seq) if seq else None

    def _pick_line(self, matches):
        """(a file, its lines, the index of one line ``matches`` accepts or None); None without files."""
        path = self._pick(self.files())
        if path is None:
            return None
        lines = path.read_text().splitlines()
        return path, lines, self._pick([i for i, ln in enumerate(lines) if matches(ln)])

    # -- the edits -----------------------------------------------------------------
    def edit(self) -> str:
        for _ in range(20):
            what = self.rng.choice(self.kinds)()
            if what:
                return what
        return self.comment_appended()

    def import_at_top(self) -> str | None:
        path = self._pick(self.files())
        if path is None:
            return None
        lines = path.read_text().splitlines()
        at = 1 + max((i + 1 for i, ln in enumerate(lines) if ln.startswith("from __future__")), default=0)
        others = self.classes()
        site = self._pick(others)
        choices = ["import os", "import torch", "from typing import Any"]
        if site is not None:
            choices.append(f"from {self.module_of(site.path)} import {site.name}")
            choices.append(f"import {self.module_of(site.path)}")
        text = self.rng.choice(choices)
        self._insert(path, at, text)
        return f"{path.name}: `{text}` at line {at}"

    def new_method(self) -> str | None:
        site = self._pick(self.classes())
        if site is None:
            return None
        pad = " " * site.body_indent
        name = self._name("probe_")
        attr = self.rng.choice(self.attrs())
        body = self.rng.choice([f"return self.{attr}", f"self.{attr} = None", "return super().forward()"])
        if self.rng.random() < 0.3:
            name = self.rng.choice(["forward", "init_forward_metadata", "__call__", "extra_repr"])
        self._insert(site.path, site.end_line + 1, f"{pad}def {name}(self):\n{pad}    {body}\n")
        return f"{site.path.name}: {site.name}.{name} added ({body})"

    def allocation_added(self) -> str | None:
        site = self._pick([c for c in self.classes() if c.init is not None])
        if site is None:
            return None
        line, indent = site.init
        attr = self.rng.choice([*self.attrs(), self._name("buf")])
        alloc = self.rng.choice(ALLOCATIONS).format(n=self.rng.choice([8, 1024, 4096]))
        self._insert(site.path, line, " " * indent + f"self.{attr} = {alloc}")
        return f"{site.path.name}: {site.name}.__init__ allocates self.{attr} = {alloc}"

    def allocation_removed(self) -> str | None:
        picked = self._pick_line(lambda ln: ASSIGN.match(ln) and ln.rstrip().endswith(")"))
        if picked is None or picked[2] is None:
            return None
        path, lines, i = picked
        indent = ASSIGN.match(lines[i]).group(1)
        self._replace(path, i + 1, indent + "pass")
        return f"{path.name}: line {i + 1} `{lines[i].strip()[:50]}` removed"

    def super_call_toggled(self) -> str | None:
        picked = self._pick_line(lambda ln: re.match(r"^\s*super\(\)\.__init__\(.*\)\s*$", ln))
        if picked is None:
            return None
        path, lines, i = picked
        if i is not None:
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
            self._replace(path, i + 1, indent + "pass")
            return f"{path.name}: super().__init__ at line {i + 1} removed"
        site = self._pick([c for c in self.classes() if c.init is not None])
        if site is None:
            return None
        self._insert(site.path, site.init[0], " " * site.init[1] + "super().__init__()")
        return f"{site.path.name}: super().__init__() added to {site.name}.__init__"

    def base_replaced(self) -> str | None:
        classes = self.classes()
        site = self._pick([c for c in classes if c.header_single_line])
        if site is None:
            return None
        same_file = [c.name for c in classes if c.path == site.path and c.line < site.line]
        other = self._pick(classes)
        choices = ["object", *same_file]
        header = site.path.read_text().splitlines()[site.line - 1]
        pad = header[: len(header) - len(header.lstrip())]
        if other is not None and other.name != site.name:
            self._insert(site.path, 1, f"from {self.module_of(other.path)} import {other.name}")
            site.line += 1
            choices.append(other.name)
        base = self.rng.choice(choices)
        self._replace(site.path, site.line, f"{pad}class {site.name}({base}):")
        return f"{site.path.name}: {site.name} now derives from {base}"

    def class_value_set(self) -> str | None:
        site = self._pick(self.classes())
        if site is None:
            return None
        attr = self.rng.choice(["use_cuda_graph", "is_draft", "enable_cache", *self.attrs()[:5]])
        value = self.rng.choice(["True", "False", "None", "4"])
        self._insert(site.path, site.line + 1, " " * site.body_indent + f"{attr} = {value}")
        return f"{site.path.name}: {site.name}.{attr} = {value} at class level"

    def read_elsewhere(self) -> str | None:
        path = self._pick(self.files())
        site = self._pick(self.classes())
        if path is None:
            return None
        attr = self.rng.choice(self.attrs())
        name = self._name("_read_")
        typed = site is not None and site.path == path and self.rng.random() < 0.5
        param = f"obj: {site.name}" if typed else "obj"
        self._append(path, f"\n\ndef {name}({param}):\n    return obj.{attr}\n")
        return f"{path.name}: {name}({param}) reads obj.{attr}"

    def construction_elsewhere(self) -> str | None:
        site = self._pick(self.classes())
        if site is None:
            return None
        name = self._name("_make_")
        self._append(site.path, f"\n\ndef {name}():\n    return {site.name}()\n")
        return f"{site.path.name}: {name} constructs {site.name}"

    def suppression_added(self) -> str | None:
        picked = self._pick_line(lambda ln: ASSIGN.match(ln) and "#" not in ln)
        if picked is None or picked[2] is None:
            return None
        path, lines, i = picked
        code = self.rng.choice(["", "[DI001]", "[DI002]", "[DI003]"])
        self._replace(path, i + 1, lines[i] + f"  # deadinit: ignore{code}")
        return f"{path.name}: suppression{code} at line {i + 1}"

    def export_added(self) -> str | None:
        """A class offered by a package's ``__init__`` (under its name or another) or by its module's ``__all__``."""
        site = self._pick(self._top_level())
        packages = [p for p in self.files() if p.name == "__init__.py"]
        if site is None:
            return None
        if packages and self.rng.random() < 0.6:
            init = self._pick(packages)
            alias = self.rng.choice(["", f" as {self._name('Offered')}"])
            self._append(init, f"from {self.module_of(site.path)} import {site.name}{alias}\n")
            return f"{init.parent.name}/__init__.py re-exports {site.name}{alias}"
        self._append(site.path, f"\n__all__ = [{site.name!r}]\n")
        return f"{site.path.name}: __all__ names {site.name}"

    def comment_appended(self) -> str:
        path = self._pick(self.files())
        if path is None:
            return self.file_added() or "nothing"
        self._append(path, "# a comment\n")
        return f"{path.name}: comment appended"

    def _top_level(self) -> list[ClassSite]:
        out = []
        for c in self.classes():
            header = c.path.read_text().splitlines()[c.line - 1]
            if c.header_single_line and header.startswith("class "):
                out.append(c)
        return out

    def class_renamed(self) -> str | None:
        site = self._pick(self._top_level())
        if site is None:
            return None
        header = site.path.read_text().splitlines()[site.line - 1]
        new = self._name(site.name + "Renamed")
        self._replace(site.path, site.line, header.replace(f"class {site.name}", f"class {new}", 1))
        return f"{site.path.name}: class {site.name} renamed {new}"

    def class_removed(self) -> str | None:
        site = self._pick(self._top_level())
        if site is None:
            return None
        lines = site.path.read_text().splitlines(keepends=True)
        del lines[site.line - 1 : site.end_line]
        site.path.write_text("".join(lines))
        return f"{site.path.name}: class {site.name} removed"

    def file_added(self) -> str | None:
        site = self._pick(self.classes())
        folder = self._pick(sorted({p.parent for p in self.files()})) or self.root
        name = self._name("added_")
        attr = self.rng.choice(self.attrs())
        if site is None:
            text = f"class {name.title()}:\n    def __init__(self):\n        self.{attr} = None\n"
        else:
            text = (
                f"from {self.module_of(site.path)} import {site.name}\n\n\n"
                f"class {name.title()}({site.name}):\n"
                "    def __init__(self, *args, **kwargs):\n"
                "        super().__init__(*args, **kwargs)\n"
                f"        self.{attr} = None\n"
            )
        (folder / f"{name}.py").write_text(text)
        return f"{folder.name}/{name}.py added"

    def file_removed(self) -> str | None:
        path = self._pick([p for p in self.files() if p.name != "__init__.py"])
        if path is None:
            return None
        path.unlink()
        self.broken.pop(path, None)
        return f"{path.name} removed"

    def file_renamed(self) -> str | None:
        path = self._pick([p for p in self.files() if p.name != "__init__.py"])
        if path is None:
            return None
        target = path.with_name(self._name(path.stem + "_moved") + ".py")
        path.rename(target)
        if path in self.broken:
            self.broken[target] = self.broken.pop(path)
        return f"{path.name} renamed to {target.name}"

    def syntax_error(self) -> str | None:
        path = self._pick([p for p in self.files() if p not in self.broken])
        if path is None:
            return None
        self.broken[path] = path.read_text()
        self._append(path, "def broken(:\n")
        return f"{path.name}: syntax error"

    def syntax_fixed(self) -> str | None:
        path = self._pick(sorted(self.broken))
        if path is None:
            return None
        path.write_text(self.broken.pop(path))
        return f"{path.name}: syntax error fixed"
