"""deadinit gpu-check: build classes from original and rewritten trees, measure what they allocate.

The command lives in :mod:`deadinit.gpu_check.cli` (``gpu_check``, a click command).
Nothing here imports torch; the measurement children do (``harness.py``).
"""
