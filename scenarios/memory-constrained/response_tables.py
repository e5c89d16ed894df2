#!/usr/bin/env python3
"""Tables and figures of McCann & Zahorjan 1994, section 5.2 (Figures 13-18), from the sweeps of run-response.sh.

    python3 scenarios/memory-constrained/response_tables.py results/mc-response

Reads OUT/<sweep>/results.csv (metric: mean_turnaround_time, the mean response time of the jobs submitted after the
warm-up) and writes, per figure panel, figureF-PANEL.csv, .md and .png (gnuplot), and all tables in OUT/response.md.

Response time relative to OPT-EPOCH(1), as the paper plots it: for every replication (seed), the policy's mean response
time over OPT-EPOCH(1)'s in the same workload (same seed: the same jobs, demands, betas and M_j, common random
numbers); then the mean of these ratios over the replications, with a Student-t 90% confidence interval (the paper's
level). Only the standard library (and gnuplot for the PNGs)."""
import csv
import math
import os
import re
import subprocess
import sys
from collections import defaultdict

# Student t quantile 0.95 (two-sided 90%) for 1..30 degrees of freedom.
T95 = [6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833, 1.812, 1.796, 1.782, 1.771, 1.761, 1.753,
       1.746, 1.740, 1.734, 1.729, 1.725, 1.721, 1.717, 1.714, 1.711, 1.708, 1.706, 1.703, 1.701, 1.699, 1.697]

SERIES = [("buddy", "BUDDY"), ("hybrid", "HYBRID(k)"), ("equi-epoch", "EQUI-EPOCH"), ("opt-epoch", "OPT-EPOCH(k)"),
          ("heuristic-epoch", "HEURISTIC-EPOCH(k)")]
MODELS = {"beta-static": "static", "beta": "dynamic"}
METRIC = "mean_turnaround_time"


def read_runs(path, load=None):
    """One dict per successful run: model, load, jobs, nodes, policy, k, seed, response."""
    runs = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["status"] != "ok":
                sys.exit(f"{path}: run {row['run']} is {row['status']}: rerun the sweep")
            r = {"model": row["workload.jobs.speedup.model"], "seed": int(row["seed"]),
                 "response": float(row[METRIC]), "nodes": int(row["processors"]), "k": 1,
                 "load": int(row.get("workload.generator.min_nodes.load_percent") or load),
                 "jobs": int(row.get("workload.closed.jobs") or 8)}
            if "policy.params" in row:
                params = row["policy.params"]
                r["policy"] = re.search(r"policy: ([a-z-]+)", params).group(1)
                k = re.search(r"k: (\d+)", params)
                r["k"] = int(k.group(1)) if k else None
            else:
                r["policy"] = row["policy.params.policy"]
            if r["policy"] in ("buddy", "equi-epoch"):
                r["k"] = None  # no inequity parameter
            runs.append(r)
    return runs


def ratios(runs, reference):
    """(model, load, jobs, nodes, policy, k) -> list of per-seed ratios to OPT-EPOCH(1)."""
    out = defaultdict(list)
    for r in runs:
        base = reference.get((r["model"], r["load"], r["jobs"], r["nodes"], r["seed"]))
        if base is None:
            sys.exit(f"no OPT-EPOCH(1) run for {r}")
        out[(r["model"], r["load"], r["jobs"], r["nodes"], r["policy"], r["k"])].append(r["response"] / base)
    return out


def estimate(values):
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan"), n
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, T95[min(n - 1, len(T95)) - 1] * std / math.sqrt(n), n


