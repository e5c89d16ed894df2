#!/usr/bin/env bash
# Speed work must not change results: runs the same scenarios with two builds of jobsched (say, the commit before the
# work and the one after) and compares jobs.csv, summary.json, trace.csv and segments.csv byte for byte. The cases
# are the Al-Saqabi scheduler's (gang-now: scenarios/gang-now/now.yaml and its sweeps' variants, 16 and 128
# workstations) and Cao's (ac-ds, ag-ds, equi-equi and the mixed policies on scenarios/hierarchical/, small sizes).
# Prints one line per case (same, or the files that differ) and exits 1 if any differs.
#
# Usage: benchmarks/same_outputs.sh BEFORE_BIN AFTER_BIN [SOURCE_DIR]
#   A binary whose folder also holds libjobsched.so (a copy of build/jobsched and build/plugin/libjobsched.so*) runs
#   with that library (LD_LIBRARY_PATH); SOURCE_DIR (default: this repository) holds the scenarios and scripts.
set -uo pipefail
before=$1
after=$2
src=${3:-$(cd "$(dirname "$0")/.." && pwd)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # BIN OUT SCENARIO SET...
  local bin=$1 out=$2 scenario=$3
  shift 3
  local sets=()
  for s in "$@"; do sets+=(--set "$s"); done
  local lib=""
  ls "$(dirname "$bin")"/libjobsched.so* >/dev/null 2>&1 && lib=$(dirname "$bin")
  LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$bin" run "$scenario" --quiet --out "$out" "${sets[@]}" \
    >/dev/null 2>"$out.err"
}

differ=0
compare() { # NAME SCENARIO SET...
  local name=$1
  shift
  run "$before" "$work/before-$name" "$@" || { echo "$name: the first build failed: $(head -c 200 "$work/before-$name.err")"; differ=1; return; }
  run "$after" "$work/after-$name" "$@" || { echo "$name: the second build failed: $(head -c 200 "$work/after-$name.err")"; differ=1; return; }
  local bad="" compared=""
  for f in jobs.csv summary.json trace.csv segments.csv; do
    [ -e "$work/before-$name/$f" ] || [ -e "$work/after-$name/$f" ] || continue
    compared+=" $f"
    cmp -s "$work/before-$name/$f" "$work/after-$name/$f" || bad+=" $f"
  done
  if [ -n "$bad" ]; then
    echo "$name: DIFFERENT:$bad"
    differ=1
  else
    echo "$name: same$compared"
  fi
}

now=$src/scenarios/gang-now/now.yaml
compare gang-now "$now"
compare gang-now-wait "$now" policy.params.eviction=wait
compare gang-now-restart "$now" policy.params.eviction=restart
compare gang-now-paper "$now" policy.params.mtat=paper policy.params.compression=paper policy.params.pool_target=per-pool
compare gang-now-exhaustive "$now" policy.params.expansion=exhaustive policy.params.new_slice_rule=time-share
compare gang-now-switched "$now" platform=$src/platforms/now-16-switched.xml workload.generator.image_mb=32
compare gang-now-100mbit "$now" platform=$src/scenarios/gang-now/platforms/now-16-lan-100mbit.xml
compare gang-now-busy "$now" owners.activity=0.6 workload.generator.jobs=60
compare gang-now-no-owners "$now" owners.activity=0
compare gang-now-300 "$now" workload.generator.jobs=300
python3 "$src/scripts/now_platform.py" --workstations 128 --network lan >"$work/now-128-lan.xml"
compare gang-now-128 "$now" platform=$work/now-128-lan.xml workload.generator.jobs=100
compare gang-now-128-loaded "$now" platform=$work/now-128-lan.xml workload.generator.jobs=40 \
  workload.generator.mean_interarrival=18.75

h=$src/scenarios/hierarchical
compare ac-ds "$h/ac-ds.yaml"
compare ag-ds "$h/ac-ds.yaml" policy.name=ag-ds
compare equi-equi "$h/ac-ds.yaml" policy.name=equi-equi
compare ac-equi-k2 "$h/ac-ds.yaml" policy.name=ac-equi policy.params.levels=2
compare ag-equi-k5 "$h/ac-ds.yaml" policy.name=ag-equi policy.params.levels=5 workload.generator.jobs=100
compare equi-ds-qf "$h/ac-ds.yaml" policy.name=equi-ds policy.params.quantum_factor=3 policy.params.cost_factor=0.1
compare ac-ds-whole "$h/ac-ds.yaml" policy.params.allotments=whole workload.generator.jobs=100
compare explicit-tree "$h/explicit-tree.yaml"
compare wide-area "$h/wide-area.yaml" workload.generator.jobs=50
exit $differ
