#!/usr/bin/env bash
# Benchmark: how wall time and memory grow with machine size and workload length. For each size it writes a plain
# SimGrid cluster of H one-core hosts (no deployment: jobsched places its actors) and runs the built-in generator at
# an offered load of about 0.8, one run at a time on one core. Prints one row per run: policy, hosts, jobs, wall
# time, simulated jobs per second, peak memory, and the utilization reached.
# Usage: scale.sh JOBSCHED_BIN [SIZES]   SIZES: "HOSTSxJOBS ..." (default: a grid that takes a few minutes)
#        POLICIES="fcfs easy gang smp-network" selects the rows.
set -euo pipefail
bin=$1
sizes=${2:-"100x10000 1000x10000 1000x100000 10000x10000 10000x100000 10000x1000000 100000x10000"}
policies=${POLICIES:-"fcfs easy gang smp-network"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)

source "$(dirname "${BASH_SOURCE[0]}")/generated_runs.sh" # interarrival, write_cluster, write_smp_cluster

printf '%-12s %8s %9s %10s %10s %11s %12s\n' policy hosts jobs "wall (s)" "jobs/s" "peak (MiB)" utilization
for size in $sizes; do
  hosts=${size%x*}
  jobs=${size#*x}
  for policy in $policies; do
    platform=$work/cluster-$hosts.xml
    extra=()
    name=$policy
    case $policy in
    smp-network)
      # SMP nodes of 8 cores, the SMP-cluster paper's network cost model at Level 2 (ptasks: traffic matters).
      nodes=$(((hosts + 7) / 8))
      platform=$work/smp-$nodes.xml
      [ -f "$platform" ] || write_smp_cluster "$platform" "$nodes"
      extra=(--set policy.name=easy --set policy.allocation=smp
        --set workload.communication='{model: network, level: 2}')
      ;;
    gang) extra=(--set policy.name=gang --set policy.params.quantum=600) ;;
    *) extra=(--set policy.name="$policy") ;;
    esac
    if [ "$policy" != smp-network ] && [ ! -f "$platform" ]; then
      write_cluster "$platform" "$hosts"
    fi
    cat >"$work/s.yaml" <<YAML
platform: $platform
workload:
  generator: {jobs: $jobs, mean_interarrival: $(interarrival "$hosts"), max_run_time: 7200}
YAML
    if ! "${pin[@]}" "$bin" run "$work/s.yaml" --quiet --out "$work/out" "${extra[@]}" 2>"$work/err"; then
      printf '%-12s %8s %9s   failed: %s\n' "$name" "$hosts" "$jobs" "$(head -c 200 "$work/err")"
      continue
    fi
    field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[2]))[sys.argv[1]])' "$1" "$2"; }
    printf '%-12s %8s %9s %10.2f %10.0f %11.0f %12s\n' "$name" "$hosts" "$jobs" \
      "$(field wall_time_s "$work/out/performance.json")" \
      "$(field jobs_per_wall_second "$work/out/performance.json")" \
      "$(field peak_memory_mb "$work/out/performance.json")" "$(field utilization "$work/out/summary.json")"
  done
done
