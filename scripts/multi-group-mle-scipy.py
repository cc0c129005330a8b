"""multi-group-mle-scipy.py: checks fairaudit's K-group constrained maximum likelihood (the clip into the
best window, docs/core.md "K groups") against SciPy's generic constrained optimiser (SLSQP) with the null
written as pairwise constraints: theta_j - theta_i <= delta (difference) or theta_i - rho theta_j >= 0
(ratio) for every ordered pair. Reads the cases of scripts/multi-group-mle-cases.mjs on stdin (one JSON
object per line) and prints one JSON summary: the largest |ours - SciPy| in log-likelihood, how many cases
SciPy beat ours by more than 1e-9, and the largest violation of the null by our estimate.
Run: node scripts/multi-group-mle-cases.mjs | python3 scripts/multi-group-mle-scipy.py  (needs numpy, scipy)."""
import json, sys
import numpy as np
from scipy.optimize import minimize
from scipy.special import xlogy

EPS = 1e-13

def constraints(k, aggregation, bound):
    out = []
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            a = np.zeros(k)
            if aggregation == 'difference':  # delta - (theta_j - theta_i) >= 0
                a[i], a[j] = 1.0, -1.0
                out.append({'type': 'ineq', 'fun': lambda t, a=a: bound + a @ t, 'jac': lambda t, a=a: a})
            else:  # theta_i - rho theta_j >= 0
                a[i], a[j] = 1.0, -bound
                out.append({'type': 'ineq', 'fun': lambda t, a=a: a @ t, 'jac': lambda t, a=a: a})
    return out

def solve(objective, gradient, starts, bounds, cons):
    best = None
    for start in starts:
        result = minimize(objective, start, jac=gradient, method='SLSQP', bounds=bounds, constraints=cons,
                          options={'ftol': 1e-16, 'maxiter': 2000})
        t = np.clip(result.x, bounds[0][0], bounds[0][1]) if bounds[0][0] is not None else result.x
        value = objective(t)
        if best is None or value < best[0]:
            best = (value, t)
    return best

def bernoulli(case):
    n = np.array(case['counts']); s = np.array(case['positives']); f = n - s; k = len(n)
    total = n.sum()
    objective = lambda t: -(xlogy(s, t) + xlogy(f, 1 - t)).sum() / total
    gradient = lambda t: -(s / np.maximum(t, EPS) - f / np.maximum(1 - t, EPS)) / total
    pooled = s.sum() / total
    starts = [np.full(k, pooled), np.clip(s / n, pooled - 0.01, pooled + 0.01), np.full(k, 0.5)]
    value, t = solve(objective, gradient, starts, [(EPS, 1 - EPS)] * k,
                     constraints(k, case['aggregation'], case['bound']))
    return -value * total, t

def gaussian(case):
    n = np.array(case['counts']); m = np.array(case['means']); k = len(n); w = case['residualSumOfSquares']
    total = n.sum()
    objective = lambda mu: (n * (m - mu) ** 2).sum() / total
    gradient = lambda mu: -2 * n * (m - mu) / total
    centre = (n * m).sum() / total
    starts = [np.full(k, centre), np.clip(m, centre - 0.01, centre + 0.01)]
    value, mu = solve(objective, gradient, starts, [(None, None)] * k,
                      constraints(k, case['aggregation'], case['bound']))
    cost = value * total
    return -0.5 * total * np.log((w + cost) / total) - 0.5 * total, mu

def violation(case, t):
    lo, hi = min(t), max(t)
    return hi - lo - case['bound'] if case['aggregation'] == 'difference' else case['bound'] * hi - lo

summary = {'cases': 0, 'bernoulli': 0, 'gaussian': 0, 'largestAbsoluteDifference': 0.0,
           'largestRelativeDifference': 0.0, 'scipyBetterBy1e9': 0, 'oursBetterBy1e9': 0,
           'largestNullViolationOfOurs': 0.0}
for line in sys.stdin:
    if not line.strip():
        continue
    case = json.loads(line)
    theirs, _ = bernoulli(case) if case['family'] == 'bernoulli' else gaussian(case)
    ours = case['logLikelihood']
    difference = ours - theirs
    summary['cases'] += 1
    summary[case['family']] += 1
    summary['largestAbsoluteDifference'] = max(summary['largestAbsoluteDifference'], abs(difference))
    summary['largestRelativeDifference'] = max(summary['largestRelativeDifference'],
                                               abs(difference) / max(1.0, abs(ours)))
    if difference < -1e-9:
        summary['scipyBetterBy1e9'] += 1
    if difference > 1e-9:
        summary['oursBetterBy1e9'] += 1
    if 'rates' in case:
        summary['largestNullViolationOfOurs'] = max(summary['largestNullViolationOfOurs'],
                                                    violation(case, case['rates']))
print(json.dumps(summary))
