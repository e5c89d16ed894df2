#!/usr/bin/env python3
"""The cost-aware rule's wait_tolerance (markdown): for each variant (a rules.yaml sweep and its wait_tolerance sweep),
each tolerance (0 is the rules sweep's cost-aware row) and Level, the mean slowdown's distance from the best fixed
Tight; * marks a missed target (more than 5% above the best, or not better than the paper's rule where that is more
than 5% off), and the last column counts them.

Usage: tolerance_table.py NAME RULES_SWEEP_DIR TOLERANCE_SWEEP_DIR [NAME RULES_SWEEP_DIR TOLERANCE_SWEEP_DIR ...]"""
import csv
import re
import sys


def rows(folder):
    with open(folder + "/results.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["status"] != "ok":
                sys.exit(f"{folder}: run {row['run']} did not finish ({row['status']})")
            yield row["policy.allocation_params"], int(row["workload.communication.level"]), float(row["mean_slowdown"])


def main():
    args = sys.argv[1:]
    if not args or len(args) % 3:
        sys.exit(__doc__)
    print("| variant | wait_tolerance | L0 | L1 | L2 | L3 | L4 | L5 | misses |")
    print("|---" * 9 + "|")
    for i in range(0, len(args), 3):
        name, rules, tolerances = args[i : i + 3]
        best, paper, by_tolerance = {}, {}, {}
        for params, level, value in rows(rules):
            if "adaptive: true" in params:
                paper[level] = value
            elif "cost-aware" in params:
                if "waits: head" not in params:
                    by_tolerance.setdefault("0", {})[level] = value
            else:
                best[level] = min(best.get(level, float("inf")), value)
        for params, level, value in rows(tolerances):
            tolerance = re.search(r"wait_tolerance: ([\d.]+)", params).group(1)
            by_tolerance.setdefault(tolerance, {})[level] = value
        for tolerance in sorted(by_tolerance, key=float):
            cells, misses = [], 0
            for level in sorted(best):
                value = by_tolerance[tolerance][level]
                off = 100 * (value / best[level] - 1)
                miss = off > 5 or (100 * (paper[level] / best[level] - 1) > 5 and value >= paper[level])
                misses += miss
                cells.append(f"{off:+.1f}%" + ("*" if miss else ""))
            print(f"| {name} | {tolerance} | " + " | ".join(cells) + f" | {misses} |")


if __name__ == "__main__":
    main()
