#!/usr/bin/env bash
# The whole gpu-check measurement on sglang 0.5.20, in one command on the GPU machine.
#
#   bash bench/gpu_check_run.sh                          # harness validation: original vs itself
#   bash bench/gpu_check_run.sh SKIP_DIR DIRECT_DIR      # original vs the two rewritten trees
#
# SKIP_DIR / DIRECT_DIR hold the files `deadinit fix` changed, laid out as in the
# installed package (SKIP_DIR/sglang/srt/layers/attention/flashinfer_backend.py ...),
# and optionally the fix's JSON report as SKIP_DIR/fix-report.json. Each rewritten
# tree is a full copy of the sglang 0.5.20 wheel with those files laid over it.
#
# It installs the wheels from .whl/ (bench/gpu_wheels.sh fetches them), builds the
# trees, runs `python -m deadinit.gpu_check` on the five attention backends with
# sgl_kernel and xgrammar stubbed where missing, checks the GPU acceptance criteria
# (bench/gpu_check_acceptance.py) and leaves in $OUT (default ./gpu-out):
# command.txt, env.txt, trees.txt, gpu_check.json, gpu_check.txt, acceptance.txt.
# Exit status: gpu-check's (1 when a rewritten class fails) or the acceptance check's.
#
# Knobs: PY (python3), OUT, DEVICE (cuda), NO_INSTALL=1 with SGLANG_ROOT=DIR to use an
# sglang tree and packages already importable (a local dry run), JOBS (3 measurement
# children at a time: each is its own process, so the figures do not change),
# EXTRA_STUBS=a,b (more packages to stub where missing; local dry runs only),
# CLASSES="A B" (other classes than the five backends).
set -uo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
PY="${PY:-python3}"
OUT="${OUT:-$REPO/gpu-out}"
DEVICE="${DEVICE:-cuda}"
JOBS="${JOBS:-3}"
WORK="${WORK:-/tmp/deadinit-gpu}"
SKIP_DIR="${1:-}"
DIRECT_DIR="${2:-}"
CLASSES=(${CLASSES:-FlashInferAttnBackend TRTLLMHAAttnBackend FlashInferMLAAttnBackend TRTLLMMLABackend TokenspeedMLABackend})
mkdir -p "$OUT" "$WORK"
cd "$REPO"

{
  date -u +"%Y-%m-%dT%H:%M:%SZ"
  nvidia-smi -L 2>/dev/null || echo "no nvidia-smi"
  "$PY" -c 'import sys, torch; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, "available", torch.cuda.is_available())'
} > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

# -- packages and the original tree -----------------------------------------------------
if [ "${NO_INSTALL:-0}" = 1 ]; then
  ORIG="${SGLANG_ROOT:?NO_INSTALL=1 needs SGLANG_ROOT, the folder holding sglang/}"
  export PYTHONPATH="$REPO${PYTHONPATH:+:$PYTHONPATH}"
else
  ORIG="$WORK/sglang-0.5.20"
  deps=$(ls .whl/*.whl | grep -v '/sglang-')
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target "$WORK/site" $deps || exit 3
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target "$ORIG" .whl/sglang-0.5.20-*.whl || exit 3
  export PYTHONPATH="$WORK/site:$REPO"
fi

# -- rewritten trees ----------------------------------------------------------------------
: > "$OUT/trees.txt"
build_tree() {  # build_tree LABEL CHANGES_DIR -> prints the tree root
  local label="$1" changes="$2" dest="$WORK/tree-$1" src
  rm -rf "$dest" && mkdir -p "$dest" && cp -a "$ORIG/sglang" "$dest/sglang"
  if [ -d "$changes/sglang" ]; then src="$changes/sglang"; else src="$changes"; fi
  (cd "$src" && find . -type f ! -name 'fix-report.json' ! -path '*/__pycache__/*' -print) | sort | while read -r f; do
    mkdir -p "$dest/sglang/$(dirname "$f")"
    cp --remove-destination "$src/$f" "$dest/sglang/$f"
    echo "$label: sglang/${f#./}" >> "$OUT/trees.txt"
  done
  echo "$dest"
}
ARGS=(--original "$ORIG")
if [ -n "$SKIP_DIR" ]; then
  [ -n "$DIRECT_DIR" ] || { echo "usage: $0 [SKIP_DIR DIRECT_DIR]" >&2; exit 2; }
  SKIP_TREE=$(build_tree skip-flag "$SKIP_DIR") || exit 3
  DIRECT_TREE=$(build_tree direct-base "$DIRECT_DIR") || exit 3
  ARGS+=(--rewritten "skip-flag=$SKIP_TREE" --rewritten "direct-base=$DIRECT_TREE")
  [ -f "$SKIP_DIR/fix-report.json" ] && ARGS+=(--from-fix-report "skip-flag=$SKIP_DIR/fix-report.json")
  [ -f "$DIRECT_DIR/fix-report.json" ] && ARGS+=(--from-fix-report "direct-base=$DIRECT_DIR/fix-report.json")
else
  ARGS+=(--rewritten "unmodified=$ORIG")  # validation: the same tree twice
fi
cat "$OUT/trees.txt"
for c in "${CLASSES[@]}"; do ARGS+=(--class "$c"); done
ARGS+=(--device "$DEVICE" --stub "sgl_kernel,xgrammar${EXTRA_STUBS:+,$EXTRA_STUBS}" --jobs "$JOBS" --timeout 300 --output "$OUT/gpu_check.json" -v)

echo "PYTHONPATH=$PYTHONPATH $PY -m deadinit.gpu_check ${ARGS[*]}" | tee "$OUT/command.txt"
"$PY" -m deadinit.gpu_check "${ARGS[@]}" 2>&1 | tee "$OUT/gpu_check.txt"
rc=${PIPESTATUS[0]}
"$PY" bench/gpu_check_acceptance.py "$OUT/gpu_check.json" 2>&1 | tee "$OUT/acceptance.txt"
arc=${PIPESTATUS[0]}
echo "gpu-check exit $rc, acceptance exit $arc"
[ "$rc" -ne 0 ] && exit "$rc"
exit "$arc"
