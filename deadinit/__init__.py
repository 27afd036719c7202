"""deadinit: find and remove redundant inherited initialization in Python class hierarchies."""

__version__ = "0.1.0"  # the one place the version is written (pyproject.toml reads it)
