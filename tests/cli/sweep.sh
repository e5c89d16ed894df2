#!/usr/bin/env bash
# jobsched sweep and collect as a user runs them: a grid with replications, common random numbers, resuming,
# shards merged by collect, a failing run, the stopping rule, and the Slurm script.
#
# Usage: sweep.sh JOBSCHED_BINARY SOURCE_DIR      Prints one line per case, then "N passed, M failed".
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" sweep "$@"
cd "$work" || exit 2

cat >sweep.yaml <<YAML
name: sweep-test
platform: $src/platforms/cluster-16.xml
deployment: $src/deployments/single-scheduler.xml
workload:
  generator: {jobs: 60, mean_interarrival: 200}
sweep:
  policy.name: [fcfs, easy, conservative]
replications: 2
YAML

# 1. A whole sweep: 3 points x 2 replications, every run ok.
"$bin" sweep sweep.yaml --out A -j 2 --quiet
status=$?
problems=""
[ "$status" -eq 0 ] || problems+=" exit $status;"
[ "$(grep -c ',ok,' A/results.csv 2>/dev/null)" = 6 ] || problems+=" results.csv has not 6 ok rows;"
[ "$(grep -c ',mean_bounded_slowdown,2,' A/aggregate.csv 2>/dev/null)" = 3 ] || problems+=" aggregate.csv lacks n=2 rows;"
report full_sweep "$problems"

# 1a. jobsched plot names the level of its error bars, aggregate.csv's confidence: 95% by default, 90% once collect
# --confidence 0.9 has rewritten the table (it said 95% whatever the level).
if command -v gnuplot >/dev/null; then
  cp -r A A90
  problems=""
  "$bin" collect A90 --confidence 0.9 >/dev/null || problems+=" collect failed;"
  for folder in A:95% A90:90%; do
    dir=${folder%:*}
    "$bin" plot "$dir" --out "$dir-plots" >/dev/null 2>"$dir-plot.err" ||
      problems+=" plot $dir: $(head -c 200 "$dir-plot.err");"
    svg="$dir-plots/mean_bounded_slowdown-vs-policy.name.svg"
    grep -q "error bars = ${folder#*:} confidence interval" "$svg" 2>/dev/null ||
      problems+=" $svg does not say ${folder#*:}: $(grep -o 'error bars = [^<]*' "$svg" 2>/dev/null);"
  done
  grep -q "95%" A90-plots/mean_bounded_slowdown-vs-policy.name.svg 2>/dev/null && problems+=" A90's figure says 95%;"
  report plot_confidence_level "$problems"
fi

# 1b. -j2 and --out=DIR are -j 2 and --out DIR: the same runs and the same tables.
"$bin" sweep sweep.yaml --out=A2 -j2 --quiet
status=$?
problems=""
[ "$status" -eq 0 ] || problems+=" exit $status;"
cmp -s A/results.csv A2/results.csv || problems+=" results.csv differs from the -j 2 sweep's;"
cmp -s A/aggregate.csv A2/aggregate.csv || problems+=" aggregate.csv differs from the -j 2 sweep's;"
report attached_option_values "$problems"

# 1c. A folder named as a command is the command's folder: `jobsched collect sweep` and `jobsched plot run` read the
#     folders sweep and run (the words were read as the commands sweep and run: "plot: no folder given").
mkdir named
cp -r A named/sweep
cp -r "$(awk -F, '$5 == "easy" && $3 == 0 { print "A/runs/" $6 }' A/plan.csv)" named/run
problems=""
(cd named && "$bin" collect sweep >/dev/null 2>../named-collect.err) ||
  problems+=" collect sweep: $(head -c 200 named-collect.err);"
cmp -s named/sweep/aggregate.csv A/aggregate.csv || problems+=" collect sweep did not rewrite the same aggregate.csv;"
if command -v gnuplot >/dev/null; then
  for folder in run sweep; do
    (cd named && "$bin" plot "$folder" >"../named-$folder.out" 2>"../named-$folder.err") ||
      problems+=" plot $folder: $(head -c 200 "named-$folder.err");"
  done
  [ -s named/run/plots/gantt.svg ] || problems+=" plot run drew no named/run/plots/gantt.svg;"
  [ -s named/sweep/plots/mean_bounded_slowdown-vs-policy.name.svg ] || problems+=" plot sweep drew no figure;"
