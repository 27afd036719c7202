"""The usage error a front-end shows as one line (exit 2)."""

from __future__ import annotations

from deadinit.session.errors import UsageError

__all__ = ["UsageError"]
