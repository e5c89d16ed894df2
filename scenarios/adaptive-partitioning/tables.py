#!/usr/bin/env python3
"""Markdown tables of a sweep of Setia's Figures 2 to 9: mean response time per utilization (rows) and series
(columns), from the sweep's aggregate.csv.

Usage: tables.py SWEEP_DIR [--label VALUE=TEXT]...

A cell is "mean +- 95% half-width (runs)"; a point most of whose runs were saturated (summary.json's `saturated`)
reads "saturated (k/n)"; one where some were says how many ("; k saturated"): the mean then includes runs stopped on
their backlog, whose finished jobs are the early ones."""
import csv
import sys
from collections import OrderedDict


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    sweep = argv[1]
    labels = {}
    args = argv[2:]
    while args:
        if args[0] != "--label" or len(args) < 2 or "=" not in args[1]:
            sys.exit("expected --label VALUE=TEXT, got " + " ".join(args))
        value, text = args[1].split("=", 1)
        labels[value] = text
        args = args[2:]
    with open(sweep + "/aggregate.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    header = list(rows[0].keys())
    columns = header[1:header.index("metric")]
    # A key swept over mappings (policy) is followed by one column per leaf (policy.name, ...): the key stands for them.
    keys = [k for k in columns if not any(k.startswith(c + ".") for c in columns if c != k)]
    x = "workload.load_factor"
    series_keys = [k for k in keys if k != x]
    cells = OrderedDict()  # series -> x -> {metric: row}
    for r in rows:
        series = ", ".join(r[k] for k in series_keys)
        cells.setdefault(series, OrderedDict()).setdefault(r[x], {})[r["metric"]] = r
    xs = sorted({r[x] for r in rows}, key=float)
    names = [labels.get(s, s) for s in cells]
    print("| rho | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for load in xs:
        out = []
        for series, points in cells.items():
            point = points.get(load, {})
            mean = point.get("mean_turnaround_time")
            saturated = point.get("saturated")
            n = int(mean["n"]) if mean else 0
            k = round(float(saturated["mean"]) * n) if saturated and saturated["mean"] else 0
            if not mean or not mean["mean"]:
                out.append("-")
            elif k * 2 >= n and k > 0:
                out.append(f"saturated ({k}/{n})")
            else:
                half = mean["ci95_half_width"]
                cell = f"{float(mean['mean']):.1f}"
                cell += f" +- {float(half):.1f}" if half else ""
                cell += f" ({n}" + (f"; {k} saturated" if k else "") + ")"
                out.append(cell)
        print(f"| {load} | " + " | ".join(out) + " |")


if __name__ == "__main__":
    main(sys.argv)
