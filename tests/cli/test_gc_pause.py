"""The one-shot commands run with the cyclic garbage collector paused, and turn it back on."""

from __future__ import annotations

import gc

import pytest

from deadinit.cli import check, explain, fix, graph
from deadinit.cli.gc_pause import collections_paused


@pytest.fixture
def unfrozen():
    yield
    gc.unfreeze()  # what the decorator froze goes back to the collector: this process is not one-shot


def test_collections_are_off_inside_and_back_on_after(unfrozen):
    seen = []

    @collections_paused
    def command(x):
        seen.append(gc.isenabled())
        return x + 1

    assert gc.isenabled()
    assert command(1) == 2
    assert seen == [False]
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0  # what the command left is never walked again


def test_collections_come_back_when_the_command_raises(unfrozen):
    @collections_paused
    def command():
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        command()
    assert gc.isenabled()


def test_a_caller_that_had_them_off_keeps_them_off(unfrozen):
    gc.disable()
    try:
        collections_paused(lambda: None)()
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("command", [check.run, explain.explain.callback, graph.graph.callback, fix.run])
def test_every_analysing_command_is_paused(command):
    paused = collections_paused(lambda: None).__code__
    layers = []
    while command is not None:
        layers.append(getattr(command, "__code__", None))
        command = getattr(command, "__wrapped__", None)
    assert paused in layers