fi
# The word after a command's folder is still refused as an extra word, not read as a command.
(cd named && "$bin" plot run sweep >/dev/null 2>../named-extra.err)
status=$?
[ "$status" -eq 2 ] || problems+=" plot run sweep: exit $status;"
grep -qx "jobsched: error: plot: unexpected argument 'sweep' (see jobsched plot --help)" named-extra.err ||
  problems+=" plot run sweep said: $(head -c 200 named-extra.err);"
report folders_named_as_commands "$problems"

# 2. Common random numbers: replication 0 submits the same jobs under every policy, replication 1 other jobs.
run_dir() { # POLICY REPLICATION -> the run's folder, from plan.csv (columns run,point,replication,seed,policy.name,hash)
  awk -F, -v p="$1" -v r="$2" '$5 == p && $3 == r { print "A/runs/" $6 }' A/plan.csv
}
jobs_of() { cut -d, -f1,4-6 "$1/jobs.csv"; }
problems=""
cmp -s <(jobs_of "$(run_dir fcfs 0)") <(jobs_of "$(run_dir easy 0)") || problems+=" fcfs and easy saw different jobs;"
cmp -s <(jobs_of "$(run_dir fcfs 0)") <(jobs_of "$(run_dir conservative 0)") || problems+=" conservative differs;"
cmp -s <(jobs_of "$(run_dir fcfs 0)") <(jobs_of "$(run_dir fcfs 1)") && problems+=" replications 0 and 1 are equal;"
report common_random_numbers "$problems"

# 3. Resume: nothing is redone; a run whose results vanished is redone alone.
out=$("$bin" sweep sweep.yaml --out A -j 2)
problems=""
echo "$out" | grep -q "0 simulated now, 6 already done" || problems+=" rerun said: $(echo "$out" | head -1);"
rm "$(run_dir easy 1)/summary.json"
cp A/results.csv results-before.csv
out=$("$bin" sweep sweep.yaml --out A -j 2)
echo "$out" | grep -q "1 simulated now, 5 already done" || problems+=" partial rerun said: $(echo "$out" | head -1);"
cmp -s A/results.csv results-before.csv || problems+=" redone run changed the results;"
report resume "$problems"

# 3b. A finished run that another build of jobsched made (its build.txt differs, or is missing) is redone; the others
# are not. Every run folder names the build that made it.
problems=""
[ "$(cat A/runs/*/build.txt | sort -u | wc -l)" = 1 ] || problems+=" run folders name several builds;"
echo 0000000000000000 >"$(run_dir fcfs 1)/build.txt"
rm "$(run_dir easy 0)/build.txt"
out=$("$bin" sweep sweep.yaml --out A -j 2 2>err.txt)
echo "$out" | grep -q "2 simulated now, 4 already done" || problems+=" rerun said: $(echo "$out" | head -1);"
grep -q "2 finished runs had been made by another build of jobsched" err.txt || problems+=" no note: $(cat err.txt);"
[ "$(cat A/runs/*/build.txt | sort -u | wc -l)" = 1 ] || problems+=" the redone runs name another build;"
cmp -s A/results.csv results-before.csv || problems+=" redone runs changed the results;"
report other_build_redone "$problems"

# 3c. Output switches choose a run's files, not its results: a run's name leaves output: out, so the runs of a sweep
#     made without jobs.csv and trace.csv are the same runs with output.jobs and output.trace on. Each lacks a file the
#     scenario now asks for and is redone (it was reused without them, and jobsched plot refused it); the results stay;
#     the same sweep again redoes nothing (summary.json untouched); back to the switches off, every run is reused, and
#     a time-sharing run whose segments.csv went is redone alone (easy writes none, gang does).
cat >outputs.yaml <<YAML
name: sweep-outputs
platform: $src/platforms/cluster-16.xml
deployment: $src/deployments/single-scheduler.xml
workload:
  generator: {jobs: 40, mean_interarrival: 200}
