#!/usr/bin/env python3
"""Paired comparisons of a mesh sweep (mesh-ap.yaml, mesh-apmc.yaml, mesh-apvm.yaml): for each utilization, the
mean over the replications of the ratio of two series' mean response times on the same workload (same seed), with
how many replications each series saturated in. Ratios: each submesh allocator against count-only (without images,
then with), and images against no images (count-only, then submesh best fit).

Usage: mesh_pairs.py SWEEP_DIR"""
import csv
import sys
from collections import defaultdict

ALLOC = "policy.allocation"
STORE = "simulation.images.store"
LOAD = "workload.load_factor"


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    runs = defaultdict(dict)  # (allocation, store, load) -> seed -> (mean response, saturated)
    with open(argv[1] + "/results.csv", newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] != "ok" or not r["mean_turnaround_time"]:
                continue
            runs[(r[ALLOC], r[STORE], r[LOAD])][r["seed"]] = (float(r["mean_turnaround_time"]),
                                                              float(r["saturated"] or 0) > 0)
    loads = sorted({k[2] for k in runs}, key=float)
    pairs = [("submesh-first-fit", "none", "first-fit", "none", "submesh FF / count-only"),
             ("submesh-best-fit", "none", "first-fit", "none", "submesh BF / count-only"),
             ("submesh-first-fit", "host", "first-fit", "host", "submesh FF / count-only, images"),
             ("submesh-best-fit", "host", "first-fit", "host", "submesh BF / count-only, images"),
             ("first-fit", "host", "first-fit", "none", "images / none, count-only"),
             ("submesh-best-fit", "host", "submesh-best-fit", "none", "images / none, submesh BF")]
    print("| ratio of mean response times (paired) | " + " | ".join("rho = " + x for x in loads) + " |")
    print("|---|" + "---|" * len(loads))
    for a, sa, b, sb, name in pairs:
        cells = []
        for load in loads:
            top, bottom = runs.get((a, sa, load), {}), runs.get((b, sb, load), {})
            seeds = sorted(set(top) & set(bottom), key=int)
            saturated = sum(1 for s in seeds if top[s][1] or bottom[s][1])
            ratios = [top[s][0] / bottom[s][0] for s in seeds if not top[s][1] and not bottom[s][1]]
            if not ratios:
                cells.append("saturated (%d/%d)" % (saturated, len(seeds)))
                continue
            low, high = min(ratios), max(ratios)
            text = "%.2f (%.2f-%.2f)" % (sum(ratios) / len(ratios), low, high)
            if saturated:
                text += "; %d saturated" % saturated
            cells.append(text)
        print("| " + name + " | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv)
