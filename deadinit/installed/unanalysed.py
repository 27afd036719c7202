"""How much of the project's use of other packages went unanalysed because the package is not
installed where libraries are read (or has no Python source): one line per package in the
summary, so that a silent zero cannot read as a clean bill of health."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from deadinit.model.kinds import LibraryStatus
from deadinit.model.result import Unanalysed

if TYPE_CHECKING:  # the text report reads this module's lines: a warm check loads no summary
    from deadinit.model.summary import FileSummary


def unanalysed(
    summaries: Iterable[FileSummary], readable: Callable[[str], bool], status: Callable[[str], LibraryStatus]
) -> list[Unanalysed]:
    """``readable``: whether a top-level package is one the libraries may answer for (not the
    project's, the standard library's or a tensor library's); ``status``: what the search path holds."""
    calls: Counter[str] = Counter()
    bases: Counter[str] = Counter()
    for s in summaries:
        for use in s.outside:
            calls[use.package] += use.calls
            bases[use.package] += use.bases
    out = []
    for package in sorted(calls.keys() | bases.keys()):
        if not readable(package):
            continue
        st = status(package)
        if st != LibraryStatus.SOURCE and (calls[package] or bases[package]):
            out.append(Unanalysed(package, calls[package], bases[package], st))
    out.sort(key=lambda u: (-u.calls, -u.bases, u.package))
    return out


def unanalysed_text(u: Unanalysed) -> str:
    """``412 calls into `mmcv` were not analysed (not installed here)``."""
    what = "not installed here" if u.status == LibraryStatus.MISSING else "installed without Python sources"
    parts = []
    if u.calls:
        parts.append(f"{u.calls} call{'s' if u.calls != 1 else ''} into `{u.package}`")
    if u.bases:
        parts.append(f"{u.bases} base class{'es' if u.bases != 1 else ''} from `{u.package}`")
    verb = "was" if len(parts) == 1 and (u.calls + u.bases) == 1 else "were"
    return f"{' and '.join(parts)} {verb} not analysed ({what})"
