#!/bin/bash
# What a cluster does, on one machine: N shard processes of the same plan, then a merge.
#   examples/cluster/local-shards.sh configs/quickstart.yaml 4 [--set key=value ...]
# The merged results.arrow is byte-identical to `bin/fairaudit run CONFIG`'s. Each shard's
# output goes to LOGS/shard-i-of-N.log (LOGS default logs); results to
# RESULTS/<experiment>/ (RESULTS default results). Stops with the failing shard's log.
set -euo pipefail
CONFIG="${1:-configs/quickstart.yaml}"; SHARDS="${2:-4}"; shift $(( $# < 2 ? $# : 2 ))
HERE="$(cd "$(dirname "$0")" && pwd)"
FAIRAUDIT="${FAIRAUDIT:-$(cd "$HERE/../.." && pwd)/bin/fairaudit}"
RESULTS="${RESULTS:-results}"; LOGS="${LOGS:-logs}"
PLAN="$($FAIRAUDIT plan "$CONFIG" "$@" --json)"
EXPERIMENT="$(node -e 'console.log(JSON.parse(process.argv[1]).experiment)' "$PLAN")"
mkdir -p "$LOGS"
PIDS=()
for i in $(seq 1 "$SHARDS"); do
  $FAIRAUDIT run "$CONFIG" "$@" --shard "$i/$SHARDS" --threads 1 --quiet \
    --out "$RESULTS/$EXPERIMENT/shard-$i-of-$SHARDS" >"$LOGS/shard-$i-of-$SHARDS.log" 2>&1 &
  PIDS+=("$!")
done
for i in $(seq 1 "$SHARDS"); do
  if ! wait "${PIDS[$((i - 1))]}"; then
    echo "local-shards: shard $i/$SHARDS failed; its log ($LOGS/shard-$i-of-$SHARDS.log):" >&2
    cat "$LOGS/shard-$i-of-$SHARDS.log" >&2
    kill "${PIDS[@]:$i}" 2>/dev/null || true
    exit 1
  fi
done
FOLDERS=()
for i in $(seq 1 "$SHARDS"); do FOLDERS+=("$RESULTS/$EXPERIMENT/shard-$i-of-$SHARDS"); done
$FAIRAUDIT merge "${FOLDERS[@]}" --out "$RESULTS/$EXPERIMENT"
