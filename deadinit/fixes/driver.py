"""Plan, check, re-plan without what failed, then (optionally) write: the library behind ``deadinit fix``.

A strategy plans every fix it can; the lines it changes are laid out by the project's formatter
(``fixes.formatter``) where one is installed.  A change that would rewrite a generated file is
refused (``safety.generated_files``).  Each file is checked (``safety.check_file``),
then the whole project is re-analysed as if the plan were applied; a change whose
file fails a check, whose targeted findings are still reported, or that brings a
new finding is dropped (with the reason) and the rest is planned again, until a
plan passes.  Nothing here prints.
"""

from __future__ import annotations

import dataclasses
import difflib
from dataclasses import dataclass, field

from deadinit.fixes import safety
from deadinit.fixes.formatter import format_changes
from deadinit.fixes.registry import load_strategies
from deadinit.frontends.parse import source_encoding
from deadinit.model.finding import Finding
from deadinit.model.fix import FilePlan, FixOptions, Plan, Refusal
from deadinit.model.kinds import RefusalKind
from deadinit.model.qualnames import short_name
from deadinit.model.result import CheckResult
from deadinit.model.totals import Totals
from deadinit.session.reanalysis import reanalyse

MAX_ATTEMPTS = 8


@dataclass
class FixOutcome:
    strategy: str
    plan: Plan  # the plan that passed every check (possibly empty)
    before: CheckResult  # the plan was made from it
    after: CheckResult | None = None  # the analysis of the rewritten project (None when nothing changed)
    rejected: list[Refusal] = field(default_factory=list)  # changes the safety checks refused
    written: list[str] = field(default_factory=list)
    error: str | None = None  # a write failed (nothing was written)

    @property
    def refusals(self) -> list[Refusal]:
        return self.plan.refusals + self.rejected

    def remaining(self) -> list[Finding]:
        """Findings still reported after the fix (all of them when nothing was applied)."""
        res = self.after if self.after is not None else self.before
        return list(res.findings)

    def diff(self) -> str:
        out: list[str] = []
        for fp in self.plan.files:
            enc = source_encoding(fp.old) or "utf-8"
            a = fp.old.decode(enc).splitlines(keepends=True)
            b = fp.new.decode(enc).splitlines(keepends=True)
            out.extend(difflib.unified_diff(a, b, f"a/{fp.path}", f"b/{fp.path}"))
        return "".join(x if x.endswith("\n") else x + "\n" for x in out)

    def diff_stat(self) -> dict[str, int]:
        files, added, removed = 0, 0, 0
        for fp in self.plan.files:
            files += 1
            enc = source_encoding(fp.old) or "utf-8"
            a, b = fp.old.decode(enc).splitlines(), fp.new.decode(enc).splitlines()
            for line in difflib.unified_diff(a, b, lineterm=""):
                if line.startswith("+") and not line.startswith("+++"):
                    added += 1
                elif line.startswith("-") and not line.startswith("---"):
                    removed += 1
        return {"files": files, "insertions": added, "deletions": removed}


def plan_checked(result: CheckResult, strategy: str, options: FixOptions) -> FixOutcome:
    """The largest plan (by dropping refused changes) that passes every safety check."""
    plan_fn = load_strategies()[strategy]
    exclude = set(options.exclude)
    rejected: list[Refusal] = []
    generated = safety.generated_files(result)
    for _ in range(MAX_ATTEMPTS):
        plan = plan_fn(result, dataclasses.replace(options, exclude=frozenset(exclude)))
        plan.files = [formatted(fp) for fp in plan.files]
        if not plan.files:
            return FixOutcome(strategy, plan, result, None, rejected)
        refused = _generated_problems(plan, generated)
        bad = refused or _file_problems(plan)
        after: CheckResult | None = None
        if not bad:
            try:
                after = reanalyse(result, plan.files, options.settings)
            except ValueError as e:
                bad = {c.id: f"re-analysis failed: {e}" for c in plan.changes}
        if after is not None:
            bad = _analysis_problems(result, after, plan)
        if not bad:
            return FixOutcome(strategy, plan, result, after, rejected)
        by_id = {c.id: c for c in plan.changes}
        for cid, why in bad.items():
            exclude.add(cid)
            c = by_id.get(cid)
            if c is not None:
                reason, kind = (
                    (why, RefusalKind.GENERATED_FILE)
                    if cid in refused
                    else (f"rewrite refused by the safety checks: {why}", RefusalKind.UNSAFE_REWRITE)
                )
                rejected.append(
                    Refusal(c.cls, ", ".join(c.parents), c.attributes + c.overwritten, reason, c.findings, kind)
                )
    return FixOutcome(strategy, Plan(refusals=plan.refusals), result, None, rejected)


def formatted(fp: FilePlan) -> FilePlan:
    """``fp`` with the lines it changes laid out by the project's formatter (``fixes.formatter``),
    when one is at hand and its result edits only what the strategy declared."""
    new = format_changes(fp.path, fp.old, fp.new)
    if new is None or new == fp.new:
        return fp
    done = dataclasses.replace(fp, new=new)
    return done if safety.check_file(done) is None else fp


def _generated_problems(plan: Plan, generated: dict[str, str]) -> dict[str, str]:
    """Change id -> why, for each change that would rewrite a generated file."""
    bad: dict[str, str] = {}
    for fp in plan.files:
        if fp.path in generated:
            for cid in fp.changes:
                bad.setdefault(cid, generated[fp.path])
    return bad


def _file_problems(plan: Plan) -> dict[str, str]:
    bad: dict[str, str] = {}
    for fp in plan.files:
        why = safety.check_file(fp)
        if why:
            for cid in fp.changes:
                bad.setdefault(cid, f"{fp.path}: {why}")
    return bad


def _analysis_problems(before: CheckResult, after: CheckResult, plan: Plan) -> dict[str, str]:
    bad: dict[str, str] = {}
    remaining, new = safety.compare(before, after, plan.changes)
    for cid, keys in remaining.items():
        if keys:
            bad[cid] = "re-analysis still reports " + ", ".join(keys[:3]) + (" ..." if len(keys) > 3 else "")
    for f in new:
        culprits = [
            c
            for c in plan.changes
            if f.cls == c.cls or f.cls in c.parents or f.parent in c.parents or f.parent == c.cls or f.path in c.files
        ]
        for c in culprits or plan.changes:
            bad.setdefault(c.id, f"re-analysis reports a new finding {f.code} {short_name(f.cls)}.{f.attribute}")
    return bad


def run_fix(result: CheckResult, strategy: str, options: FixOptions, write: bool = True) -> FixOutcome:
    """Plan with every check, then write the files (all or none) when ``write``."""
    out = plan_checked(result, strategy, options)
    found = {f.key: f for f in result.findings}
    for c in out.plan.changes:
        c.size = Totals.of(found[k] for k in c.findings if k in found).saving()
    if write and out.plan.files:
        err = safety.write_files(out.plan.files)
        if err:
            out.error = err
            out.after = None
        else:
            out.written = [fp.path for fp in out.plan.files]
    return out
