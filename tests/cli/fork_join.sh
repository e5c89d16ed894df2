#!/usr/bin/env bash
# The fork-join paging study (scenarios/adaptive-partitioning/fork-join.yaml) as a user runs it: the simulated
# completion time equals the one computed directly from the same faults; correlation 1 gives exactly 1 + rate x 1 ms
# at any thread count; the same seed gives the same summary; bad settings are one line.
source "$(dirname "$0")/lib.sh" fork_join "$@"
scenario=$src/scenarios/adaptive-partitioning/fork-join.yaml

check_run() { # NAME EXPECTED_SLOWDOWN(or -) SET...
  local name=$1 expected=$2
  shift 2
  local problems=""
  local sets=()
  for s in "$@"; do sets+=(--set "$s"); done
  if ! "$bin" fork-join "$scenario" --quiet --out "$work/$name" "${sets[@]}" 2>"$work/$name.err"; then
    report "$name" " failed: $(head -c 300 "$work/$name.err")"
    return
  fi
  local s c e
  s=$(field slowdown "$work/$name/summary.json")
  c=$(field completion_time "$work/$name/summary.json")
  e=$(field expected_completion_time "$work/$name/summary.json")
  [ "$c" = "$e" ] || problems+=" simulated completion $c, computed $e;"
  if [ "$expected" != - ]; then
    awk -v a="$s" -v b="$expected" 'BEGIN { exit !(a - b < 1e-9 && b - a < 1e-9) }' ||
      problems+=" slowdown $s, expected $expected;"
  fi
  report "$name" "$problems"
}

check_run correlation_1_8_threads 1.1 fork_join.correlation=1 fork_join.threads=8
check_run correlation_1_128_threads 1.1 fork_join.correlation=1 fork_join.threads=128
check_run correlation_1_rate_500 1.5 fork_join.correlation=1 fork_join.fault_rate=500 fork_join.granularity=500e-6
check_run correlation_099 - fork_join.correlation=0.99
check_run window_reading - fork_join.correlation=0.9 fork_join.offsets=window fork_join.threads=16
check_run barrier_cost 1.2 fork_join.correlation=1 fork_join.threads=4 fork_join.granularity=1e-3 \
  fork_join.barrier_cost=1e-4
"$bin" fork-join "$scenario" --quiet --out "$work/again" --set fork_join.correlation=0.99 2>/dev/null
cmp -s "$work/again/summary.json" "$work/correlation_099/summary.json"
report same_seed_same_summary "$([ $? -eq 0 ] || echo ' summaries differ')"

expect_error too_many_threads 2 "fork_join.threads" "129 threads need as many compute hosts" -- \
  fork-join "$scenario" --set fork_join.threads=129
expect_error correlation_out_of_range 1 "fork_join.correlation: must be" -- fork-join "$scenario" --set fork_join.correlation=2
expect_error fork_join_and_workload 1 "a fork_join scenario has no workload or policy" -- \
  fork-join "$scenario" --set workload.generator.jobs=5
expect_error fork_join_deployment 1 "places its threads itself" -- \
  fork-join "$scenario" --set deployment="$src/deployments/single-scheduler.xml"
expect_error fork_join_unknown_key 1 "fork_join.thread: unknown key" -- fork-join "$scenario" --set fork_join.thread=3
# metrics: measures jobs; the study's slowdown is not bounded, so its tau would be read and ignored.
expect_error fork_join_metrics_set 1 \
  "--set: metrics.bounded_slowdown_tau: a fork_join scenario has no bounded slowdown (its slowdown is completion time over computation time)" \
  -- fork-join "$scenario" --set metrics.bounded_slowdown_tau=60
{
  sed "s#^platform: .*#platform: $src/platforms/cluster-128.xml#" "$scenario"
  printf 'metrics:\n  bounded_slowdown_tau: 60\n'
} >"$work/fork-join-metrics.yaml"
lines=$(wc -l <"$work/fork-join-metrics.yaml")
expect_error fork_join_metrics_file 1 "fork-join-metrics.yaml:$lines: metrics.bounded_slowdown_tau: a fork_join scenario has no bounded slowdown" \
  -- fork-join "$work/fork-join-metrics.yaml"
expect_error fork_join_huge 1 "phase steps" -- fork-join "$scenario" --set fork_join.granularity=1e-9
# The study is a command of its own: `run` names it, and `fork-join` refuses a scheduling scenario.
expect_error run_names_fork_join_command 1 "run it with jobsched fork-join" -- run "$scenario"
expect_error fork_join_needs_section 1 "fork_join: missing" -- fork-join "$src/scenarios/quickstart.yaml"
finish
