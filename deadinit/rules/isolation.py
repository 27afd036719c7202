"""One class's internal error loses only that class: the analysis of every other class goes on.

``isolated`` runs the analysis of one class (and its rules); an exception other than an interrupt
becomes one error line naming the class and where it is defined, the class is listed in
``CheckResult.internal_failures`` (the run exits 2) and its findings are left out.
``DEADINIT_TRACEBACK=1`` prints the traceback too.  ``DEADINIT_FAULT_CLASS=<qualified name>``
raises inside that class's analysis: the test hook that shows a fault stays in its class.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from typing import TypeVar

from deadinit.index.project_index import ProjectIndex
from deadinit.model.result import CheckResult

T = TypeVar("T")


class InjectedFault(RuntimeError):
    """Raised by the ``DEADINIT_FAULT_CLASS`` test hook."""


def isolated(index: ProjectIndex, res: CheckResult, qualname: str, run: Callable[[], T]) -> T | None:
    """``run()``, or None with ``qualname``'s error line in ``res`` when it raised."""
    try:
        if os.environ.get("DEADINIT_FAULT_CLASS") == qualname:
            raise InjectedFault(f"fault injected into the analysis of {qualname} (DEADINIT_FAULT_CLASS)")
        return run()
    except Exception as e:  # any internal error of one class; interrupts pass through
        if os.environ.get("DEADINIT_TRACEBACK"):
            traceback.print_exc(file=sys.stderr)
        res.internal_failures.append(qualname)
        res.errors.append(failure_line(index, qualname, e))
        return None


def failure_line(index: ProjectIndex, qualname: str, e: BaseException) -> str:
    first = str(e).splitlines()[0][:200] if str(e) else ""
    cls = index.classes.data.get(qualname)
    module = index.class_module.data.get(qualname)
    where = f"{index.paths.data[module]}: line {cls.line}: " if cls is not None and module is not None else ""
    return (
        f"{where}class {qualname}: internal error while analysing it ({type(e).__name__}: {first}); "
        "its findings are left out (DEADINIT_TRACEBACK=1 shows the traceback; please report it)"
    )
