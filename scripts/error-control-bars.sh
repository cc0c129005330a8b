#!/usr/bin/env bash
# Re-measures the error-control settings that break naive tests, with the commands a user runs
# (docs/error-control.md, "Measured"). One JSON summary per line (fairaudit audit --json), prefixed with
# what it is; a refusal prints its exit code and message instead. Run after `npm run build`.
#   scripts/error-control-bars.sh [REPLICATES] [FOLDER]
# REPLICATES defaults to 4000; FOLDER (default a temporary one) receives the generated pools.
set -uo pipefail
cd "$(dirname "$0")/.."
replicates="${1:-4000}"
folder="${2:-$(mktemp -d)}"
fairaudit=bin/fairaudit
audit() { # LABEL ARGS...: one audit summary, or the refusal
  local label="$1"
  shift
  printf '%s ' "$label"
  if ! output=$("$fairaudit" audit "$@" --replicates "$replicates" --json 2>&1); then
    echo "exit $? ${output//$'\n'/ }"
  else
    echo "$output" | tr -d '\n'
    echo
  fi
}
# Score pools the Gaussian GLR handles badly (seeded, 20,000 rows, 40% in group b, all compliant but the first).
python3 - "$folder" <<'PY'
import random, sys
folder = sys.argv[1]
r = random.Random(5)
def write(name, score_a, score_b, size=20000, share=0.4):
    with open(f'{folder}/{name}.csv', 'w') as f:
        f.write('group,label,decision,score\n')
        for _ in range(size):
            g = 1 if r.random() < share else 0
            s = score_b() if g else score_a()
            f.write(f'{g},1,{1 if s > 0.5 else 0},{s!r}\n')
write('constant', lambda: 0.4, lambda: 0.7)                                   # gap 0.3, each group constant
write('tiny-noise', lambda: 0.5 + 1e-7 * r.random(), lambda: 0.55 + 1e-7 * r.random() - 1e-7)  # gap 0.05 - 5e-8
write('rare-values', lambda: 0.9 if r.random() < 0.01 else 0.5, lambda: 0.1 if r.random() < 0.1 else 0.6)  # gap 0.045
PY
for pool in constant tiny-noise rare-values; do
  for test in wald-glr calibrated-glr betting; do
    audit "score-pool $pool $test" --pool "$folder/$pool.csv" --access score --seed 11 --test "$test"
  done
done
printf 'calibrate constant-score pool '
"$fairaudit" calibrate --pool "$folder/constant.csv" --access score >/dev/null 2>"$folder/calibrate.err"
echo "exit $? $(tr '\n' ' ' <"$folder/calibrate.err")"
# A 400-row pool at an SP gap of 0.15, read to its end (budget 4000 > 400 rows).
small='{"size":400,"groupShare":0.4,"labelRate":[0.45,0.4],"decisionRate":[0.4,0.25]}'
for test in wald-glr calibrated-glr betting; do
  audit "exhausted-400 $test" --synthetic "$small" --access decision --tolerance 0.05 --seed 11 --test "$test"
done
# Continuation at the boundary (SP gap 0.05 = delta): rerunning an inconclusive betting audit with the same
# seed and budgets 100, 200, ..., 4000 (40 reruns) is one audit with budget 4000 (the same order, queried
# further), so this one command measures it.
boundary='{"size":20000,"groupShare":0.4,"labelRate":[0.45,0.4],"decisionRate":[0.4,0.35]}'
audit "continued-40x-boundary betting" --synthetic "$boundary" --access decision --tolerance 0.05 --seed 11 \
  --budget 4000 --test betting
# Thresholds given by hand (another setting's calibration) run as given-thresholds, without a guarantee.
audit "given-thresholds boundary" --synthetic "$boundary" --access decision --tolerance 0.05 --seed 11 \
  --upper 4.85 --lower -2.4
