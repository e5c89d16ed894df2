#!/usr/bin/env bash
# Proof that a change of speed changes no output: runs a set of small and medium scenarios of every policy family
# with two builds of jobsched and compares jobs.csv, summary.json and trace.csv (segments.csv too where there is one)
# byte for byte. Families: fcfs, easy, conservative, gang, equi, ap, apmc, apvm, memory-constrained under each of its
# six quantum schedulers, the smp allocator under both communication models (formula and network), gang-now (its
# eviction modes, the paper's variants, exhaustive search, other networks, busy and no owners, 128 workstations) and
# Cao's policies (all six, other depths, quantum and cost factors, whole allotments, an explicit tree, wide area);
# then gang, equi, ap, memory-constrained, EASY and conservative on 10,000 hosts.
# Usage: identity.sh OLD_BIN NEW_BIN [SOURCE_DIR]
#   OLD_BIN, NEW_BIN: jobsched executables (set OLD_LIB / NEW_LIB to a folder holding the libjobsched.so each needs,
#   when it is not the one in its RUNPATH). CASES="gang equi" selects cases by name prefix.
# Prints one line per case and run size, "same" or the files that differ; exit status 1 when any differs.
set -euo pipefail
old=$1
new=$2
src=${3:-$(cd "$(dirname "$0")/.." && pwd)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name|scenario|size of the small run|size of the medium run (none: one run)|--set options (space-separated).
# A size "-" keeps the scenario's own number of jobs.
cases=(
  "fcfs|quickstart.yaml|300|3000|policy.name=fcfs workload.generator.mean_interarrival=150 platform=@SRC@/platforms/cluster-128.xml"
  "easy|quickstart.yaml|300|3000|policy.name=easy workload.generator.mean_interarrival=150 platform=@SRC@/platforms/cluster-128.xml"
  "conservative|quickstart.yaml|300|3000|policy.name=conservative workload.generator.mean_interarrival=150 platform=@SRC@/platforms/cluster-128.xml"
  "gang|time-sharing.yaml|300|3000|policy.params.partition_size=4 policy.params.quantum=600"
  "equi|time-sharing.yaml|300|3000|policy.name=equi policy.params=null workload.jobs.shape=malleable"
  # Resizes during reallocation stalls and image transfers (the driver moves a malleable job only while an image moves).
  "equi-realloc|time-sharing.yaml|300|3000|policy.name=equi policy.params=null policy.params.reallocation_cost=0.5 workload.jobs.shape=malleable"
  "equi-images|time-sharing.yaml|300|3000|policy.name=equi policy.params=null policy.params.reallocation_cost=0.2 workload.jobs.shape=malleable platform=@SRC@/platforms/mesh-16x8.xml simulation.images.store=host simulation.images.host=io-0"
  "ap|adaptive-partitioning/ap.yaml|300|2000|"
  "apmc|adaptive-partitioning/ap.yaml|300|2000|policy.name=apmc workload.generator.memory_distribution=A"
  "apvm|adaptive-partitioning/ap.yaml|300|2000|policy.name=apvm policy.params.fraction=0.75 policy.params.overhead=0.25 workload.generator.memory_distribution=B"
  "mc-opt-epoch|memory-constrained/dynamic.yaml|60|300|policy.params.policy=opt-epoch"
  "mc-equi-epoch|memory-constrained/dynamic.yaml|60|300|policy.params.policy=equi-epoch"
  "mc-buddy|memory-constrained/dynamic.yaml|60|300|policy.params.policy=buddy"
  "mc-buddy-star|memory-constrained/dynamic.yaml|60|300|policy.params.policy=buddy-star"
  "mc-hybrid|memory-constrained/dynamic.yaml|60|300|policy.params.policy=hybrid"
  "mc-heuristic-epoch|memory-constrained/dynamic.yaml|60|300|policy.params.policy=heuristic-epoch"
  "smp-formula|quickstart.yaml|300|3000|platform=@SRC@/platforms/smp-cluster-10x10.xml policy.allocation=smp workload.communication.model=formula workload.communication.level=2"
  "smp-network|quickstart.yaml|300|3000|platform=@SRC@/platforms/smp-cluster-10x10.xml policy.allocation=smp workload.communication.model=network workload.communication.level=2"
  # The other helpers' families run through the same time-sharing driver.
  "gang-now|gang-now/now.yaml|50|100|"
  "gang-now-default|gang-now/now.yaml|-||"
  "gang-now-wait|gang-now/now.yaml|-||policy.params.eviction=wait"
  "gang-now-restart|gang-now/now.yaml|-||policy.params.eviction=restart"
  "gang-now-paper|gang-now/now.yaml|-||policy.params.mtat=paper policy.params.compression=paper policy.params.pool_target=per-pool"
  "gang-now-exhaustive|gang-now/now.yaml|-||policy.params.expansion=exhaustive policy.params.new_slice_rule=time-share"
  "gang-now-switched|gang-now/now.yaml|-||platform=@SRC@/platforms/now-16-switched.xml workload.generator.image_mb=32"
  "gang-now-100mbit|gang-now/now.yaml|-||platform=@SRC@/scenarios/gang-now/platforms/now-16-lan-100mbit.xml"
  "gang-now-busy|gang-now/now.yaml|60||owners.activity=0.6"
  "gang-now-no-owners|gang-now/now.yaml|-||owners.activity=0"
  "gang-now-300|gang-now/now.yaml|300||"
  "gang-now-128|gang-now/now.yaml|100||platform=@WORK@/now-128-lan.xml"
  "gang-now-128-loaded|gang-now/now.yaml|40||platform=@WORK@/now-128-lan.xml workload.generator.mean_interarrival=18.75"
  "ac-ds|hierarchical/ac-ds.yaml|50|100|"
  "ac-ds-default|hierarchical/ac-ds.yaml|-||"
  "ag-ds|hierarchical/ac-ds.yaml|-||policy.name=ag-ds"
  "equi-equi|hierarchical/ac-ds.yaml|-||policy.name=equi-equi"
  "ac-equi-k2|hierarchical/ac-ds.yaml|-||policy.name=ac-equi policy.params.levels=2"
  "ag-equi-k5|hierarchical/ac-ds.yaml|100||policy.name=ag-equi policy.params.levels=5"
  "equi-ds-qf|hierarchical/ac-ds.yaml|-||policy.name=equi-ds policy.params.quantum_factor=3 policy.params.cost_factor=0.1"
  "ac-ds-whole|hierarchical/ac-ds.yaml|100||policy.params.allotments=whole"
  "explicit-tree|hierarchical/explicit-tree.yaml|-||"
  "wide-area|hierarchical/wide-area.yaml|50||"
  # 10,000 one-core hosts (written below): processor sets of 157 words, long runs in trace.csv.
  "big-gang|quickstart.yaml|300|1000|platform=@WORK@/cluster-10000.xml policy.name=gang policy.params.quantum=600 workload.generator.mean_interarrival=0.7"
  "big-equi|quickstart.yaml|300|1000|platform=@WORK@/cluster-10000.xml policy.name=equi workload.jobs.shape=malleable workload.generator.mean_interarrival=0.7"
  "big-ap|quickstart.yaml|300|1000|platform=@WORK@/cluster-10000.xml policy.name=ap workload.jobs.shape=moldable workload.jobs.min_size=1 workload.generator.mean_interarrival=0.7"
  "big-mc|quickstart.yaml|100|300|platform=@WORK@/cluster-10000.xml policy.name=memory-constrained workload.jobs.shape=malleable workload.generator.mean_interarrival=0.7"
  "big-easy|quickstart.yaml|300|3000|platform=@WORK@/cluster-10000.xml policy.name=easy workload.generator.mean_interarrival=0.7"
  "big-conservative|quickstart.yaml|300|3000|platform=@WORK@/cluster-10000.xml policy.name=conservative workload.generator.mean_interarrival=0.7"
)
source "$src/benchmarks/generated_runs.sh" # write_cluster
write_cluster "$work/cluster-10000.xml" 10000
python3 "$src/scripts/now_platform.py" --workstations 128 --network lan >"$work/now-128-lan.xml"
run() { # BIN LIB OUT SCENARIO JOBS SETS...
  local bin=$1 lib=$2 out=$3 scenario=$4 jobs=$5
  shift 5
  local sets=(--set output.trace=true)
  [ "$jobs" = - ] || sets+=(--set workload.generator.jobs="$jobs")
  for s in "$@"; do s=${s//@SRC@/$src}; sets+=(--set "${s//@WORK@/$work}"); done
  if [ -n "$lib" ]; then
    LD_LIBRARY_PATH=$lib "$bin" run "$src/scenarios/$scenario" --quiet --out "$out" "${sets[@]}"
  else
    "$bin" run "$src/scenarios/$scenario" --quiet --out "$out" "${sets[@]}"
  fi
}

status=0
for c in "${cases[@]}"; do
  IFS='|' read -r name scenario small medium sets <<<"$c"
  if [ -n "${CASES:-}" ]; then
    selected=0
    for prefix in $CASES; do [[ $name == "$prefix"* ]] && selected=1; done
    [ $selected = 1 ] || continue
  fi
  read -r -a set_list <<<"$sets"
  for jobs in $small $medium; do
    rm -rf "$work/old" "$work/new"
    if ! run "$old" "${OLD_LIB:-}" "$work/old" "$scenario" "$jobs" "${set_list[@]}" 2>"$work/err" ||
      ! run "$new" "${NEW_LIB:-}" "$work/new" "$scenario" "$jobs" "${set_list[@]}" 2>>"$work/err"; then
      printf '%-20s %6s jobs  failed: %s\n' "$name" "$jobs" "$(head -c 300 "$work/err")"
      status=1
      continue
    fi
    differ=()
    for f in jobs.csv summary.json trace.csv segments.csv; do
      [ -f "$work/old/$f" ] || [ -f "$work/new/$f" ] || continue
      cmp -s "$work/old/$f" "$work/new/$f" || differ+=("$f")
    done
    rows=$(($(wc -l <"$work/new/trace.csv") - 1))
    if [ ${#differ[@]} = 0 ]; then
      printf '%-20s %6s jobs  same (%s trace rows)\n' "$name" "$jobs" "$rows"
    else
      printf '%-20s %6s jobs  DIFFER: %s\n' "$name" "$jobs" "${differ[*]}"
      status=1
    fi
  done
done
exit $status
