#!/usr/bin/env python3
"""Tables of Cao, Sun, Qian and Wu's Figures 4-8 from the sweeps of scenarios/hierarchical/ (results.csv).

Means with 95% Student-t confidence half-widths over the replications. Ratios are taken per replication (same seed:
the same tree and jobs for every algorithm, common random numbers), then averaged.

usage: scripts/hierarchical_tables.py RESULTS_DIR   (the folder holding figures-4-6/, figure-7/, figure-8/)
"""
import csv
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

# Two-sided 95% Student t quantiles by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
       11: 2.201, 12: 2.179, 14: 2.145, 19: 2.093, 29: 2.045}


def ci(values):
    n = len(values)
    mean = statistics.fmean(values)
    if n < 2:
        return mean, float("nan")
    t = T95.get(n - 1) or T95[max(k for k in T95 if k <= n - 1)]
    return mean, t * statistics.stdev(values) / math.sqrt(n)


def fmt(values, digits=3):
    mean, half = ci(values)
    return f"{mean:.{digits}f} ± {half:.{digits}f}"


def rows(folder):
    with open(Path(folder) / "results.csv") as f:
        return [r for r in csv.DictReader(f) if r["status"] == "ok"]


def figures_4_6(folder):
    data = rows(folder)
    by = defaultdict(list)
    for r in data:
        by[(r["hierarchy.algorithm"], int(r["hierarchy.levels"]), int(r["hierarchy.workload.jobs"]))].append(r)
    jobs = sorted({k[2] for k in by})
    levels = sorted({k[1] for k in by})
    algorithms = ["ac-ds", "ag-ds", "equi-equi"]
    out = []
    for metric, title in [("makespan", "Figure 4: makespan (s)"), ("utilization", "Figure 5: utilization (work / allotted processor time)"),
                          ("machine_utilization", "Utilization of the machine (work / (P x makespan))"),
                          ("makespan_over_lower_bound", "Makespan / lower bound max(r + span of the last job, W / P)"),
                          ("mean_response_time", "Mean response time (s)")]:
        out.append(f"\n#### {title}\n")
        out.append("| algorithm | K | " + " | ".join(f"{n} jobs" for n in jobs) + " |")
        out.append("|---|---|" + "---|" * len(jobs))
        for a in algorithms:
            for k in levels:
                cells = [fmt([float(r[metric]) for r in by[(a, k, n)]]) for n in jobs]
                out.append(f"| {a} | {k} | " + " | ".join(cells) + " |")
    # Figure 6: per replication, X / EQUI-EQUI.
    out.append("\n#### Figure 6: makespan / EQUI-EQUI's makespan (per replication)\n")
    out.append("| algorithm | K | " + " | ".join(f"{n} jobs" for n in jobs) + " | mean over jobs |")
    out.append("|---|---|" + "---|" * (len(jobs) + 1))
    summary = {}
    for a in ["ac-ds", "ag-ds"]:
        for k in levels:
            cells = []
            means = []
            for n in jobs:
                equi = {r["seed"]: float(r["makespan"]) for r in by[("equi-equi", k, n)]}
                ratios = [float(r["makespan"]) / equi[r["seed"]] for r in by[(a, k, n)] if r["seed"] in equi]
                cells.append(fmt(ratios))
                means.append(statistics.fmean(ratios))
            summary[(a, k)] = statistics.fmean(means)
            out.append(f"| {a} | {k} | " + " | ".join(cells) + f" | {summary[(a, k)]:.3f} |")
    out.append("\n#### AG-DS makespan / AC-DS makespan (per replication), mean over job counts\n")
    out.append("| K | " + " | ".join(f"{n} jobs" for n in jobs) + " | mean over jobs |")
    out.append("|---|" + "---|" * (len(jobs) + 1))
    for k in levels:
        cells = []
        means = []
        for n in jobs:
            ac = {r["seed"]: float(r["makespan"]) for r in by[("ac-ds", k, n)]}
            ratios = [float(r["makespan"]) / ac[r["seed"]] for r in by[("ag-ds", k, n)] if r["seed"] in ac]
            cells.append(fmt(ratios))
            means.append(statistics.fmean(ratios))
        out.append(f"| {k} | " + " | ".join(cells) + f" | {statistics.fmean(means):.3f} |")
    return "\n".join(out)


