#!/usr/bin/env bash
# Benchmark of issue 23's table: CPU seconds (user + system, of the whole process) and peak memory of every policy
# family on a plain SimGrid cluster of HOSTS one-core hosts (10,000 by default) under generated workloads at an
# offered load of about 0.8 (benchmarks/scale.sh's generator settings), one run at a time. CPU time is reported rather
# than wall time because the machines it runs on are often shared with other work.
# Usage: families.sh JOBSCHED_BIN [JOBS...]   JOBS: workload lengths (default "10000 100000"; add 1000000 for the
#        issue's last column: it takes minutes per family). FAMILIES="gang equi" selects the rows (also
#        first-fit-list; smp-formula: EASY with the smp allocator and the formula cost model, timers, the jobs
#        arriving at an offered load of 0.8 counted with the formula's stretch (interarrival_formula); and
#        smp-network: EASY with the smp allocator and the network cost model, ptasks; not by default, it takes more
#        than a minute for 300 jobs on 10,000 hosts), HOSTS the machine size, TIMEOUT (seconds, default 600) stops
#        a run that takes longer (printed as "> TIMEOUT s"). Cao et al.'s hierarchical policies: ac-ds, ag-ds and
#        equi-equi by default, also ac-equi, ag-equi and equi-ds. apmc and apvm (memory distribution A);
#        memory-constrained:P runs quantum scheduler P (default: opt-epoch). gang-now (not by default: about 30-40 ms
#        a job on 10,000 hosts, whose generated jobs are up to 10,000 VPs each). LIB: a folder holding the
#        libjobsched.so to use (an older build kept for comparison). TRACE=false runs without trace.csv and
#        segments.csv (memory-constrained's rotating schedulers write about 50 GB of them at 1,000,000 jobs).
#        KEEP=DIR keeps each run's performance.json and summary.json as DIR/FAMILY-JOBS.performance.json and
#        DIR/FAMILY-JOBS.summary.json. CORE=N pins every run to core N (`taskset -c N`); by default the runs are not
#        pinned. The figures are CPU seconds, which a run spends wherever the system puts it: pinned, as every run
#        was to core 0 before, runs of two benchmarks started side by side share that core while another stays idle,
#        and each takes twice the wall time, which TIMEOUT counts. CORE=0 gives the former behaviour.
# Prints one row per family and length: CPU seconds, microseconds of CPU per job, peak MiB, the utilization reached.
set -euo pipefail
bin=$1
shift
lengths=${*:-"10000 100000"}
hosts=${HOSTS:-10000}
families=${FAMILIES:-"fcfs easy conservative gang equi ap memory-constrained ac-ds ag-ds equi-equi"}
limit=${TIMEOUT:-600}
trace=${TRACE:-true}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pin=()
if [ -n "${CORE:-}" ]; then
  command -v taskset >/dev/null || {
    echo "families.sh: CORE=$CORE needs taskset (util-linux)" >&2
    exit 2
  }
  pin=(taskset -c "$CORE")
  "${pin[@]}" true 2>/dev/null || {
    echo "families.sh: CORE=$CORE: taskset cannot pin a run there (cores: $(taskset -cp $$ | sed 's/.*: //'))" >&2
    exit 2
  }
fi
lib=()
[ -n "${LIB:-}" ] && lib=(env LD_LIBRARY_PATH="$LIB")

source "$(dirname "${BASH_SOURCE[0]}")/generated_runs.sh" # interarrival, write_cluster, write_smp_cluster

write_cluster "$work/cluster.xml" "$hosts"
write_smp_cluster "$work/smp.xml" $(((hosts + 7) / 8))

