"""Which ``# deadinit: ignore`` comment (parsed per file by the summary stage) covers a finding."""

from __future__ import annotations

from deadinit.index.project_index import ProjectIndex
from deadinit.model.finding import Finding


def suppression_covers(codes, f: Finding) -> bool:
    """Whether a suppression comment's codes (None: bare ``ignore``) cover the finding."""
    if codes is None:
        return True
    wanted = {c.upper() for c in codes}
    return f.code.upper() in wanted or f.name.upper() in wanted


_last_index: list = [None, {}]  # the index the last call saw, and its summaries by path


def matching_suppression(f: Finding, index: ProjectIndex) -> tuple[str, int] | None:
    """The first (path, line) among the finding's related lines whose suppression covers it."""
    if _last_index[0] is not index:
        _last_index[:] = [index, {s.path: s for s in index.modules.values()}]
    by_path = _last_index[1]
    for path, line in f.related_lines:
        s = by_path.get(path)
        if s is None:
            continue
        codes = s.suppressions.get(line, False)
        if codes is not False and suppression_covers(codes, f):
            return path, line
    return None
