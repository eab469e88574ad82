#!/usr/bin/env bash
# Runs one fuzz target for SECONDS: its checked-in seeds (Fuzz/corpus/TARGET) and the working
# corpus it grows (.build/fuzz-corpus/TARGET); prints the executions, the coverage (libFuzzer's
# `cov`: edges, `ft`: features) and the corpus size; a crash, leak or oracle failure leaves its
# input in .build/fuzz-crashes/ and exits 1. Usage: Fuzz/run.sh TARGET SECONDS
set -euo pipefail
cd "$(dirname "$0")/.."
target=$1 seconds=$2
binary=Fuzz/.build/release/fuzz-$target
log=.build/fuzz-$target.log
mkdir -p ".build/fuzz-corpus/$target" .build/fuzz-crashes
# The longest input: 64 KiB where outside input is long (answers, event streams, JSON, a store
# file); 16 KiB for the text a person writes (a keys, theme or config file, a command line),
# nearly ten times the longest seed (a 1.7 KB theme), as such files are. The keys target reached
# the same edges at either cap; what only length reaches (a pasted page) the unit tests keep.
case $target in
  keys | theme | uiconfig | arguments) max_len=16384 ;;
  *) max_len=65536 ;;
esac
if ! "$binary" -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 -max_len="$max_len" \
  -artifact_prefix=".build/fuzz-crashes/$target-" ".build/fuzz-corpus/$target" "Fuzz/corpus/$target" >"$log" 2>&1; then
  tail -40 "$log"
  echo "fuzz-$target: FAILED (its input is in .build/fuzz-crashes/; the log in $log)"
  exit 1
fi
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
last=$(grep -E '^#[0-9]+' "$log" | tail -1)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
corpus=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$last")
printf 'fuzz-%-10s %10s runs in %ss  coverage: %s edges, %s features  corpus %s\n' \
  "$target" "$runs" "$seconds" "${cov:-?}" "${ft:-?}" "${corpus:-?}"
