#!/usr/bin/env bash
# jobsched check-policy as a policy author runs it: every in-tree policy passes every case (exit 0, one "ok" line per
# case, one case run twice); eight deliberately broken policies (tests/check_policy/broken_policies.cpp, a plugin
# library loaded with --plugin) are caught (exit 1), two with a scenario that reproduces the violation under
# `jobsched run`; an unknown policy or option is one line and exit 2; the temporary folder goes when every case passes.
# Usage: check_policy.sh JOBSCHED_BINARY SOURCE_DIR BROKEN_POLICIES_LIBRARY
source "$(dirname "$0")/lib.sh" check_policy "$1" "$2"
broken=$3

# Every policy of list-policies (the first section), two at a time.
policies=$("$bin" list-policies | awk '/^Policies/ {p = 1; next} /^$/ {p = 0} p && /^  [a-z]/ {print $1}')
count=$(echo "$policies" | wc -l)
[ "$count" -ge 18 ] && report "list-policies names the policies" "" || report "list-policies names the policies" " $count"
export bin work
echo "$policies" | xargs -P 2 -I{} sh -c '"$bin" check-policy {} >"$work/{}.out" 2>&1; echo $? >"$work/{}.rc"'
for p in $policies; do
  problems=""
  [ "$(cat "$work/$p.rc")" = 0 ] || problems+=" exit status $(cat "$work/$p.rc");"
  cases=$(grep -c '^  ok ' "$work/$p.out")
  [ "$cases" -ge 5 ] || problems+=" $cases cases;"
  tail -1 "$work/$p.out" | grep -qx "$p: all $cases cases pass" || problems+=" last line;"
  grep -q '^  ok   owners .*run twice: same bytes' "$work/$p.out" || problems+=" no repeated run;"
  [ -z "$problems" ] || problems+=" $(head -c 600 "$work/$p.out")"
  report "check-policy $p" "$problems"
done
# Seed 2 under gang-now: a host failed under suspended VPs, which the policy then moved away from it, and SimGrid
# aborted on the transfer from a host that is off (fixed: a suspended process fails with its host).
"$bin" check-policy gang-now --seed 2 >"$work/gang-now-2.out" 2>&1 &&
  report "check-policy gang-now --seed 2 (failures under suspended VPs)" "" ||
  report "check-policy gang-now --seed 2 (failures under suspended VPs)" " $(grep -A2 FAIL "$work/gang-now-2.out")"

# Shapes: a space-sharing policy is tried on every shape; memory-constrained (pieces of changing width) not on
# moldable jobs, which the runtime refuses for it.
problems=""
grep -q '^  ok   moldable ' "$work/easy.out" && grep -q '^  ok   malleable ' "$work/easy.out" || problems+=" easy shapes;"
grep -q '^  ok   moldable ' "$work/memory-constrained.out" && problems+=" memory-constrained moldable;"
grep -q '^  ok   malleable ' "$work/memory-constrained.out" || problems+=" memory-constrained malleable;"
mkdir -p "$work/tmp"
TMPDIR=$work/tmp "$bin" check-policy memory-constrained --keep "$work/mc" >/dev/null
"$bin" run "$work/mc/small/case.yaml" --set workload.jobs.shape=moldable --out "$work/mc-moldable" --quiet \
  2>"$work/mc.err"
[ $? = 2 ] && grep -q 'workload.jobs.shape: policy memory-constrained does not schedule moldable jobs' "$work/mc.err" ||
  problems+=" moldable under memory-constrained not refused: $(cat "$work/mc.err");"
report "shapes each policy takes" "$problems"

# A passing check leaves no temporary folder; --keep keeps its cases, each runnable as it is.
problems=""
TMPDIR=$work/tmp "$bin" check-policy fcfs >/dev/null || problems+=" fcfs failed;"
[ -z "$(ls "$work/tmp")" ] || problems+=" left $(ls "$work/tmp");"
"$bin" run "$work/mc/owners/case.yaml" --out "$work/mc-again" --quiet || problems+=" kept case does not run;"
cmp -s "$work/mc-again/jobs.csv" "$work/mc/owners/out/jobs.csv" || problems+=" kept case gives other jobs.csv;"
report "temporary and kept folders" "$problems"

