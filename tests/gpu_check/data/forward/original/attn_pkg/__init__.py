"""A two-backend attention package for gpu-check's forward tests (CPU, real torch)."""
