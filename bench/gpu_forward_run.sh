#!/usr/bin/env bash
# gpu-check --forward on sglang 0.5.20, in one command on the GPU machine.
#
#   bash bench/gpu_forward_run.sh DEV_DIR
#
# DEV_DIR holds what the machine lacks (bench/gpu_forward_pack.sh lays it out):
#   DEV_DIR/src/deadinit   gpu_check and the deadinit modules it imports (deadinit/gpu_check/payload.py)
#   DEV_DIR/whl/*.whl      bench/gpu_wheels.txt's wheels (sglang 0.5.20 among them)
#   DEV_DIR/skip-flag/     files `deadinit fix --strategy skip-flag` changed + fix-report.json
#   DEV_DIR/direct-base/   files `deadinit fix --strategy direct-base` changed + fix-report.json
#   DEV_DIR/provenance.md  the deadinit commit and the fix commands that made the trees
#
# Two gpu-check runs, side by side (each measurement is its own process, so the figures
# do not depend on what runs beside it):
#   trtllm_mha:  TRTLLMHAAttnBackend, original vs skip-flag vs direct-base
#   others:      FlashInferAttnBackend, FlashInferMLAAttnBackend, TRTLLMMLABackend,
#                TokenspeedMLABackend, original vs skip-flag
# Left in $OUT: env.txt, command.txt (DEV_DIR/provenance.md first: the deadinit commit and the
# fix commands that made the trees; then the gpu-check lines and the trees' changed files),
# forward_trtllm_mha.{json,txt},
# forward_others.{json,txt}; with KERNEL_PASS_SECONDS=N a second pass in which FlashInfer's
# JIT-built kernels run for real: forward_flashinfer_kernels.{json,txt}.
# Exit status: the first failing run's.
set -uo pipefail
DEV="${1:?DEV_DIR}"
DEV="$(cd "$DEV" && pwd)"
PY="${PY:-python3}"
OUT="$(mkdir -p "${OUT:-$PWD/gpu-out}" && cd "${OUT:-$PWD/gpu-out}" && pwd)"
WORK="${WORK:-/tmp/deadinit-gpu}"
DEVICE="${DEVICE:-cuda}"
mkdir -p "$OUT" "$WORK"

{
  date -u +"%Y-%m-%dT%H:%M:%SZ"
  nvidia-smi -L 2>/dev/null || echo "no nvidia-smi"
  nvcc --version 2>/dev/null | tail -1
  "$PY" -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, "triton", triton.__version__, "available", torch.cuda.is_available())'
} > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

if [ "${NO_INSTALL:-0}" = 1 ]; then
  ORIG="${SGLANG_ROOT:?NO_INSTALL=1 needs SGLANG_ROOT}"
  SITE=""
else
  ORIG="$WORK/sglang-0.5.20"
  SITE="$WORK/site"
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" \
      $(ls "$DEV"/whl/*.whl | grep -v '/sglang-') || exit 3
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$ORIG" \
      "$DEV"/whl/sglang-0.5.20-*.whl || exit 3
  "$PY" -m pip list 2>/dev/null | grep -i -E '^(flashinfer|apache-tvm|torch|triton|transformers) ' >> "$OUT/env.txt"
fi
export PYTHONPATH="${SITE:+$SITE:}$DEV/src${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONUNBUFFERED=1

: > "$WORK/trees.txt"
build_tree() {  # build_tree LABEL CHANGES_DIR -> the tree root
  local label="$1" changes="$2" dest="$WORK/tree-$1"
  rm -rf "$dest" && mkdir -p "$dest" && cp -a "$ORIG/sglang" "$dest/sglang"
  (cd "$changes/sglang" && find . -name '*.py' | sort) | while read -r f; do
    cp --remove-destination "$changes/sglang/$f" "$dest/sglang/$f"
    echo "$label: sglang/${f#./}" >> "$WORK/trees.txt"
  done
  echo "$dest"
}
SKIP_TREE=$(build_tree skip-flag "$DEV/skip-flag") || exit 3
DIRECT_TREE=$(build_tree direct-base "$DEV/direct-base") || exit 3