# Bad input: one line, exit 2, nothing on stdout.
for args in "no-such-policy" "" "easy --seed x" "easy --bogus" "easy fcfs"; do
  # shellcheck disable=SC2086
  "$bin" check-policy $args >"$work/bad.out" 2>"$work/bad.err"
  rc=$?
  problems=""
  [ $rc = 2 ] || problems+=" exit status $rc;"
  [ "$(wc -l <"$work/bad.err")" = 1 ] || problems+=" stderr: $(cat "$work/bad.err");"
  [ -s "$work/bad.out" ] && problems+=" stdout: $(cat "$work/bad.out");"
  report "check-policy $args: one line, exit 2" "$problems"
done
# --set policy.params.KEY=VALUE: a policy checked with parameters other than its defaults. Every case's scenario holds
# them (the kept case reruns to the same bytes, and differs from a run at the defaults: the runs did get them).
problems=""
"$bin" check-policy gang --set policy.params.quantum=50 --set policy.params.context_switch=2 --keep "$work/gang50" \
  >"$work/gang50.out" 2>&1 || problems+=" exit status $?;"
first='jobsched check-policy gang --seed 1 --set policy.params.quantum=50 --set policy.params.context_switch=2: '
[ "$(head -n 1 "$work/gang50.out" | cut -c 1-${#first})" = "$first" ] ||
  problems+=" first line: $(head -n 1 "$work/gang50.out");"
for c in small owners malleable; do
  grep -qx '  params: {quantum: 50, context_switch: 2}' "$work/gang50/$c/case.yaml" 2>/dev/null ||
    problems+=" $c/case.yaml lacks the params;"
done
"$bin" run "$work/gang50/small/case.yaml" --out "$work/gang50-again" --quiet || problems+=" kept case does not run;"
cmp -s "$work/gang50-again/jobs.csv" "$work/gang50/small/out/jobs.csv" || problems+=" kept case gives other jobs.csv;"
"$bin" run "$work/gang50/small/case.yaml" --out "$work/gang50-defaults" --quiet --set policy.params=null ||
  problems+=" the case at the defaults does not run;"
cmp -s "$work/gang50-defaults/jobs.csv" "$work/gang50/small/out/jobs.csv" && problems+=" same jobs.csv at the defaults;"
[ -z "$problems" ] || problems+=" $(head -c 600 "$work/gang50.out")"
report "check-policy --set policy.params" "$problems"
# A value given with a tag (!!float 50) is written into case.yaml as plain YAML, not as the emitter's verbatim tag
# (!<tag:yaml.org,2002:float> 50), and reads back the same: the case's jobs.csv is the untagged one's above.
problems=""
"$bin" check-policy gang --set 'policy.params.quantum=!!float 50' --set 'policy.params.context_switch=!!int 2' \
  --keep "$work/gang50-tagged" >"$work/gang50-tagged.out" 2>&1 || problems+=" exit status $?;"
for c in small owners malleable; do
  line=$(grep '^  params:' "$work/gang50-tagged/$c/case.yaml" 2>/dev/null)
  [ "$line" = '  params: {quantum: 50, context_switch: 2}' ] || problems+=" $c/case.yaml: '$line';"
done
"$bin" run "$work/gang50-tagged/small/case.yaml" --out "$work/gang50-tagged-again" --quiet ||
  problems+=" kept case does not run;"
