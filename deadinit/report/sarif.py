"""SARIF 2.1.0 for GitHub code scanning: rule metadata with help text, results, related locations.

URIs are relative to the current folder (``%SRCROOT%``), which in CI is the
checkout root, as GitHub requires.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from deadinit import __version__
from deadinit.report.paths import uri
from deadinit.rules.registry import ALL_RULES, severity

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFO_URI = "https://pypi.org/project/deadinit/"


def _text(s: str) -> str:
    return " ".join(s.split())


def rule_descriptor(rule) -> dict:
    doc = rule.doc()
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": _text(rule.summary)},
        "fullDescription": {"text": _text(rule.what_it_does)},
        "help": {"text": doc, "markdown": doc},
        "defaultConfiguration": {"level": rule.severity},
        "properties": {
            "tags": ["performance", "memory", "maintainability"],
            "precision": "high",
            "problem.severity": rule.severity,
        },
    }


def _location(path: str, line: int, column: int, root: str, message: str = "") -> dict:
    u, relative = uri(path, root)
    art = {"uri": u, "uriBaseId": "%SRCROOT%"} if relative else {"uri": u}
    region = {"startLine": max(1, line)}
    if column:
        region["startColumn"] = max(1, column)
    loc = {"physicalLocation": {"artifactLocation": art, "region": region}}
    if message:
        loc["message"] = {"text": message}
    return loc


def _related(f, index, root: str) -> list[dict]:
    out, seen = [], {(os.path.normpath(f.path), f.line)}
    if f.cls and index is not None and f.cls in index.classes:
        cls = index.classes[f.cls]
        out.append((index.file_of(f.cls).path, cls.line, cls.col + 1, f"subclass {f.cls}"))
    for e in f.evidence:
        if e.path and e.line:
            out.append((e.path, e.line, 0, f"{e.kind.value}: {e.text}"))
    locs = []
    for path, line, col, msg in out:
        if (os.path.normpath(path), line) in seen:
            continue
        seen.add((os.path.normpath(path), line))
        loc = _location(path, line, col, root, msg)
        loc["id"] = len(locs) + 1
        locs.append(loc)
    return locs


def result_object(f, rule_index: dict, index, root: str) -> dict:
    known = f.estimated_bytes is not None or f.size_expr
    msg = f"{f.message} (~{f.size_text} per instance)" if known else f.message
    res = {
        "ruleId": f.code,
        "level": severity(f.code),
        "message": {"text": msg},
        "locations": [_location(f.path, f.line, f.column, root)],
        "partialFingerprints": {"deadinitKey/v1": f.key if f.code != "DI100" else f"{f.code}:{uri(f.path, root)[0]}"},
        "properties": {
            "class": f.cls,
            "parent": f.parent,
            "attribute": f.attribute,
            "kind": f.kind,
            "estimatedBytes": f.estimated_bytes,
            "sizeExpr": f.size_expr,
            "fixSafety": f.fix_safety,
            "fixSafetyReason": f.fix_safety_reason,
        },
    }
    if f.code in rule_index:
        res["ruleIndex"] = rule_index[f.code]
    related = _related(f, index, root)
    if related:
        res["relatedLocations"] = related
    return res


def document(result, root: str = "") -> dict:
    root = os.path.abspath(root or os.getcwd())
    rule_index = {r.code: i for i, r in enumerate(ALL_RULES)}
    notes = [{"level": "error", "message": {"text": e}} for e in result.errors]
    run = {
        "tool": {
            "driver": {
                "name": "deadinit",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFO_URI,
                "rules": [rule_descriptor(r) for r in ALL_RULES],
            }
        },
        "originalUriBaseIds": {"%SRCROOT%": {"uri": Path(root).as_uri() + "/"}},
        "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": notes}],
        "results": [result_object(f, rule_index, result.index, root) for f in result.findings],
        "columnKind": "unicodeCodePoints",
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def render(result, **_) -> str:
    return json.dumps(document(result), indent=2) + "\n"
