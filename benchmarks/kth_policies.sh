#!/usr/bin/env bash
# Benchmark: the whole KTH SP2 trace (28,476 records) on one core, no communication: FCFS, EASY and conservative
# backfilling (rigid jobs), gang scheduling GS(1) with Q = 600 s, and dynamic equipartition with every job malleable
# (linear speedup up to its requested size); and conservative backfilling on an overloaded 16-processor machine (the
# first 8,000 jobs). Prints wall time, jobs and trace segments per second, and peak memory.
# Usage: kth_policies.sh JOBSCHED_BIN SOURCE_DIR   (or: cmake --build build --target bench)
set -euo pipefail
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)
printf '%-14s %8s %10s %10s %10s %12s %11s\n' policy jobs "wall (s)" "sim (s)" "jobs/s" "segments/s" "peak (MiB)"
run() {
  local name=$1
  shift
  "${pin[@]}" "$bin" run "$src/scenarios/kth-sp2-easy.yaml" --quiet --out "$out/$name" \
    --set workload.communication.pattern=none "$@"
  field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[2]))[sys.argv[1]])' "$1" "$out/$name/performance.json"; }
  printf '%-14s %8s %10.3f %10.3f %10.0f %12.0f %11.1f\n' "$name" "$(field jobs)" "$(field wall_time_s)" \
    "$(field simulation_wall_time_s)" "$(field jobs_per_wall_second)" "$(field segments_per_wall_second)" \
    "$(field peak_memory_mb)"
}
run fcfs --set policy.name=fcfs
run easy --set policy.name=easy
run conservative --set policy.name=conservative
run gang --set policy.name=gang --set policy.params.quantum=600
run equi --set policy.name=equi --set workload.jobs.shape=malleable
# An overloaded machine: the same log on 16 processors (jobs larger than 16 skipped), where thousands of jobs wait
# and every early completion compresses conservative backfilling's plan.
run cons-16p-8k --set policy.name=conservative --set platform="$src/platforms/cluster-16.xml" \
  --set workload.max_jobs=8000
echo "targets: EASY under 1 s of wall time; gang and equi each under 5 s"
