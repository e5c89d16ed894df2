#!/usr/bin/env python3
"""The cost-aware rule's contention_weight under the network model (markdown): for each weight and Level, the mean
slowdown's distance from the best fixed Tight of a rules.yaml sweep, and the mean nodes per job.

Usage: contention_table.py RULES_SWEEP_DIR WEIGHTS_SWEEP_DIR"""
import csv
import re
import sys


def main():
    best = {}
    with open(sys.argv[1] + "/results.csv", newline="") as f:
        for row in csv.DictReader(f):
            params = row["policy.allocation_params"]
            if "adaptive" not in params:
                level = int(row["workload.communication.level"])
                best[level] = min(best.get(level, float("inf")), float(row["mean_slowdown"]))
    cells = {}
    with open(sys.argv[2] + "/results.csv", newline="") as f:
        for row in csv.DictReader(f):
            weight = re.search(r"contention_weight: ([\d.]+)", row["policy.allocation_params"]).group(1)
            level = int(row["workload.communication.level"])
            off = 100 * (float(row["mean_slowdown"]) / best[level] - 1)
            cells.setdefault(weight, {})[level] = f"{off:+.1f}% ({float(row['mean_nodes_used']):.2f})"
    levels = sorted({lv for c in cells.values() for lv in c})
    print("| contention_weight | " + " | ".join(f"L{lv}" for lv in levels) + " |")
    print("|---" * (len(levels) + 1) + "|")
    for weight in sorted(cells, key=float):
        print(f"| {weight} | " + " | ".join(cells[weight][lv] for lv in levels) + " |")


if __name__ == "__main__":
    main()