cmp -s "$work/gang50-tagged-again/jobs.csv" "$work/gang50/small/out/jobs.csv" || problems+=" other jobs.csv than untagged;"
report "check-policy --set with a tag: plain YAML in case.yaml" "$problems"
# A refused --set is bad input before any case runs: one line naming the key, exit 2, nothing on stdout, no folder.
only="only policy.params.KEY=VALUE is taken (the cases make the rest)"
for refused in "gang --set policy.name=fcfs|--set policy.name: $only" \
  "gang --set simulation.seed=2|--set simulation.seed: $only" "gang --set policy.params=3|--set policy.params: $only" \
  "gang --set policy.params.bogus=1|--set: policy.params.bogus: unknown parameter (known: partition_size, quantum, \
context_switch)" \
  "gang --set policy.params.quantum=-1|--set: policy.params.quantum: '-1' is not at least 0.001" \
  "easy --set policy.params.quantum=10|--set: policy.params.quantum: unknown parameter (known: none)" \
  "gang --set policy.params.quantum|--set policy.params.quantum: expected KEY=VALUE, e.g. --set policy.name=fcfs"; do
  # shellcheck disable=SC2086
  TMPDIR=$work/tmp "$bin" check-policy ${refused%%|*} >"$work/bad.out" 2>"$work/bad.err"
  rc=$?
  problems=""
  [ $rc = 2 ] || problems+=" exit status $rc;"
  [ "$(cat "$work/bad.err")" = "jobsched: error: ${refused#*|}" ] || problems+=" stderr: $(head -c 300 "$work/bad.err");"
  [ -s "$work/bad.out" ] && problems+=" stdout: $(head -c 300 "$work/bad.out");"
  [ -z "$(ls "$work/tmp")" ] || problems+=" left $(ls "$work/tmp");"
  report "check-policy ${refused%%|*}: refused before any case" "$problems"
done
"$bin" check-policy --help | grep -q -- '--set policy.params.KEY=VALUE' && report "check-policy --help: --set" "" ||
  report "check-policy --help: --set" " no --set"
"$bin" check-policy --help | grep -q '1 a violation' && report "check-policy --help" "" ||
  report "check-policy --help" " no exit statuses"

# broken-busy: the runtime refuses its start on busy processors (an internal error); the check says so, keeps the
# case, and `jobsched run` of the kept scenario fails the same way.
problems=""
"$bin" check-policy broken-busy --plugin "$broken" --keep "$work/busy" >"$work/busy.out" 2>&1
rc=$?
[ $rc = 1 ] || problems+=" exit status $rc;"
grep -q '^  FAIL small ' "$work/busy.out" || problems+=" no FAIL line;"
grep -q 'busy or down' "$work/busy.out" || problems+=" the runtime's reason missing;"
grep -q "jobsched run --plugin $broken $work/busy/small/case.yaml" "$work/busy.out" ||
  problems+=" no reproducing command;"
"$bin" run --plugin "$broken" "$work/busy/small/case.yaml" --out "$work/busy-again" --quiet 2>"$work/busy-again.err"
rc=$?
[ $rc = 3 ] && grep -q 'busy or down' "$work/busy-again.err" || problems+=" rerun: exit $rc $(cat "$work/busy-again.err");"
[ -e "$work/busy-again" ] && problems+=" rerun left outputs;"
"$bin" check-policy broken-busy >/dev/null 2>&1
[ $? = 2 ] || problems+=" known without the library;"
[ -z "$problems" ] || problems+=" $(head -c 600 "$work/busy.out")"
report "broken-busy caught, reproduced" "$problems"

