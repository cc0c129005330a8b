#!/usr/bin/env python3
"""Peer parity: paper A's models and paper B's boosted trees, trained by peer
implementations (Fairlearn's ExponentiatedGradient, scikit-learn's MLPClassifier and
HistGradientBoostingClassifier) on fairaudit's own split, for several seeds.

A comparison tool for developers: fairaudit never runs it and needs no Python. How to
run it, with which versions, and what it printed are in docs/models.md ("Peer parity").

Input: folders written by `fairaudit data export NAME --format npy`:
  --adult DIR   paper A's split of Adult (sex): train-*.npy, held-out-*.npy
  --ccd DIR     paper B's split of CCD (gender): the held-out part is the candidate set

Output: one JSON line per (model, seed) on stdout with test-set accuracy, SP and EO gaps
(of the deployed decisions and, for the reductions, of the randomized classifier's
expected decisions), the training-set SP gap of the randomized classifier, and
Fairlearn's own diagnostics; a summary table (min - max over seeds) on stderr.
"""

import argparse
import json
import sys
import time
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier

# Paper A section 4.2. Dropout (Robust: 0.1) has no counterpart in scikit-learn's
# MLPClassifier; alpha = 0 (no L2 penalty) as in paper A's Keras-style models.
# Batch size 32 as fairaudit (paper A does not state it; the Keras default).
ARCHITECTURES = {
    "robust": dict(hidden_layer_sizes=(64, 32), learning_rate_init=1e-3, max_iter=30),
    "unstable": dict(hidden_layer_sizes=(16,), learning_rate_init=1e-2, max_iter=1),
}
REDUCTIONS = {
    "robust-dp": dict(base="robust", eps=0.02, max_iter=10),
    "unstable-dp": dict(base="unstable", eps=0.05, max_iter=2),
}


def mlp(architecture, seed):
    """scikit-learn's MLPClassifier with paper A's architecture, exactly max_iter epochs."""
    settings = ARCHITECTURES[architecture]
    return MLPClassifier(
        hidden_layer_sizes=settings["hidden_layer_sizes"],
        activation="relu",
        solver="adam",
        alpha=0.0,
        batch_size=32,
        learning_rate_init=settings["learning_rate_init"],
        max_iter=settings["max_iter"],
        shuffle=True,
        tol=0.0,
        n_iter_no_change=settings["max_iter"] + 1,  # never stop early: exactly max_iter epochs
        random_state=seed,
    )


class ResampledMLP(BaseEstimator, ClassifierMixin):
    """MLPClassifier for Fairlearn's cost-sensitive best responses.

    scikit-learn's MLPClassifier.fit (1.2) takes no sample_weight, so fit(X, y,
    sample_weight) trains on n rows drawn with replacement with probability
    proportional to the weights ("costing" by resampling; Zadrozny, Langford and Abe
    2003). The weighted loss is matched in expectation, not exactly.
    """

    def __init__(self, architecture="robust", random_state=0):
        self.architecture = architecture
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        rng = np.random.RandomState(self.random_state)
        if sample_weight is not None:
            w = np.asarray(sample_weight, dtype=float)
            rows = rng.choice(len(y), size=len(y), replace=True, p=w / w.sum())
            X, y = X[rows], np.asarray(y)[rows]
        self.model_ = mlp(self.architecture, self.random_state)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            self.model_.fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


def gaps(decision, label, group):
    """Accuracy, |P(d=1|A=0) - P(d=1|A=1)| and |P(d=1|Y=1,A=0) - P(d=1|Y=1,A=1)|; decision may be a probability."""
    decision = np.asarray(decision, dtype=float)
    sp = abs(decision[group == 0].mean() - decision[group == 1].mean())
    pos = label == 1
    eo = abs(decision[pos & (group == 0)].mean() - decision[pos & (group == 1)].mean())
    accuracy = float(np.mean(np.where(label == 1, decision, 1 - decision)))
    return accuracy, float(sp), float(eo)


def load(folder, part):
    return (
        np.load(f"{folder}/{part}-features.npy"),
        np.load(f"{folder}/{part}-label.npy").astype(int),
        np.load(f"{folder}/{part}-group.npy").astype(int),
    )


