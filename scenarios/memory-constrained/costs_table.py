#!/usr/bin/env python3
"""Table of the reallocation-cost experiment (response-costs.yaml), beyond McCann & Zahorjan 1994.

    python3 scenarios/memory-constrained/costs_table.py results/mc-costs

Reads OUT/plan.csv and every run's summary.json (so it also works on a sweep still running: missing runs are skipped)
and writes OUT/costs.md: per J and image store, each policy's mean response time relative to OPT-EPOCH(1) on the same
seed and store (mean of the per-seed ratios, Student-t 90% interval), its rank, the absolute response time, and what
the images cost: suspensions (preemptions) and GB moved per 10 s quantum of simulated time, MB per suspension, and the
effective bandwidth of the image transfers (bytes moved / seconds spent moving them, over the 20 MB/s of one disk:
the mean number of disks a transfer runs on in parallel, i.e. the width of the job's piece), and the utilization
(busy node-seconds over N x makespan). Standard library only."""
import csv
import json
import math
import os
import sys
from collections import defaultdict

T95 = [6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833, 1.812]
POLICIES = [("buddy", "BUDDY"), ("buddy-star", "BUDDY*"), ("hybrid", "HYBRID(1)"), ("equi-epoch", "EQUI-EPOCH"),
            ("opt-epoch", "OPT-EPOCH(1)"), ("heuristic-epoch", "HEURISTIC-EPOCH(1)")]
QUANTUM = 10.0
DISK_BW = 20e6


def estimate(values):
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, T95[min(n - 1, len(T95)) - 1] * std / math.sqrt(n)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "results/mc-costs"
    runs = []
    with open(os.path.join(out, "plan.csv"), newline="") as f:
        for row in csv.DictReader(f):
            path = os.path.join(out, "runs", row["hash"], "summary.json")
            if not os.path.exists(path):
                continue
            with open(path) as s:
                summary = json.load(s)
            runs.append({**summary, "jobs": int(row["workload.closed.jobs"]), "store": row["simulation.images.store"],
                         "policy": row["policy.params.policy"], "seed": int(row["seed"])})
    ref = {(r["jobs"], r["store"], r["seed"]): r["mean_turnaround_time"] for r in runs if r["policy"] == "opt-epoch"}
    groups = defaultdict(list)
    for r in runs:
        if (r["jobs"], r["store"], r["seed"]) in ref:
            groups[(r["jobs"], r["store"], r["policy"])].append(r)
    lines = ["| J | images | policy | response / OPT-EPOCH(1) (90% CI) | rank | response (s) | suspensions per quantum |"
             " GB moved per quantum | MB per suspension | disks in parallel | utilization | runs |", "|---" * 12 + "|"]
    for jobs in sorted({r["jobs"] for r in runs}):
        for store in ("none", "local-disk"):
            cells = []
            for policy, label in POLICIES:
                rs = groups.get((jobs, store, policy))
                if not rs:
                    continue
                ratio = estimate([r["mean_turnaround_time"] / ref[(jobs, store, r["seed"])] for r in rs])
                quanta = sum(r["makespan"] for r in rs) / QUANTUM
                preempt = sum(r["preemptions"] for r in rs)
                moved = sum(r["bytes_moved"] for r in rs)
                ttime = sum(r["transfer_time"] for r in rs)
                cells.append((label, ratio, sum(r["mean_turnaround_time"] for r in rs) / len(rs), preempt / quanta,
                              moved / quanta / 1e9, moved / preempt / 1e6 if preempt else 0,
                              moved / ttime / DISK_BW if ttime else float("nan"), len(rs),
                              sum(r["utilization"] for r in rs) / len(rs)))
            # equal means (to the printed 3 decimals) share a rank: BUDDY, BUDDY* and HYBRID(1) often coincide
            rank = {i: 1 + sum(round(d[1][0], 3) < round(c[1][0], 3) for d in cells) for i, c in enumerate(cells)}
            for i, c in enumerate(cells):
                disks = "-" if math.isnan(c[6]) else f"{c[6]:.1f}"
                lines.append(f"| {jobs} | {store} | {c[0]} | {c[1][0]:.3f} ± {c[1][1]:.3f} | {rank[i]} | {c[2]:.0f} |"
                             f" {c[3]:.2f} | {c[4]:.2f} | {c[5]:.0f} | {disks} | {c[8]:.3f} | {c[7]} |")
    with open(os.path.join(out, "costs.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
