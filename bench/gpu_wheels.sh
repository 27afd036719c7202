#!/usr/bin/env bash
# Download the wheels listed in bench/gpu_wheels.txt into .whl/ (about 55 MB), for
# the GPU machine's Python 3.12 on x86-64. Run here, in the repository root, before
# the device call that runs bench/gpu_check_run.sh (which names .whl in `carry`).
set -euo pipefail
cd "$(dirname "$0")/.."
grep -qx '/.whl/' .git/info/exclude 2>/dev/null || echo '/.whl/' >> .git/info/exclude
mkdir -p .whl
grep -v '^\s*#' bench/gpu_wheels.txt | grep -v '^\s*$' | xargs python3 -m pip download -q --no-deps \
  --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_34_x86_64 --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
  --platform manylinux_2_26_x86_64 --platform manylinux_2_24_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 --platform manylinux_2_5_x86_64 --platform manylinux1_x86_64 -d .whl
ls .whl | wc -l
du -sh .whl
