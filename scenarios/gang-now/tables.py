#!/usr/bin/env python3
"""Markdown table of a gang-now sweep (docs/reproduction/gang-now.md): one row per point of the grid, its swept
values, then the mean over the replications of each metric, with the 95% half-width of the mean ("m +- h").

Usage: tables.py SWEEP_DIR [METRIC...]   (default metrics: mean_turnaround_time mean_slowdown fairness migrations
                                          bytes_moved work_lost)"""
import csv
import sys
from collections import OrderedDict

DEFAULT = ["mean_turnaround_time", "mean_slowdown", "fairness", "migrations", "bytes_moved", "work_lost"]
SHORT = {"owners.activity": "activity", "policy.params.eviction": "eviction",
         "workload.generator.image_mb": "image MB", "policy.params.mtat": "MTAT",
         "policy.params.compression": "compression", "policy.params.pool_target": "pool target",
         "policy.params.expansion": "expansion", "policy.params.new_slice_rule": "new-slice rule",
         "mean_turnaround_time": "turnaround (s)", "mean_slowdown": "slowdown", "bytes_moved": "GB moved",
         "work_lost": "work lost (s)"}


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