def write_panel(out_dir, stem, title, x_name, xs, series, cell, absolute):
    """series: [(label, key function of x -> ratio key)]; cell(key) -> (mean, half-width, n) or None."""
    rows = []
    for x in xs:
        row = [x]
        for _, key in series:
            est = cell(key(x))
            row.append(est)
        row.append(absolute(x))
        rows.append(row)
    with open(os.path.join(out_dir, stem + ".csv"), "w", newline="") as f:
        w = csv.writer(f)
        header = [x_name]
        for label, _ in series:
            header += [label + " mean", label + " ci90"]
        w.writerow(header + ["OPT-EPOCH(1) mean response (s)", "replications"])
        for row in rows:
            line = [row[0]]
            reps = ""
            for est in row[1:-1]:
                line += ["", ""] if est is None else [f"{est[0]:.4f}", f"{est[1]:.4f}"]
                if est is not None:
                    reps = est[2]
            w.writerow(line + [f"{row[-1]:.1f}" if row[-1] else "", reps])
    md = [f"### {title}", "", "| " + x_name + " | " + " | ".join(l for l, _ in series) +
          " | OPT-EPOCH(1) response (s) |", "|---" * (len(series) + 2) + "|"]
    for row in rows:
        cells = ["" if est is None else f"{est[0]:.3f} ± {est[1]:.3f}" for est in row[1:-1]]
        md.append(f"| {row[0]} | " + " | ".join(cells) + f" | {row[-1]:.0f} |")
    md.append("")
    with open(os.path.join(out_dir, stem + ".md"), "w") as f:
        f.write("\n".join(md))
    # The figure: one line per series with its 90% interval; gnuplot reads the CSV.
    plot = [f"set terminal pngcairo size 800,520 font ',10'", f"set output '{stem}.png'", "set datafile separator ','",
            f"set title \"{title}\"", f"set xlabel '{x_name}'", "set ylabel 'response time / OPT-EPOCH(1)'",
            "set key outside right", "set grid", "set bars small"]
    parts = []
    for i, (label, _) in enumerate(series):
        col = 2 + 2 * i
        parts.append(f"'{stem}.csv' skip 1 using 1:{col}:{col + 1} with yerrorlines title '{label}'")
    plot.append("plot " + ", ".join(parts))
    script = os.path.join(out_dir, stem + ".gp")
    with open(script, "w") as f:
        f.write("\n".join(plot) + "\n")
    subprocess.run(["gnuplot", stem + ".gp"], cwd=out_dir, check=True)
    return "\n".join(md)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "results/mc-response"
    runs = read_runs(os.path.join(out_dir, "vs-jobs", "results.csv"))
    runs += read_runs(os.path.join(out_dir, "vs-nodes", "results.csv"))
    runs += read_runs(os.path.join(out_dir, "vs-nodes-buddy", "results.csv"))
    runs += read_runs(os.path.join(out_dir, "vs-k-load100", "results.csv"), load=100)
    runs += read_runs(os.path.join(out_dir, "vs-k-load200", "results.csv"), load=200)
    reference = {}
    opt_means = defaultdict(list)
    for r in runs:
        if r["policy"] == "opt-epoch" and r["k"] == 1:
            key = (r["model"], r["load"], r["jobs"], r["nodes"], r["seed"])
            if key in reference and abs(reference[key] - r["response"]) > 1e-9 * r["response"]:
                sys.exit(f"two OPT-EPOCH(1) runs of one workload disagree: {key}")
            if key not in reference:
                opt_means[key[:4]].append(r["response"])
            reference[key] = r["response"]
    table = ratios(runs, reference)
    cells = {key: estimate(values) for key, values in table.items()}

    def absolute(model, load, jobs, nodes):
        values = opt_means.get((model, load, jobs, nodes))
        return sum(values) / len(values) if values else None

    sections = []
    xs_jobs = sorted({r["jobs"] for r in runs if r["nodes"] == 128 and r["k"] == 1 and r["policy"] == "opt-epoch"})
    xs_nodes = sorted({r["nodes"] for r in runs})
    for model, kind in MODELS.items():
        fig = {"static": (13, 14, 15), "dynamic": (16, 17, 18)}[kind]
        for load in (100, 200):
            series = [(label, (lambda p: lambda j: (model, load, j, 128, p, None if p in ("buddy", "equi-epoch")
                                                     else 1))(p)) for p, label in SERIES]
            series = [(label.replace("(k)", "(1)"), key) for label, key in series]
            xs = [j for j in xs_jobs if (model, load, j, 128, "opt-epoch", 1) in cells]
            sections.append(write_panel(
                out_dir, f"figure{fig[0]}-load{load}",
                f"Figure {fig[0]}: {kind} workloads, response time / OPT-EPOCH(1) vs J (N = 128, k = 1, load {load}%)",
                "J", xs, series, cells.get, lambda j: absolute(model, load, j, 128)))
        for load in (100, 200):
            series = [(label.replace("(k)", "(1)"),
                       (lambda p: lambda n: (model, load, 8, n, p, None if p in ("buddy", "equi-epoch") else 1))(p))
                      for p, label in SERIES]
            xs = [n for n in xs_nodes if (model, load, 8, n, "opt-epoch", 1) in cells]
            sections.append(write_panel(
                out_dir, f"figure{fig[1]}-load{load}",
                f"Figure {fig[1]}: {kind} workloads, response time / OPT-EPOCH(1) vs N (J = 8, k = 1, load {load}%)",
                "N", xs, series, cells.get, lambda n: absolute(model, load, 8, n)))
        for panel, jobs, load in (("a", 7, 100), ("b", 8, 100), ("c", 15, 200), ("d", 16, 200)):
            series = [(label, (lambda p: lambda k: (model, load, jobs, 128, p,
                                                    None if p in ("buddy", "equi-epoch") else k))(p))
                      for p, label in SERIES]
            sections.append(write_panel(
                out_dir, f"figure{fig[2]}{panel}-J{jobs}-load{load}",
                f"Figure {fig[2]}({panel}): {kind} workloads, response time / OPT-EPOCH(1) vs k (N = 128, J = {jobs}, "
                f"load {load}%)", "k", list(range(9)), series, cells.get, lambda k: absolute(model, load, jobs, 128)))
    with open(os.path.join(out_dir, "response.md"), "w") as f:
        f.write("\n".join(sections))
    print(f"{len(runs)} runs, {len(cells)} points: tables and figures in {out_dir}")


if __name__ == "__main__":
    main()
