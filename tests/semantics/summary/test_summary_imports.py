"""``deadinit.semantics.summary.imports``: the ``Import`` facts of a module and the names its imports bind."""

from semantic_snippets import PARSE, module

from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary, Import
from deadinit.semantics.summary.imports import ImportFacts


def imports_of(source: str, adapter: str) -> ImportFacts:
    facts = ImportFacts(FileSummary("pkg/m.py", "pkg.m", False), Settings(), PARSE[adapter])
    for st in module(source, adapter).body:
        facts.import_(st)
    return facts


def test_import_facts_and_the_names_they_bind(adapter):
    facts = imports_of(
        "import torch\nimport a.b\nimport a.b.c as abc\nfrom torch import nn as n2\nfrom . import sib\nfrom ..up import thing\nfrom x import *\n",
        adapter,
    )
    assert facts.s.imports == [
        Import("torch", "torch", None, 0, 1),
        Import("a", "a.b", None, 0, 2),
        Import("abc", "a.b.c", None, 0, 3),
        Import("n2", "torch", "nn", 0, 4),
        Import("sib", "", "sib", 1, 5),
        Import("thing", "up", "thing", 2, 6),
        Import("*", "x", "*", 0, 7),
    ]
    assert facts.import_map == {
        "torch": "torch",
        "a": "a",
        "abc": "a.b.c",
        "n2": "torch.nn",
        "sib": ".sib",
        "thing": "..up.thing",
    }
    assert facts.canon("n2.Linear") == "torch.nn.Linear"
    assert facts.module_names.imported == {"torch", "a", "abc"}
    assert facts.module_names.other == {"n2", "sib", "thing"}


def test_the_first_binding_wins(adapter):
    facts = imports_of("import torch\nfrom stub import fake as torch\n", adapter)
    assert facts.import_map["torch"] == "torch"  # ``try: import torch / except ImportError: import stub as torch``
