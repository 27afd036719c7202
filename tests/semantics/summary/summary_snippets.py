"""A module snippet summarised by ``deadinit.semantics.summary`` (a uniquely named module)."""

import textwrap

from semantic_snippets import PARSE, module

from deadinit.model.settings import Settings
from deadinit.model.summary import ClassSummary, FileSummary, MethodSummary
from deadinit.semantics.summary.builder import SummaryBuilder


def summarize(source: str, adapter: str) -> FileSummary:
    summary = FileSummary(path="pkg/m.py", module="pkg.m", is_package=False)
    return SummaryBuilder(summary, Settings(), PARSE[adapter]).build(module(textwrap.dedent(source), adapter))


def cls(summary: FileSummary, name: str) -> ClassSummary:
    return next(c for c in summary.classes if c.name == name)


def method(summary: FileSummary, class_name: str, name: str) -> MethodSummary:
    return cls(summary, class_name).methods[name]
