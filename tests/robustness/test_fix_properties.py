"""Fix safety properties (hypothesis) on the generated hierarchies, for both strategies.

After ``deadinit fix`` (skip-flag with ``--unsafe-fixes``; direct-base): the package
imports, every class constructs as before, every public method (``app.py`` calls all
of them, so all are entry points) and every other entry point returns the same value
or raises the same exception, a fixed class no longer allocates what the change
skips, every class the fix does not concern allocates exactly what it did, and a
second fix changes nothing.  The hierarchies are the plain ones (``specs(plain=True)``: ``super()``
chains, skip flags, ``self.x`` / ``getattr`` reads): with every construct of the differential
test, the slow tier found a skip-flag fix that left in place an allocation it meant to skip
(a config object, a flag forwarded through an intermediate class, ``delattr``; not yet
analysed).  Both fixes run as ``deadinit fix`` does (``production_path``:
the per-file cache, which the first fix's rewrite must invalidate, and worker processes).
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
    @given(spec=specs(reference_all=True, plain=True))
    def check(spec):
        fix_keeps_behaviour_and_stops_the_allocations(strategy, spec, tmp_path_factory.mktemp("fix"))

    check()


def fix_keeps_behaviour_and_stops_the_allocations(strategy, spec, root):
    names = [c.name for c in spec.classes]
    original, fixed = write_package(root, spec), write_package(root, spec)
    cache = root / "cache"
    out = fix_run([str(fixed)], strategy, cache, unsafe_fixes=True)
    assert out.error is None
    before, after = observe(original, names, spec.config), observe(fixed, names, spec.config)  # it imports
    count(f"fix examples ({strategy})")
    count(f"changes applied ({strategy})", len(out.plan.changes))
    for name in names:
        b, a = before[name], after[name]
        assert a.error == b.error, (name, b.error, a.error)  # a call that cannot bind raises as before
        assert a.results == b.results, name
    for ch in out.plan.changes:
        inst = after[short(ch.cls)]
        anc = ancestors(spec, short(ch.cls))
        skipped = {demangle(x) for x in ch.attributes + ch.overwritten}
        still = [b for b in inst.parent_allocs(anc) if b.attr in skipped and b.site[:-9] not in {short(ch.cls)}]
        assert still == [], (ch.cls, [(b.site, b.attr) for b in still])
    concerned = _descendants(spec, {short(ch.cls) for ch in out.plan.changes})
    for name in set(names) - concerned:
        assert after[name].alloc_signature() == before[name].alloc_signature(), name
    again = fix_run([str(fixed)], strategy, cache, write=False, unsafe_fixes=True)
    assert again.plan.files == [], [fp.path for fp in again.plan.files]
