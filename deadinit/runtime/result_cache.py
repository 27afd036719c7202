"""Whole-run result cache of ``deadinit check``: warm runs and small edits.

The per-file cache (``deadinit.runtime.file_cache``) spares parsing, but a run still
reads every summary, builds the index and analyses every hierarchy (~10 s on
sglang).  Findings are a function of what the analysis reads, so a run whose
inputs are the ones of a stored run can give that run's result:

* the settings, targets, working folder, path filter and deadinit's own code
  (version, and the size and mtime of its modules) are the results file's key;
* the discovered files (paths, modules) and discovery's notes are equal;
* every file's size and mtime equal the recorded ones (an mtime within
  ``RACY_NS`` of its recording is not trusted), or else its content hash equals
  the recorded one (the hash of the content that was summarised): a fresh checkout
  of the same commit, every mtime new, is still a hit (CI with a restored cache);
* a file whose content did change is summarised again (in a worker: a crash costs
  the lookup, never the run) and counts as unchanged when its summary is equal,
  field by field and in order, to the one the stored run used (the per-file cache
  entry of that content).  ``FileSummary.lines`` is left out: no stage reads it.

Anything else, or any doubt (an unreadable file, a file that failed to summarise,
a corrupt or foreign results file), is a miss: the full run happens and is stored.
The stored result carries a ``LiteIndex`` with the little of the index that
``check``'s reporters and DI100 read.  Entries are keyed-digest-checked and moved
into place atomically, like the per-file cache.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import pickle
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

from deadinit.model.namesakes import namesakes
from deadinit.model.qualnames import short_name
from deadinit.runtime import file_cache as filecache
from deadinit.runtime.file_state import FileState
from deadinit.runtime.stat_memo import StatMemo

if TYPE_CHECKING:
    from deadinit.model.finding import Finding
    from deadinit.model.result import CheckResult
    from deadinit.model.settings import Settings
    from deadinit.runtime.helper import Helper
    from deadinit.runtime.summarizer import ProjectSummarizer


class PathFilterKey(Protocol):
    """What a run's key reads of discovery's path filter (``index.pathfilter.PathFilter``, a layer
    above this one)."""

    @property
    def root(self) -> str: ...
    @property
    def top(self) -> str: ...
    @property
    def respect_gitignore(self) -> bool: ...
    @property
    def include(self) -> Any: ...  # a ``pathspec`` spec or None
    @property
    def exclude(self) -> Any: ...


# (path, module, is_package) of one discovered file
Item = tuple[str, str, bool]
# what ``ProjectSummarizer.last_inputs`` holds: (when the run started, per item its stat and hash)
Inputs = tuple[int, list[tuple[os.stat_result, str] | None]]

FORMAT = 7
MAX_CHANGED = 16  # more files with new content than this: a full run (each would be summarised here)
MAGIC = b"deadinit-results\n"


class LiteModule(NamedTuple):
    """A tuple: a stored result holds one per module, and a warm run unpickles them all."""

    path: str
    suppressions: dict[int, frozenset[str] | None]  # line -> codes (None: all)


@dataclass
class LiteClass:
    line: int
    col: int
    path: str


@dataclass
class LiteIndex:
    """What ``check`` reads of a ``ProjectIndex`` once the findings exist."""

    modules: dict[str, LiteModule] = field(default_factory=dict)
    classes: dict[str, LiteClass] = field(default_factory=dict)  # the findings' classes
    mros: dict[str, list[str]] = field(default_factory=dict)
    namesakes: dict[str, list[str]] = field(default_factory=dict)  # short name -> the classes with it

    def mro(self, qualname: str) -> list[str] | None:
        return self.mros.get(qualname)

    def file_of(self, qualname: str) -> LiteModule | None:
        c = self.classes.get(qualname)
        return None if c is None else LiteModule(c.path, {})

    @classmethod
    def of(cls, index: Any, findings: Iterable[Finding]) -> LiteIndex:  # a ProjectIndex (index/ is above)
        out = cls({m: LiteModule(s.path, dict(s.suppressions)) for m, s in index.modules.items()})
        for f in findings:
            if f.cls and f.cls in index.classes and f.cls not in out.classes:
                c = index.classes[f.cls]
                out.classes[f.cls] = LiteClass(c.line, c.col, index.file_of(f.cls).path)
                out.mros[f.cls] = list(index.mro(f.cls) or [f.cls])
        out.namesakes = namesakes(index.classes, {short_name(q) for q in out.classes})
        return out


@dataclass
class Snapshot:
    items: list[Item]  # as discovered
    notes: list[str]  # discovery's notes
    states: list[FileState]  # per item
    result: CheckResult  # with a LiteIndex, no analyzer


@functools.cache
def code_fingerprint() -> str:
    """deadinit's own modules (a changed rule changes results without a new version), by content:
    a reinstall (a CI runner's fresh ``pip install``: every mtime new) keeps the stored results.
    Once per process: the code that runs is the code imported when it started."""
    base = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    modules = []
    for folder, _, names in os.walk(base):
        rel = os.path.relpath(folder, base)
        parts = () if rel == os.curdir else tuple(rel.split(os.sep))
        modules += [(*parts, n) for n in names if n.endswith(".py")]
    h = hashlib.blake2b(digest_size=16)
    for parts in sorted(modules):
        try:
            with open(os.path.join(base, *parts), "rb") as f:
                data = f.read()
        except OSError:
            continue
        h.update(f"{'/'.join(parts)}\0{len(data)}\n".encode())
        h.update(data)
    return h.hexdigest()


def run_key(targets: list[str], settings: Settings, path_filter: PathFilterKey | None) -> str:
    parts = [
        filecache.ENV,
        FORMAT,
        code_fingerprint(),
        os.getcwd(),
        list(targets),
        [(f.name, getattr(settings, f.name)) for f in dataclasses.fields(settings) if not f.name.startswith("_")],
        _filter_key(path_filter),
    ]
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def _filter_key(pf: PathFilterKey | None) -> Any:
    if pf is None:
        return None
    return (pf.root, pf.top, pf.respect_gitignore, _patterns(pf.include), _patterns(pf.exclude))


def _patterns(spec: Any) -> Any:
    return None if spec is None else [getattr(p, "pattern", repr(p)) for p in spec.patterns]


_Held = TypeVar("_Held")


class ResultStore:
    """One results file per run key under ``<cache>/results/``."""

    subfolder, suffix = "results", "res"
    holds: type[object] = Snapshot

    def __init__(self, folder: Path, key: str):
        self.folder = Path(folder)
        self.path = self.folder / self.subfolder / f"{key}.{self.suffix}"

    def load(self) -> Any:
        read = self.read(self.path, self.holds)
        return read[0] if read is not None else None

    def store(self, snap: Any) -> None:
        self.write(self.path, snap)

    def read(self, path: Path, holds: type[_Held]) -> tuple[_Held, str, int] | None:
        """The object a file at ``path`` holds (an instance of ``holds``), its payload's keyed
        digest and the payload's size; None when it is missing or not trustworthy."""
        raw = filecache.read_tagged(path, MAGIC)
        if raw is None:
            return None
        try:
            digest, payload = raw[:32].decode(), raw[33:]
            if digest != self._digest(payload):
                return None
            snap = pickle.loads(payload)
            return (snap, digest, len(payload)) if isinstance(snap, holds) else None
        except Exception:
            return None  # corrupt, truncated, foreign: a full run rewrites it

    def write(self, path: Path, snap: Any) -> tuple[str, int] | None:
        """Write ``snap`` to ``path`` atomically; its payload's keyed digest and size (None: not
        written)."""
        return self.write_payload(path, pickle.dumps(snap, protocol=pickle.HIGHEST_PROTOCOL))

    def write_payload(self, path: Path, payload: bytes) -> tuple[str, int] | None:
        """``write`` of an object already pickled."""
        digest = self._digest(payload)
        try:
            filecache.prepare_folder(self.folder)
            path.parent.mkdir(parents=True, exist_ok=True)
            data = MAGIC + digest.encode() + b"\n" + payload
            filecache.write_atomically(path, data, filecache.temp_folder(self.folder))
        except OSError:
            return None  # read-only or full: the next run is slower, never wrong
        return digest, len(payload)

    @staticmethod
    def _digest(payload: bytes) -> str:
        return filecache.keyed_digest(payload)


def states_of(inputs: Inputs) -> list[FileState] | None:
    """FileStates from ``ProjectSummarizer.last_inputs``; None when some file has none."""
    started_ns, per_item = inputs
    out: list[FileState] = []
    for x in per_item:
        if x is None:
            return None
        st, h = x
        out.append(FileState.of(st, started_ns, h))
    return out


def refresh(
    snap: Snapshot,
    walk: Callable[[], tuple[list[Item], list[str]]],
    settings: Settings,
    summarizer: ProjectSummarizer,
    helper: Helper | None = None,
    stats: StatMemo | None = None,
) -> tuple[Snapshot, bool] | None:
    """(snapshot with fresh states, whether any state changed) when the stored result holds
    for the files as they are now; None for a miss.

    ``walk()`` discovers (items, notes); it runs after the stored files were checked
    and any changed one was handed to the helper, so that both work at once.  ``stats``:
    where the files' stats are taken (and kept, for discovery and the summarizer)."""
    stats = stats if stats is not None else StatMemo()
    now = stats.taken_ns  # a state is recorded no later than its stat was taken
    states = list(snap.states)
    if len(states) != len(snap.items):
        return None
    changed = []
    for i, (item, state) in enumerate(zip(snap.items, states, strict=True)):
        try:
            st = stats.stat(item[0])
        except OSError:
            return None
        if not state.stat_matches(st):
            changed.append((i, st))
    edited = []  # hashing every changed file is cheap next to a full run: a fresh checkout moves every mtime
    for i, st in changed:
        try:
            with open(snap.items[i][0], "rb") as f:
                h = filecache.content_hash(f.read())
        except OSError:
            return None
        if h == states[i].hash:
            states[i] = FileState.of(st, now, h)  # touched, same content
        else:
            edited.append(i)
            if len(edited) > MAX_CHANGED:
                return None
    pending = None
    if edited:
        from deadinit.runtime import recheck  # noqa: PLC0415 - parses: only when a file changed

        pending = recheck.start(
            snap, [snap.items[i] for i in edited], [states[i] for i in edited], settings, summarizer, helper
        )
        if pending is None:
            return None
    items, notes = walk()
    if snap.items != items or snap.notes != notes:
        return None
    if pending is not None:
        fresh = pending.finish()
        if fresh is None:
            return None
        for i, s in zip(edited, fresh, strict=True):
            states[i] = s
    return dataclasses.replace(snap, states=states), bool(changed)
