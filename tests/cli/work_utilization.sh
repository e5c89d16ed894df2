#!/usr/bin/env bash
# summary.json's work_utilization means the same under every policy family: the work the jobs did, in processor-seconds
# at the reference speed as the job model defines it (run time x S(size), Cao's jobs their phases' span x parallelism;
# a job stopped early the fraction it did), over processors x makespan. Four jobs on the 16 processors of
# cluster-16.xml, their work worked out by hand below, under a rigid, a malleable, a moldable and a Cao policy.
#
# SWF: id submit wait run alloc cpu mem req_procs req_time req_mem status user group app queue partition prev think.
#   job 1: submitted 0, 100 s on 8 processors           work 100 x 8 = 800
#   job 2: submitted 0, 50 s on 16                      work 50 x 16 = 800
#   job 3: submitted 10, 40 s on 4                      work 40 x 4 = 160
#   job 4: submitted 20, 80 s on 4, asked for 30 s      work 80 x 4 = 320 (overrun: kill stops it at 30 s: 30 x 4 = 120)
# Linear speedup: 2080 processor-seconds under every policy that finishes them, whatever it gave each job.
#
# Usage: work_utilization.sh JOBSCHED_BINARY SOURCE_DIR      Prints one line per case, then "N passed, M failed".
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" work_utilization "$@"
cd "$work" || exit 2

cat >four.swf <<'SWF'
1 0 -1 100 8 -1 -1 8 200 -1 1 1 1 1 1 1 -1 -1
2 0 -1 50 16 -1 -1 16 100 -1 1 1 1 1 1 1 -1 -1
3 10 -1 40 4 -1 -1 4 100 -1 1 1 1 1 1 1 -1 -1
4 20 -1 80 4 -1 -1 4 30 -1 1 1 1 1 1 1 -1 -1
SWF
cat >four.yaml <<YAML
name: four
platform: $src/platforms/cluster-16.xml
workload: {trace: four.swf}
policy: {name: fcfs}
YAML

# check NAME WORK MAKESPAN SET...: the run's work_utilization is WORK / (16 x its makespan) to the 6 decimals
# summary.json keeps (its makespan, when MAKESPAN is not -, the one worked out by hand).
check() {
  local name=$1 want_work=$2 want_makespan=$3
  shift 3
  local sets=() s problems=""
  for s in "$@"; do sets+=(--set "$s"); done
  if ! "$bin" run four.yaml --quiet --out "$name" "${sets[@]}" 2>"$name.err"; then
    report "$name" " failed: $(head -c 300 "$name.err")"
    return
  fi
  local makespan utilization
  makespan=$(field makespan "$name/summary.json")
  utilization=$(field work_utilization "$name/summary.json")
  [ "$want_makespan" = - ] || [ "$makespan" = "$want_makespan" ] ||
    problems+=" makespan $makespan (expected $want_makespan);"
  python3 -c 'import sys
work, makespan, got = (float(x) for x in sys.argv[1:])
sys.exit(abs(got - work / (16 * makespan)) > 6e-7)' "$want_work" "$makespan" "$utilization" ||
    problems+=" work_utilization $utilization (expected $want_work / (16 x $makespan));"
  report "$name" "$problems"
}

# fcfs by hand: job 1 0-100, job 2 100-150 (it needs all 16), jobs 3 and 4 from 150 (in order, both fit): job 3 ends at
# 190; job 4 at 230 (extend), or at 180 killed at its 30 s (kill): work 2080 / (16 x 230) = 0.565217, 1880 / (16 x 190)
# = 0.618421 (what the rigid jobs held: their utilization too).
check fcfs 2080 230
check fcfs_killed 1880 190 workload.overrun=kill
for f in fcfs fcfs_killed; do
  [ "$(field utilization "$f/summary.json")" = "$(field work_utilization "$f/summary.json")" ] ||
    report "${f}_held_is_work" " utilization $(field utilization "$f/summary.json")"
done
# Malleable jobs under EQUI and gang: shares of the machine that change with every arrival and departure, the same
# work.
check equi 2080 - policy.name=equi workload.jobs.shape=malleable
check gang 2080 - policy.name=gang policy.params.quantum=30
# Moldable jobs under AP with Setia's speedup at beta 1, S(n) = 2n / (1 + n): their work run time x S(size), whatever
# size AP gives them: 100 x 16/9 + 50 x 32/17 + 40 x 8/5 + 80 x 8/5 = 463.895425 (to 6 decimals).
check ap 463.8954248 - policy.name=ap workload.jobs.shape=moldable workload.jobs.speedup.model=beta \
  workload.jobs.speedup.beta_min=1 workload.jobs.speedup.beta_max=1
# Cao et al.'s schedulers: each job one phase of its size's parallelism for its run time: 2080 again, though equi-equi
# holds every processor its EQUI share gives a job (its utilization above).
check ac_ds 2080 - policy.name=ac-ds policy.params.quantum=10
check equi_equi 2080 - policy.name=equi-equi policy.params.quantum=10
# The hierarchical policies' own analysis (total_work: the work the jobs reported at their ends) gives the same.
for f in ac_ds equi_equi; do
  python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
sys.exit(abs(s["total_work"] / (s["processors"] * s["makespan"]) - s["work_utilization"]) > 6e-7)' "$f/summary.json" ||
    report "${f}_total_work" " total_work $(field total_work "$f/summary.json")"
done
# equi-equi hands every processor to the jobs in the system, whatever their parallelism, and one is in it from 0 to
# the last finish: it holds the whole machine (utilization 1), the jobs' parallelism (at most 16) idling part of it.
u=$(field utilization equi_equi/summary.json)
w=$(field work_utilization equi_equi/summary.json)
awk -v u="$u" -v w="$w" 'BEGIN { exit !(u == 1 && w < 1) }'
report equi_equi_holds_more "$([ $? -eq 0 ] || echo " utilization $u, work_utilization $w")"
finish