COMMON=(--original "$ORIG" --device "$DEVICE" --stub "sgl_kernel,xgrammar${EXTRA_STUBS:+,$EXTRA_STUBS}"
        --forward --timeout "${CHILD_TIMEOUT:-420}" -v)
MHA=(--rewritten "skip-flag=$SKIP_TREE" --rewritten "direct-base=$DIRECT_TREE"
     --from-fix-report "skip-flag=$DEV/skip-flag/fix-report.json"
     --from-fix-report "direct-base=$DEV/direct-base/fix-report.json"
     --class TRTLLMHAAttnBackend --jobs 3 --output "$OUT/forward_trtllm_mha.json")
OTHERS=(--rewritten "skip-flag=$SKIP_TREE" --from-fix-report "skip-flag=$DEV/skip-flag/fix-report.json"
        --class FlashInferAttnBackend --class FlashInferMLAAttnBackend --class TRTLLMMLABackend
        --class TokenspeedMLABackend --jobs 8 --output "$OUT/forward_others.json")
if [ -f "$DEV/provenance.md" ]; then cat "$DEV/provenance.md"; else echo "# How this evidence was made: not recorded (no DEV_DIR/provenance.md)"; fi > "$OUT/command.txt"
printf '\n## Commands run on the GPU machine\n\n' >> "$OUT/command.txt"
{
  echo "PYTHONPATH=$PYTHONPATH $PY -m deadinit.gpu_check ${COMMON[*]} ${MHA[*]}"
  echo "PYTHONPATH=$PYTHONPATH $PY -m deadinit.gpu_check ${COMMON[*]} ${OTHERS[*]}"
} | tee -a "$OUT/command.txt"
cat "$WORK/trees.txt" >> "$OUT/command.txt"

cd "$WORK"  # `python -m` puts the working folder first on sys.path: not the checkout's deadinit
"$PY" -m deadinit.gpu_check "${COMMON[@]}" "${MHA[@]}" > "$OUT/forward_trtllm_mha.txt" 2>&1 &
mha_pid=$!
"$PY" -m deadinit.gpu_check "${COMMON[@]}" "${OTHERS[@]}" > "$OUT/forward_others.txt" 2>&1 &
others_pid=$!
wait "$mha_pid"; mha_rc=$?
wait "$others_pid"; others_rc=$?
tail -n 40 "$OUT/forward_trtllm_mha.txt" "$OUT/forward_others.txt"
echo "trtllm_mha exit $mha_rc, others exit $others_rc"
if [ -n "${KERNEL_PASS_SECONDS:-}" ]; then
  # Second pass: FlashInfer's JIT-built kernels (wrappers' plan/run, merge_state) run for
  # real where they compile here, so their outputs are compared too.
  KERNELS=(--run-kernels 'flashinfer.*Wrapper.*' --run-kernels 'flashinfer.cascade:merge_state'
           --run-kernels 'flashinfer.decode:fast_decode_plan'
           --run-kernels 'sglang.srt.layers.attention.flashinfer_mla_backend:fast_mla_decode_plan')
  PASS2=(--rewritten "skip-flag=$SKIP_TREE" --from-fix-report "skip-flag=$DEV/skip-flag/fix-report.json"
         --class FlashInferAttnBackend --class FlashInferMLAAttnBackend --jobs 4
         --output "$OUT/forward_flashinfer_kernels.json")
  echo "PYTHONPATH=$PYTHONPATH $PY -m deadinit.gpu_check ${COMMON[*]} ${PASS2[*]} ${KERNELS[*]}" >> "$OUT/command.txt"
  timeout "$KERNEL_PASS_SECONDS" "$PY" -m deadinit.gpu_check "${COMMON[@]}" "${PASS2[@]}" "${KERNELS[@]}" \
    > "$OUT/forward_flashinfer_kernels.txt" 2>&1
  echo "kernel pass exit $?"
  tail -n 25 "$OUT/forward_flashinfer_kernels.txt"
fi
[ "$mha_rc" -ne 0 ] && exit "$mha_rc"
exit "$others_rc"
