"""``--output-file`` written whole into a regular file, and into a device or FIFO without replacing it."""

from __future__ import annotations

import os
import stat
import threading

from deadinit.cli.output import write_file


def test_regular_file_replaced_whole(tmp_path):
    target = tmp_path / "out" / "report.txt"
    write_file(str(target), "one\n", "output file")
    write_file(str(target), "two\n", "output file")
    assert target.read_text() == "two\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["report.txt"]


def test_symlink_written_through(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_file(str(link), "new\n", "output file")
    assert link.is_symlink() and real.read_text() == "new\n"


def test_fifo_is_written_into_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    write_file(str(fifo), "report\n", "output file")
    reader.join(timeout=10)
    assert got == ["report\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
