"""Fix safety properties (hypothesis) on the generated hierarchies, for both strategies.

After ``deadinit fix`` (skip-flag with ``--unsafe-fixes``; direct-base): the package
imports, every class constructs as before, every public method (``app.py`` calls all
of them, so all are entry points) and every other entry point returns the same value
or raises the same exception, a fixed class no longer allocates what the change
skips (the (parent, attribute) allocations of the findings it resolves) and every
attribute it says it stops building is ``None`` or absent on the instance, every class
the fix does not concern allocates exactly what it did, and fixing again reaches a
fixpoint: a first fix can unblock a second (an allocation kept only by work that another
class's fix guards, refused the first time as "kept by live work"), so up to ``ROUNDS``
rounds may change files, each checked as above, and the next changes nothing.  The hierarchies have every construct of the differential test (mixins,
``super(X, self)``, config objects, removals, factory functions, tuple targets,
construction flow, ``nn.Module`` registration, calls that cannot bind).  Both fixes run as
``deadinit fix`` does (``production_path``: the per-file cache, which the first fix's
rewrite must invalidate, and worker processes).
"""

import pytest
from differential import ancestors, short, write_package
from hierarchy_gen import specs
from hypothesis import given, settings
from production_path import fix_run
from robust_helpers import count, profile
from runtime_oracle import demangle, observe
from tiers import examples


def _descendants(spec, names: set[str]) -> set[str]:
    return {c.name for c in spec.classes if ancestors(spec, c.name) & names} | names


@pytest.mark.parametrize("max_examples", examples(fast=4, slow=60))
@pytest.mark.parametrize("strategy", ["skip-flag", "direct-base"])
def test_fix_keeps_behaviour_and_stops_the_allocations(strategy, max_examples, tmp_path_factory):
    @settings(profile(max_examples))
    @given(spec=specs(reference_all=True))
    def check(spec):
        fix_keeps_behaviour_and_stops_the_allocations(strategy, spec, tmp_path_factory.mktemp("fix"))

    check()


ROUNDS = 2  # a fix may unblock another (an allocation kept only by work another class's fix guards)


def skipped_allocations(change) -> set[tuple[str, str]]:
    """The (parent, attribute) allocations ``change`` claims to skip: those of the findings it resolves
    (an attribute of the same name that another ancestor allocates may stay, and be live)."""
    out = set()
    for key in change.findings:
        _code, _cls, parent, attr = key.split(":")
        out.add((short(parent), demangle(attr)))
    return out


def fix_keeps_behaviour_and_stops_the_allocations(strategy, spec, root):
    names = [c.name for c in spec.classes]
    original, fixed = write_package(root, spec), write_package(root, spec)
    cache = root / "cache"
    before = observe(original, names, spec.config)
    changes: list = []
    for round_ in range(1, ROUNDS + 2):
        out = fix_run([str(fixed)], strategy, cache, unsafe_fixes=True)
        assert out.error is None
        if not out.plan.files:
            break
        assert round_ <= ROUNDS, ("no fixpoint", [fp.path for fp in out.plan.files])
        count(f"fix rounds that changed files ({strategy}): round {round_}")
        changes += out.plan.changes
        after = observe(fixed, names, spec.config)  # it imports
        _same_behaviour(spec, before, after, changes)
    count(f"fix examples ({strategy})")
    count(f"changes applied ({strategy})", len(changes))


def _same_behaviour(spec, before: dict, after: dict, changes: list) -> None:
    names = [c.name for c in spec.classes]
    for name in names:
        b, a = before[name], after[name]
        assert a.error == b.error, (name, b.error, a.error)  # a call that cannot bind raises as before
        assert a.results == b.results, name
    for ch in changes:
        inst = after[short(ch.cls)]
        anc = ancestors(spec, short(ch.cls))
        still = [b for b in inst.parent_allocs(anc) if (b.site[:-9], b.attr) in skipped_allocations(ch)]
        assert still == [], (ch.cls, [(b.site, b.attr) for b in still])
        built = {a: inst.final[a] for a in map(demangle, ch.attributes) if inst.final.get(a, "None") != "None"}
        assert built == {}, (ch.cls, "claimed not built, but the instance holds", built)
    concerned = _descendants(spec, {short(ch.cls) for ch in changes})
    for name in set(names) - concerned:
        assert after[name].alloc_signature() == before[name].alloc_signature(), name
