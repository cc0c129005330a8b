#!/usr/bin/env bash
# make regress BASE=<git ref>: build BASE in a git worktree beside this checkout, run the regression
# suite on both, compare results (fairaudit compare: every statistic, Holm at a suite-level 1%) and
# speed (fairaudit bench compare: interleaved rounds, 10% threshold), write one report, exit non-zero
# on a regression (1) or bad input (2).
#   REGRESS_SUITE=full (default) | tiny   the full suite: quickstart, paper A and B grids at reduced
#                                         replicates, the error-control pools, bench glr and runner;
#                                         tiny: the quickstart at 40 replicates, bench glr small (tests)
#   REGRESS_OUT=results/regress           where both trees, the comparison and the report go
#   REGRESS_SPEED_GATE=1                  0: report the speed comparison without failing on it
set -euo pipefail
base_ref=${1:?usage: scripts/regress.sh <git ref>}
suite=${REGRESS_SUITE:-full}
out=${REGRESS_OUT:-results/regress}
speed_gate=${REGRESS_SPEED_GATE:-1}
head_dir=$(pwd)
if ! commit=$(git rev-parse --verify --quiet "${base_ref}^{commit}"); then
  echo "regress: BASE: expected a git ref of this repository, found ${base_ref}" >&2
  exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/fairaudit-regress-XXXXXX")
base_dir="$work/base"
cleanup() { git worktree remove --force "$base_dir" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
git worktree add --detach --quiet "$base_dir" "$commit"
ln -s "$(readlink -f node_modules)" "$base_dir/node_modules"
(cd "$base_dir" && npm run --silent build >/dev/null)
rm -rf "$out"
mkdir -p "$out"

# run_suite CHECKOUT TREE: the suite's results of one build.
run_suite() {
  local checkout=$1 tree=$2
  local cli=("node" "$checkout/bin/fairaudit")
  if [ "$suite" = tiny ]; then
    "${cli[@]}" run "$checkout/configs/quickstart.yaml" --out "$tree/quickstart" --threads 1 --quiet --set replicates=40
  else
    "${cli[@]}" run "$checkout/configs/quickstart.yaml" --out "$tree/quickstart" --quiet
    "${cli[@]}" reproduce paper-a --calibrated --out "$tree/paper-a" --quiet --no-png --set replicates=50 >/dev/null
    "${cli[@]}" reproduce paper-b --out "$tree/paper-b" --quiet --no-png --set replicates=50 >/dev/null
    "${cli[@]}" reproduce error-control --calibrated --out "$tree/error-control" --quiet --no-png \
      --set replicates=200 >/dev/null
  fi
}
run_suite "$base_dir" "$out/base"
run_suite "$head_dir" "$out/head"

results=0
bin/fairaudit compare "$out/base" "$out/head" --out "$out/comparison" | tee "$out/results.txt" || results=$?
if [ "$suite" = tiny ]; then
  bench_args="--updates 200000 --runs 1"; rounds=3
else
  bench_args="--updates 2000000 --runs 3"; rounds=10
fi
speed=0
bin/fairaudit bench compare "$base_dir" "$head_dir" --rounds "$rounds" "--args=$bench_args" \
  | tee "$out/speed.txt" || speed=$?
{
  echo "# Regression run: $(git rev-parse --short "$commit") (BASE $base_ref)" \
    "against $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' + uncommitted changes')"
  echo
  echo "Suite: $suite. Results: comparison/report.html (every statistic, its interval and verdict)."
  echo
  echo '## Results'; echo; sed 's/^/    /' "$out/results.txt"; echo
  echo '## Speed'; echo; sed 's/^/    /' "$out/speed.txt"
} > "$out/README.md"
[ "$speed_gate" = 1 ] || { [ "$speed" = 1 ] && speed=0; }
echo "regress: report in $out/README.md"
if [ "$results" -ge 2 ] || [ "$speed" -ge 2 ]; then exit 2; fi
if [ "$results" -ne 0 ] || [ "$speed" -ne 0 ]; then exit 1; fi
exit 0
