#!/usr/bin/env bash
# metrics.bounded_slowdown_tau: the threshold of jobs.csv's bounded_slowdown and summary.json's mean_bounded_slowdown,
# which writes it as bounded_slowdown_tau. Four jobs of 16 processors on a machine of 16 under fcfs, one after the
# other, worked out by hand at tau = 100 and at the default 10; a sweep over tau; bad values refused in one line.
#
# Usage: bounded_slowdown.sh JOBSCHED_BINARY SOURCE_DIR      Prints one line per case, then "N passed, M failed".
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" bounded_slowdown "$@"
cd "$work" || exit 2

# SWF: id submit wait run alloc cpu mem req_procs req_time req_mem status user group app queue partition prev think.
# fcfs runs them in submission order, each on the whole machine:
#   job 1: submitted 0, runs 0-50:     turnaround 50,  dedicated 50
#   job 2: submitted 0, runs 50-70:    turnaround 70,  dedicated 20
#   job 3: submitted 10, runs 70-270:  turnaround 260, dedicated 200
#   job 4: submitted 20, runs 270-275: turnaround 255, dedicated 5
cat >four.swf <<'SWF'
1 0 -1 50 16 -1 -1 16 100 -1 1 1 1 1 1 1 -1 -1
2 0 -1 20 16 -1 -1 16 100 -1 1 1 1 1 1 1 -1 -1
3 10 -1 200 16 -1 -1 16 400 -1 1 1 1 1 1 1 -1 -1
4 20 -1 5 16 -1 -1 16 100 -1 1 1 1 1 1 1 -1 -1
SWF
cat >four.yaml <<YAML
name: four
platform: $src/platforms/cluster-16.xml
workload: {trace: four.swf}
policy: {name: fcfs}
YAML

# bounded slowdown max(1, turnaround / max(dedicated, tau)):
#   tau 100: max(1, 50/100) = 1, max(1, 70/100) = 1, 260/200 = 1.3, 255/100 = 2.55; mean 5.85 / 4 = 1.4625
#   tau 10:  50/50 = 1,          70/20 = 3.5,        260/200 = 1.3, 255/10 = 25.5;  mean 31.3 / 4 = 7.825
check_run() { # CASE EXPECTED_COLUMN EXPECTED_MEAN EXPECTED_TAU SET...
  local case=$1 column=$2 mean=$3 tau=$4 problems=""
  shift 4
  local sets=() s
  for s in "$@"; do sets+=(--set "$s"); done
  if ! "$bin" run four.yaml --quiet --out "$case" "${sets[@]}" 2>"$case.err"; then
    report "$case" " failed: $(head -c 300 "$case.err")"
    return
  fi
  local got
  got=$(python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(" ".join(r["turnaround_time"] + "/" + r["bounded_slowdown"] for r in rows))' "$case/jobs.csv")
  [ "$got" = "$column" ] || problems+=" jobs.csv turnaround/bounded_slowdown '$got' (expected '$column');"
  [ "$(field mean_bounded_slowdown "$case/summary.json")" = "$mean" ] ||
    problems+=" mean_bounded_slowdown $(field mean_bounded_slowdown "$case/summary.json") (expected $mean);"
  [ "$(field bounded_slowdown_tau "$case/summary.json")" = "$tau" ] ||
    problems+=" bounded_slowdown_tau $(field bounded_slowdown_tau "$case/summary.json") (expected $tau);"
  report "$case" "$problems"
}
check_run tau_100 "50/1 70/1 260/1.3 255/2.55" 1.4625 100 metrics.bounded_slowdown_tau=100
check_run tau_default "50/1 70/3.5 260/1.3 255/25.5" 7.825 10
check_run tau_10_given "50/1 70/3.5 260/1.3 255/25.5" 7.825 10 metrics.bounded_slowdown_tau=10

# The terminal's summary says which tau it used.
problems=""
"$bin" run four.yaml --out tau_printed --set metrics.bounded_slowdown_tau=100 >printed.stdout 2>printed.stderr ||
  problems+=" failed: $(head -c 300 printed.stderr);"
grep -q "mean bounded slowdown 1.4625 (tau = 100 s)" printed.stdout ||
  problems+=" printed: $(grep slowdown printed.stdout);"
report tau_printed "$problems"

# A sweep over tau: one point each, aggregate.csv's means as above.
cat >sweep.yaml <<YAML
name: tau-sweep
platform: $src/platforms/cluster-16.xml
workload: {trace: four.swf}
policy: {name: fcfs}
sweep:
  metrics.bounded_slowdown_tau: [10, 100]
YAML
problems=""
"$bin" sweep sweep.yaml --out S --quiet 2>sweep.err || problems+=" failed: $(head -c 300 sweep.err);"
got=$(awk -F, '$3 == "mean_bounded_slowdown" { printf "%s:%s ", $2, $5 }' S/aggregate.csv 2>/dev/null)
[ "$got" = "10:7.825 100:1.4625 " ] || problems+=" aggregate.csv tau:mean '$got' (expected '10:7.825 100:1.4625 ');"
report tau_swept "$problems"

# Bad values: above 0 and at most 1e12, a finite number.
scenario=four.yaml
expect_bad_setting tau_zero "--set: metrics.bounded_slowdown_tau: must be above 0 and at most 1e+12, got 0" \
  metrics.bounded_slowdown_tau=0
expect_bad_setting tau_negative "metrics.bounded_slowdown_tau: must be above 0" metrics.bounded_slowdown_tau=-5
expect_bad_setting tau_huge "metrics.bounded_slowdown_tau: must be above 0 and at most 1e+12, got 1e+13" \
  metrics.bounded_slowdown_tau=1e13
expect_bad_setting tau_nan "--set: metrics.bounded_slowdown_tau: expected a finite number, got '.nan'" \
  metrics.bounded_slowdown_tau=.nan
expect_bad_setting tau_text "--set: metrics.bounded_slowdown_tau: expected a number, got 'long'" \
  metrics.bounded_slowdown_tau=long
printf 'metrics:\n  bounded_slowdown_tau: .inf\n' >>four.yaml # line 6
expect_error tau_in_file 1 "four.yaml:6: metrics.bounded_slowdown_tau: expected a finite number, got '.inf'" -- \
  run four.yaml --quiet
finish
