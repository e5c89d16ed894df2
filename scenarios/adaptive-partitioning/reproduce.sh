#!/usr/bin/env bash
# Setia's Figures 2 to 9 (and the two side studies of docs/reproduction/adaptive-partitioning.md): every sweep, its
# figure (docs/reproduction/figures/adaptive-partitioning/NAME.png) and its table (printed, markdown).
#
# Usage: scenarios/adaptive-partitioning/reproduce.sh [BUILD_DIR [RESULTS_DIR]]   (defaults: build, results)
# Run from the repository's root. About 25 minutes of CPU on the 2-core development machine; finished runs are kept
# in RESULTS_DIR, so an interrupted reproduction resumes where it stopped.
set -eu
build=${1:-build}
results=${2:-results}
here=scenarios/adaptive-partitioning
figures=docs/reproduction/figures/adaptive-partitioning
mkdir -p "$figures"

sweep() { # NAME: the scenario's sweep into RESULTS_DIR/NAME
  nice "$build/jobsched" sweep "$here/$1.yaml" --out "$results/$1" --quiet
}
plot() { # NAME FIGURE [--series KEY] LABEL...: its figure of the mean response time, copied to the doc's folder
  local name=$1 figure=$2
  shift 2
  local series=()
  if [ "${1:-}" = --series ]; then
    series=(--series "$2")
    shift 2
  fi
  local args=()
  for label in "$@"; do args+=(--label "$label"); done
  "$build/jobsched" plot "$results/$name" --metric mean_turnaround_time --x workload.load_factor --log-y \
    --label 'workload.load_factor=utilization rho' --label 'mean_turnaround_time=mean response time (s)' \
    "${series[@]}" "${args[@]}" --out "$results/$name/plots" >/dev/null
  cp "$results/$name/plots/mean_turnaround_time-vs-workload.load_factor.png" "$figures/$figure.png"
}
table() { # NAME VALUE=TEXT...
  local name=$1
  shift
  local args=()
  for label in "$@"; do args+=(--label "$label"); done
  echo "## $name"
  python3 "$here/tables.py" "$results/$name" "${args[@]}"
  echo
}

sweep figure-2
plot figure-2 figure-2 'policy.params.partition_size:0=AP' 'policy.params.partition_size:16=GS(16)' \
  'policy.params.partition_size:32=GS(32)' 'policy.params.partition_size:64=GS(64)' \
  'policy.params.partition_size:128=GS(128)'
table figure-2 '0=AP' '16=GS(16)' '32=GS(32)' '64=GS(64)' '128=GS(128)'

sweep figure-3
plot figure-3 figure-3 --series workload.generator.memory_distribution 'workload.generator.memory_distribution:none=AP' \
  'workload.generator.memory_distribution:A=APMC, A' 'workload.generator.memory_distribution:B=APMC, B' \
  'workload.generator.memory_distribution:C=APMC, C'
table figure-3 'ap, none=AP' 'apmc, A=APMC, A' 'apmc, B=APMC, B' 'apmc, C=APMC, C'

for n in 4 5 6 7 8 9; do
  case $n in 4 | 5 | 6) f=0.75 ;; *) f=0.5 ;; esac
  sweep "figure-$n"
  plot "figure-$n" "figure-$n" 'policy:{name: apmc}=APMC' \
    "policy:{name: apvm, params: {fraction: $f, overhead: 0}}=APVM($f), O = 0" \
    "policy:{name: apvm, params: {fraction: $f, overhead: 0.25}}=APVM($f), O = 25%" \
    "policy:{name: apvm, params: {fraction: $f, overhead: 0.5}}=APVM($f), O = 50%"
  table "figure-$n" '{name: apmc}=APMC' "{name: apvm, params: {fraction: $f, overhead: 0}}=O = 0" \
    "{name: apvm, params: {fraction: $f, overhead: 0.25}}=O = 25%" \
    "{name: apvm, params: {fraction: $f, overhead: 0.5}}=O = 50%"
done

sweep ap-roundings
plot ap-roundings ap-roundings
table ap-roundings

sweep gang-vs-gs
plot gang-vs-gs gang-vs-gs 'policy:{name: ap, params: {partition_size: 32}}=GS(32), the paper' \
  'policy:{name: gang, params: {partition_size: 32, quantum: 2}}=gang, 32' \
  'policy:{name: ap, params: {partition_size: 64}}=GS(64), the paper' \
  'policy:{name: gang, params: {partition_size: 64, quantum: 2}}=gang, 64'
table gang-vs-gs '{name: ap, params: {partition_size: 32}}=GS(32)' \
  '{name: gang, params: {partition_size: 32, quantum: 2}}=gang 32' \
  '{name: ap, params: {partition_size: 64}}=GS(64)' '{name: gang, params: {partition_size: 64, quantum: 2}}=gang 64'
