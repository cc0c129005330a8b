#!/bin/bash
# Runs an experiment as a Slurm job array of shards, then merges them.
#   examples/cluster/submit-slurm.sh configs/quickstart.yaml 4 [--set replicates=1000 ...]
# Run from the repository root on the login node.
set -euo pipefail
CONFIG="$1"; SHARDS="$2"; shift 2
SET="$*"
FAIRAUDIT="${FAIRAUDIT:-bin/fairaudit}"
EXPERIMENT="$($FAIRAUDIT plan "$CONFIG" $SET --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).experiment))')"
mkdir -p logs
ARRAY_JOB="$(CONFIG="$CONFIG" SET="$SET" FAIRAUDIT="$FAIRAUDIT" sbatch --parsable --export=ALL --array=1-"$SHARDS" examples/cluster/slurm-shards.sbatch)"
EXPERIMENT="$EXPERIMENT" SHARDS="$SHARDS" FAIRAUDIT="$FAIRAUDIT" sbatch --parsable --export=ALL --dependency=afterok:"$ARRAY_JOB" examples/cluster/slurm-merge.sbatch
echo "shards: job $ARRAY_JOB; merged results will be in results/$EXPERIMENT/"
