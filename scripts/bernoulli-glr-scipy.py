"""bernoulli-glr-scipy.py: a straightforward SciPy implementation of paper A's signed Bernoulli GLR
statistic (eq. 22-23, appendix A), the reference `bench glr` is compared against. For the counts after
each observation, S = sup over the closure of H1 (|gap| >= tolerance) of the log-likelihood minus sup
over H0 (|gap| <= tolerance): the free maximum (the empirical rates) where it lies in the set, else the
maximum over the constrained face(s) theta_b = theta_a +- tolerance, each found by
scipy.optimize.minimize_scalar (bounded, xatol 1e-12) on the face's one-dimensional log-likelihood.
Reads observations "group value" (one a line, 0/1 each, segments of --segment rows, the statistic
reset at each) from the file given, and prints one JSON object: CPU seconds per update (time.process_time,
after a warm-up segment), the updates timed, and the statistic after every update of the first --check
updates, for a cross-check against BernoulliGlrStream.
Run: python3 scripts/bernoulli-glr-scipy.py OBSERVATIONS [--segment 4000] [--check 4000]  (numpy, scipy)."""
import argparse, json, math, sys, time
from scipy.optimize import minimize_scalar
from scipy.special import xlogy


def loglik(s, f, theta):
    return xlogy(s, theta) + xlogy(f, 1.0 - theta)


def face_maximum(s1, f1, s2, f2, tolerance):
    """max over x in [0, 1 - tolerance] of the log-likelihood at (x, x + tolerance)."""
    result = minimize_scalar(
        lambda x: -(loglik(s1, f1, x) + loglik(s2, f2, x + tolerance)),
        bounds=(0.0, 1.0 - tolerance), method='bounded', options={'xatol': 1e-12})
    return -result.fun


def statistic(count_a, pos_a, count_b, pos_b, tolerance):
    sa, fa, sb, fb = pos_a, count_a - pos_a, pos_b, count_b - pos_b
    free = loglik(sa, fa, sa / count_a) + loglik(sb, fb, sb / count_b)
    gap = sb / count_b - sa / count_a
    plus = lambda: face_maximum(sa, fa, sb, fb, tolerance)  # theta_b = theta_a + tolerance
    minus = lambda: face_maximum(sb, fb, sa, fa, tolerance)  # theta_a = theta_b + tolerance
    if abs(gap) <= tolerance:
        null, alternative = free, max(plus(), minus())
    else:
        null, alternative = (plus() if gap > 0 else minus()), free
    return alternative - null


def run(groups, values, segment, tolerance, check):
    out = []
    for start in range(0, len(groups), segment):
        counts = [0, 0]
        positives = [0, 0]
        for i in range(start, min(len(groups), start + segment)):
            counts[groups[i]] += 1
            positives[groups[i]] += values[i]
            value = statistic(counts[0], positives[0], counts[1], positives[1], tolerance) \
                if counts[0] > 0 and counts[1] > 0 else 0.0
            if i < check:
                out.append(value)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('observations')
    parser.add_argument('--segment', type=int, default=4000)
    parser.add_argument('--tolerance', type=float, default=0.05)
    parser.add_argument('--check', type=int, default=4000)
    args = parser.parse_args()
    groups, values = [], []
    with open(args.observations) as handle:
        for line in handle:
            g, v = line.split()
            groups.append(int(g))
            values.append(int(v))
    run(groups[:200], values[:200], args.segment, args.tolerance, 0)  # warm-up
    started = time.process_time()
    statistics = run(groups, values, args.segment, args.tolerance, args.check)
    seconds = time.process_time() - started
    json.dump({'updates': len(groups), 'cpuSeconds': seconds, 'secondsPerUpdate': seconds / len(groups),
               'statistics': statistics}, sys.stdout)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
