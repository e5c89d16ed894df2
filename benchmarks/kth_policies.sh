#!/usr/bin/env bash
# Benchmark: the whole KTH SP2 trace (28,476 records) under FCFS, EASY and conservative backfilling, no
# communication, one core. Prints wall time, jobs per second and peak memory of each run.
# Usage: kth_policies.sh JOBSCHED_BIN SOURCE_DIR   (or: cmake --build build --target bench)
set -euo pipefail
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)
printf '%-14s %10s %12s %12s %10s %14s\n' policy jobs "wall (s)" "sim (s)" "jobs/s" "peak (MiB)"
for policy in fcfs easy conservative; do
  "${pin[@]}" "$bin" run "$src/scenarios/kth-sp2-easy.yaml" --quiet --out "$out/$policy" \
    --set policy.name=$policy --set workload.communication.pattern=none
  field() { sed -n "s/.*\"$1\": \([0-9.e+-]*\).*/\1/p" "$out/$policy/performance.json"; }
  printf '%-14s %10s %12.3f %12.3f %10.0f %14.1f\n' "$policy" "$(field jobs)" "$(field wall_time_s)" \
    "$(field simulation_wall_time_s)" "$(field jobs_per_wall_second)" "$(field peak_memory_mb)"
done
echo "target: EASY on the full trace in under 1 s of wall time on one core"
