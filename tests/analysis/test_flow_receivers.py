"""``deadinit.analysis.reads.external`` on receivers typed by flow: what ``could_hold`` decides for elements of
collections, locals bound to ``self.a``, and attributes assigned from each other."""

import textwrap

import pytest

from deadinit.analysis.reads.external import ExternalReads
from deadinit.frontends.parse import summarize_source
from deadinit.index.project_index import ProjectIndex
from deadinit.model.settings import Settings

SOURCE = """
class Meta:
    def __init__(self):
        self.buf = None

class Backend:
    def __init__(self):
        self.buf = object()

class Runner:
    def __init__(self, extra):
        self.metas = [Meta() for _ in range(2)]
        self.backends = [Backend()]
        self.loose = [Meta(), extra]
        self.meta = Meta()
        self.alias = self.meta
        self.cycle_a = self.cycle_b
        self.cycle_b = self.cycle_a

    def run(self):
        for m in self.metas:
            m.buf
        for b in self.backends:
            b.buf
        for x in self.loose:
            x.buf
        local = self.alias
        local.buf
        self.cycle_a.buf
"""


@pytest.fixture(scope="module")
def reads():
    s = summarize_source(textwrap.dedent(SOURCE).encode(), "m.py", "m", False, Settings())
    index = ProjectIndex([s])
    ext = ExternalReads(index)
    return {a.receiver: ext.could_hold(a, "m", "m.Backend") for a, _ in ext.by_attr["buf"]}


def test_elements_of_an_unrelated_class_do_not_count(reads):
    assert reads["m"] == (False, "receiver `m` holds Meta, unrelated")
    assert reads["local"][0] is False


def test_elements_that_may_be_the_class_or_are_unknown_count(reads):
    assert reads["b"][0] is True
    assert reads["x"] == (True, "receiver `x` is an element of a collection of unknown contents")
    assert reads["self.cycle_a"][0] is True
