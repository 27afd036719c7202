"""``python -m deadinit.gpu_check``: the gpu-check command without the linter's CLI."""

from .cli import main

main()
