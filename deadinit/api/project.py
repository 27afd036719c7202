"""A command's face of the session: configure a run, run it (``Session``), make its findings
final, and the errors a front-end shows as one line."""

from __future__ import annotations

from deadinit.session.baseline import BaselineError, load_baseline, write_baseline
from deadinit.session.config import ConfigError
from deadinit.session.errors import UsageError
from deadinit.session.findings import (
    FinalFindings,
    final_findings,
    no_files_message,
    skipped_sources_note,
    with_findings,
)
from deadinit.session.fix_lane import Lane, in_lane, lane_classes
from deadinit.session.run import Explained, Session, resolve_class
from deadinit.session.setup import configure, configured_scope, require_paths

__all__ = [
    "BaselineError",
    "ConfigError",
    "Explained",
    "FinalFindings",
    "Lane",
    "Session",
    "UsageError",
    "configure",
    "configured_scope",
    "final_findings",
    "in_lane",
    "lane_classes",
    "load_baseline",
    "no_files_message",
    "require_paths",
    "resolve_class",
    "skipped_sources_note",
    "with_findings",
    "write_baseline",
]
