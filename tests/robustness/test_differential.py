"""Differential testing against runtime truth (hypothesis): 0 false positives, recall reported.

Random hierarchies (``hierarchy_gen``) are analysed with deadinit, then run with a
recording stand-in ``torch`` (``runtime_oracle``); ``differential.judge`` says which
findings claim an allocation that was in fact used.  Findings hidden as *unsure*
(dynamic ``getattr``) are judged too, but only counted: hiding them is the point.
deadinit runs as ``deadinit check`` does (``production_path``).
"""

import pytest
from differential import run_differential
from hierarchy_gen import specs
from hypothesis import given, settings
from robust_helpers import count, profile
from tiers import examples


@pytest.mark.parametrize("max_examples", examples(fast=8, slow=60))
def test_every_finding_is_an_allocation_never_used_at_runtime(max_examples, tmp_path_factory):
    @settings(profile(max_examples))
    @given(spec=specs())
    def check(spec):
        every_finding_is_an_allocation_never_used_at_runtime(spec, tmp_path_factory.mktemp("diff"))

    check()


def every_finding_is_an_allocation_never_used_at_runtime(spec, tmp):
    verdict, _, obs = run_differential(tmp, spec)
    assert not [i.error for i in obs.values() if i.error], "the generated code must construct"
    count("differential examples")
    count("classes executed", len(obs))
    count("findings judged", len(verdict.reported))
    count("false positives", len(verdict.false_positives))
    count("runtime-dead parent allocations", len(verdict.dead))
    count("of which reported", len(verdict.found))
    count("unsure findings (hidden by default)", len(verdict.unsure))
    count("unsure findings that were wrong", len(verdict.unsure_false))
    assert verdict.false_positives == []
