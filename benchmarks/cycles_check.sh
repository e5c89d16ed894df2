#!/usr/bin/env bash
# Proof that advancing repeating schedules by whole cycles (simulation.cycles, issue 23) changes no result: runs each
# case with cycles on and off (the latter steps every boundary as before) and compares the two with
# benchmarks/cycles_compare.py: jobs.csv (byte for byte, else start and end times within TOLERANCE seconds),
# summary.json (figures within a relative 1e-9), and trace.csv expanded (the same segments, times within TOLERANCE;
# the same busy processor-seconds per processor).
# Usage: cycles_check.sh JOBSCHED_BIN [SOURCE_DIR]
#   CASES="dyn kth-equi" selects cases by name prefix; TOLERANCE (default 1e-6 s). The KTH cases need
#   KTH-SP2-1996-2.1-cln.swf.gz on the trace search path and take minutes with cycles off (equi-epoch: about 25 s of
#   CPU without trace.csv, about 100 s and 19 GB of disk with it): they compare jobs.csv and summary.json only.
# Prints one line per case, "same" or what differs, then the largest differences; exit status 1 when any case differs.
set -euo pipefail
bin=$1
src=${2:-$(cd "$(dirname "$0")/.." && pwd)}
tolerance=${TOLERANCE:-1e-6}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$src/benchmarks/generated_runs.sh" # interarrival, write_cluster

write_cluster "$work/cluster.xml" 10000
cat >"$work/families.yaml" <<YAML
platform: $work/cluster.xml
workload:
  generator: {jobs: 10000, mean_interarrival: $(interarrival 10000), max_run_time: 7200}
simulation: {seed: 1}
YAML

kth=(--set workload.communication.pattern=none --set policy.name=memory-constrained --set workload.jobs.shape=malleable
  --set output.trace=false)
# name|scenario|what to compare (trace: the expanded traces and segments.csv too; busy: busy time per processor from
# the expanded traces, not row by row: 10 million rows)|--set options (space-separated)
cases=(
  "dyn-equi-epoch|$src/scenarios/memory-constrained/dynamic.yaml|trace|policy.params.policy=equi-epoch workload.generator.jobs=300"
  "dyn-opt-epoch|$src/scenarios/memory-constrained/dynamic.yaml|trace|policy.params.policy=opt-epoch workload.generator.jobs=300"
  "dyn-heuristic-epoch|$src/scenarios/memory-constrained/dynamic.yaml|trace|policy.params.policy=heuristic-epoch policy.params.k=2 workload.generator.jobs=300"
  "dyn-buddy|$src/scenarios/memory-constrained/dynamic.yaml|trace|policy.params.policy=buddy workload.generator.jobs=300"
  "dyn-buddy-star|$src/scenarios/memory-constrained/dynamic.yaml|trace|policy.params.policy=buddy-star workload.generator.jobs=300"
  "dyn-hybrid|$src/scenarios/memory-constrained/dynamic.yaml|trace|policy.params.policy=hybrid workload.generator.jobs=300"
  "dyn-equi-epoch-rigid|$src/scenarios/memory-constrained/dynamic.yaml|trace|policy.params.policy=equi-epoch workload.jobs.shape=rigid workload.generator.jobs=300"
  "families-10k-equi-epoch|$work/families.yaml|busy|policy.name=memory-constrained workload.jobs.shape=malleable policy.params.policy=equi-epoch"
  "families-10k-opt-epoch|$work/families.yaml|busy|policy.name=memory-constrained workload.jobs.shape=malleable"
  "kth-equi-epoch|$src/scenarios/kth-sp2-easy.yaml|jobs|policy.params.policy=equi-epoch"
  "kth-opt-epoch|$src/scenarios/kth-sp2-easy.yaml|jobs|policy.params.policy=opt-epoch"
  "kth-heuristic-epoch|$src/scenarios/kth-sp2-easy.yaml|jobs|policy.params.policy=heuristic-epoch"
)
status=0
for entry in "${cases[@]}"; do
  IFS='|' read -r name scenario what options <<<"$entry"
  if [ -n "${CASES:-}" ]; then
    selected=0
    for prefix in $CASES; do [[ $name == "$prefix"* ]] && selected=1; done
    [ $selected = 1 ] || continue
  fi
  sets=()
  for o in $options; do sets+=(--set "$o"); done
  [[ $name == kth-* ]] && sets=("${kth[@]}" "${sets[@]}")
  for c in true false; do
    "$bin" run "$scenario" --quiet --out "$work/$name-$c" "${sets[@]}" --set simulation.cycles=$c
  done
  compare=(--time-tolerance "$tolerance")
  [ "$what" = jobs ] && compare+=(--no-trace)
  [ "$what" = busy ] && compare+=(--no-segments)
  if python3 "$src/benchmarks/cycles_compare.py" "$work/$name-true" "$work/$name-false" "${compare[@]}" \
    >"$work/$name.txt"; then
    result=same
  else
    result=DIFFERS
    status=1
  fi
  cycles=$(python3 -c "import json,sys; p=json.load(open(sys.argv[1])); print(p['cycles'], p['cycle_instants'])" \
    "$work/$name-true/performance.json")
  printf '%-26s %s (cycles advanced, instants they stood for: %s)\n' "$name" "$result" "$cycles"
  sed 's/^/    /' "$work/$name.txt"
  rm -rf "$work/$name-true" "$work/$name-false"
done
exit $status
