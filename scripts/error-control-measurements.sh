#!/usr/bin/env bash
# The error-control measurements, with the commands a user runs (docs/error-control.md, "Measured").
# Prints one JSON summary per line (fairaudit audit --json), prefixed with what it is.
# Figures from a shared machine are provisional; run on an idle machine to re-measure.
#   scripts/error-control-measurements.sh [REPLICATES] [ADULT_POOL_FILE...]
# REPLICATES defaults to 4000 ; ADULT_POOL_FILE: Adult Robust-Base pools
# (results/paper-a/pools/adult-robust-base.arrow after `fairaudit reproduce paper-a`).
set -euo pipefail
cd "$(dirname "$0")/.."
replicates="${1:-4000}"
shift || true
fairaudit=bin/fairaudit
for rates in '[0.4,0.4]' '[0.4,0.355]'; do
  pool="{\"size\":20000,\"groupShare\":0.4,\"labelRate\":[0.45,0.4],\"decisionRate\":${rates}}"
  for access in decision score; do
    for test in wald-glr calibrated-glr betting; do
      printf 'decisionRate %s %s %s ' "$rates" "$access" "$test"
      "$fairaudit" audit --synthetic "$pool" --access "$access" --tolerance 0.05 --seed 11 \
        --replicates "$replicates" --test "$test" --json
    done
  done
done
# The start rule of calibrated-glr with scores and logits (lead's decision: 5 per group unless
# minimumPerGroup is set): its false violations and queries with paper A's rule of 1 and with 5.
# Logits: paper A's GLR, the calibrated GLR, and the betting test on a declared range [-7, 7]
# (the generated pool's logits lie within ±6.09).
for rates in '[0.4,0.4]' '[0.4,0.355]'; do
  pool="{\"size\":20000,\"groupShare\":0.4,\"labelRate\":[0.45,0.4],\"decisionRate\":${rates}}"
  for access in score logit; do
    for start in 1 5; do
      printf 'decisionRate %s %s calibrated-glr-start-%s ' "$rates" "$access" "$start"
      "$fairaudit" audit --synthetic "$pool" --access "$access" --seed 11 --replicates "$replicates" \
        --test calibrated-glr --minimum-per-group "$start" --json
    done
  done
  for test in wald-glr betting; do
    printf 'decisionRate %s logit %s ' "$rates" "$test"
    "$fairaudit" audit --synthetic "$pool" --access logit --seed 11 --replicates "$replicates" --test "$test" \
      --logit-bounds=-7,7 --json
  done
done
for file in "$@"; do
  for access in decision score; do
    for test in wald-glr calibrated-glr betting; do
      printf 'pool %s %s %s ' "$file" "$access" "$test"
      "$fairaudit" audit --pool "$file" --metric sp --access "$access" --tolerance 0.05 --seed 11 --replicates 1000 \
        --test "$test" --json
    done
  done
done
