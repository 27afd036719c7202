"""Stand-in profiles: how to set up a framework and build a constructor's inputs.

A profile is a TOML file (two are bundled, ``sglang-mha`` and ``sglang-mla``)::

    name = "my-profile"
    match = '^mypkg\\.'        # regex on the class qualname, for inference
    priority = 0               # higher wins when several bundled profiles match
    setup = "none"             # "none" | "sglang" | "module:function"
    [setup_options]            # passed to the setup hook
    [env]                      # environment variables for the measurement child
    [construct]
    args = ["@model_runner"]   # the constructor's arguments (value language below)
    kwargs = {}
    [objects.model_runner]     # named stand-in objects
    device = "@device"

The value language is documented in ``standins.py`` and ``docs/gpu-check.md``.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PROFILE_DIR = Path(__file__).parent / "profiles"
SECTIONS = {
    "name",
    "description",
    "match",
    "priority",
    "setup",
    "setup_options",
    "env",
    "construct",
    "objects",
    "depth",
    "forward",
}


class ProfileError(ValueError):
    pass


@dataclass
class Profile:
    name: str
    source: str
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def match(self) -> str | None:
        return self.data.get("match")

    @property
    def priority(self) -> int:
        return int(self.data.get("priority", 0))

    @property
    def env(self) -> dict[str, str]:
        return {str(k): str(v) for k, v in self.data.get("env", {}).items()}

    def for_child(self) -> dict[str, Any]:
        """The JSON-able part the measurement child needs."""
        return {
            k: self.data.get(k)
            for k in ("name", "setup", "setup_options", "construct", "objects", "forward")
            if k in self.data
        }


def _validate(data: dict[str, Any], source: str) -> None:
    unknown = set(data) - SECTIONS
    if unknown:
        raise ProfileError(f"{source}: unknown key(s) {sorted(unknown)}; known: {sorted(SECTIONS)}")
    if "construct" in data and not isinstance(data["construct"], dict):
        raise ProfileError(f"{source}: [construct] must be a table")
    args = data.get("construct", {}).get("args", [])
    if not isinstance(args, list):
        raise ProfileError(f"{source}: construct.args must be an array")
    if "match" in data:
        try:
            re.compile(data["match"])
        except re.error as exc:
            raise ProfileError(f"{source}: bad match regex: {exc}") from exc
    setup = data.get("setup", "none")
    if not isinstance(setup, str) or not (setup in ("none", "sglang") or ":" in setup):
        raise ProfileError(f"{source}: setup must be 'none', 'sglang' or 'module:function'")


def load_file(path: Path) -> Profile:
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ProfileError(f"cannot read profile {path}: {exc}") from exc
    _validate(data, str(path))
    return Profile(name=data.get("name", Path(path).stem), source=str(path), data=data)


def bundled() -> list[Profile]:
    profiles = [load_file(p) for p in sorted(PROFILE_DIR.glob("*.toml"))]
    return sorted(profiles, key=lambda p: -p.priority)


def bundled_names() -> list[str]:
    return [p.name for p in bundled()]


def load(name_or_path: str) -> Profile:
    """A bundled profile by name (``sglang-mha``) or a TOML file by path."""
    for profile in bundled():
        if profile.name == name_or_path:
            return profile
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        return load_file(path)
    raise ProfileError(
        f"unknown profile {name_or_path!r}; bundled: {', '.join(bundled_names())} (or give a path to a .toml file)"
    )


def infer(qualname: str) -> Profile:
    """The highest-priority bundled profile whose ``match`` accepts ``qualname``."""
    for profile in bundled():
        if profile.match and re.search(profile.match, qualname):
            return profile
    raise ProfileError(f"no bundled profile matches {qualname}; pass --profile NAME|PATH.toml")
