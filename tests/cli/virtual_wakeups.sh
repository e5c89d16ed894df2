#!/usr/bin/env bash
# Time-sharing policies whose plans repeat (Plan::repeats: Cao's six, McCann & Zahorjan's memory-constrained, AP) have
# their wake-ups replayed on the scheduler's clock when nothing else can happen before them (virtual wake-ups): the
# outputs must be those of a SimGrid wake-up at each (simulation.virtual_wakeups: false), byte for byte. Cao's six on
# one-phase jobs with long quiet spells (the batch generator, L = 60 s: most instants virtual) and on Downey's phased
# jobs (L = 1 ms; a phase's end is a timer of the runtime, so it is never jumped over); memory-constrained under
# equi-epoch (epochs taking turns) and AP. On a platform with SimGrid profiles (tests/platforms/profiles.xml: a host's
# speed changes, another fails and its jobs are requeued) nothing is virtual, and the run ends (a requeued job of
# Cao's last plan is no longer claimed to hold its processors: the driver refused that plan before).
# Memory-constrained also declares its quantum as a cycle (simulation.cycles), advanced by whole cycles on the
# virtual clock: compared byte for byte with cycles off; with cycles on (the default) jobs.csv and summary.json must
# still be byte-identical to stepping every boundary without virtual wake-ups, trace.csv once its aggregated rows are
# expanded the same segments (benchmarks/cycles_compare.py), and the decision instants the cycles stood for must
# make up the difference.
source "$(dirname "$0")/lib.sh" virtual_wakeups "$@"
cao=$src/scenarios/hierarchical/ac-ds.yaml
batch=(--set workload.generator.model=batch --set workload.generator.jobs=150 --set workload.generator.mean_interarrival=600
  --set policy.params.quantum=60)

same_files() { # DIR_A DIR_B FILE...: each file cmp-equal in both folders, else said in the caller's `problems`
  local a=$1 b=$2 f
  shift 2
  for f in "$@"; do
    cmp -s "$a/$f" "$b/$f" || problems+=" $f differs;"
  done
}

compare() { # NAME VIRTUAL(some|none) SCENARIO SET...: runs with and without virtual wake-ups, compares the outputs
  local name=$1 virtual=$2 scenario=$3 problems=""
  shift 3
  for v in true false; do
    if ! "$bin" run "$scenario" --quiet --out "$work/$name-$v" "$@" --set simulation.virtual_wakeups=$v \
      2>"$work/$name-$v.err"; then
      report "$name" " virtual_wakeups: $v failed: $(head -c 300 "$work/$name-$v.err")"
      return
    fi
  done
  same_files "$work/$name-true" "$work/$name-false" jobs.csv summary.json trace.csv segments.csv
  local on off von voff
  on=$(field decision_instants "$work/$name-true/performance.json")
  off=$(field decision_instants "$work/$name-false/performance.json")
  von=$(field virtual_instants "$work/$name-true/performance.json")
  voff=$(field virtual_instants "$work/$name-false/performance.json")
  [ "$on" = "$off" ] || problems+=" $on decision instants with virtual wake-ups, $off without;"
  [ "$voff" = 0 ] || problems+=" $voff virtual instants when turned off;"
  if [ "$virtual" = some ]; then
    [ "$von" -gt 0 ] || problems+=" no virtual instant;"
  else
    [ "$von" = 0 ] || problems+=" $von virtual instants on a platform with profiles;"
  fi
  report "$name" "$problems"
}

for policy in ac-ds ag-ds equi-equi ac-equi ag-equi equi-ds; do
  compare "batch-$policy" some "$cao" "${batch[@]}" --set policy.name=$policy
done
compare downey-ac-ds some "$cao" --set workload.generator.jobs=40
compare downey-ag-ds some "$cao" --set workload.generator.jobs=40 --set policy.name=ag-ds
compare downey-equi-ds-qf some "$cao" --set workload.generator.jobs=40 --set policy.name=equi-ds \
  --set policy.params.quantum_factor=3 --set policy.params.cost_factor=0.1
