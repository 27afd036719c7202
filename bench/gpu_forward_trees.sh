#!/usr/bin/env bash
# Make the two rewritten trees with this checkout's deadinit and lay out DEV_DIR for
# bench/gpu_forward_run.sh (bench/gpu_forward_pack.sh), recording how (DEV_DIR/provenance.md).
#
#   bash bench/gpu_forward_trees.sh DEV_DIR
#
# Each tree is a fresh copy of CORPUS (the folder holding sglang/, default
# ~/.cache/sglang-corpus/sglang-0.5.20, whose .py files equal the wheel's) in which one
# `deadinit fix` runs, with its report beside sglang/:
#   skip-flag:   deadinit fix $SKIP_FIX --report fix-report.json
#   direct-base: deadinit fix $DIRECT_FIX --report fix-report.json
# Knobs: PY (a python with deadinit's dependencies; default .venv/bin/python of this checkout,
# else python3), CORPUS, SKIP_FIX, DIRECT_FIX (word-split), WORK (where the trees are made;
# default a new temporary folder, kept: the PR bodies read the rewritten files),
# NO_WHEELS=1 (leave DEV_DIR/whl as it is), ALLOW_UNRECORDED=1 (pack a checkout with local
# changes all the same; provenance.md says so).
set -euo pipefail
dev="${1:?DEV_DIR}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
py="${PY:-}"
[ -z "$py" ] && { [ -x "$repo/.venv/bin/python" ] && py="$repo/.venv/bin/python" || py=python3; }
corpus="$(cd "${CORPUS:-$HOME/.cache/sglang-corpus/sglang-0.5.20}" && pwd)"
skip_fix="${SKIP_FIX:-sglang --strategy skip-flag}"
direct_fix="${DIRECT_FIX:-sglang --strategy direct-base --class sglang.srt.layers.attention.trtllm_mha_backend.TRTLLMHAAttnBackend}"
work="${WORK:-$(mktemp -d /tmp/deadinit-trees.XXXXXX)}"
mkdir -p "$work"

if [ "${ALLOW_UNRECORDED:-0}" != 1 ] && [ -n "$(git -C "$repo" status --porcelain -- deadinit bench)" ]; then
  echo "gpu_forward_trees: deadinit/ or bench/ has local changes; commit them first (or ALLOW_UNRECORDED=1)" >&2
  exit 2
fi

make_tree() {  # make_tree LABEL FIX_ARGS
  local label="$1" tree="$work/$1"
  rm -rf "$tree" && mkdir -p "$tree" && cp -a "$corpus/sglang" "$tree/sglang"
  # shellcheck disable=SC2086  # the fix arguments are words
  (cd "$tree" && PYTHONPATH="$repo" "$py" -m deadinit fix $2 --report fix-report.json > fix.log) || {
    rc=$?; [ "$rc" -eq 1 ] || { echo "gpu_forward_trees: $label: deadinit fix exited $rc" >&2; exit "$rc"; }
  }
  echo "$label: $(cd "$tree" && "$py" -c 'import json; d = json.load(open("fix-report.json")); print(len(d["changes"]), "class(es),", len(d["files"]), "file(s):", d["command"])')"
}
make_tree skip-flag "$skip_fix"
make_tree direct-base "$direct_fix"

PY="$py" CORPUS="$corpus/sglang" bash "$repo/bench/gpu_forward_pack.sh" "$dev" \
  "$work/skip-flag/sglang" "$work/skip-flag/fix-report.json" \
  "$work/direct-base/sglang" "$work/direct-base/fix-report.json"
echo "trees: $work (skip-flag/, direct-base/; pr_body --root reads them)"
