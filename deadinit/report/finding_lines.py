"""The default text report's lines for one finding, in ruff's spirit: where, the code and the one-line
message with its size; the one step of evidence that decides it (what overwrites the attribute, that
nothing reachable reads it, how little of the parent is reused, the call that cannot bind); and how
to fix it.  The whole chain is one step away (``--format full``, ``deadinit explain``).

Lines are laid out at the console's width on a terminal, broken only between words, continuation
lines indented; elsewhere (a pipe, a file, pre-commit) each is one line whatever its length.
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.finding import Finding
from deadinit.model.kinds import FixSafety
from deadinit.model.strategies import STRATEGY_CODES
from deadinit.report.paths import display

# per rule, the evidence kinds that decide a finding, the most telling first
DECISIVE: dict[str, tuple[EvidenceKind, ...]] = {
    "DI001": (EvidenceKind.OVERWRITTEN, EvidenceKind.DELETED),
    "DI002": (EvidenceKind.READ_NOT_COUNTED, EvidenceKind.EXTERNAL_NOT_COUNTED, EvidenceKind.CHECKED),
    "DI003": (EvidenceKind.REUSE,),
    "DI004": (EvidenceKind.CALL, EvidenceKind.TARGET),
}
# steps every finding has, told by the message already
_TOLD = (EvidenceKind.ALLOCATED, EvidenceKind.CHAIN)
MAX_STEP = 120  # characters of an evidence step or a reason shown; the rest is in --format full
DEFAULT_STRATEGY = next(iter(STRATEGY_CODES))
INDENT = "  "
CONTINUED = "    "


def decisive(f: Finding) -> Evidence | None:
    """The step of ``f``'s evidence the concise report shows."""
    for kind in DECISIVE.get(f.code, ()):
        for e in f.evidence:
            if e.kind == kind:
                return e
    rest = [e for e in f.evidence if e.kind not in _TOLD]
    return (rest or f.evidence or [None])[0]


def shortened(text: str, limit: int = MAX_STEP) -> str:
    """``text`` cut at a word boundary before ``limit`` characters, ``…`` marking the cut."""
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    kept = text[: cut if cut > 0 else limit]
    if kept.count("(") > kept.count(")"):  # no parenthesis left open
        kept = kept[: kept.rfind("(")]
    return kept.rstrip(" ,;:") + " …"


def evidence_line(f: Finding) -> str:
    """``because: <decisive step> (<where>)``; ``unsure: ...`` for a finding the analysis is unsure of."""
    if f.unsure:
        return f"unsure: {shortened(f.unsure[0])}"
    e = decisive(f)
    if e is None:
        return ""
    where = ""
    if e.path and e.line:
        where = f" (line {e.line})" if e.path == f.path else f" ({display(e.path)}:{e.line})"
    return f"because: {shortened(e.text)}{where}"


def strategy_of(code: str) -> str | None:
    for strategy, codes in STRATEGY_CODES.items():
        if code in codes:
            return strategy
    return None


def fix_line(f: Finding, cls_name: str | None = None) -> str:
    """``fix: deadinit fix ...`` with the options that fix ``f`` (its class as ``cls_name``, default the
    qualified name), or why no command does."""
    strategy = strategy_of(f.code)
    if strategy is None or f.fix_safety == FixSafety.NONE:
        return f"no automatic fix: {shortened(_not_fixable(f))}"
    if f.fix_safety == FixSafety.SAFE and f.verdict is not None and f.verdict.deferred:
        return f"fix: not made by default, {shortened(f.verdict.deferred)} (fix-min-bytes = 0 makes it)"
    command = "deadinit fix"
    if strategy != DEFAULT_STRATEGY:
        command += f" --strategy {strategy}"
    if f.fix_safety == FixSafety.UNSAFE:
        command += " --unsafe-fixes"
    command += f" --class {cls_name or f.cls}"
    if f.fix_safety == FixSafety.UNSAFE and f.fix_safety_reason:
        return f"fix: {command}  (unsafe: {shortened(f.fix_safety_reason.split('; ')[0])})"
    return f"fix: {command}"


def _not_fixable(f: Finding) -> str:
    """Why no strategy fixes ``f``."""
    if f.fix_safety_reason:
        return f.fix_safety_reason
    kept = [e.text for e in f.evidence if e.kind == EvidenceKind.KEPT_ALIVE]
    return kept[0] if kept else "the change is for a person to decide"


def head(f: Finding) -> Text:
    """``path:line:col: CODE message [size]``."""
    out = Text()
    out.append(f"{display(f.path)}:{f.line}:{f.column}:", style="bold")
    out.append(f" {f.code}", style="bold red" if f.code == "DI001" else "bold yellow")
    out.append(f" {f.message}")
    if f.cls:
        out.append(f" [{f.size_text}]", style="green")
    return out


def lines(f: Finding, evidence: bool = True, hint: bool = True, cls_name: str | None = None) -> list[Text]:
    """The finding's lines: its head, then (indented) the decisive step and the fix (``cls_name``: the
    class as ``--class`` takes it)."""
    out = [head(f)]
    if evidence and (step := evidence_line(f)):
        out.append(Text(INDENT + step, style="dim"))
    if hint and f.cls:
        out.append(Text(INDENT + fix_line(f, cls_name), style="cyan"))
    return out


def emit(console: Console, line: Text) -> None:
    """``line`` on the console: on a terminal broken between words at its width (continuation lines
    indented), else whole."""
    if not console.is_terminal:
        console.print(line, soft_wrap=True, highlight=False)
        return
    for part in wrapped(line, console.width):
        console.print(part, soft_wrap=True, highlight=False)


def wrapped(line: Text, width: int) -> list[Text]:
    """``line`` in pieces of at most ``width`` characters, broken at spaces (a word longer than the
    width stays whole on its own line); pieces after the first indented under the line's own indent."""
    plain = line.plain
    lead = len(plain) - len(plain.lstrip(" "))
    indent = " " * lead + CONTINUED
    out: list[Text] = []
    start, first = 0, True
    while start < len(plain):
        room = width - (0 if first else len(indent))
        end = len(plain)
        if end - start > room:
            cut = plain.rfind(" ", start + 1, start + room + 1)
            end = cut if cut > start else plain.find(" ", start + room)
            end = len(plain) if end < 0 else end
        piece = line[start:end]
        if not first:
            piece = Text(indent) + piece
        out.append(piece)
        start, first = end, False
        while start < len(plain) and plain[start] == " ":
            start += 1
    return out or [line]
