#!/usr/bin/env bash
# summary.json's `utilization` means the same under every policy family: the processor time held by running jobs over
# processors x makespan. One small run per family, its utilization recomputed from its other outputs by a second
# method: trace.csv's running rows, processors x length (an aggregated row of a cycle counting its repeats), each
# processor counted once while several of its rows overlap (gang-now's doubled-up VPs), switching, transferring and
# suspended rows left out; for Cao's policies on fractional allotments, whose rows name every processor a share
# touches, jobs.csv's total_allotment (the processor time each job held while it executed: its shares). The runs
# differ from work-based figures where the family says so: an equi-equi job holds the share EQUI gives it whatever
# its parallelism, so its utilization is far above its work_utilization (the jobs' work over P x makespan).
source "$(dirname "$0")/lib.sh" utilization "$@"
p=$src/platforms

# check NAME SCENARIO SET...: runs SCENARIO (under scenarios/) with trace.csv, compares the utilization.
check() {
  local name=$1 scenario=$2
  shift 2
  local sets=(--set output.trace=true)
  for s in "$@"; do sets+=(--set "$s"); done
  if ! "$bin" run "$src/scenarios/$scenario" --quiet --out "$work/$name" "${sets[@]}" 2>"$work/$name.err"; then
    report "$name" " failed: $(head -c 300 "$work/$name.err")"
    return
  fi
  report "$name" "$(python3 - "$work/$name" <<'EOF'
import csv, json, sys
from collections import defaultdict

run = sys.argv[1]
summary = json.load(open(f"{run}/summary.json"))
capacity = summary["processors"] * summary["makespan"]
jobs = list(csv.DictReader(open(f"{run}/jobs.csv")))
if "total_allotment" in jobs[0] and summary["allotments"] == "fractional":
    held = sum(float(j["total_allotment"]) for j in jobs)
else:
    intervals = defaultdict(list)
    with open(f"{run}/trace.csv") as f:
        for row in csv.DictReader(f):
            if row["state"] != "running":
                continue
            repeats, period = int(row.get("repeats") or 1), float(row.get("period") or 0)
            for part in row["processors"].split():
                first, _, last = part.partition("-")
                for processor in range(int(first), int(last or first) + 1):
                    for i in range(repeats):
                        intervals[processor].append((float(row["start"]) + i * period, float(row["end"]) + i * period))
    held = 0.0
    for spans in intervals.values():
        covered = float("-inf")
        for start, end in sorted(spans):
            held += max(0.0, end - max(start, covered))
            covered = max(covered, end)
want = round(held / capacity, 6)
if abs(summary["utilization"] - want) > 1.5e-6:
    print(f" utilization {summary['utilization']}, the second method's {want}", end="")
EOF
)"
}

check fcfs quickstart.yaml workload.generator.jobs=100 policy.name=fcfs workload.generator.mean_interarrival=150 \
  platform="$p/cluster-128.xml"
check easy quickstart.yaml workload.generator.jobs=100 policy.name=easy workload.generator.mean_interarrival=150 \
  platform="$p/cluster-128.xml"
check conservative quickstart.yaml workload.generator.jobs=100 policy.name=conservative \
  workload.generator.mean_interarrival=150 platform="$p/cluster-128.xml"
check gang time-sharing.yaml workload.generator.jobs=100 policy.params.quantum=600
check equi_realloc time-sharing.yaml workload.generator.jobs=100 policy.name=equi policy.params=null \
  policy.params.reallocation_cost=0.5 workload.jobs.shape=malleable
check ap adaptive-partitioning/ap.yaml workload.generator.jobs=100
check apmc adaptive-partitioning/ap.yaml workload.generator.jobs=100 policy.name=apmc \
  workload.generator.memory_distribution=A
check apvm adaptive-partitioning/ap.yaml workload.generator.jobs=100 policy.name=apvm policy.params.fraction=0.75 \
  policy.params.overhead=0.25 workload.generator.memory_distribution=B
check memory_constrained memory-constrained/dynamic.yaml workload.generator.jobs=40 policy.params.policy=equi-epoch
check smp quickstart.yaml workload.generator.jobs=100 platform="$p/smp-cluster-10x10.xml" policy.allocation=smp \
  workload.communication.model=formula workload.communication.level=2
check gang_now gang-now/now.yaml workload.generator.jobs=30
check ac_ds hierarchical/ac-ds.yaml workload.generator.jobs=50
check ag_ds hierarchical/ac-ds.yaml workload.generator.jobs=50 policy.name=ag-ds
check equi_equi hierarchical/ac-ds.yaml workload.generator.jobs=100 policy.name=equi-equi
# Whole allotments with reallocation stalls: the rows are whole processors, the stalls switching rows (not counted).
check ac_ds_whole_stalls hierarchical/ac-ds.yaml workload.generator.jobs=50 policy.params.allotments=whole \
  policy.params.cost_factor=0.1

# The utilization counts what the jobs held, not what they computed: under equi-equi a job holds its EQUI share
# (1.0 of the machine between the jobs in the system) whatever its parallelism, so its utilization (0.994 on this run,
# measured with the second method above) is far above the jobs' work over the machine (work_utilization, 0.041).
f=$work/equi_equi/summary.json
awk -v u="$(field utilization "$f")" -v m="$(field work_utilization "$f")" 'BEGIN { exit !(u > 0.9 && m < 0.1) }'
report equi_equi_holds_more_than_it_works "$([ $? -eq 0 ] || echo " utilization $(field utilization "$f"), work_utilization $(field work_utilization "$f")")"

finish