compare ap some "$src/scenarios/adaptive-partitioning/ap.yaml" --set workload.generator.jobs=200 \
  --set simulation.cycles=false
compare mc-equi-epoch some "$src/scenarios/memory-constrained/dynamic.yaml" --set policy.params.policy=equi-epoch \
  --set simulation.cycles=false
# Workstation owners come and go at instants known in advance: virtual wake-ups go on between them (each owner's event
# is a SimGrid wake-up, which ends a virtual spell like an arrival; the hourly look at hosts down is one too, as
# before), and no cycle or lookahead is replayed (the decision instants must match).
owners=(--set owners.model=alternating --set owners.mean_idle=900 --set owners.activity=0.1)
compare owners-ap some "$src/scenarios/adaptive-partitioning/ap.yaml" --set workload.generator.jobs=200 "${owners[@]}"
compare owners-ag-ds some "$cao" "${batch[@]}" --set policy.name=ag-ds "${owners[@]}"
compare owners-equi-epoch some "$src/scenarios/memory-constrained/dynamic.yaml" --set policy.params.policy=equi-epoch \
  "${owners[@]}"
compare owners-hybrid some "$src/scenarios/memory-constrained/dynamic.yaml" --set policy.params.policy=hybrid \
  --set owners.model=alternating --set owners.mean_idle=3000 --set owners.activity=0.3

cycles() { # NAME SCENARIO SET...: cycles on (and virtual wake-ups) against neither
  local name=$1 scenario=$2 problems=""
  shift 2
  "$bin" run "$scenario" --quiet --out "$work/$name-cycles" "$@" 2>"$work/$name.err" &&
    "$bin" run "$scenario" --quiet --out "$work/$name-stepped" "$@" --set simulation.virtual_wakeups=false \
      2>>"$work/$name.err" || {
    report "$name" " a run failed: $(head -c 300 "$work/$name.err")"
    return
  }
  same_files "$work/$name-cycles" "$work/$name-stepped" jobs.csv summary.json
  python3 "$src/benchmarks/cycles_compare.py" "$work/$name-cycles" "$work/$name-stepped" --time-tolerance 1e-9 \
    >"$work/$name.compare" || problems+=" $(grep PROBLEM "$work/$name.compare" | head -3 | tr '\n' ' ')"
  grep -q ',10,' "$work/$name-cycles/trace.csv" || problems+=" no aggregated row in trace.csv;"
  local on off cycles instants
  on=$(field decision_instants "$work/$name-cycles/performance.json")
  off=$(field decision_instants "$work/$name-stepped/performance.json")
  cycles=$(field cycles "$work/$name-cycles/performance.json")
  instants=$(field cycle_instants "$work/$name-cycles/performance.json")
  [ "$cycles" -gt 0 ] || problems+=" no cycle advanced;"
  [ $((on + instants)) = "$off" ] || problems+=" $on decision instants + $instants in cycles, $off stepped;"
  report "$name" "$problems"
}
cycles mc-cycles-equi-epoch "$src/scenarios/memory-constrained/dynamic.yaml" --set policy.params.policy=equi-epoch
cycles mc-cycles-hybrid "$src/scenarios/memory-constrained/dynamic.yaml" --set policy.params.policy=hybrid
cycles mc-cycles-rigid "$src/scenarios/memory-constrained/dynamic.yaml" --set policy.params.policy=equi-epoch \
  --set workload.jobs.shape=rigid
