"""Errors the library reports to front-ends."""


class UsageError(Exception):
    """Bad input on the command line or in files it names: one line, exit 2."""
