#!/usr/bin/env bash
# Proof that a change of speed changes no output: runs a set of small and medium scenarios of every policy family
# with two builds of jobsched and compares jobs.csv, summary.json and trace.csv (segments.csv too where there is one)
# byte for byte. Families: fcfs, easy, conservative, gang, equi, ap, apmc, apvm, memory-constrained under each of its
# six quantum schedulers, the smp allocator under both communication models (formula and network), gang-now, ac-ds;
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

# name|scenario|size of the small run|size of the medium run|--set options (space-separated)
cases=(
  "fcfs|quickstart.yaml|300|3000|policy.name=fcfs workload.generator.mean_interarrival=150 platform=@SRC@/platforms/cluster-128.xml"
  "easy|quickstart.yaml|300|3000|policy.name=easy workload.generator.mean_interarrival=150 platform=@SRC@/platforms/cluster-128.xml"
  "conservative|quickstart.yaml|300|3000|policy.name=conservative workload.generator.mean_interarrival=150 platform=@SRC@/platforms/cluster-128.xml"
  "gang|time-sharing.yaml|300|3000|policy.params.partition_size=4 policy.params.quantum=600"
  "equi|time-sharing.yaml|300|3000|policy.name=equi policy.params=null workload.jobs.shape=malleable"
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
  "ac-ds|hierarchical/ac-ds.yaml|50|100|"
  # 10,000 one-core hosts (written below): processor sets of 157 words, long runs in trace.csv.
  "big-gang|quickstart.yaml|300|1000|platform=@WORK@/cluster-10000.xml policy.name=gang policy.params.quantum=600 workload.generator.mean_interarrival=0.7"
  "big-equi|quickstart.yaml|300|1000|platform=@WORK@/cluster-10000.xml policy.name=equi workload.jobs.shape=malleable workload.generator.mean_interarrival=0.7"
  "big-ap|quickstart.yaml|300|1000|platform=@WORK@/cluster-10000.xml policy.name=ap workload.jobs.shape=moldable workload.jobs.min_size=1 workload.generator.mean_interarrival=0.7"
  "big-mc|quickstart.yaml|100|300|platform=@WORK@/cluster-10000.xml policy.name=memory-constrained workload.jobs.shape=malleable workload.generator.mean_interarrival=0.7"
  "big-easy|quickstart.yaml|300|3000|platform=@WORK@/cluster-10000.xml policy.name=easy workload.generator.mean_interarrival=0.7"
  "big-conservative|quickstart.yaml|300|3000|platform=@WORK@/cluster-10000.xml policy.name=conservative workload.generator.mean_interarrival=0.7"
)
cat >"$work/cluster-10000.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-9999" speed="1Gf" bw="1GBps" lat="10us" bb_bw="100GBps" bb_lat="0us"/>
</platform>
XML

run() { # BIN LIB OUT SCENARIO JOBS SETS...
  local bin=$1 lib=$2 out=$3 scenario=$4 jobs=$5
  shift 5
  local sets=(--set output.trace=true --set workload.generator.jobs="$jobs")
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
