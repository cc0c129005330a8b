#!/usr/bin/env bash
# How often `fairaudit bench compare BASE HEAD` calls HEAD slower at a 10% threshold, over COUNT
# comparisons of ROUNDS interleaved rounds each (bench glr at UPDATES updates, one timed pass).
#   scripts/speed-comparison-rates.sh BASE HEAD [COUNT] [ROUNDS] [UPDATES]
# A/A: BASE = HEAD = this checkout; A/B: HEAD = a worktree whose GLR kernel was made slower.
set -euo pipefail
base=${1:?base checkout}; head=${2:?head checkout}; count=${3:-20}; rounds=${4:-5}; updates=${5:-500000}
slower=0
for i in $(seq 1 "$count"); do
  line=$(bin/fairaudit bench compare "$base" "$head" --rounds "$rounds" --threshold 0.1 \
    "--args=--updates $updates --runs 1" || true)
  echo "$i: $line" >&2
  case "$line" in *": slower at"*) slower=$((slower + 1)) ;; esac
done
echo "{\"comparisons\": $count, \"rounds\": $rounds, \"updates\": $updates, \"slower\": $slower}"
