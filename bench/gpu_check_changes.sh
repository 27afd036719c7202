#!/usr/bin/env bash
# Collect the files a `deadinit fix` run changed into a small folder that travels to the
# GPU machine, laid out as bench/gpu_check_run.sh expects.
#
#   bash bench/gpu_check_changes.sh ORIGINAL_SGLANG REWRITTEN_SGLANG DEST [FIX_REPORT.json]
#
# ORIGINAL_SGLANG / REWRITTEN_SGLANG are the `sglang/` package folders (e.g.
# ~/.cache/sglang-corpus/sglang-0.5.20/sglang and the rewritten temp copy); every .py
# file that differs (or is new) is copied to DEST/sglang/<same path>, and the report to
# DEST/fix-report.json. Example:
#   bash bench/gpu_check_changes.sh ~/.cache/sglang-corpus/sglang-0.5.20/sglang /tmp/skip/sglang \
#        .gpu/skip-flag skip-report.json
set -euo pipefail
orig="${1:?ORIGINAL_SGLANG}"; new="${2:?REWRITTEN_SGLANG}"; dest="${3:?DEST}"; report="${4:-}"
rm -rf "$dest"; mkdir -p "$dest/sglang"
n=0
while IFS= read -r rel; do
  if [ ! -f "$orig/$rel" ] || ! cmp -s "$orig/$rel" "$new/$rel"; then
    mkdir -p "$dest/sglang/$(dirname "$rel")"
    cp "$new/$rel" "$dest/sglang/$rel"
    echo "changed: sglang/$rel"
    n=$((n + 1))
  fi
done < <(cd "$new" && find . -name '*.py' ! -path '*/__pycache__/*' | sed 's|^\./||' | sort)
[ -n "$report" ] && cp "$report" "$dest/fix-report.json" && echo "report: $dest/fix-report.json"
echo "$n file(s) in $dest ($(du -sh "$dest" | cut -f1))"
