#!/bin/bash
# Runs an experiment as a Slurm job array of shards plus a merge job that starts once
# every shard has succeeded (and is cancelled if one fails).
#   examples/cluster/submit-slurm.sh CONFIG N [--set key=value ...]
# Run it on the login node from the root of a checkout on storage every node sees
# (npm ci done once there); relative paths are read against the current folder.
# Environment (all optional):
#   FAIRAUDIT      the command (default: bin/fairaudit of this checkout; with the image,
#                  e.g. "apptainer exec fairaudit.sif fairaudit")
#   RESULTS        results root (default results): shards write RESULTS/<experiment>/shard-i-of-N/,
#                  the merge RESULTS/<experiment>/results.arrow and run.json
#   LOGS           folder for the jobs' logs (default logs)
#   SHARD_OPTIONS  extra sbatch options for the shard tasks (e.g. "--cpus-per-task=2 --mem=2G -p short");
#                  they override the #SBATCH lines of slurm-shards.sbatch
#   MERGE_OPTIONS  extra sbatch options for the merge job
# Prints the two job ids and where the logs and results will be.
set -euo pipefail
if [ "$#" -lt 2 ]; then
  echo "usage: $0 CONFIG N [--set key=value ...]" >&2
  exit 2
fi
CONFIG="$1"; SHARDS="$2"; shift 2
case "$SHARDS" in ''|*[!0-9]*|0) echo "submit-slurm: N must be a positive integer, found '$SHARDS'" >&2; exit 2 ;; esac
[ -f "$CONFIG" ] || { echo "submit-slurm: no config file $CONFIG" >&2; exit 2; }
HERE="$(cd "$(dirname "$0")" && pwd)"
FAIRAUDIT="${FAIRAUDIT:-$(cd "$HERE/../.." && pwd)/bin/fairaudit}"
RESULTS="${RESULTS:-results}"
LOGS="${LOGS:-logs}"
command -v sbatch >/dev/null || { echo "submit-slurm: sbatch not found (is this a Slurm login node?)" >&2; exit 2; }
# The plan is checked here, so a bad config or --set fails now rather than in N jobs.
# shellcheck disable=SC2086 # FAIRAUDIT may be a command with arguments
PLAN="$($FAIRAUDIT plan "$CONFIG" "$@" --json)"
EXPERIMENT="$(node -e 'console.log(JSON.parse(process.argv[1]).experiment)' "$PLAN")"
mkdir -p "$LOGS"
export FAIRAUDIT RESULTS EXPERIMENT SHARDS
# shellcheck disable=SC2086 # the *_OPTIONS are lists of options
ARRAY_JOB="$(sbatch --parsable --export=ALL --array=1-"$SHARDS" --output="$LOGS/%x-%A_%a.out" ${SHARD_OPTIONS:-} \
  "$HERE/slurm-shards.sbatch" "$CONFIG" "$@")"
ARRAY_JOB="${ARRAY_JOB%%;*}"
# shellcheck disable=SC2086
MERGE_JOB="$(sbatch --parsable --export=ALL --dependency=afterok:"$ARRAY_JOB" --kill-on-invalid-dep=yes \
  --output="$LOGS/%x-%j.out" ${MERGE_OPTIONS:-} "$HERE/slurm-merge.sbatch")"
MERGE_JOB="${MERGE_JOB%%;*}"
echo "shards: job $ARRAY_JOB (array 1-$SHARDS), logs $LOGS/fairaudit-shard-${ARRAY_JOB}_*.out"
echo "merge: job $MERGE_JOB (after every shard succeeds; cancelled if one fails), log $LOGS/fairaudit-merge-$MERGE_JOB.out"
echo "results: $RESULTS/$EXPERIMENT/"
