"""A two-class sample for gpu-check's CPU tests (rewritten tree)."""
