"""``deadinit.cli.main``: how a command that Ctrl-C interrupts ends."""

import os
import subprocess
import sys
import textwrap

# a command interrupted inside code that ``exec`` runs from a string, as while ``dataclasses``
# makes a class's methods during an import that Ctrl-C lands in
INTERRUPTED = textwrap.dedent(
    """
    from deadinit.cli.main import main

    @main.command("interrupted")
    def interrupted():
        exec("raise KeyboardInterrupt")

    main()
    """
)


def test_ctrl_c_inside_exec_code_ends_with_status_130_under_python_m(tmp_path):
    (tmp_path / "interrupted_cli.py").write_text(INTERRUPTED)
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH", "")) if p)
    p = subprocess.run(
        [sys.executable, "-m", "interrupted_cli", "interrupted"],
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (p.returncode, p.stderr) == (130, "deadinit: interrupted\n")
