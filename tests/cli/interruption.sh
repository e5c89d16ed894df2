#!/usr/bin/env bash
# SIGINT, SIGTERM and SIGHUP: a run removes the outputs it had begun, keeps the folder's previous outputs and ends with
# 128 + the signal and one line; a sweep and check-policy pass the signal on to their runs, wait for them and end the
# same way.
#
# Usage: interruption.sh JOBSCHED_BINARY SOURCE_DIR      Prints one line per case, then "N passed, M failed".
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" interruption "$@"
cd "$work" || exit 2
set -m # job control: background jobs keep SIGINT (without it, bash starts them with SIGINT ignored)
mkdir tmp
export TMPDIR="$work/tmp" # where the sweep's temporary folders would be left

# A run of several tens of seconds: each case signals it once it has begun writing its outputs.
cat >long.yaml <<YAML
name: long
platform: $src/platforms/cluster-16.xml
workload:
  generator: {jobs: 400000, mean_interarrival: 20}
policy: {name: easy}
YAML
cat >short.yaml <<YAML
name: short
platform: $src/platforms/cluster-16.xml
workload:
  generator: {jobs: 50, mean_interarrival: 100}
policy: {name: easy}
YAML

# wait_for GLOB: until a path matching GLOB exists (at most 60 s); fails otherwise.
wait_for() {
  local i
  for i in $(seq 600); do
    compgen -G "$1" >/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# interrupted_run SIGNAL STATUS OUT: a run into OUT signalled once its hidden folder exists.
interrupted_run() {
  local signal=$1 status=$2 out=$3 problems=""
  "$bin" run long.yaml --out "$out" --quiet >"$signal.stdout" 2>"$signal.stderr" &
  local pid=$!
  if [ -d "$out" ]; then wait_for "$out/.$(basename "$out").tmp-*"; else wait_for ".$(basename "$out").tmp-*"; fi ||
    problems+=" no hidden output folder appeared;"
  kill "-$signal" "$pid"
  wait "$pid"
  local got=$?
  [ "$got" -eq "$status" ] || problems+=" exit status $got (expected $status);"
  [ "$(cat "$signal.stderr")" = "jobsched: interrupted by SIG$signal" ] ||
    problems+=" stderr: '$(head -c 300 "$signal.stderr")';"
  [ ! -s "$signal.stdout" ] || problems+=" stdout not empty;"
  compgen -G ".*.tmp-*" >/dev/null && problems+=" a hidden folder was left: $(echo .*.tmp-*);"
  compgen -G "$out/.*.tmp-*" >/dev/null && problems+=" a hidden folder was left in $out;"
  echo "$problems"
}

# 1. SIGTERM and SIGHUP to a run into a new folder: no folder at all, status 143 and 129.
problems=$(interrupted_run TERM 143 new-term)
[ ! -e new-term ] || problems+=" the output folder was made;"
report run_sigterm_new_folder "$problems"
problems=$(interrupted_run HUP 129 new-hup)
[ ! -e new-hup ] || problems+=" the output folder was made;"
report run_sighup_new_folder "$problems"

# 2. SIGINT to a run into a folder holding a previous run's outputs: they stay byte for byte.
"$bin" run short.yaml --out old --quiet || echo "the short run failed"
(cd old && md5sum jobs.csv trace.csv summary.json performance.json) >old.md5
problems=$(interrupted_run INT 130 old)
(cd old && md5sum -c --quiet ../old.md5 >/dev/null 2>&1) || problems+=" the previous outputs changed;"
[ "$(ls -A old | tr '\n' ' ')" = "jobs.csv performance.json summary.json trace.csv " ] ||
  problems+=" the folder holds: $(ls -A old | tr '\n' ' ');"
report run_sigint_keeps_previous_outputs "$problems"

# 3. SIGTERM to a sweep (its process alone) while its two runs simulate: the runs end too, their hidden folders are
# removed, no table is written, and the sweep ends with 143 and one line.
cat >sweep.yaml <<YAML
name: sweep-long
platform: $src/platforms/cluster-16.xml
workload:
  generator: {jobs: 400000, mean_interarrival: 20}
sweep:
  policy.name: [easy, conservative]
YAML
problems=""
"$bin" sweep sweep.yaml --out S -j 2 --quiet >sweep.stdout 2>sweep.stderr &
pid=$!
for i in $(seq 600); do # both runs writing
  [ "$(compgen -G "S/runs/*/.*.tmp-*" | wc -l)" -ge 2 ] && break
  sleep 0.1
done
children=$(pgrep -P "$pid" | tr '\n' ' ')
[ "$(echo $children | wc -w)" -eq 2 ] || problems+=" children before the signal: '$children';"
kill -TERM "$pid"
wait "$pid"
status=$?
[ "$status" -eq 143 ] || problems+=" exit status $status (expected 143);"
[ "$(cat sweep.stderr)" = "jobsched: interrupted by SIGTERM" ] || problems+=" stderr: '$(head -c 300 sweep.stderr)';"
for child in $children; do
  kill -0 "$child" 2>/dev/null && problems+=" run $child still runs;" && kill -KILL "$child"
done
compgen -G "S/runs/*/.*.tmp-*" >/dev/null && problems+=" hidden folders left: $(echo S/runs/*/.*.tmp-*);"
compgen -G "S/runs/*/summary.json" >/dev/null && problems+=" a run finished;"
compgen -G "S/runs/*/error.txt" >/dev/null && problems+=" an interrupted run was reported failed;"
[ ! -e S/results.csv ] || problems+=" results.csv written;"
[ -z "$(ls -A tmp)" ] || problems+=" temporary folders left: $(ls -A tmp);"
report sweep_sigterm_stops_its_runs "$problems"

# 4. The same sweep interrupted by SIGINT while its points are checked (before any run): nothing left in TMPDIR.
problems=""
"$bin" sweep sweep.yaml --out S2 -j 2 --quiet >sweep2.stdout 2>sweep2.stderr &
pid=$!
wait_for "tmp/jobsched-sweep-check-*" || problems+=" the checks' folder did not appear;"
kill -INT "$pid"
wait "$pid"
status=$?
[ "$status" -eq 130 ] || problems+=" exit status $status (expected 130);"
[ "$(cat sweep2.stderr)" = "jobsched: interrupted by SIGINT" ] || problems+=" stderr: '$(head -c 300 sweep2.stderr)';"
[ -z "$(ls -A tmp)" ] || problems+=" temporary folders left: $(ls -A tmp);"
[ ! -e S2 ] || problems+=" the sweep's folder was made;"
report sweep_sigint_during_checks "$problems"

# 5. check-policy (its process alone) signalled while a case's run simulates: the run ends too, the temporary folder
# of the cases goes, and it ends with 128 + the signal and one line, no violation reported. A quantum of 0.01 s makes
# the first case's run last minutes.
for signal in TERM:143 INT:130 HUP:129; do
  problems=""
  "$bin" check-policy gang --set policy.params.quantum=0.01 >"check-${signal%:*}.stdout" 2>"check-${signal%:*}.stderr" &
  pid=$!
  child=""
  for i in $(seq 600); do # its first case's run under way
    child=$(pgrep -P "$pid")
    [ -n "$child" ] && break
    sleep 0.1
  done
  [ -n "$child" ] || problems+=" no run started;"
  sleep 0.5
  kill "-${signal%:*}" "$pid"
  wait "$pid"
  status=$?
  [ "$status" -eq "${signal#*:}" ] || problems+=" exit status $status (expected ${signal#*:});"
  [ "$(cat "check-${signal%:*}.stderr")" = "jobsched: interrupted by SIG${signal%:*}" ] ||
    problems+=" stderr: '$(head -c 300 "check-${signal%:*}.stderr")';"
  grep -q "FAIL\|violation" "check-${signal%:*}.stdout" && problems+=" reported: $(head -c 300 "check-${signal%:*}.stdout");"
  for c in $child; do
    kill -0 "$c" 2>/dev/null && problems+=" run $c still runs;" && kill -KILL "$c"
  done
  [ -z "$(ls -A tmp)" ] || problems+=" temporary folders left: $(ls -A tmp);"
  rm -rf tmp/*
  report "check_policy_sig${signal%:*}_stops_its_run" "$problems"
done

finish