# AP works out its next quanta's plans ahead (Plan::lookahead), which the scheduler replays on its virtual clock (with
# simulation.cycles) until something happens; a replay cut short by an arrival or a departure leaves AP at the state
# it kept for that boundary. The rows of a lookahead are ordinary ones, so all four files must be byte-identical to
# stepping every quantum with SimGrid wake-ups, and the instants replayed must make up the difference. Besides AP:
# malleable jobs (moved by resizes, whose rows come after the suspensions, as decide() writes them) and rigid ones,
# GS(32), APMC, APVM without and with paging (a slowdown: no lookahead), priority by seconds with p_j fixed at the
# first dispatch, a quantum that does not divide the period (a load sample in mid-quantum ends a lookahead), placement
# in submeshes of a mesh, jobs killed at their estimate (the replay declines them: a lookahead at their plans is
# worked out in vain, and AP stops trying for a while), and hosts that slow down and fail (jobs requeued).
lookahead() { # NAME REPLAYED(most|some|any) SET...: the lookahead's run (cycles on) against SimGrid wake-ups
  local name=$1 replayed=$2 problems=""
  shift 2
  "$bin" run "$ap" --quiet --out "$work/$name-ahead" --set workload.generator.jobs=300 "$@" 2>"$work/$name.err" &&
    "$bin" run "$ap" --quiet --out "$work/$name-stepped" --set workload.generator.jobs=300 "$@" \
      --set simulation.virtual_wakeups=false 2>>"$work/$name.err" || {
    report "$name" " a run failed: $(head -c 300 "$work/$name.err")"
    return
  }
  same_files "$work/$name-ahead" "$work/$name-stepped" jobs.csv summary.json trace.csv segments.csv
  local on off cycles instants
  on=$(field decision_instants "$work/$name-ahead/performance.json")
  off=$(field decision_instants "$work/$name-stepped/performance.json")
  cycles=$(field cycles "$work/$name-ahead/performance.json")
  instants=$(field cycle_instants "$work/$name-ahead/performance.json")
  [ "$cycles" = 0 ] || problems+=" $cycles whole cycles (a lookahead has none);"
  case $replayed in # most: more instants replayed than decided (AP's own turns, quantum after quantum)
  most) [ "$instants" -gt "$on" ] || problems+=" only $instants instants replayed against $on decided;" ;;
  some) [ "$instants" -gt 0 ] || problems+=" no instant replayed;" ;;
  esac
  [ $((on + instants)) = "$off" ] || problems+=" $on decision instants + $instants replayed, $off stepped;"
  report "$name" "$problems"
}
ap=$src/scenarios/adaptive-partitioning/ap.yaml
lookahead lookahead-ap most
lookahead lookahead-gs some --set policy.params.partition_size=32
lookahead lookahead-malleable some --set workload.jobs.shape=malleable
lookahead lookahead-rigid some --set workload.jobs.shape=rigid
lookahead lookahead-apmc some --set policy.name=apmc --set workload.generator.memory_distribution=A
lookahead lookahead-apvm some --set policy.name=apvm --set policy.params.fraction=0.75 \
  --set workload.generator.memory_distribution=B
lookahead lookahead-apvm-paging any --set policy.name=apvm --set policy.params.fraction=0.75 \
  --set policy.params.overhead=0.25 --set workload.generator.memory_distribution=B