sweep:
  policy.name: [easy, gang]
YAML
run_of() { awk -F, -v p="$1" '$5 == p { print "O/runs/" $6 }' O/plan.csv; } # POLICY -> its run's folder
said() { echo "$out" | grep -q "$1" || problems+=" $2 said: $(echo "$out" | head -1);"; }
problems=""
out=$("$bin" sweep outputs.yaml --out O --set output.trace=false --set output.jobs=false 2>O.err)
said "2 simulated now, 0 already done" "the first sweep"
[ -z "$(ls O/runs/*/jobs.csv O/runs/*/trace.csv O/runs/*/segments.csv 2>/dev/null)" ] ||
  problems+=" the first sweep wrote files it was told not to;"
cp O/results.csv O-results-without.csv
out=$("$bin" sweep outputs.yaml --out O 2>O.err)
said "2 simulated now, 0 already done" "the sweep with the outputs"
note="jobsched sweep: 2 finished runs lacked a file the scenario's output: asks for"
[ "$(cat O.err)" = "$note (first: $work/$(run_of easy)/jobs.csv): redone" ] || problems+=" no note: $(cat O.err);"
for file in easy/jobs.csv easy/trace.csv gang/jobs.csv gang/trace.csv gang/segments.csv; do
  [ -s "$(run_of "${file%/*}")/${file#*/}" ] || problems+=" ${file%/*}'s run has no ${file#*/};"
done
[ -e "$(run_of easy)/segments.csv" ] && problems+=" easy's run has segments.csv;"
cmp -s O/results.csv O-results-without.csv || problems+=" the results changed with the output switches;"
stamps() { stat -c '%n %y' O/runs/*/summary.json; }
before=$(stamps)
sleep 1 # a summary.json rewritten now would have another modification time
out=$("$bin" sweep outputs.yaml --out O 2>O.err)
said "0 simulated now, 2 already done" "the same sweep again"
[ "$(stamps)" = "$before" ] || problems+=" the same sweep again rewrote a summary.json;"
[ -s O.err ] && problems+=" same sweep again: $(cat O.err);"
out=$("$bin" sweep outputs.yaml --out O --set output.trace=false --set output.jobs=false 2>O.err)
said "0 simulated now, 2 already done" "the switches off again"
rm "$(run_of gang)/segments.csv"
out=$("$bin" sweep outputs.yaml --out O 2>O.err)
said "1 simulated now, 1 already done" "the sweep after segments.csv was removed"
grep -q "^jobsched sweep: 1 finished run lacked a file .*/segments.csv): redone$" O.err || problems+=" note: $(cat O.err);"
cmp -s O/results.csv O-results-without.csv || problems+=" the redone run changed the results;"
report output_switches_redo_runs_lacking_files "$problems"

# Failed runs a stopping rule added are named by their hash, point and replication: those runs lived in one round's
# list, gone when the failures were told, and the names printed were freed memory ("run p/M-UQ^QV (point
# 94644717290754, ...)"). One job of 16 processors at most, max_size 14: seeds 2 and 3 draw sizes 7 and 1 (kept), seeds
# 4 and 5 draw 16 (no job left, exit 2), so replications 2 and 3, which the tight rule adds, fail.
cat >stopping-failures.yaml <<EOF
name: stopping-failures
platform: $src/platforms/cluster-16.xml
workload:
  generator: {jobs: 1}
  max_size: 14
policy: {name: fcfs}
simulation: {seed: 2}
sweep:
  policy.name: [fcfs]
replications: {min: 2, max: 4, metric: mean_turnaround_time, relative_half_width: 0.001}
EOF
problems=""
"$bin" sweep stopping-failures.yaml --out F --quiet 2>F.err && problems+=" the sweep succeeded;"
for rep in 2 3; do
  hash=$(awk -F, -v r=$rep '$3 == r { print $NF }' F/plan.csv)
  grep -qx "jobsched: run $hash (point 0, replication $rep) failed: .*no job left to simulate after filtering" F.err ||
    problems+=" replication $rep ($hash) not named;"
done
told=$(grep -c ' failed: ' F.err)
[ "$told" = 2 ] || problems+=" $told failures told (expected 2): $(head -c 300 F.err);"
report failed_added_runs_named "$problems"

# A run's name (its hash) is its own settings: two scenario files in two folders that differ only in their sweep
# lists, replications and how they name the platform (relative to the file, absolute) share their common run, and a
# second sweep into the same folder finds it done (the hash held the scenario file's path: each file redid every run).
# Settings that differ give other names: --set's relative platform is read from the current folder, and the same
# --set from another folder holding another platform is another run (it was the same name, the other platform's run
# reused).
mkdir -p hash-a hash-b hash-c/sub
sed "s|platform: .*|platform: $(realpath --relative-to="$work/hash-a" "$src")/platforms/cluster-16.xml|" sweep.yaml \
  >hash-a/s.yaml
sed -e 's/fcfs, easy, conservative/easy, fcfs/' -e 's/^replications: 2/replications: [1, 2, 3]/' sweep.yaml >hash-b/s.yaml
problems=""
"$bin" sweep hash-a/s.yaml --out H --quiet || problems+=" sweep a failed;"
"$bin" sweep hash-b/s.yaml --out H >H.err 2>&1 || problems+=" sweep b failed;"
grep -q "6 runs: 2 simulated now, 4 already done, 0 failed" H.err || problems+=" runs not shared: $(head -c 300 H.err);"
for policy in fcfs easy; do
  for seed in 1 2; do
    a=$(awk -F, -v p=$policy -v s=$seed '$5 == p && $4 == s { print $NF }' H/plan.csv)
    [ -n "$a" ] && [ -e "H/runs/$a/summary.json" ] || problems+=" $policy seed $seed: no run;"
  done
done
[ "$(ls H/runs | wc -l)" = 8 ] || problems+=" $(ls H/runs | wc -l) runs in the folder (expected 6 of a and 2 of b);"
cp "$src/platforms/cluster-16.xml" hash-c/platform.xml
cp "$src/platforms/cluster-128.xml" hash-c/sub/platform.xml
(cd hash-c && "$bin" sweep "$work/sweep.yaml" --out "$work/P" --quiet --set platform=platform.xml --set deployment=null \
  --set replications=1) || problems+=" sweep on cluster-16 failed;"
(cd hash-c/sub && "$bin" sweep "$work/sweep.yaml" --out "$work/P" --set platform=platform.xml --set deployment=null --set replications=1 \
  >"$work/P.err" 2>&1) || problems+=" sweep on cluster-128 failed;"
grep -q "3 runs: 3 simulated now, 0 already done" P.err || problems+=" cluster-128 reused runs: $(head -c 300 P.err);"
[ "$(awk -F, '$6 == "ok" { print $7 }' P/results.csv | sort -u)" = 128 ] || problems+=" results not on 128 hosts;"
report run_hash_is_the_runs_settings "$problems"

# 4. Shards partition the runs; collect merges them into the same tables as one local sweep.
problems=""
"$bin" sweep sweep.yaml --out B --shard 1/2 --quiet || problems+=" shard 1 failed;"
[ -e B/results.csv ] && problems+=" a shard wrote results.csv;"
n1=$(ls B/runs | wc -l)
"$bin" sweep sweep.yaml --out B --shard 2/2 --quiet || problems+=" shard 2 failed;"
n2=$(ls B/runs | wc -l)
[ "$n1" = 3 ] && [ "$n2" = 6 ] || problems+=" shards ran $n1 then $n2 runs (expected 3 then 6);"
"$bin" collect B >/dev/null || problems+=" collect failed;"
cmp -s A/results.csv B/results.csv || problems+=" results.csv differs from the local sweep;"
cmp -s A/aggregate.csv B/aggregate.csv || problems+=" aggregate.csv differs from the local sweep;"
report shards_and_collect "$problems"

# Each shard alone (separate folders, so no run can be skipped as already done): disjoint, and together all runs.
"$bin" sweep sweep.yaml --out S1 --shard 1/2 --quiet
"$bin" sweep sweep.yaml --out S2 --shard 2/2 --quiet
problems=""
both=$(comm -12 <(ls S1/runs | sort) <(ls S2/runs | sort) | wc -l)
all=$(cat <(ls S1/runs) <(ls S2/runs) | sort -u)
[ "$both" = 0 ] || problems+=" $both runs in both shards;"
[ "$all" = "$(ls A/runs | sort)" ] || problems+=" the shards together are not the sweep's runs;"
report shards_partition_the_runs "$problems"

# 5. A run that fails only once simulated (its front end switched off at 50 s by a state profile) is reported and the
#    sweep goes on; what a run's set-up refuses (apmc on a workload without memory) is refused before the first run.
"$bin" sweep sweep.yaml --out C --quiet --set deployment=null --set replications=1 \
  --set "sweep={platform: [$src/platforms/cluster-16.xml, $src/tests/platforms/front-switched-off.xml]}" 2>C.err
status=$?
problems=""
[ "$status" -eq 1 ] || problems+=" exit $status (expected 1);"
grep -q "failed: .*host 'frontend' was switched off" C.err || problems+=" no failure message: $(head -1 C.err);"
grep -q 'cluster-16.xml,ok,' C/results.csv || problems+=" the good run is missing;"
grep -q 'front-switched-off.xml,failed,' C/results.csv || problems+=" the failed run is not marked;"
report failed_run "$problems"
"$bin" sweep sweep.yaml --out C2 --quiet --set 'sweep={policy.name: [fcfs, apmc]}' --set replications=1 2>C2.err
status=$?
problems=""
[ "$status" -eq 2 ] || problems+=" exit $status (expected 2);"
[ "$(wc -l <C2.err)" -eq 1 ] || problems+=" not one line on stderr;"
grep -q "^jobsched: error: --set: sweep point 1 (policy.name=apmc): policy.name: .*no job of the workload has any" C2.err ||
  problems+=" message: $(head -1 C2.err);"
[ ! -e C2 ] || problems+=" the folder C2 was made;"
report refused_point "$problems"

# 6. Stopping rule: every point ends with max replications or a half-width within 60% of its mean; with these
#    workloads the points need different numbers of replications (some more than min, none up to max).
"$bin" sweep sweep.yaml --out D -j 2 --quiet \
  --set 'replications={min: 3, max: 20, metric: mean_bounded_slowdown, relative_half_width: 0.6}'
problems=""
rows=$(awk -F, '$3 == "mean_bounded_slowdown"' D/aggregate.csv)
bad=$(echo "$rows" | awk -F, '!($4 == 20 || ($4 >= 3 && $7 <= 0.6 * $5)) { print $0 }')
[ -z "$bad" ] || problems+=" points stopped too early: $bad;"
[ "$(echo "$rows" | wc -l)" = 3 ] || problems+=" aggregate has not 3 points;"
echo "$rows" | awk -F, '$4 > 3 && $4 < 20 { found = 1 } END { exit !found }' || problems+=" no point stopped between min and max: $rows;"
[ "$(echo "$rows" | cut -d, -f4 | sort -u | wc -l)" -ge 2 ] || problems+=" every point ran the same count;"
report stopping_rule "$problems"

# 6b. stop_when: points whose runs all have the named metric above 0 get no more runs (jobs_completed always is:
#     every point stops at min, however far its interval is from 0.1%); an unknown metric is one line.
"$bin" sweep sweep.yaml --out D2 -j 2 --quiet \
  --set 'replications={min: 3, max: 20, metric: mean_bounded_slowdown, relative_half_width: 0.001, stop_when: jobs_completed}'
problems=""
counts=$(awk -F, '$3 == "mean_bounded_slowdown" { print $4 }' D2/aggregate.csv | sort -u)
[ "$counts" = 3 ] || problems+=" points ran $counts replications (expected 3 each);"
"$bin" sweep sweep.yaml --out D3 --quiet \
  --set 'replications={min: 2, max: 3, metric: mean_bounded_slowdown, stop_when: nope}' 2>D3.err
[ $? -eq 2 ] || problems+=" an unknown stop_when metric did not exit 2;"
[ -e D3 ] && problems+=" an unknown stop_when metric left folder D3;"
grep -q "replications.stop_when: 'nope' is not a numeric field" D3.err || problems+=" message: $(head -1 D3.err);"
report stop_when "$problems"

# 6c. A sweep is checked whole before its first run: a stopping rule naming a field the runs do not write, or a key
#     given twice in the scenario file, is one line, exit 2, and no folder (these used to be found after the first
#     runs, or to fail every run one by one).
problems=""
"$bin" sweep sweep.yaml --out F1 --quiet --set 'replications={min: 2, max: 3, metric: mean_slowdwon}' 2>F1.err
[ $? -eq 2 ] || problems+=" unknown metric: not exit 2;"
grep -q "replications.metric: 'mean_slowdwon' is not a numeric field of the summary.json these runs write (" F1.err ||
  problems+=" message: $(head -c 300 F1.err);"
[ "$(wc -l <F1.err)" = 1 ] || problems+=" $(wc -l <F1.err) stderr lines;"
[ -e F1 ] && problems+=" folder F1 left;"
printf 'output:\n  trace: false\n  trace: false\n' | cat sweep.yaml - >twice.yaml
"$bin" sweep twice.yaml --out F2 --quiet 2>F2.err
[ $? -eq 2 ] || problems+=" key given twice: not exit 2;"
grep -q "twice.yaml:11: output.trace: duplicate key" F2.err || problems+=" message: $(head -c 300 F2.err);"
[ "$(wc -l <F2.err)" = 1 ] || problems+=" $(wc -l <F2.err) stderr lines;"
[ -e F2 ] && problems+=" folder F2 left;"
# a trace that cannot be found (it made every run fail one by one, exit 1), named as --set's
"$bin" sweep sweep.yaml --out F3 --quiet --set workload.generator=null --set workload.trace=no-such-trace.swf 2>F3.err
[ $? -eq 2 ] || problems+=" missing trace: not exit 2;"
grep -q -- "--set: workload.trace: .*no-such-trace.swf" F3.err || problems+=" message: $(head -c 300 F3.err);"
[ "$(wc -l <F3.err)" = 1 ] || problems+=" $(wc -l <F3.err) stderr lines;"
[ -e F3 ] && problems+=" folder F3 left;"
# a swept policy name that does not exist (every run of its point failed, exit 1), named as --set's sweep's point
"$bin" sweep sweep.yaml --out F4 --quiet --set 'sweep={policy.name: [easy, "e中asy"]}' 2>F4.err
[ $? -eq 2 ] || problems+=" unknown policy: not exit 2;"
grep -q -- "--set: sweep point 1 (policy.name=e中asy): policy.name: unknown name 'e中asy'" F4.err || problems+=" message: $(head -c 300 F4.err);"
[ "$(wc -l <F4.err)" = 1 ] || problems+=" $(wc -l <F4.err) stderr lines;"
[ -e F4 ] && problems+=" folder F4 left;"
report sweep_checked_before_runs "$problems"

# 8. Killed sweeps. Runs of 100,000 jobs (about a second each) so that the kills land while a run is simulating.
cat >big.yaml <<YAML
name: sweep-killed
platform: $src/platforms/cluster-16.xml
deployment: $src/deployments/single-scheduler.xml
workload:
  generator: {jobs: 100000, mean_interarrival: 200}
YAML
# wait_for CONDITION...: poll (at most 60 s) until the command succeeds.
wait_for() {
  local i
  for i in $(seq 1200); do
    "$@" && return 0
    sleep 0.05
  done
  return 1
}
# A run's hidden folder: beside its folder when the folder is new, inside it when it exists (the sweep has written its
# scenario.yaml there), output/run_folder.hpp.
has_hidden_folder() { compgen -G "K/runs/.*.tmp-*" >/dev/null || compgen -G "K/runs/*/.*.tmp-*" >/dev/null; }
plan_rows_are() { [ "$(wc -l <K/plan.csv)" = $(($1 + 1)) ]; }
problems=""
"$bin" sweep big.yaml --out K --quiet --set replications=1 || problems+=" first sweep failed;"
[ -e K/results.csv ] && [ -e K/aggregate.csv ] || problems+=" first sweep wrote no tables;"
# 8a. A rerun with more replications, killed (sweep and run) while its new run simulates: the old tables are gone with
#     the old plan (they used to stay beside the new plan.csv).
"$bin" sweep big.yaml --out K --quiet --set replications=2 &
sweep_pid=$!
wait_for plan_rows_are 2 && wait_for has_hidden_folder || problems+=" the rerun's run never started;"
run_pid=$(pgrep -P "$sweep_pid")
kill -9 "$sweep_pid"
wait "$sweep_pid" 2>/dev/null
[ -e K/results.csv ] && problems+=" results.csv of the old plan left beside the new plan.csv;"
[ -e K/aggregate.csv ] && problems+=" aggregate.csv of the old plan left;"
# 8b. The sweep was killed alone: its run goes on and finishes, and the resumed sweep finds it done by this build
#     (it used to say the run had been made by another build, and redo it).
wait_for eval '! kill -0 "$run_pid" 2>/dev/null' || problems+=" the orphaned run did not finish;"
out=$("$bin" sweep big.yaml --out K --set replications=2 2>K.err)
echo "$out" | grep -q "0 simulated now, 2 already done" || problems+=" resume said: $(echo "$out" | head -1);"
grep -q "another build" K.err && problems+=" resume: $(cat K.err);"
# 8c. A run killed while it simulates leaves its hidden folder (partial trace.csv); the run that redoes it removes it.
"$bin" sweep big.yaml --out K --quiet --set replications=3 &
sweep_pid=$!
wait_for plan_rows_are 3 && wait_for has_hidden_folder || problems+=" the third replication never started;"
run_pid=$(pgrep -P "$sweep_pid")
kill -9 "$run_pid"
kill -9 "$sweep_pid"
wait "$sweep_pid" 2>/dev/null
has_hidden_folder || problems+=" the killed run left no hidden folder (the case tests nothing);"
"$bin" sweep big.yaml --out K --quiet --set replications=3 || problems+=" resumed sweep failed;"
has_hidden_folder && problems+=" hidden folders left: $(ls -a K/runs K/runs/* | grep tmp | tr '\n' ' ');"
[ "$(grep -c ',ok,' K/results.csv 2>/dev/null)" = 3 ] || problems+=" results.csv has not 3 ok rows;"
# 8d. Killed at random times (sweep and runs together, 0 to 2.5 s after its start), then resumed: the tables are
#     byte-identical to those of a sweep never interrupted, and no folder of a killed run looks complete.
"$bin" sweep big.yaml --out K2 --quiet --set replications=3 || problems+=" uninterrupted sweep failed;"
for attempt in 1 2 3; do
  rm -rf K3
  setsid "$bin" sweep big.yaml --out K3 --quiet --set replications=3 &
  sweep_pid=$!
  sleep "$((RANDOM % 25 / 10)).$((RANDOM % 10))"
  kill -9 -- -"$sweep_pid" 2>/dev/null
  wait "$sweep_pid" 2>/dev/null
  for run in K3/runs/*/; do # a run folder with a summary.json is complete: it must hold every output
    [ -e "$run/summary.json" ] || continue
    for f in jobs.csv trace.csv performance.json; do
      [ -e "$run/$f" ] || problems+=" attempt $attempt: $run has summary.json but no $f;"
    done
  done
  "$bin" sweep big.yaml --out K3 --quiet --set replications=3 || problems+=" attempt $attempt: resumed sweep failed;"
  cmp -s K2/results.csv K3/results.csv || problems+=" attempt $attempt: results.csv differs from the uninterrupted one;"
  cmp -s K2/aggregate.csv K3/aggregate.csv || problems+=" attempt $attempt: aggregate.csv differs;"
done
report killed_sweeps "$problems"

# 7. --slurm writes a job array and runs nothing.
out=$("$bin" sweep sweep.yaml --out E --slurm --shards 2)
problems=""
grep -q '^#SBATCH --array=1-2$' E/sweep.sbatch || problems+=" no 2-task array;"
grep -q -- '--shard "${SLURM_ARRAY_TASK_ID}/2"' E/sweep.sbatch || problems+=" tasks do not pick their shard;"
[ -e E/plan.csv ] || problems+=" no plan.csv;"
[ -d E/runs ] && problems+=" runs were simulated;"
report slurm_script "$problems"

# Swept file names resolve against the scenario's folder, as the same keys in the file do (they were resolved against
# the current folder, as --set values); an error in one names the sweep point, not --set.
mkdir -p nested/scenario nested/platforms
cp "$src/platforms/cluster-16.xml" nested/platforms/c16.xml
cat >nested/scenario/swept-paths.yaml <<YAML
name: swept-paths
platform: ../platforms/c16.xml
workload:
  generator: {jobs: 20, mean_interarrival: 100}
sweep:
  platform: [../platforms/c16.xml, $src/platforms/cluster-16.xml]
YAML
"$bin" sweep nested/scenario/swept-paths.yaml --out SP -j 2 --quiet 2>SP.err
status=$?
problems=""
[ "$status" -eq 0 ] || problems+=" exit $status: $(head -c 300 SP.err);"
[ "$(grep -c ',ok,' SP/results.csv 2>/dev/null)" = 2 ] || problems+=" results.csv has not 2 ok rows;"
report swept_paths_relative_to_the_scenario "$problems"
cat >nested/scenario/swept-missing.yaml <<YAML
name: swept-missing
platform: ../platforms/c16.xml
workload:
  generator: {jobs: 20, mean_interarrival: 100}
sweep:
  platform: [../platforms/c16.xml, ../platforms/none.xml]
YAML
expect_error swept_missing_platform 2 "sweep point 1 (platform=../platforms/none.xml): " \
  "$work/nested/platforms/none.xml" -- sweep nested/scenario/swept-missing.yaml
cat >nested/scenario/swept-plugins.yaml <<YAML
name: swept-plugins
platform: ../platforms/c16.xml
workload:
  generator: {jobs: 20, mean_interarrival: 100}
sweep:
  plugins: [[missing.so]]
YAML
expect_error swept_missing_plugin 2 "sweep point 0 (plugins=[missing.so]): plugins[0]: " \
  "$work/nested/scenario/missing.so" -- sweep nested/scenario/swept-plugins.yaml
grep -q -- "--set" "$work/swept_missing_plugin.stderr" && report swept_plugin_error_names_no_set " says --set"
grep -q -- "--set" "$work/swept_missing_plugin.stderr" || report swept_plugin_error_names_no_set ""

# Keys that cannot be swept are refused with the reason, a null where the file refuses one too (it ran the default
# as a point "~"), and a key's value must be a list (a scalar was one point).
unsweepable() { # NAME SWEEP FRAGMENT
  cat >"$1.yaml" <<YAML
name: $1
platform: $src/platforms/cluster-16.xml
workload:
  generator: {jobs: 20, mean_interarrival: 100}
sweep: $2
YAML
  expect_error "$1" 1 "$3" -- sweep "$1.yaml"
}
unsweepable sweep_replications "{replications: [1, 2]}" \
  "sweep_replications.yaml:5: sweep.replications: the replications of every point are set by 'replications', not swept"
unsweepable sweep_sweep "{sweep: [1]}" "sweep.sweep: a sweep's grid is not swept"
unsweepable sweep_output_dir "{output.dir: [a, b]}" \
  "sweep.output.dir: every run of a sweep writes into the sweep's folder"
unsweepable sweep_output_trace "{output.trace: [true, false]}" \
  "sweep_output_trace.yaml:5: sweep.output.trace: output switches choose which files every run writes, not its results: set them once, outside sweep:"
unsweepable sweep_output_jobs "{policy.name: [fcfs, easy], output.jobs: [true]}" \
  "sweep.output.jobs: output switches choose which files every run writes, not its results"
unsweepable sweep_output_together "{'policy.name, output.trace': [[fcfs, true], [easy, false]]}" \
  "sweep.output.trace: output switches choose which files every run writes"
unsweepable sweep_null_policy "{policy.name: [fcfs, null]}" \
  "sweep.policy.name: null is refused, as in the file: policy.name: expected text"
unsweepable sweep_scalar "{policy.name: fcfs}" \
  "sweep.policy.name: expected a list of values, one per point (a single point: [fcfs])"

finish