printf '%-20s %7s %9s %10s %10s %11s %12s\n' family hosts jobs "CPU (s)" "us/job" "peak (MiB)" utilization
for jobs in $lengths; do
  for family in $families; do
    platform=$work/cluster.xml
    mean=$(interarrival "$hosts")
    case $family in
    fcfs | easy | conservative) extra=(--set policy.name="$family") ;;
    first-fit-list) extra=(--set policy.name=first-fit-list) ;;
    gang) extra=(--set policy.name=gang --set policy.params.partition_size=1 --set policy.params.quantum=600) ;;
    equi) extra=(--set policy.name=equi --set workload.jobs.shape=malleable) ;;
    ap) extra=(--set policy.name=ap --set workload.jobs.shape=moldable --set workload.jobs.min_size=1) ;;
    apmc | apvm)
      # Setia's memory-aware variants: the jobs' memory drawn from his distribution A (a share of the machine's
      # memory, so a job may need more processors than its generated size: up to the machine, as in his section 4.1),
      # APVM at f = 0.75 (the paper's).
      extra=(--set policy.name="$family" --set workload.jobs.shape=moldable --set workload.jobs.min_size=1
        --set workload.jobs.max_size="$hosts" --set workload.generator.memory_distribution=A)
      [ "$family" = apvm ] && extra+=(--set policy.params.fraction=0.75)
      ;;
    memory-constrained) extra=(--set policy.name=memory-constrained --set workload.jobs.shape=malleable) ;;
    memory-constrained:*)
      # One of its quantum schedulers (memory-constrained:buddy...; buddy, buddy-star and hybrid need HOSTS a power
      # of two).
      extra=(--set policy.name=memory-constrained --set workload.jobs.shape=malleable
        --set policy.params.policy="${family#memory-constrained:}")
      ;;
    gang-now) extra=(--set policy.name=gang-now) ;; # a job of size n is n VPs; no owners
    ac-ds | ag-ds | equi-equi | ac-equi | ag-equi | equi-ds)
      # Cao et al.'s policies take the generated jobs as they take a trace's: each one phase of constant parallelism
      # (its size) over its run time. Quantum L = 60 s, as README's Cao figures at scale and on the KTH log (the
      # default, 1 ms, would make about 2 x 10^10 rounds of 100,000 jobs on 10,000 hosts, which span 2.3 x 10^7 s);
      # the default tree (K = 3, 1 to 5 leaves).
      extra=(--set policy.name="$family" --set policy.params.quantum=60)
      ;;
    smp-formula)
      # The same SMP nodes and EASY with the smp allocator, under the formula cost model: timers, no network solver.
      platform=$work/smp.xml
      mean=$(interarrival_formula "$hosts" 8 2)
      extra=(--set policy.name=easy --set policy.allocation=smp --set workload.communication.model=formula
        --set workload.communication.level=2)
      ;;
    smp-network)
      # SMP nodes of 8 cores, the SMP-cluster paper's network cost model at Level 2 (ptasks: traffic matters).
      platform=$work/smp.xml
      mean=$(interarrival_formula "$hosts" 8 2)
      extra=(--set policy.name=easy --set policy.allocation=smp --set workload.communication.model=network
        --set workload.communication.level=2)
      ;;
    *)
      echo "families.sh: unknown family $family" >&2
      exit 2
      ;;
    esac
    cat >"$work/s.yaml" <<YAML
platform: $platform
workload:
  generator: {jobs: $jobs, mean_interarrival: $mean, max_run_time: 7200}
simulation: {seed: 1}
YAML
    rm -rf "$work/out"
    set +e
    "${lib[@]}" /usr/bin/time -f '%U %S %M' -o "$work/time" timeout "$limit" "${pin[@]}" "$bin" run "$work/s.yaml" \
      --quiet --out "$work/out" "${extra[@]}" --set output.trace="$trace" 2>"$work/err"
    rc=$?
    set -e
    if [ $rc = 124 ]; then
      printf '%-20s %7s %9s %10s\n' "$family" "$hosts" "$jobs" "> $limit s"
      continue
    elif [ $rc != 0 ]; then
      printf '%-20s %7s %9s   failed: %s\n' "$family" "$hosts" "$jobs" "$(grep -v '^Command' "$work/err" | head -c 200)"
      continue
    fi
    read -r user sys peak_kb <"$work/time"
    if [ -n "${KEEP:-}" ]; then
      mkdir -p "$KEEP"
      cp "$work/out/performance.json" "$KEEP/${family//:/-}-$jobs.performance.json"
      cp "$work/out/summary.json" "$KEEP/${family//:/-}-$jobs.summary.json"
    fi
    utilization=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["utilization"])' \
      "$work/out/summary.json")
    awk -v f="$family" -v h="$hosts" -v j="$jobs" -v u="$user" -v s="$sys" -v m="$peak_kb" -v ut="$utilization" \
      'BEGIN { printf "%-20s %7s %9s %10.2f %10.0f %11.0f %12.4f\n", f, h, j, u + s, (u + s) / j * 1e6, m / 1024, ut }'
  done
done