lookahead lookahead-seconds-dispatch some --set policy.params.usage=seconds --set policy.params.configure=dispatch
lookahead lookahead-odd-quantum some --set policy.params.quantum=3 --set policy.params.period=100
lookahead lookahead-mesh some --set platform="$src/platforms/mesh-16x8.xml" --set policy.allocation=submesh-first-fit
lookahead lookahead-kill any --set workload.overrun=kill
lookahead lookahead-failures any --set platform="$src/tests/platforms/profiles.xml"
# gang-now declares its rotation of time slices between events (Plan::rotation), whose boundaries the runtime
# replays process by process (JobRuntime::replay_rotation) with ordinary rows: all four files byte-identical to
# stepping each rotation with SimGrid wake-ups, and the instants replayed make up the difference. The base scenario
# without owners and the VPs' own events (which turn replays off) on 16 workstations of three speeds; jobs of up to 40
# VPs doubled up on them; a two-core SMP node platform; eviction `restart`; a long switch cost; the first 3,000 jobs of
# the KTH log (one architecture, up to 100 VPs, hundreds of slices). With the VPs' events nothing is replayed.
gangnow() { # NAME REPLAYED(some|none) SCENARIO SET...: replayed rotations against SimGrid wake-ups
  local name=$1 replayed=$2 scenario=$3 problems=""
  shift 3
  "$bin" run "$scenario" --quiet --out "$work/$name-replayed" --set output.trace=true "$@" 2>"$work/$name.err" &&
    "$bin" run "$scenario" --quiet --out "$work/$name-stepped" --set output.trace=true "$@" \
      --set simulation.virtual_wakeups=false 2>>"$work/$name.err" || {
    report "$name" " a run failed: $(head -c 300 "$work/$name.err")"
    return
  }
  same_files "$work/$name-replayed" "$work/$name-stepped" jobs.csv summary.json trace.csv segments.csv
  local on off instants
  on=$(field decision_instants "$work/$name-replayed/performance.json")
  off=$(field decision_instants "$work/$name-stepped/performance.json")
  instants=$(field cycle_instants "$work/$name-replayed/performance.json")
  case $replayed in
  some) [ "$instants" -gt 0 ] || problems+=" no rotation replayed;" ;;
  none) [ "$instants" = 0 ] || problems+=" $instants rotations replayed;" ;;
  esac
  [ $((on + instants)) = "$off" ] || problems+=" $on decision instants + $instants replayed, $off stepped;"
  report "$name" "$problems"
}
now=$src/scenarios/gang-now/now.yaml
quiet=(--set owners.activity=0 --set workload.generator.new_vp_per_hour=0 --set workload.generator.vp_exit_per_hour=0
  --set workload.generator.jobs=100)
gangnow gang-now-base some "$now" "${quiet[@]}"
gangnow gang-now-doubled some "$now" "${quiet[@]}" --set workload.generator.max_vps=40 \
  --set workload.generator.mean_interarrival=60
gangnow gang-now-smp some "$now" "${quiet[@]}" --set platform="$src/platforms/smp-cluster-10x10.xml" \
  --set workload.generator.max_vps=40
gangnow gang-now-restart some "$now" "${quiet[@]}" --set policy.params.eviction=restart
gangnow gang-now-switch some "$now" "${quiet[@]}" --set policy.params.switch_cost=20
gangnow gang-now-vp-events none "$now" --set owners.activity=0 --set workload.generator.jobs=60
# Without trace.csv the replay skips its rows but not the segments' sums behind summary.json's busy time.
untraced=$work/gang-now-untraced
"$bin" run "$now" --quiet --out "$untraced-replayed" "${quiet[@]}" --set output.trace=false 2>"$untraced.err" &&
  "$bin" run "$now" --quiet --out "$untraced-stepped" "${quiet[@]}" --set output.trace=false \
    --set simulation.virtual_wakeups=false 2>>"$untraced.err" && {
  problems=""
  same_files "$untraced-replayed" "$untraced-stepped" jobs.csv summary.json
  [ "$(field cycle_instants "$untraced-replayed/performance.json")" -gt 0 ] || problems+=" no rotation replayed;"
  report gang-now-untraced "$problems"
} || report gang-now-untraced " a run failed: $(head -c 300 "$untraced.err")"
kth=$src/scenarios/kth-sp2-easy.yaml
if [ -e "$src/../shared/data/traces/KTH-SP2-1996-2.1-cln.swf.gz" ] || [ -n "${JOBSCHED_DATA_PATH:-}" ]; then
  gangnow gang-now-kth some "$kth" --set workload.communication.pattern=none --set policy.name=gang-now \
    --set workload.max_jobs=3000
fi
compare profiles none "$cao" "${batch[@]}" --set platform="$src/tests/platforms/profiles.xml" \
  --set workload.generator.jobs=100
requeues=$(field requeues "$work/profiles-true/summary.json")
[ "${requeues:-0}" -gt 0 ] && report profiles-requeues "" || report profiles-requeues " no job requeued ($requeues)"
finish
