#!/usr/bin/env python3
"""The placement rules on shaken copies of the log (markdown): for each variant, the rules' mean slowdown averaged
over the replications (each one the KTH SP2 log with its submissions shaken by `workload.shake`, the same copy for
every rule: common random numbers), the best fixed Tight by that mean, and how far the paper's rule and the
cost-aware rule are from it, with the 95% confidence half-width of the paired distance (per replication, rule over
best fixed Tight, minus 1; Student's t on the replications). A target is missed when the mean distance is above 5%,
or, where the paper's rule is more than 5% off, when the cost-aware mean is not below the paper's.

Usage: shaken_table.py [--tables] NAME SWEEP_DIR[,SWEEP_DIR...] [NAME SWEEP_DIR[,SWEEP_DIR...] ...]
(each variant's folders are merged; --tables also prints each variant's means by rule and Level)"""
import csv
import math
import re
import statistics
import sys

# Student's t quantile 0.975 by degrees of freedom (1-30); above 30 the normal quantile is within 4%.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def rule_of(params):
    if "cost-aware" in params:  # "cost-aware" and its parameters but the placement
        extra = [kv for kv in params.strip("{}").split(", ") if not kv.startswith(("adaptive:", "placement:"))]
        return ", ".join(["cost-aware"] + extra)
    if "adaptive: true" in params:
        return "paper"
    return "Tight " + re.search(r"tight: (\d+)", params).group(1)


def read(folders):
    """(rule, level) -> {seed: mean_slowdown}"""
    value = {}
    for folder in folders:
        with open(folder + "/results.csv", newline="") as f:
            for row in csv.DictReader(f):
                if row["status"] != "ok":
                    sys.exit(f"{folder}: run {row['run']} did not finish ({row['status']})")
                key = (rule_of(row["policy.allocation_params"]), int(row["workload.communication.level"]))
                value.setdefault(key, {})[row["seed"]] = float(row["mean_slowdown"])
    return value


def paired(a, b):
    """Mean of a_r / b_r - 1 over the common replications, in %, and its 95% half-width."""
    d = [a[s] / b[s] - 1 for s in a if s in b]
    half = T975[min(len(d), 31) - 2] * statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
    return 100 * statistics.mean(d), 100 * half


def main():
    args = [a for a in sys.argv[1:] if a != "--tables"]
    tables = "--tables" in sys.argv[1:]
    if not args or len(args) % 2:
        sys.exit(__doc__)
    fmt = lambda v: f"{v:,.1f}" if v < 1000 else f"{v:,.0f}"
    summary = []
    for i in range(0, len(args), 2):
        name, folders = args[i], args[i + 1].split(",")
        value = read(folders)
        levels = sorted({lv for _, lv in value})
        rules = sorted({r for r, _ in value}, key=lambda r: (not r.startswith("Tight"), r))
        fixed = [r for r in rules if r.startswith("Tight")]
        mean = {k: statistics.mean(v.values()) for k, v in value.items()}
        reps = min(len(v) for v in value.values())
        best = {lv: min(fixed, key=lambda r: mean[(r, lv)]) for lv in levels}
        if tables:
            print(f"#### {name} ({reps} shaken replications, mean slowdown)\n")
            print("| rule | " + " | ".join(f"L{lv}" for lv in levels) + " |")
            print("|---" * (len(levels) + 1) + "|")
            for r in rules:
                print(f"| {r} | " + " | ".join(fmt(mean[(r, lv)]) if (r, lv) in mean else "" for lv in levels) + " |")
            print("| best fixed | " + " | ".join(f"{fmt(mean[(best[lv], lv)])} ({best[lv].replace('Tight ', 'T')})"
                                                for lv in levels) + " |")
            print()
        for r in [r for r in rules if not r.startswith("Tight")]:
            cells, misses = [], 0
            for lv in levels:
                if (r, lv) not in value:
                    cells.append("")
                    continue
                off, half = paired(value[(r, lv)], value[(best[lv], lv)])
                paper_off = 100 * (mean[("paper", lv)] / mean[(best[lv], lv)] - 1)
                miss = r != "paper" and (off > 5 or (paper_off > 5 and mean[(r, lv)] >= mean[("paper", lv)]))
                misses += miss
                cells.append(f"{off:+.1f} ± {half:.1f}%" + ("*" if miss else ""))
            summary.append(f"| {name} | {r} | " + " | ".join(cells) + " | " + ("" if r == "paper" else str(misses))
                           + " |")
    print("| variant | rule | " + " | ".join(f"L{lv}" for lv in levels) + " | misses |")
    print("|---" * (len(levels) + 3) + "|")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