# broken-kill: the runtime lets it kill; the check finds a job that did not complete in jobs.csv. Without --keep the
# temporary folder is kept and named.
problems=""
TMPDIR=$work/tmp "$bin" check-policy broken-kill --plugin "$broken" >"$work/kill.out" 2>&1
rc=$?
[ $rc = 1 ] || problems+=" exit status $rc;"
grep -q 'ended COMPLETED_KILLED' "$work/kill.out" || problems+=" no killed job named;"
kept=$(sed -n 's/.*kept in \(.*\); reproduce with:$/\1/p' "$work/kill.out")
case "$kept" in "$work"/tmp/*) ;; *) problems+=" kept folder '$kept';" ;; esac
if [ -f "$kept/case.yaml" ]; then
  "$bin" run --plugin "$broken" "$kept/case.yaml" --out "$work/kill-again" --quiet || problems+=" rerun failed;"
  grep -q ',COMPLETED_KILLED,' "$work/kill-again/jobs.csv" || problems+=" rerun killed no job;"
else
  problems+=" no case.yaml in '$kept';"
fi
[ -z "$problems" ] || problems+=" $(head -c 600 "$work/kill.out")"
report "broken-kill caught, reproduced" "$problems"

# broken-starve: never starts a job of even id; the check names the first five that never started and counts them,
# as counted here from the kept case's jobs.csv (its job ids of even number, all NOT_FINISHED).
problems=""
TMPDIR=$work/tmp "$bin" check-policy broken-starve --plugin "$broken" >"$work/starve.out" 2>&1
rc=$?
[ $rc = 1 ] || problems+=" exit status $rc;"
kept=$(sed -n 's/.*kept in \(.*\); reproduce with:$/\1/p' "$work/starve.out")
if [ -f "$kept/out/jobs.csv" ]; then
  expected=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["job_id"] % 2 == 0 { if ($col["final_state"] != "NOT_FINISHED") bad = 1; n++; if (n <= 5) ids = ids (n > 1 ? ", " : "") $1 }
    END { if (bad) print "an even job finished"; else printf "%d of the %d jobs never started (jobs %s and %d more: ", n, NR - 1, ids, n - 5 }' \
    "$kept/out/jobs.csv")
  grep -qF "jobs.csv: $expected" "$work/starve.out" || problems+=" expected '$expected';"
else
  problems+=" no jobs.csv in '$kept';"
fi
[ -z "$problems" ] || problems+=" $(head -c 600 "$work/starve.out")"
report "broken-starve caught, its jobs named" "$problems"

# broken-lookahead: the driver refuses a lookahead (Plan::lookahead) that gives two jobs the same processors.
# stale-lookahead: a well-formed lookahead that is not what the policy plans there; the run with every wake-up
# SimGrid's (simulation.virtual_wakeups false) differs. dangling-lookahead: a lookahead whose later phase points into
# the plan's own `run` map (freed before the replay would read it). miscounted-lookahead: a lookahead whose counts
# (Lookahead::counts) say one processor more than a later phase's sets have. broken-extension: a right lookahead, and
# when it is replayed whole, an extension (TimeSharingPolicy::extend_lookahead) giving two jobs the same processors.
for caught in "broken-lookahead|(lookahead phase 1): processors [0-9-]* given to two jobs" \
  "broken-extension|(extension phase 1): processors [0-9-]* given to two jobs" \
  "stale-lookahead|differs with simulation.virtual_wakeups false" \
  "dangling-lookahead|lookahead phase 1 points into the plan's own .run. map" \
  "miscounted-lookahead|(lookahead phase 1): its processors counted as [0-9]*, it has [0-9]*"; do
  policy=${caught%%|*}
  problems=""
  # The kept case folder (a violation keeps it) goes with the test's own.
  TMPDIR=$work/tmp "$bin" check-policy "$policy" --plugin "$broken" >"$work/$policy.out" 2>&1
  rc=$?
  [ $rc = 1 ] || problems+=" exit status $rc;"
  grep -q "${caught#*|}" "$work/$policy.out" || problems+=" not caught: $(head -c 600 "$work/$policy.out")"
  report "$policy caught" "$problems"
done
# An in-tree time-sharing policy passes that comparison, in both cases it is made in.
problems=""
"$bin" check-policy ap >"$work/ap.out" 2>&1 || problems+=" ap fails: $(head -c 600 "$work/ap.out");"
[ "$(grep -c "every wake-up SimGrid's: same bytes" "$work/ap.out")" = 2 ] || problems+=" ap not compared twice;"
report "ap compared with every wake-up SimGrid's" "$problems"
finish
