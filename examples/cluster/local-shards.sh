#!/bin/bash
# What a cluster does, on one machine: N shard processes of the same plan, then a merge.
#   examples/cluster/local-shards.sh configs/quickstart.yaml 4
# The merged results.arrow is byte-identical to `bin/fairaudit run CONFIG`'s.
set -euo pipefail
CONFIG="${1:-configs/quickstart.yaml}"; SHARDS="${2:-4}"
EXPERIMENT="$(bin/fairaudit plan "$CONFIG" --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).experiment))')"
for i in $(seq 1 "$SHARDS"); do
  bin/fairaudit run "$CONFIG" --shard "$i/$SHARDS" --threads 1 --quiet &
done
wait
bin/fairaudit merge results/"$EXPERIMENT"/shard-*-of-"$SHARDS" --out results/"$EXPERIMENT"
