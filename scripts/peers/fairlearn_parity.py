#!/usr/bin/env python3
"""Fairlearn parity of fairaudit's multi-group oracle.

A comparison tool for developers: fairaudit never runs it and needs no Python.

Input: the folder `fairaudit reproduce multi-group` writes (results/multi-group): its
pools (pools/*.csv: one column per group attribute, label, decision) and oracle.json
(fairaudit's difference and ratio per pool and metric, at full precision).

For each pool, Fairlearn's MetricFrame over the attribute columns (race and sex as two
sensitive features for Adult, race for COMPAS) computes selection_rate,
true_positive_rate and false_positive_rate, their difference(method='between_groups')
and ratio(method='between_groups'), and equalized_odds_difference / equalized_odds_ratio;
each is set against fairaudit's value. Writes one JSON record (versions, the largest
absolute difference, every comparison) to --out and prints a summary; exits 1 when a
difference exceeds --tolerance (default 1e-12).

Run: PYTHONPATH=/path/to/fairlearn-0.12 python3 scripts/peers/fairlearn_parity.py
       --results results/multi-group --out papers/multi-group/fairlearn-parity.json
"""

import argparse
import json
import os
import platform
import subprocess
import sys
from datetime import datetime, timezone

import fairlearn
import numpy as np
import pandas as pd
import sklearn
from fairlearn.metrics import (
    MetricFrame,
    equalized_odds_difference,
    equalized_odds_ratio,
    false_positive_rate,
    selection_rate,
    true_positive_rate,
)

RATES = {"sp": selection_rate, "eo": true_positive_rate, "pe": false_positive_rate}


def fairlearn_values(frame, metric):
    """Fairlearn's (difference, ratio) of one metric on a pool."""
    features = [column for column in frame.columns if column not in ("label", "decision")]
    sensitive = frame[features] if len(features) > 1 else frame[features[0]]
    y_true, y_pred = frame["label"].to_numpy(), frame["decision"].to_numpy()
    if metric == "eodds":
        return (
            equalized_odds_difference(y_true, y_pred, sensitive_features=sensitive),
            equalized_odds_ratio(y_true, y_pred, sensitive_features=sensitive),
        )
    mf = MetricFrame(metrics=RATES[metric], y_true=y_true, y_pred=y_pred, sensitive_features=sensitive)
    return mf.difference(method="between_groups"), mf.ratio(method="between_groups")


def commit_of(folder):
    try:
        return subprocess.run(["git", "-C", folder, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", required=True, help="the folder of `fairaudit reproduce multi-group`")
    parser.add_argument("--out", required=True, help="where to write the JSON record")
    parser.add_argument("--tolerance", type=float, default=1e-12)
    args = parser.parse_args()
    with open(os.path.join(args.results, "oracle.json")) as handle:
        ours = json.load(handle)
    frames = {}
    comparisons = []
    for row in ours:
        path = os.path.join(args.results, row["file"])
        if path not in frames:
            frames[path] = pd.read_csv(path, dtype={"label": int, "decision": int}, keep_default_na=False)
        difference, ratio = fairlearn_values(frames[path], row["metric"])
        ours_ratio = float("nan") if row["ratio"] is None else row["ratio"]
        comparisons.append(
            {
                "pool": row["pool"],
                "metric": row["metric"],
                "fairaudit_difference": row["difference"],
                "fairlearn_difference": float(difference),
                "fairaudit_ratio": ours_ratio,
                "fairlearn_ratio": float(ratio),
                "largest_gap": max(abs(row["difference"] - difference), abs(ours_ratio - ratio)),
            }
        )
    largest = max(item["largest_gap"] for item in comparisons)
    record = {
        "command": " ".join(["python3"] + sys.argv),
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": platform.node(),
        "commit": commit_of(os.path.dirname(os.path.abspath(__file__))),
        "python": platform.python_version(),
        "fairlearn": fairlearn.__version__,
        "scikit_learn": sklearn.__version__,
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "tolerance": args.tolerance,
        "compared": len(comparisons),
        "largest_absolute_difference": largest,
        "comparisons": comparisons,
    }
    tmp = f"{args.out}.tmp"
    with open(tmp, "w") as handle:
        json.dump(record, handle, indent=2)
        handle.write("\n")
    os.replace(tmp, args.out)
    print(f"{len(comparisons)} differences and ratios compared; largest |fairaudit - Fairlearn| = {largest:.3g}")
    sys.exit(0 if largest <= args.tolerance else 1)


if __name__ == "__main__":
    main()
