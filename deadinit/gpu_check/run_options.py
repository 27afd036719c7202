"""The options of a gpu-check run (``deadinit.gpu_check.runner``)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Options:
    device: str = "cuda"
    stub: list[str] = field(default_factory=list)
    python: str = sys.executable
    timeout: float = 600.0
    jobs: int = 1
    depth: int = 2
    measure: str = "auto"  # auto | allocated | reachable
    extra_paths: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    keep_jobs: Path | None = None
    forward: bool = False
    run_kernels: list[str] = field(default_factory=list)  # fnmatch patterns: try these kernels for real
    store_dir: Path | None = None  # where the children keep the kernels' tensors

    @property
    def measure_mode(self) -> str:
        if self.measure != "auto":
            return self.measure
        return "allocated" if self.device.startswith("cuda") else "reachable"