def adult_runs(folder, seeds, models, bound):
    from fairlearn.reductions import DemographicParity, ExponentiatedGradient

    Xtr, ytr, gtr = load(folder, "train")
    Xte, yte, gte = load(folder, "held-out")
    for seed in seeds:
        for name in models:
            started = time.process_time()
            row = {"model": name, "seed": seed}
            if name in ("robust-base", "unstable-base"):
                model = mlp(name.split("-")[0], seed)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    model.fit(Xtr, ytr)
                decision = model.predict(Xte)
                row["accuracy"], row["sp"], row["eo"] = gaps(decision, yte, gte)
                row["trainSp"] = gaps(model.predict(Xtr), ytr, gtr)[1]
            else:
                spec = REDUCTIONS[name]
                # Since Fairlearn 0.5, eps only sets B = 1 / eps; the constraint's own bound is
                # DemographicParity(difference_bound=...), 0.01 when not given. "default" is what
                # ExponentiatedGradient(..., DemographicParity(), eps=...) gives; "eps" uses eps for
                # both, as fairaudit's reduction (and Agarwal et al.'s epsilon) does.
                constraint = (DemographicParity() if bound == "default"
                              else DemographicParity(difference_bound=spec["eps"]))
                reduction = ExponentiatedGradient(
                    ResampledMLP(spec["base"], seed),
                    constraint,
                    eps=spec["eps"],
                    max_iter=spec["max_iter"],
                )  # Fairlearn's defaults otherwise: nu=None (automatic), eta0=2.0, run_linprog_step=True
                row["differenceBound"] = float(constraint.eps)
                reduction.fit(Xtr, ytr, sensitive_features=gtr)
                decision = reduction.predict(Xte, random_state=seed)
                row["accuracy"], row["sp"], row["eo"] = gaps(decision, yte, gte)
                probability = reduction._pmf_predict(Xte)[:, 1]
                row["expectedAccuracy"], row["expectedSp"], row["expectedEo"] = gaps(probability, yte, gte)
                row["trainSp"] = gaps(reduction._pmf_predict(Xtr)[:, 1], ytr, gtr)[1]
                row["nu"] = float(reduction.nu)
                row["bestGap"] = float(reduction.best_gap_)
                row["bestIter"] = int(reduction.best_iter_)
                row["lastIter"] = int(reduction.last_iter_)
                row["oracleCalls"] = int(reduction.n_oracle_calls_)
                row["weights"] = [round(float(w), 6) for w in reduction.weights_.values]
            row["cpuSeconds"] = round(time.process_time() - started, 1)
            print(json.dumps(row), flush=True)
            yield row


def ccd_runs(folder, seeds):
    from scipy.stats import loguniform, randint
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.model_selection import RandomizedSearchCV

    Xtr, ytr, _ = load(folder, "train")
    Xte, yte, gte = load(folder, "held-out")
    for seed in seeds:
        started = time.process_time()
        # Paper B section 5: random search (10 draws) with 5-fold CV over learning rate,
        # leaf nodes and iterations, refit on the whole training split. The ranges are
        # fairaudit's (PAPER_B_SEARCH_SPACE: the paper does not print them).
        search = RandomizedSearchCV(
            HistGradientBoostingClassifier(random_state=seed),
            {
                "learning_rate": loguniform(0.01, 1),
                "max_leaf_nodes": randint(20, 50),
                "max_iter": randint(10, 1000),
            },
            n_iter=10,
            cv=5,
            scoring="accuracy",
            random_state=seed,
            refit=True,
            n_jobs=1,
        )
        search.fit(Xtr, ytr)
        row = {"model": "boosted-trees", "seed": seed}
        row["accuracy"], row["sp"], row["eo"] = gaps(search.predict(Xte), yte, gte)
        row["chosen"] = {k: (float(v) if k == "learning_rate" else int(v)) for k, v in search.best_params_.items()}
        row["cvAccuracy"] = float(search.best_score_)
        row["cpuSeconds"] = round(time.process_time() - started, 1)
        print(json.dumps(row), flush=True)
        yield row


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--adult", help="folder of `fairaudit data export adult --scheme paper-a ...`")
    parser.add_argument("--ccd",
                        help="folder of `fairaudit data export ccd --scheme paper-b --protected-attribute gender ...`")
    parser.add_argument("--seeds", default="0,1,2", help="comma-separated seeds (random_state)")
    parser.add_argument("--models", default="robust-base,unstable-base,robust-dp,unstable-dp")
    parser.add_argument(
        "--difference-bound",
        choices=["default", "eps"],
        default="default",
        help="DemographicParity's bound: Fairlearn's default 0.01 (eps then only sets B = 1/eps), or eps itself",
    )
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    rows = []
    if args.adult:
        rows += list(adult_runs(args.adult, seeds, args.models.split(","), args.difference_bound))
    if args.ccd:
        rows += list(ccd_runs(args.ccd, seeds))
    for name in dict.fromkeys(row["model"] for row in rows):
        mine = [row for row in rows if row["model"] == name]
        spans = []
        for key in ("accuracy", "sp", "eo", "expectedSp", "expectedEo", "trainSp"):
            values = [row[key] for row in mine if key in row]
            if values:
                spans.append(f"{key} {min(values):.4f}-{max(values):.4f}")
        print(f"{name} ({len(mine)} seeds): " + ", ".join(spans), file=sys.stderr)


if __name__ == "__main__":
    main()
