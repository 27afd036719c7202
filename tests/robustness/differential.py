"""Compare deadinit's findings on a generated package with what ran (``runtime_oracle``).

A DI001/DI002 finding (class C, parent P, attribute x), and the same for every subclass
listed in ``extra["subclasses"]``, claims: on an instance of C, ``P.__init__`` stores an
allocation in ``x`` that nothing that can run uses.  It is a false positive when such an
allocation was used at runtime (read after construction, or held by a used wrapper),
when ``P.__init__`` stored no allocation in ``x`` at all (``super(P, self)`` skipped it,
or a guard the class decides was false) unless the finding says it holds only under a
condition nothing decides, or when constructing C raises.  A DI001 with ``kept_by``
claims less (the *binding* is overwritten while a live object keeps the value): it is
false only when the value was read through an attribute of the instance after
construction (a read through the object that keeps it, ``Holder.get()``, is what
``kept_by`` says).

Registration is not a use: an ``nn.Module`` child, ``nn.Parameter`` or ``register_buffer``
that nothing reads is runtime-dead (it is built for nothing, though ``state_dict`` lists
it), so a DI002 on it is true; but removing it changes the checkpoint keys, so such a
finding whose fix is classed ``safe`` is reported (``safe_registered``) and fails the test.
An allocation made by a factory function, a method or a comprehension counts for the
``__init__`` that called it (``torch_standin``); an allocation passed into another project
class's constructor is used when that object hands it back to a read (``Holder.get()``).

A DI004 finding on C (and its listed subclasses) claims that constructing C raises: it is
false when C constructs.  A class whose own parent call cannot bind (generated on
purpose) must get a DI004.  Recall: the (C, P, x) triples that were allocated and never
used at runtime, and how many of them deadinit reported.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path

import hierarchy_mro as hm
from hierarchy_gen import Spec
from hierarchy_render import render
from production_path import check_result
from runtime_oracle import Instance, demangle, observe

_COUNTER = itertools.count()


def write_package(root: Path, spec: Spec, name: str | None = None) -> Path:
    pkg = root / (name or f"dg_{next(_COUNTER)}")
    pkg.mkdir(parents=True)
    for rel, src in render(spec).items():
        (pkg / rel).write_text(src)
    return pkg


def short(q: str) -> str:
    return q.rsplit(".", 1)[-1]


@dataclass
class Verdict:
    false_positives: list = field(default_factory=list)
    dead: set = field(default_factory=set)  # (C, P, x) allocated and never used at runtime
    reported: set = field(default_factory=set)  # (C, P, x) claimed by findings (expanded to subclasses)
    unsure: set = field(default_factory=set)  # claimed only by findings hidden as unsure
    dead_unsure: set = field(default_factory=set)  # dead triples of classes the analysis is unsure of
    unsure_false: list = field(default_factory=list)
    conditional_not_run: int = 0  # findings "only when <condition>" whose allocation did not happen
    broken: int = 0  # classes whose construction raised (a parent call that cannot bind)
    di004_missed: list = field(default_factory=list)  # generated unbindable calls without a DI004
    safe_registered: list = field(default_factory=list)  # DI002 on a registered allocation, fix classed safe

    @property
    def found(self) -> set:
        return self.dead & self.reported


def ancestors(spec: Spec, name: str) -> set[str]:
    """The project classes (mixins included) after ``name`` in its MRO."""
    i = next(k for k, c in enumerate(spec.classes) if c.name == name)
    out = set()
    for k in spec.mro.of(i)[1:]:
        if isinstance(k, int):
            out.add(spec.classes[k].name)
        elif hm.is_mixin(k):
            out.add(f"Mix{k[1]}")
    return out


def _claimed_classes(f) -> list[str]:
    return [short(c) for c in [f.cls, *f.extra.get("subclasses", [])]]


def _claims(findings) -> dict:
    out: dict = {}
    for f in findings:
        if f.code not in ("DI001", "DI002"):
            continue
        for c in [f.cls, *f.extra.get("subclasses", [])]:
            out.setdefault((short(c), short(f.parent), demangle(f.attribute)), []).append(f)
    return out


def _wrong(f, inst: Instance, parent: str, attr: str, v: Verdict) -> str | None:
    if inst.error:
        return f"{f.code} {inst.cls}: {parent}.{attr} claimed, but constructing {inst.cls} raises ({inst.error})"
    bufs = [b for b in inst.allocs if b.site == f"{parent}.__init__" and b.attr == attr]
    if not bufs:
        if f.extra.get("conditional"):
            v.conditional_not_run += 1
            return None
        return f"{f.code} {inst.cls}: {parent}.{attr} (line {f.line}) claimed, but {parent}.__init__ stored none"
    kept = bool(f.extra.get("kept_by"))
    for b in bufs:
        if id(b) in (inst.read if kept else inst.used):
            how = "read after construction" if id(b) in inst.read else "held by a used wrapper"
            return f"{f.code} {inst.cls}: {parent}.{attr} (line {b.line}) is {how}"
    return None


def _unsure_classes(result) -> set[str]:
    out = set()
    for qn in result.index.classes:
        an = result.analyzer.analyse(qn)
        if an is not None and an.unsure:
            out.add(short(qn))
    return out


def _judge_di004(spec: Spec, result, obs: dict[str, Instance], v: Verdict) -> None:
    raising = {c for f in result.findings if f.code == "DI004" for c in _claimed_classes(f)}
    for c in raising:
        if c in obs and not obs[c].error:
            v.false_positives.append(f"DI004 {c}: claimed to raise, but it constructs")
    for c in spec.classes:
        if c.bad and c.name not in raising:
            v.di004_missed.append(f"{c.name}: {c.call} ({c.bad}) raises {obs[c.name].error}")


def judge(spec: Spec, result, obs: dict[str, Instance]) -> Verdict:
    v = Verdict()
    unsure_classes = _unsure_classes(result)
    _judge_di004(spec, result, obs, v)
    for inst in obs.values():
        if inst.error:
            v.broken += 1
            continue
        groups: dict = {}
        for b in inst.parent_allocs(inst.ancestors()):
            groups.setdefault((inst.cls, b.site[:-9], b.attr), []).append(b)
        for k, bs in groups.items():
            # the last allocation of (P, x) in P.__init__: an earlier one P itself replaces is P's own waste
            if id(bs[-1]) not in inst.used:
                (v.dead_unsure if inst.cls in unsure_classes else v.dead).add(k)
    for claims, into, wrong in (
        (_claims(result.findings), v.reported, v.false_positives),
        (_claims(result.unsure), v.unsure, v.unsure_false),
    ):
        for (c, p, x), fs in claims.items():
            into.add((c, p, x))
            inst = obs.get(c)
            if inst is None:
                continue
            for f in fs:
                why = _wrong(f, inst, p, x, v)
                if why:
                    wrong.append(why)
    v.unsure -= v.reported
    _judge_registered(result.findings, obs, v)
    return v


def _judge_registered(findings, obs: dict[str, Instance], v: Verdict) -> None:
    """A DI002 on a registered module, parameter or buffer is a true waste, but its fix changes the
    checkpoint keys (``state_dict``): it must not be classed ``safe``."""
    for f in findings:
        inst = obs.get(short(f.cls))
        if f.code != "DI002" or f.fix_safety != "safe" or inst is None:
            continue
        at = (f"{short(f.parent)}.__init__", demangle(f.attribute))
        if any(b.registered and (b.site, b.attr) == at for b in inst.allocs):
            v.safe_registered.append(f"DI002 {inst.cls}: {at[0]} registers {at[1]}, yet the fix is classed safe")


def run_differential(tmp: Path, spec: Spec) -> tuple[Verdict, object, dict]:
    """``deadinit check`` on the generated package (a new folder: the result cache misses, so the
    result has the analyzer ``judge`` asks), then the package run."""
    pkg = write_package(tmp, spec)
    result = check_result([str(pkg)], tmp / "cache")
    assert result.analyzer is not None, "a result-cache hit: the package folder must be new"
    obs = observe(pkg, [c.name for c in spec.classes], spec.config)
    return judge(spec, result, obs), result, obs
