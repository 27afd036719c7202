"""The ``__init__`` chain binds explicit arguments beside ``*args`` / ``**kwargs``, and a return whose
guards hold ends its method."""

from deadinit.analysis.flow.chain import UNKNOWN, init_chain
from deadinit.frontends.parse import summarize_source
from deadinit.index.project_index import ProjectIndex
from deadinit.model.settings import Settings

SRC = """
class P:
    def __init__(self, dim, weight_init="normal", *, gate="full"):
        if weight_init != "skip":
            self.table = torch.zeros(dim)
        if gate == "full":
            self.gate = torch.zeros(dim)
        if weight_init == "skip":
            return
        self.warm = torch.zeros(dim)
class Keyword(P):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs, weight_init="skip")
class Positional(P):
    def __init__(self, dim, *args):
        super().__init__(dim, "skip", *args)
class Forwarded(P):
    def __init__(self, dim, **kwargs):
        super().__init__(dim, **kwargs)
"""


def chain_of(cls):
    s = summarize_source(SRC.encode(), "m.py", "m", False, Settings())
    return init_chain(ProjectIndex([s]), f"m.{cls}")


def states(cls):
    return {c.stmt.attr: c.active for c in init_chain_stmts(cls) if c.stmt.kind == "assign"}


def init_chain_stmts(cls):
    return [c for c in chain_of(cls).stmts if c.owner == "m.P"]


def test_an_explicit_keyword_beside_spreads_binds_and_decides_the_parents_guards():
    _, _, env = chain_of("Keyword").calls["m.P"]
    assert env["weight_init"] == ("const", "skip")
    assert env["dim"] == UNKNOWN and env["gate"] == UNKNOWN  # ``**kwargs`` may fill ``gate``
    assert states("Keyword") == {"table": False, "gate": None, "warm": False}


def test_a_positional_argument_before_star_args_binds_and_star_args_cannot_fill_a_keyword_only_parameter():
    _, _, env = chain_of("Positional").calls["m.P"]
    assert env["weight_init"] == ("const", "skip") and env["gate"] == ("const", "full")
    assert states("Positional") == {"table": False, "gate": True, "warm": False}


def test_a_parameter_a_spread_may_fill_stays_undecided():
    _, _, env = chain_of("Forwarded").calls["m.P"]
    assert env["weight_init"] == UNKNOWN and env["gate"] == UNKNOWN
    assert states("Forwarded") == {"table": None, "gate": None, "warm": None}
