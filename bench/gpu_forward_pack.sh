#!/usr/bin/env bash
# Lay out what bench/gpu_forward_run.sh needs on the GPU machine, in DEV_DIR (a folder of
# the checkout the device call ships, ignored by git, named in `carry`).
#
#   bash bench/gpu_forward_pack.sh DEV_DIR SKIP_REWRITTEN_SGLANG SKIP_REPORT DIRECT_REWRITTEN_SGLANG DIRECT_REPORT
#
# SKIP_/DIRECT_REWRITTEN_SGLANG are the `sglang/` folders `deadinit fix` rewrote (copies
# of ~/.cache/sglang-corpus/sglang-0.5.20, whose .py files equal the wheel's). Wheels are
# fetched into DEV_DIR/whl when it is empty (about 53 MB of the 64 MiB a call carries).
# DEV_DIR/src holds deadinit/gpu_check and what it imports (deadinit/gpu_check/payload.py);
# DEV_DIR/provenance.md this checkout's commit and each tree's fix command and the commit
# that ran it, from the fix reports (bench/gpu_provenance.py: it stops here when a report
# names no commit or another one, unless ALLOW_UNRECORDED=1); gpu_forward_run.sh puts it at
# the top of command.txt. bench/gpu_forward_trees.sh makes both trees and calls this.
# NO_WHEELS=1 leaves DEV_DIR/whl alone.
set -euo pipefail
dev="${1:?DEV_DIR}"; skip="${2:?}"; skip_report="${3:?}"; direct="${4:?}"; direct_report="${5:?}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${CORPUS:-$HOME/.cache/sglang-corpus/sglang-0.5.20/sglang}"
rm -rf "$dev/src" "$dev/bench" && mkdir -p "$dev/src" "$dev/bench" "$dev/whl"
# deadinit/gpu_check and the deadinit modules it imports, followed in the code (not a list kept here)
PYTHONPATH="$repo" python3 -m deadinit.gpu_check.payload "$dev/src" > /dev/null
echo "payload: $(find "$dev/src" -type f | wc -l) files in $dev/src"
cp "$repo/bench/gpu_forward_run.sh" "$repo/bench/gpu_jit_probe.py" "$dev/bench/"
python3 "$repo/bench/gpu_provenance.py" --corpus "$(dirname "$corpus")" \
  "skip-flag=$skip_report" "direct-base=$direct_report" > "$dev/provenance.md"
bash "$repo/bench/gpu_check_changes.sh" "$corpus" "$skip" "$dev/skip-flag" "$skip_report"
bash "$repo/bench/gpu_check_changes.sh" "$corpus" "$direct" "$dev/direct-base" "$direct_report"
if [ "${NO_WHEELS:-0}" != 1 ] && [ -z "$(ls "$dev/whl")" ]; then
  grep -v '^\s*#' "$repo/bench/gpu_wheels.txt" | grep -v '^\s*$' | grep -v '^libcst' | xargs python3 -m pip download \
    -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_34_x86_64 --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
    --platform manylinux_2_26_x86_64 --platform manylinux_2_24_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 --platform manylinux_2_5_x86_64 --platform manylinux1_x86_64 -d "$dev/whl"
fi
du -sh "$dev"
