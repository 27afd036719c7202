"""The progress bar: only on a terminal, only after the delay, never in the output itself."""

import io

from rich.console import Console

from deadinit.cli.progress import ProgressSummarizer
from deadinit.model.settings import Settings


def _console():
    buf = io.StringIO()
    return Console(file=buf, force_terminal=True, width=100), buf


def _items(n):
    return [(f"f{i}.py", f"f{i}", False) for i in range(n)]


def test_bar_appears_after_the_delay():
    console, buf = _console()
    calls = []

    def base(items, settings):
        calls.append(len(items))
        return list(items)

    p = ProgressSummarizer(console, base=base, delay=0.0)
    assert p(_items(120), Settings()) == _items(120)
    p.close()
    assert sum(calls) == 120 and len(calls) > 1  # chunked, to move the bar
    assert "summarising files" in buf.getvalue()


def test_fast_runs_show_nothing():
    console, buf = _console()
    p = ProgressSummarizer(console, base=lambda items, settings: list(items), delay=60.0)
    p(_items(50), Settings())
    p.close()
    assert buf.getvalue() == ""


def test_summarizer_that_reports_progress_itself_is_called_once():
    console, buf = _console()
    calls = []

    def base(items, settings, progress=None):
        calls.append(len(items))
        for i in range(len(items)):
            progress(i + 1, len(items))
        return list(items)

    p = ProgressSummarizer(console, base=base, delay=0.0)
    p(_items(10), Settings())
    p.close()
    assert calls == [10] and "summarising files" in buf.getvalue()
