#!/usr/bin/env python3
"""Markdown table of a gang-now sweep (docs/reproduction/gang-now.md): one row per point of the grid, its swept
values, then the mean over the replications of each metric, with the 95% half-width of the mean ("m +- h").

Usage: tables.py SWEEP_DIR [METRIC...]   (default metrics: mean_turnaround mean_stretch fairness migrations
                                          bytes_moved restarts work_lost max_slices)"""
import csv
import sys
from collections import OrderedDict

DEFAULT = ["mean_turnaround", "mean_stretch", "fairness", "migrations", "bytes_moved", "restarts", "work_lost",
           "max_slices"]
SHORT = {"gang_now.owners.activity": "activity", "gang_now.policy.eviction": "eviction",
         "gang_now.workload.image_mb": "image MB", "gang_now.policy.mtat": "MTAT",
         "gang_now.policy.compression": "compression", "gang_now.policy.pool_target": "pool target",
         "gang_now.policy.expansion": "expansion", "gang_now.policy.new_slice_rule": "new-slice rule",
         "mean_turnaround": "turnaround (s)", "mean_stretch": "stretch", "bytes_moved": "GB moved",
         "work_lost": "work lost (s)", "max_slices": "slices (max)"}


def cell(row, metric):
    if row is None:
        return ""
    scale = 1e-9 if metric == "bytes_moved" else 1
    mean = float(row["mean"]) * scale
    half = row["ci95_half_width"]
    digits = 3 if abs(mean) < 10 else 0
    text = f"{mean:.{digits}f}"
    if half:
        text += f" +- {float(half) * scale:.{digits}f}"
    return text


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    metrics = argv[2:] or DEFAULT
    with open(argv[1] + "/aggregate.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    header = list(rows[0].keys())
    keys = header[1:header.index("metric")]
    points = OrderedDict()
    for r in rows:
        points.setdefault(r["point"], {"values": [r[k] for k in keys], "metrics": {}})["metrics"][r["metric"]] = r
    names = [SHORT.get(k, k.split("/")[-1]) for k in keys] + [SHORT.get(m, m) for m in metrics]
    print("| " + " | ".join(names) + " |")
    print("|" + "---|" * len(names))
    for p in points.values():
        values = [v.split("/")[-1] for v in p["values"]]
        print("| " + " | ".join(values + [cell(p["metrics"].get(m), m) for m in metrics]) + " |")


if __name__ == "__main__":
    main(sys.argv)
