"""Helpers shared by the gpu-check tests."""

import json
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parents[2]
PROFILE = DATA / "sample_profile.toml"
MIB = 1 << 20
# What Child's rewrites stop building: Parent's 1 MiB workspace (overwritten by Child,
# kept alive only by the wrappers) and the two wrappers' 64 KiB private buffers.
SKIPPED_BYTES = (1 << 20) + 2 * (64 << 10)


def run_gpu_check(*args, cwd=REPO):
    """Run the gpu-check command in a subprocess, as a user would; return (rc, json)."""
    out = subprocess.run(
        [sys.executable, "-m", "deadinit.gpu_check", *map(str, args), "--format", "json"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )
    try:
        data = json.loads(out.stdout)
    except json.JSONDecodeError as e:
        raise AssertionError(f"no JSON (rc {out.returncode}):\n{out.stdout}\n{out.stderr}") from e
    return out.returncode, data


def comparison(data, name, label):
    for entry in data["results"]:
        if entry["name"] == name:
            for comp in entry["comparisons"]:
                if comp["label"] == label:
                    return entry, comp
    raise KeyError((name, label))
