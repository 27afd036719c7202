"""Where the stand-in layer library lies in the test tree (a configured library path in the tests)."""

from pathlib import Path

SITE = Path(__file__).resolve().parent / "site"