def equi_over_ac(data, key):
    """Per replication EQUI-EQUI / AC-DS makespan, grouped by key(row)."""
    makespan = {}
    for r in data:
        makespan[(r["hierarchy.algorithm"], key(r), r["seed"])] = float(r["makespan"])
    groups = defaultdict(list)
    for (a, k, seed), m in makespan.items():
        if a == "ac-ds" and ("equi-equi", k, seed) in makespan:
            groups[k].append(makespan[("equi-equi", k, seed)] / m)
    return groups


def figure_8(folder):
    data = rows(folder)
    groups = equi_over_ac(data, lambda r: (int(r["hierarchy.quantum_factor"]), float(r["hierarchy.cost_factor"])))
    qfs = sorted({k[0] for k in groups})
    cfs = sorted({k[1] for k in groups})
    out = ["\n#### Figure 8: EQUI-EQUI makespan / AC-DS makespan, K = 5, 300 jobs (per replication)\n",
           "| QF | " + " | ".join(f"CF = {c:g}" for c in cfs) + " |", "|---|" + "---|" * len(cfs)]
    for q in qfs:
        out.append(f"| {q} | " + " | ".join(fmt(groups[(q, c)]) for c in cfs) + " |")
    ac = defaultdict(list)
    for r in data:
        if r["hierarchy.algorithm"] == "ac-ds":
            ac[(int(r["hierarchy.quantum_factor"]), float(r["hierarchy.cost_factor"]))].append(float(r["makespan"]))
    out += ["\n#### AC-DS makespan (s), K = 5, 300 jobs\n",
            "| QF | " + " | ".join(f"CF = {c:g}" for c in cfs) + " |", "|---|" + "---|" * len(cfs)]
    for q in qfs:
        out.append(f"| {q} | " + " | ".join(fmt(ac[(q, c)]) for c in cfs) + " |")
    return "\n".join(out)


def figure_7(folder7, folder8):
    data = rows(folder7) + [r for r in rows(folder8) if float(r["hierarchy.cost_factor"]) in (0.0, 0.1)]
    for r in data:
        r.setdefault("hierarchy.workload.jobs", "300")
    groups = equi_over_ac(data, lambda r: (float(r["hierarchy.cost_factor"]), int(r["hierarchy.quantum_factor"]),
                                           int(r.get("hierarchy.workload.jobs") or 300)))
    out = []
    for cf, panel in [(0.0, "a"), (0.1, "b")]:
        keys = sorted(k for k in groups if k[0] == cf)
        qfs = sorted({k[1] for k in keys})
        jobs = sorted({k[2] for k in keys})
        out += [f"\n#### Figure 7{panel}: EQUI-EQUI makespan / AC-DS makespan, K = 5, CF = {cf:g}\n",
                "| QF | " + " | ".join(f"{n} jobs" for n in jobs) + " | mean over jobs |",
                "|---|" + "---|" * (len(jobs) + 1)]
        for q in qfs:
            cells = [fmt(groups[(cf, q, n)]) for n in jobs]
            mean = statistics.fmean(statistics.fmean(groups[(cf, q, n)]) for n in jobs)
            out.append(f"| {q} | " + " | ".join(cells) + f" | {mean:.3f} |")
    return "\n".join(out)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    base = Path(sys.argv[1])
    if (base / "figures-4-6" / "results.csv").exists():
        print(figures_4_6(base / "figures-4-6"))
    if (base / "figure-8" / "results.csv").exists():
        print(figure_8(base / "figure-8"))
        if (base / "figure-7" / "results.csv").exists():
            print(figure_7(base / "figure-7", base / "figure-8"))


if __name__ == "__main__":
    main()
