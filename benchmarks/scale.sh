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

# Mean inter-arrival time for an offered load of 0.8 on M processors with the generator's defaults: sizes are serial
# (1/4), a power of two 2..2^K (3/4 of the rest, exponent uniform) or uniform in 2..M; run times log-uniform in
# [10, 7200] s.
interarrival() {
  awk -v M="$1" 'BEGIN {
    K = int(log(M) / log(2)); pow = 0; for (k = 1; k <= K; k++) pow += 2 ^ k; pow /= K;
    size = 0.25 + 0.75 * (0.75 * pow + 0.25 * (2 + M) / 2);
    run = (7200 - 10) / log(7200 / 10);
    printf "%.6f", size * run / (0.8 * M) }'
}

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
      [ -f "$platform" ] || cat >"$platform" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="smp" prefix="smp-" suffix="" radical="0-$((nodes - 1))" speed="1Gf" core="8" bw="125MBps" lat="50us"
           bb_bw="2.25GBps" bb_lat="500us" loopback_bw="1GBps" loopback_lat="1us"/>
</platform>
XML
      extra=(--set policy.name=easy --set policy.allocation=smp
        --set workload.communication='{model: network, level: 2}')
      ;;
    gang) extra=(--set policy.name=gang --set policy.params.quantum=600) ;;
    *) extra=(--set policy.name="$policy") ;;
    esac
    if [ "$policy" != smp-network ] && [ ! -f "$platform" ]; then
      cat >"$platform" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-$((hosts - 1))" speed="1Gf" bw="1GBps" lat="10us"
           bb_bw="100GBps" bb_lat="0us"/>
</platform>
XML
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
