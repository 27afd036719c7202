"""Checks every rewrite must pass before it is written, and the atomic write itself.

Shared by all fix strategies (``deadinit fix`` calls them; a strategy never writes):

* ``generated_files``: files whose header marks them generated ("Do NOT edit") are
  never rewritten: the fix belongs in their source;
* ``check_file``: ``compile()`` accepts the new text (it parses and compiles), its
  encoding (coding cookie, BOM) and line endings are the old ones, and every byte
  outside the regions the strategy declared it edits is unchanged;
* ``compare``: the session's re-analysis of the rewritten project (``session.reanalysis``)
  no longer reports the findings a change targets and reports nothing new;
* ``write_files``: temp file in the same folder, fsync, ``os.replace``, the old
  mode kept; all or nothing: a failed write restores the files already replaced.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import threading

from deadinit.fixes.analyses import project_index
from deadinit.frontends.parse import source_encoding
from deadinit.model.finding import Finding
from deadinit.model.fix import Change, FilePlan
from deadinit.model.result import CheckResult
from deadinit.runtime import temp_files
from deadinit.runtime.interrupts import interrupts_raise

BOM = b"\xef\xbb\xbf"


def generated_files(result: CheckResult) -> dict[str, str]:
    """Path -> why it is never rewritten, for each analysed file whose header marks it generated."""
    out: dict[str, str] = {}
    for s in project_index(result).modules.values():
        if not s.generated_marker:
            continue
        source = result.generation_sources.get(s.path) or s.generated_from
        instead = f"fix its source {source} instead" if source else "fix what generates it instead"
        out[s.path] = f"{s.path} is a generated file (header: {s.generated_marker!r}); {instead}"
    return out


def check_file(fp: FilePlan) -> str | None:
    """None when the rewrite of one file is acceptable, else the reason it is not."""
    try:
        compile(fp.new, fp.path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        return f"the rewritten file does not parse: {e}"
    old_encoding, new_encoding = source_encoding(fp.old), source_encoding(fp.new)
    if old_encoding is None:  # pragma: no cover - planned from it
        return "the original file's encoding cannot be read"
    if old_encoding != new_encoding or fp.old.startswith(BOM) != fp.new.startswith(BOM):
        return f"the rewrite changes the file's encoding ({old_encoding} -> {new_encoding})"
    if newline_style(fp.old) != newline_style(fp.new):
        return "the rewrite changes the file's line endings"
    return outside_identical(fp.old, fp.new, fp.regions)


def newline_style(data: bytes) -> str:
    crlf = data.count(b"\r\n")
    lf = data.count(b"\n") - crlf
    if crlf and lf:
        return "mixed"
    return "crlf" if crlf else "lf"


def _merge(regions: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for s, e in sorted(regions):
        if out and s <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def outside_identical(old: bytes, new: bytes, regions: list[tuple[int, int]]) -> str | None:
    """Whether ``new`` is ``old`` with only the given 1-based line ranges replaced."""
    lines = old.splitlines(keepends=True)
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln))
    segments, cur = [], 0
    for s, e in _merge(regions):
        s, e = max(1, s), min(len(lines), e)
        if s > e:
            continue
        segments.append(old[cur : offsets[s - 1]])
        cur = offsets[e]
    segments.append(old[cur:])
    if _in_order(segments, new):
        return None
    return "the rewrite changes source outside the statements it edits"


def _in_order(segments: list[bytes], new: bytes) -> bool:
    """Whether ``new`` is the segments in order with anything between them: the first
    a prefix, the last a suffix, each one in between found leftmost after the previous
    (leftmost leaves the most room for the rest, so no placement is missed)."""
    if len(segments) == 1:
        return new == segments[0]
    first, *middle, last = segments
    if not new.startswith(first):
        return False
    pos = len(first)
    for seg in middle:
        found = new.find(seg, pos)
        if found < 0:
            return False
        pos = found + len(seg)
    return len(new) - len(last) >= pos and new.endswith(last)


def compare(
    before: CheckResult, after: CheckResult, changes: list[Change]
) -> tuple[dict[str, list[str]], list[Finding]]:
    """(change id -> targeted finding keys still reported, findings that are new)."""
    after_keys = {f.key for f in after.findings}
    before_keys = {f.key for f in before.findings} | {f.key for f in before.unsure} | {f.key for f in before.suppressed}
    remaining = {c.id: [k for k in c.findings if k in after_keys] for c in changes}
    new = [f for f in after.findings if f.key not in before_keys]
    return remaining, new


def atomic_write(path: str, data: bytes) -> None:
    """Replace ``path`` by ``data``: temp file in the same folder, fsync, rename; mode kept."""
    target = os.path.realpath(path)
    st = os.stat(target)
    folder = os.path.dirname(target)
    fd, tmp = temp_files.create(folder, os.path.basename(target))  # a killed run's: removed by the next run
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, stat.S_IMODE(st.st_mode))
        with contextlib.suppress(OSError):
            os.chown(tmp, st.st_uid, st.st_gid)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    try:
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:  # pragma: no cover - platforms without directory fsync
        pass


def write_files(files: list[FilePlan]) -> str | None:
    """Write every file or none: None on success, else the reason (all files restored).

    Each file is replaced atomically (a reader, or a crash, sees the old or the new
    text, never a mix).  A failed write or a ``KeyboardInterrupt`` (Ctrl-C) restores
    every file already replaced, then reports (or re-raises).
    """
    for fp in files:
        try:
            with open(fp.path, "rb") as f:
                if f.read() != fp.old:
                    return f"{fp.path} changed on disk since it was read; nothing written"
        except OSError as e:
            return f"cannot read {fp.path}: {e.strerror or e}; nothing written"
        why = _read_only(fp.path)
        if why:
            return f"cannot write {fp.path}: {why}; nothing written"
    started: list[FilePlan] = []
    with interrupts_raise():  # Ctrl-C here restores the files first
        try:
            for fp in files:
                started.append(fp)
                atomic_write(fp.path, fp.new)
        except OSError as e:
            _restore(started)
            return f"cannot write {fp.path}: {e.strerror or e}; every file left as it was"
        except BaseException:  # Ctrl-C, or anything else: never leave a half-applied fix
            _restore(started)
            raise
    return None


def _read_only(path: str) -> str | None:
    """Why ``path`` must not be rewritten: no write permission bit (even for root) or no access."""
    try:
        st = os.stat(path)
    except OSError as e:
        return e.strerror or str(e)
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
        return "the file is read-only"
    return None


def _restore(started: list[FilePlan]) -> None:
    """Put back the old text of every file that no longer has it (best effort, Ctrl-C ignored meanwhile)."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        for fp in reversed(started):
            try:
                with open(fp.path, "rb") as f:
                    if f.read() == fp.old:
                        continue
                atomic_write(fp.path, fp.old)
            except OSError:  # pragma: no cover - best effort
                pass
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
