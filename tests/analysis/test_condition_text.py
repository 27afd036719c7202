"""How the guards nothing decides read in a finding's "only when"."""

from deadinit.analysis.flow.conditions import condition_text


def test_a_negated_none_test_reads_as_its_opposite():
    x = ("self", "q_lora_rank")
    assert condition_text((("not", ("is_not_none", x)),)) == "self.q_lora_rank is None"
    assert condition_text((("not", ("is_none", x)), ("name", "split"))) == "(self.q_lora_rank is not None) and split"
    assert condition_text((("not", ("name", "flag")),)) == "not flag"
