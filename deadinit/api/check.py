"""The engine as a library: ``run_check`` discovers, summarises, indexes and analyses a project
(``deadinit.session.pipeline``); front-ends (pre-commit hooks, codemods, tests) call these and
never reach into the stages themselves."""

from __future__ import annotations

from deadinit.session.pipeline import index_digest, index_project, run_check, run_incremental, summarize

__all__ = ["index_digest", "index_project", "run_check", "run_incremental", "summarize"]
