#!/usr/bin/env python3
"""Readings of the SMP-cluster paper's FCFS (Table 1): strict FCFS and first-fit list scheduling, each with the plain
and the bounded slowdown (tau = 10 s), next to the paper's FCFS column (markdown).

Usage: fcfs_table.py SWEEP_DIR   (a sweep over policy.name, policy.allocation_params.tight, workload.communication.level)"""
import csv
import sys

PAPER = {(0, 0): 268, (2, 0): 186, (4, 0): 179, (6, 0): 178, (0, 2): 442, (2, 2): 363, (4, 2): 385, (6, 2): 393,
         (0, 4): 793, (2, 4): 963, (4, 4): 1180, (6, 4): 1255}


def main():
    value = {}
    with open(sys.argv[1] + "/results.csv", newline="") as f:
        for row in csv.DictReader(f):
            key = (row["policy.name"], int(row["policy.allocation_params.tight"]),
                   int(row["workload.communication.level"]))
            value[key] = (float(row["mean_slowdown"]), float(row["mean_bounded_slowdown"]))
    levels = sorted({k[2] for k in value})
    tights = sorted({k[1] for k in value})
    fmt = lambda v: f"{v:,.0f}"
    head = "| Tight | "
    for lv in levels:
        head += (f"L{lv} paper | L{lv} FCFS | L{lv} FCFS bounded | L{lv} first-fit list | "
                 f"L{lv} first-fit list bounded | ")
    print(head.rstrip())
    print("|---" * (1 + 5 * len(levels)) + "|")
    for t in tights:
        cells = [str(t)]
        for lv in levels:
            cells.append(str(PAPER.get((t, lv), "")))
            for policy in ["fcfs", "first-fit-list"]:
                plain, bounded = value[(policy, t, lv)]
                cells += [fmt(plain), fmt(bounded)]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
