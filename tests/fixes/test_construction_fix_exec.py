"""Fix the construction fixtures (fixtures/recall/construction.py, table R20-R22) and build every class on CPU.

A buffer only handed to per-step kernels (R20, R21) is reported but not fixable while
the subclass still hands it on: skip-flag, even with ``--unsafe-fixes``, leaves it
alone.  R22 is fixed; every class of the fixed module still builds and plans, and
the kernel that received the skip flag no longer allocates its index pointers.
"""

import subprocess
import sys

from deadinit.api.check import run_check
from deadinit.fixes.driver import run_fix
from deadinit.model.fix import FixOptions

M = "fixtures.recall.construction."

PROBE = """
import sys
sys.modules["torch"] = None  # the fixtures fall back to their CPU stand-ins
from fixtures import runner_stub as rs
from fixtures.recall import construction as c

runner = rs.make_runner()
for cls in (c.FusedSteps, c.PagedSteps, c.TracedSteps, c.PublishedSteps, c.RelayedSteps, c.ShortRelaySteps,
            c.NamespaceSteps, c.UpdatedSteps, c.LiveUpdatedSteps):
    steps = cls(runner, 3)
    steps.plan(2)
kernel = c.FusedKernel(runner)
kernel.plan(2)
print(getattr(kernel, "index_ptr", None) is None)
"""


def run_probe(tree) -> str:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=tree, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_handed_on_buffers_are_refused_and_the_fixed_kernels_still_build(fixture_tree):
    assert run_probe(fixture_tree) == "False"  # before: the kernel allocates its own pointers
    result = run_check(["fixtures/recall/construction.py"])
    classes = tuple(M + c for c in ("FusedSteps", "ShortRelaySteps", "FusedKernel"))
    out = run_fix(result, "skip-flag", FixOptions(classes=classes, unsafe_fixes=True))
    assert out.error is None
    refused = {r.cls.rsplit(".", 1)[-1]: r.reason for r in out.plan.refusals}
    for cls in ("FusedSteps", "ShortRelaySteps"):
        assert "still hands self.index_ptr to a constructor" in refused[cls], refused
    changed = {c.cls.rsplit(".", 1)[-1]: c for c in out.plan.changes}
    assert sorted(changed) == ["FusedKernel"]
    assert changed["FusedKernel"].attributes == ["index_ptr"]
    assert run_probe(fixture_tree) == "True"  # after: nothing allocated, and everything still runs


COMPUTED_PROBE = """
import sys
sys.modules["torch"] = None
from fixtures import runner_stub as rs
from fixtures.recall import computed as c

runner = rs.make_runner()
for cls in (c.RowSteps, c.SpanSteps, c.CountedSteps, c.ReadRowSteps, c.SizedSteps, c.RelayedRowSteps):
    cls(runner, 3).plan(2)
print("built")
"""


def test_buffers_read_only_to_compute_are_refused_and_everything_still_builds(fixture_tree):
    """R56-R57 (fixtures/recall/computed.py): the kernels still read the row for its length, so skipping
    the parent's allocation would break their construction: a plain fix leaves the module as it is."""
    probe = [sys.executable, "-c", COMPUTED_PROBE]
    assert (
        subprocess.run(probe, cwd=fixture_tree, capture_output=True, text=True, check=False).stdout.strip() == "built"
    )
    result = run_check(["fixtures/recall/computed.py"])
    assert {(f.cls.rsplit(".", 1)[-1], f.fix_safety) for f in result.findings} == {
        ("RowSteps", "none"),
        ("SpanSteps", "none"),
    }
    out = run_fix(result, "skip-flag", FixOptions(unsafe_fixes=True))
    assert out.error is None and not out.plan.changes
    refused = {r.cls.rsplit(".", 1)[-1]: r.reason for r in out.plan.refusals}
    assert all("still hands self.index_ptr to a constructor" in refused[c] for c in ("RowSteps", "SpanSteps")), refused
    got = subprocess.run(probe, cwd=fixture_tree, capture_output=True, text=True, check=False)
    assert got.returncode == 0 and got.stdout.strip() == "built", got.stderr
