"""bernoulli-glr-mpmath.py: 50-digit reference values of the signed Bernoulli GLR (bisection on
eq. 30 of paper A in mpmath), the source of the mpmath values in test/stats/bernoulli-glr.test.ts.
Run: python3 scripts/bernoulli-glr-mpmath.py (needs mpmath)."""
import mpmath as mp
mp.mp.dps = 50
def ll(s, n, t):
    f = n - s; v = mp.mpf(0)
    if s > 0: v += s * mp.log(t)
    if f > 0: v += f * mp.log(1 - t)
    return v
def face(s1, n1, s2, n2, d):
    d = mp.mpf(d); w = 1 - d
    g = lambda x: ll(s1, n1, x) + ll(s2, n2, x + d)
    dg = lambda x: ((s1/x if s1 else 0) - ((n1-s1)/(1-x) if n1-s1 else 0)
                    + (s2/(x+d) if s2 else 0) - ((n2-s2)/(w-x) if n2-s2 else 0))
    lo, hi = mp.mpf(0), w
    for _ in range(400):
        m = (lo + hi) / 2
        if dg(m) > 0: lo = m
        else: hi = m
    return max(g((lo+hi)/2), g(mp.mpf(0)) if s1 == 0 else -mp.inf, g(w) if n2 - s2 == 0 else -mp.inf)
def glr(na, sa, nb, sb, d):
    emp = ll(sa, na, mp.mpf(sa)/na) + ll(sb, nb, mp.mpf(sb)/nb)
    plus = face(sa, na, sb, nb, d); minus = face(sb, nb, sa, na, d)
    gap = mp.mpf(sb)/nb - mp.mpf(sa)/na
    return emp - max(plus, minus) if abs(gap) > mp.mpf(d) else max(plus, minus) - emp
print(repr(float(glr(120, 30, 130, 52, 0.05))))   # 1.440012947946327
