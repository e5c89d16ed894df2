#!/usr/bin/env python3
"""Tables of Cao, Sun, Qian and Wu's Figures 4-8 from the sweeps of scenarios/hierarchical/ (results.csv).

Means with 95% Student-t confidence half-widths over the replications. Ratios are taken per replication (same seed:
the same tree and jobs for every algorithm, common random numbers), then averaged.

usage: scripts/hierarchical_tables.py RESULTS_DIR [JOBS]   (RESULTS_DIR holds figures-4-6/, figure-7/, figure-8/,
       wide-area/; JOBS, e.g. 20,100,200: the job counts shown as columns of Figures 4 to 6, whose "mean over jobs"
       still covers every job count run)
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


# The sweeps of the policies (policy.name: ac-ds...) name their axes and metrics differently from the former hierarchy:
# section's (the old simulator, whose sweeps the tables were first made from): rows are read under the old names.
RENAMED = {"policy.name": "hierarchy.algorithm", "policy.params.levels": "hierarchy.levels",
           "workload.generator.jobs": "hierarchy.workload.jobs",
           "policy.params.quantum_factor": "hierarchy.quantum_factor",
           "policy.params.cost_factor": "hierarchy.cost_factor",
           "policy.params.messages": "hierarchy.messages",
           "allotted_utilization": "utilization", "mean_turnaround_time": "mean_response_time",
           "work_utilization": "machine_utilization"}  # (the policies' own machine_utilization until every family had it)


def rows(folder):
    with open(Path(folder) / "results.csv") as f:
        out = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    for r in out:
        if "policy.name" in r or "allotted_utilization" in r:
            for new, old in RENAMED.items():
                if new in r:
                    r[old] = r[new]
    return out


SHOWN = None  # job counts shown as columns (None: all)


def shown(jobs, cells):
    return [c for n, c in zip(jobs, cells) if SHOWN is None or n in SHOWN]


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
        out.append("| algorithm | K | " + " | ".join(shown(jobs, [f"{n} jobs" for n in jobs])) + " |")
        out.append("|---|---|" + "---|" * len(shown(jobs, jobs)))
        for a in algorithms:
            for k in levels:
                cells = [fmt([float(r[metric]) for r in by[(a, k, n)]]) for n in jobs]
                out.append(f"| {a} | {k} | " + " | ".join(shown(jobs, cells)) + " |")
    # Figure 6: per replication, X / EQUI-EQUI.
    out.append("\n#### Figure 6: makespan / EQUI-EQUI's makespan (per replication)\n")
    out.append("| algorithm | K | " + " | ".join(shown(jobs, [f"{n} jobs" for n in jobs])) + " | mean over jobs |")
    out.append("|---|---|" + "---|" * (len(shown(jobs, jobs)) + 1))
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
            out.append(f"| {a} | {k} | " + " | ".join(shown(jobs, cells)) + f" | {summary[(a, k)]:.3f} |")
    out.append("\n#### AG-DS makespan / AC-DS makespan (per replication), mean over job counts\n")
    out.append("| K | " + " | ".join(shown(jobs, [f"{n} jobs" for n in jobs])) + " | mean over jobs |")
    out.append("|---|" + "---|" * (len(shown(jobs, jobs)) + 1))
    for k in levels:
        cells = []
        means = []
        for n in jobs:
            ac = {r["seed"]: float(r["makespan"]) for r in by[("ac-ds", k, n)]}
            ratios = [float(r["makespan"]) / ac[r["seed"]] for r in by[("ag-ds", k, n)] if r["seed"] in ac]
            cells.append(fmt(ratios))
            means.append(statistics.fmean(ratios))
        out.append(f"| {k} | " + " | ".join(shown(jobs, cells)) + f" | {statistics.fmean(means):.3f} |")
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


def wide_area(folder):
    """Messages over the platform against free messages, per one-way latency between sites, algorithm and job count."""
    data = rows(folder)
    by = defaultdict(dict)  # (platform, algorithm, jobs) -> seed -> {messages: row}
    for r in data:
        key = (r["platform"], r["hierarchy.algorithm"], int(r["hierarchy.workload.jobs"]))
        by[key].setdefault(r["seed"], {})[r["hierarchy.messages"]] = r
    latency = {"grid-of-clusters-0.25ms": "0.5 ms", "grid-of-clusters": "5 ms", "grid-of-clusters-10ms": "20 ms"}
    platforms = sorted({k[0] for k in by}, key=lambda p: float(latency[Path(p).stem].split()[0]))
    jobs = sorted({k[2] for k in by})
    out = []
    for metric, title in [("makespan", "makespan over the platform / with free messages"),
                          ("mean_response_time", "mean response time over the platform / with free messages"),
                          ("utilization", "utilization (work / allotted processor time) over the platform / free")]:
        out.append(f"\n#### Wide area: {title} (per replication)\n")
        out.append("| one-way latency | algorithm | " + " | ".join(f"{n} jobs" for n in jobs) + " |")
        out.append("|---|---|" + "---|" * len(jobs))
        for p in platforms:
            for a in ["ac-ds", "ag-ds", "equi-equi"]:
                cells = []
                for n in jobs:
                    pairs = by[(p, a, n)].values()
                    cells.append(fmt([float(x["platform"][metric]) / float(x["free"][metric]) for x in pairs
                                      if "platform" in x and "free" in x]))
                out.append(f"| {latency[Path(p).stem]} | {a} | " + " | ".join(cells) + " |")
    out.append("\n#### Wide area: allotment delay (s), from the root round to the arrival at a cluster scheduler\n")
    out.append("| one-way latency | mean | max |")
    out.append("|---|---|---|")
    for p in platforms:
        runs = [x["platform"] for (q, a, n), seeds in by.items() if q == p for x in seeds.values() if "platform" in x]
        out.append(f"| {latency[Path(p).stem]} | {statistics.fmean(float(r['allotment_delay_mean']) for r in runs):.4f}"
                   f" | {max(float(r['allotment_delay_max']) for r in runs):.4f} |")
    return "\n".join(out)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    global SHOWN
    if len(sys.argv) == 3:
        SHOWN = {int(n) for n in sys.argv[2].split(",")}
    base = Path(sys.argv[1])
    if (base / "figures-4-6" / "results.csv").exists():
        print(figures_4_6(base / "figures-4-6"))
    if (base / "figure-8" / "results.csv").exists():
        print(figure_8(base / "figure-8"))
        if (base / "figure-7" / "results.csv").exists():
            print(figure_7(base / "figure-7", base / "figure-8"))
    if (base / "wide-area" / "results.csv").exists():
        print(wide_area(base / "wide-area"))


if __name__ == "__main__":
    main()
