"""Judge deadinit on the hierarchies of ``idiom_gen`` against what ran, as ``differential`` does.

The package is analysed through the production path (``production_path.check_result``) and
executed with the recording stand-in ``torch`` (``runtime_oracle.observe``); the findings
are judged by ``differential.judge`` (what a false positive is, what recall counts), with one
rule more: an allocation that holds nothing (an ``nn.ModuleList([])``, a ``torch.zeros(0)``,
built from a collection the subclass emptied) wastes nothing, so it is not runtime-dead, and a
finding on it is false unless it says it holds only under a condition.  And a finding "only when
<condition>" is false when the condition is decided by the code: no input a caller could give
(another ``Config`` default, other arguments to the subclass: ``Hier.worlds``, each executed)
makes the allocation happen on a class that constructs.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

from differential import Verdict, judge, short
from idiom_parts import Hier
from production_path import check_result
from runtime_oracle import Instance, demangle, observe

_COUNTER = itertools.count()


@dataclass
class Outcome:
    hier: Hier
    verdict: Verdict
    unexpected: dict  # class -> the error constructing it raised (the generated code must construct)


def _empty_triples(obs: dict[str, Instance]) -> set:
    out = set()
    for inst in obs.values():
        groups: dict = {}
        for b in inst.parent_allocs(inst.ancestors()):
            groups.setdefault((inst.cls, b.site[:-9], b.attr), []).append(b)
        out |= {k for k, bs in groups.items() if all(b.size == 0 for b in bs)}
    return out


def _judge_empty(result, obs: dict[str, Instance], v: Verdict) -> None:
    empty = _empty_triples(obs)
    v.dead -= empty
    for f in result.findings:
        if f.code not in ("DI001", "DI002") or f.extra.get("conditional"):
            continue
        for c in [f.cls, *f.extra.get("subclasses", [])]:
            k = (short(c), short(f.parent), demangle(f.attribute))
            if k in empty:
                v.false_positives.append(f"{f.code} {k[0]}: {k[1]}.{k[2]} claimed, but it holds an empty container")


def _judge_decided(result, worlds: list[dict[str, Instance]], v: Verdict) -> None:
    """A finding "only when <condition>" whose allocation no world made (no input a caller could give:
    ``Hier.worlds``) claims a waste the code rules out: the subclass decides the guard."""
    for f in result.findings:
        if f.code not in ("DI001", "DI002") or not f.extra.get("conditional"):
            continue
        at = (f"{short(f.parent)}.__init__", demangle(f.attribute))
        for c in [short(c) for c in [f.cls, *f.extra.get("subclasses", [])]]:
            seen = [w[c] for w in worlds if c in w and not w[c].error]
            if seen and not any((b.site, b.attr) == at for inst in seen for b in inst.allocs):
                v.false_positives.append(f"{f.code} {c}: {at[0]} {at[1]} claimed under a condition {c} decides false")


def _write(pkg: Path, files: dict) -> Path:
    pkg.mkdir(parents=True)
    for rel, src in files.items():
        (pkg / rel).write_text(src)
    return pkg


def run_idiom(tmp: Path, hier: Hier) -> Outcome:
    pkg = _write(tmp / f"ig_{next(_COUNTER)}", hier.files)
    result = check_result([str(pkg)], tmp / "cache")
    assert result.analyzer is not None, "a result-cache hit: the package folder must be new"
    obs = observe(pkg, hier.classes, hier.config, hier.holders, hier.lists)
    spec = SimpleNamespace(classes=[SimpleNamespace(name=c, bad=None, call="super") for c in hier.classes])
    verdict = judge(spec, result, obs)
    _judge_empty(result, obs, verdict)
    worlds = [obs]
    for k, files in enumerate(hier.worlds):
        other = _write(tmp / f"{pkg.name}_w{k}", {**hier.files, **files})
        worlds.append(observe(other, hier.classes, hier.config, hier.holders, hier.lists))
    _judge_decided(result, worlds, verdict)
    unexpected = {n: i.error for n, i in obs.items() if i.error}
    return Outcome(hier, verdict, unexpected)
