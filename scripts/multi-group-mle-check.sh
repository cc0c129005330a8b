#!/usr/bin/env bash
# The K-group constrained MLE against SciPy's SLSQP (docs/core.md, "K groups"): CASES Bernoulli cases
# (difference and ratio nulls) and CASES / 2 Gaussian proxy cases, K = 2..10. Writes one JSON record (the
# summary of scripts/multi-group-mle-scipy.py plus machine, commit and date) to OUT, through a temporary file.
#   scripts/multi-group-mle-check.sh [CASES] [OUT]     (npm run build first; needs python3 with numpy, scipy)
# CASES defaults to 1000, OUT to docs/benchmarks/multi-group-mle-check.json.
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-1000}"
out="${2:-docs/benchmarks/multi-group-mle-check.json}"
summary=$(node scripts/multi-group-mle-cases.mjs "$cases" | python3 scripts/multi-group-mle-scipy.py)
scipy=$(python3 -c 'import scipy; print(scipy.__version__)')
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src scripts || echo '+changes')
format='{"command":"scripts/multi-group-mle-check.sh %s","machine":"%s","cpus":%s,"commit":"%s","date":"%s",'
format+='"scipy":"%s","summary":%s}\n'
printf "$format" \
  "$cases" "$(uname -n)" "$(nproc)" "$commit" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$scipy" "$summary" >"$out.tmp"
mv "$out.tmp" "$out"
cat "$out"
