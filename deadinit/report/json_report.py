"""JSON output: a list of finding objects (schema in the README)."""

from __future__ import annotations

import json


def render(result, **_) -> str:
    return json.dumps([f.to_json() for f in result.findings], indent=2, default=str) + "\n"
