"""What ``SummaryBuilder`` (``deadinit.semantics.summary.builder``) records of an import
statement: the summary's ``Import`` facts, the names it binds (``import_map``, which
``canon`` reads) and which names are modules (``module_names``)."""

from __future__ import annotations

from deadinit.model.summary import Import
from deadinit.semantics import syntax as sx
from deadinit.semantics.summary.scope import BuilderState


class ImportFacts(BuilderState):
    """The builder's visitor of imports."""

    def import_(self, node: sx.Import) -> None:
        if node.module is None:
            for a in node.names:
                self.module_names.plain_import(a.name, a.asname)
                if a.asname is not None:
                    self.import_map.setdefault(a.asname, a.name)
                    self.s.imports.append(Import(a.asname, a.name, None, 0, node.line))
                else:
                    head = a.name.split(".")[0]
                    self.import_map.setdefault(head, head)
                    self.s.imports.append(Import(head, a.name, None, 0, node.line))
            return
        mod, level = node.module, node.level
        if node.star:
            self.s.imports.append(Import("*", mod, "*", level, node.line))
            return
        for a in node.names:
            local = a.asname if a.asname is not None else a.name
            self.module_names.bound_otherwise(local)
            self.s.imports.append(Import(local, mod, a.name, level, node.line))
            if level == 0:  # first binding wins: ``try: import torch / except ImportError: import stub as torch``
                self.import_map.setdefault(local, f"{mod}.{a.name}" if mod else a.name)
            else:
                dots = "." * level
                self.import_map.setdefault(local, f"{dots}{mod}.{a.name}" if mod else f"{dots}{a.name}")
