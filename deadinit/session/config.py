"""Load ``[tool.deadinit]`` from ``pyproject.toml`` into a ``Settings`` plus path filters.

Loaded once per run.  The file is found by walking up from the analysed paths
(the first ``pyproject.toml`` that has a ``[tool.deadinit]`` table); ``--config
FILE`` names it directly.  Keys are kebab-case (``per-file-ignores``); the
snake_case spelling is accepted too.  Every problem is a ``ConfigError`` whose
message names the file and the key.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from deadinit.installed.search_path import environment_digest
from deadinit.model.settings import Settings

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


class ConfigError(Exception):
    """A problem with the configuration or the command line, shown as one line."""


@dataclass
class Config:
    settings: Settings
    root: Path  # folder that relative patterns and roots are resolved against
    path: Path | None = None  # the file read, None when no configuration was found
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    raw: dict[str, object] = field(default_factory=dict)


def _str_list(key: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"expected a list of strings, got {_type(value)}")
    return tuple(value)


def _bool(key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {_type(value)}")
    return value


def _regex(key: str, value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a regular expression string, got {_type(value)}")
    try:
        re.compile(value)
    except re.error as e:
        raise ValueError(f"invalid regular expression: {e}") from None
    return value


def _threshold(key: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ValueError(f"expected a number between 0 and 1, got {value!r}")
    return float(value)


def _positive_int(key: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"expected a positive integer, got {value!r}")
    return value


def _byte_count(key: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"expected a number of bytes (an integer >= 0), got {value!r}")
    return value


def _template(key: str, value: object) -> str:
    if not isinstance(value, str) or "{name}" not in value:
        raise ValueError('expected a string containing `{name}`, e.g. "skip_init_{name}"')
    try:
        probe = value.format(name="x")
    except (KeyError, IndexError, ValueError) as e:
        raise ValueError(f"invalid template: {e}") from None
    if not probe.isidentifier():
        raise ValueError(f"does not make a Python identifier (gives {probe!r})")
    return value


def _codes(key: str, value: object) -> tuple[str, ...]:
    tokens = _str_list(key, value)
    return validate_codes(tokens)


def _per_file_ignores(key: str, value: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ValueError(f"expected a table of pattern = [codes], got {_type(value)}")
    out: list[tuple[str, tuple[str, ...]]] = []
    for pattern, codes in value.items():
        try:
            out.append((pattern, validate_codes(_str_list(key, codes))))
        except ValueError as e:
            raise ValueError(f"pattern {pattern!r}: {e}") from None
    return tuple(out)


# key -> (Settings field or None for a Config field, parser)
_KEYS: dict[str, tuple[str, Callable[[str, object], object]]] = {
    "include": ("include", _str_list),
    "exclude": ("exclude", _str_list),
    "respect-gitignore": ("respect_gitignore", _bool),
    "select": ("select", _codes),
    "ignore": ("ignore", _codes),
    "per-file-ignores": ("per_file_ignores", _per_file_ignores),
    "roots": ("roots", _str_list),
    "show-unsure": ("show_unsure", _bool),
    "tensor-modules": ("tensor_modules", _str_list),
    "tensor-factories": ("tensor_factories", _str_list),
    "buffer-helpers": ("buffer_helpers", _str_list),
    "heavy-class-pattern": ("heavy_class_pattern", _regex),
    "module-bases": ("module_bases", _str_list),
    "parameter-bases": ("parameter_bases", _str_list),
    "di003-threshold": ("di003_threshold", _threshold),
    "flag-name-template": ("flag_name_template", _template),
    "direct-base-max-lines": ("direct_base_max_lines", _positive_int),
    "fix-min-bytes": ("fix_min_bytes", _byte_count),
    "max-file-size": ("max_file_size", _positive_int),
    "include-generation-sources": ("include_generation_sources", _bool),
    "parameter-bytes": ("parameter_bytes", _positive_int),
    "weight-loaders": ("weight_loaders", _str_list),
    "random-stream-unsafe": ("random_stream_unsafe", _bool),
    "library-paths": ("library_paths", _str_list),
    "installed-packages": ("installed_packages", _bool),
}
_CONFIG_FIELDS = {"include", "exclude", "respect_gitignore"}
KNOWN_KEYS = tuple(_KEYS)


def _type(v: object) -> str:
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "a table",
    }.get(type(v), type(v).__name__)


def known_codes() -> dict[str, str]:
    """Every code and name accepted in select / ignore / suppressions -> its code."""
    from deadinit.rules.registry import ALL_RULES  # noqa: PLC0415 - the rules load the analysis

    out = {}
    for r in ALL_RULES:
        out[r.code.upper()] = r.code
        out[r.name.lower()] = r.code
    return out


def validate_codes(tokens: Iterable[str]) -> tuple[str, ...]:
    """Check rule codes/names; ``ALL`` and prefixes such as ``DI`` or ``DI00`` select groups."""
    known = known_codes()
    out = []
    for t in tokens:
        t = t.strip()
        if not t:
            continue
        if t.upper() == "ALL":
            out.extend(sorted(set(known.values())))
            continue
        code = known.get(t.upper()) or known.get(t.lower())
        if code is not None:
            out.append(code)
            continue
        up = t.upper()
        group = sorted({c for c in known.values() if c.startswith(up)}) if re.fullmatch(r"[A-Z]+[0-9]*", up) else []
        if group:
            out.extend(group)
            continue
        import difflib  # noqa: PLC0415 - only a name that matches nothing asks for a close one

        hint = difflib.get_close_matches(t, list(known), n=1)
        raise ValueError(f"unknown rule code or name {t!r}" + (f" (did you mean {hint[0]!r}?)" if hint else ""))
    return tuple(dict.fromkeys(out))


def split_codes(option: str, text: str) -> tuple[str, ...]:
    """Parse a comma-separated command-line list of codes, naming the option on error."""
    try:
        return validate_codes(text.split(","))
    except ValueError as e:
        raise ConfigError(f"{option}: {e}") from None


def find_config(paths: Iterable[str]) -> Path | None:
    """The nearest ``pyproject.toml`` with a ``[tool.deadinit]`` table above the paths (or cwd)."""
    starts = [Path(os.path.abspath(p)) for p in paths] or [Path.cwd()]
    start = Path(os.path.commonpath([str(p) for p in starts]))
    if start.is_file() or not start.exists():
        start = start.parent
    for d in [start, *start.parents]:
        candidate = d / "pyproject.toml"
        if candidate.is_file():
            data = _read(candidate)  # a broken pyproject.toml on the way up is an error too
            tool = data.get("tool")
            if isinstance(tool, dict) and "deadinit" in tool:
                return candidate
    return None


def _read(path: Path) -> dict[str, object]:
    try:
        with open(path, "rb") as f:
            data: dict[str, object] = tomllib.load(f)
            return data
    except OSError as e:
        raise ConfigError(f"cannot read config {path}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: invalid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: invalid TOML: not UTF-8 ({e.reason})") from None


def _table(path: Path, data: dict[str, object], explicit: bool) -> dict[str, object]:
    tool = data.get("tool")
    if isinstance(tool, dict) and "deadinit" in tool:
        table = tool["deadinit"]
    elif path.name == "pyproject.toml" or "tool" in data:
        if explicit and path.name != "pyproject.toml":
            raise ConfigError(f"{path}: no [tool.deadinit] table")
        return {}
    else:  # a dedicated file (deadinit.toml): the whole file is the table
        table = data
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.deadinit] must be a table")
    return table


def parse_table(table: dict[str, object], path: Path | None, root: Path, base: Settings | None = None) -> Config:
    where = f"{path}: " if path else ""
    settings = dataclasses.replace(base or Settings())
    cfg = Config(settings=settings, root=root, path=path, raw=dict(table))
    for raw_key, value in table.items():
        key = raw_key.replace("_", "-")
        if key not in _KEYS:
            import difflib  # noqa: PLC0415 - only a name that matches nothing asks for a close one

            hint = difflib.get_close_matches(key, KNOWN_KEYS, n=1)
            raise ConfigError(
                f"{where}unknown key {raw_key!r} in [tool.deadinit]" + (f" (did you mean {hint[0]!r}?)" if hint else "")
            )
        attr, parser = _KEYS[key]
        try:
            parsed = parser(key, value)
        except ValueError as e:
            raise ConfigError(f"{where}[tool.deadinit] {raw_key}: {e}") from None
        if attr in _CONFIG_FIELDS:
            setattr(cfg, attr, parsed)
        elif attr in ("roots", "library_paths"):
            setattr(settings, attr, tuple(str((root / r).resolve()) for r in cast(tuple[str, ...], parsed)))
        else:
            setattr(settings, attr, parsed)
    settings.config_root = str(root)
    return cfg


def load_config(paths: Iterable[str] = (), config_file: str | None = None) -> Config:
    """Find and parse the configuration for a run over ``paths``."""
    paths = list(paths)
    path: Path | None
    if config_file is not None:
        path = Path(config_file)
        if not path.is_file():
            raise ConfigError(f"config file not found: {config_file}")
        table = _table(path, _read(path), explicit=True)
    else:
        path = find_config(paths)
        table = _table(path, _read(path), explicit=False) if path else {}
    root = path.resolve().parent if path else Path.cwd()
    cfg = parse_table(table, path, root)
    cfg.settings.library_environment = environment_digest(cfg.settings)
    return cfg
