#!/usr/bin/env python3
"""The table of one rules.yaml sweep (markdown): mean slowdown by rule and Level, the best fixed Tight, how far the
paper's adaptive rule and the cost-aware rule (and its `waits: head` variant, when swept) are from it, and whether the cost-aware targets hold (within 5% of the
best fixed Tight; better than the paper's rule wherever that is more than 5% off).

Usage: rules_table.py SWEEP_DIR [METRIC] [--paper]   (METRIC: a column of results.csv, default mean_slowdown;
--paper: each cell as "paper / ours", with the paper's Table 2, for the 10 x 10 sweeps)"""
import csv
import sys

from shaken_table import rule_of  # "Tight 3", "paper", "cost-aware, waits: head"

# The paper's Table 2: EASY average slowdown by Tight (0..6, then its adaptive row) and Level (0..5).
PAPER = {
    "Tight 0": [150.0, 174.2, 218.8, 263.1, 346.0, 466.1],
    "Tight 1": [87.3, 103.5, 131.7, 168.4, 222.9, 354.1],
    "Tight 2": [67.7, 88.2, 119.1, 150.8, 253.4, 486.9],
    "Tight 3": [64.0, 83.8, 117.6, 159.4, 346.1, 701.8],
    "Tight 4": [63.8, 82.5, 121.3, 167.4, 430.3, 1221.1],
    "Tight 5": [61.7, 83.4, 119.3, 179.4, 584.8, 2263.5],
    "Tight 6": [61.6, 84.6, 119.5, 171.1, 562.6, 2692.8],
    "paper": [61.6, 83.4, 121.3, 159.4, 253.4, 354.1],
}

def main():
    args = [a for a in sys.argv[1:] if a != "--paper"]
    with_paper = "--paper" in sys.argv[1:]
    folder = args[0]
    metric = args[1] if len(args) > 1 else "mean_slowdown"
    value = {}
    with open(folder + "/results.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["status"] != "ok":
                sys.exit(f"{folder}: run {row['run']} did not finish ({row['status']})")
            level = int(row["workload.communication.level"])
            value[(rule_of(row["policy.allocation_params"]), level)] = float(row[metric])
    levels = sorted({lv for _, lv in value})
    fixed = sorted({r for r, _ in value if r.startswith("Tight")}, key=lambda r: int(r.split()[1]))
    fmt = lambda v: f"{v:,.1f}" if v < 1000 else f"{v:,.0f}"
    cell = lambda r, lv: (f"{PAPER[r][lv]:,.1f} / " if with_paper and r in PAPER else "") + fmt(value[(r, lv)])
    print("| rule | " + " | ".join(f"L{lv}" for lv in levels) + " |")
    print("|---" * (len(levels) + 1) + "|")
    adaptive = [r for r in ["paper", "cost-aware", "cost-aware, waits: head"] if (r, levels[0]) in value]
    for r in fixed + adaptive:
        print(f"| {r} | " + " | ".join(cell(r, lv) for lv in levels) + " |")
    best = {lv: min(fixed, key=lambda r: value[(r, lv)]) for lv in levels}
    print("| best fixed | " + " | ".join(f"{fmt(value[(best[lv], lv)])} (T{best[lv].split()[1]})" for lv in levels)
          + " |")
    off = lambda r, lv: 100 * (value[(r, lv)] / value[(best[lv], lv)] - 1)
    for r in adaptive:
        print(f"| {r} vs best | " + " | ".join(f"{off(r, lv):+.1f}%" for lv in levels) + " |")
    misses = []
    for lv in levels:
        if off("cost-aware", lv) > 5:
            misses.append(f"L{lv}: cost-aware {off('cost-aware', lv):+.1f}% from the best")
        if off("paper", lv) > 5 and value[("cost-aware", lv)] >= value[("paper", lv)]:
            misses.append(f"L{lv}: cost-aware not better than the paper's rule ({off('paper', lv):+.1f}% off)")
    print()
    print("Targets: " + ("met at every Level." if not misses else "missed at " + "; ".join(misses) + "."))


if __name__ == "__main__":
    main()
