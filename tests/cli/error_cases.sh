#!/usr/bin/env bash
# The launcher's handling of bad input, as a user sees it, plus a successful run and a reproducibility check.
#
# Usage: error_cases.sh JOBSCHED_BINARY SOURCE_DIR
#
# Every bad input must give exit status 2, exactly one line on stderr that starts with "jobsched: error:" and names
# the file, line or key at fault, and no output folder. Prints one line per case, then "N passed, M failed".
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" errors "$@"
# The trace search path must not find anything a test does not put there.
export XDG_DATA_HOME="$work/xdg"
export JOBSCHED_DATA="$work/data"
cd "$work" || exit 2

platform="$src/platforms/cluster-16.xml"
deployment="$src/deployments/single-scheduler.xml"


# A valid scenario header: platform and deployment by absolute path.
scenario_head() {
  printf 'name: %s\nplatform: %s\ndeployment: %s\n' "$1" "$platform" "$deployment"
}

# ---- Scenario files ----

# Malformed YAML on line 6 ("policy: name: easy": a mapping value where a plain scalar goes on).
{
  scenario_head malformed  # lines 1-3
  printf 'workload:\n'     # 4
  printf '  generator: {jobs: 5}\n' # 5
  printf 'policy: name: easy\n'     # 6
} >"$work/malformed.yaml"
expect_error malformed_yaml 2 "malformed.yaml:6:" "malformed YAML" -- run "$work/malformed.yaml"

# Unknown nested key on line 6.
{
  scenario_head unknown_key
  printf 'workload:\n'             # 4
  printf '  generator: {jobs: 5}\n' # 5
  printf '  max_jobz: 500\n'       # 6
} >"$work/unknown-key.yaml"
expect_error unknown_key 2 "unknown-key.yaml:6:" "workload.max_jobz: unknown key" -- run "$work/unknown-key.yaml"

# A good generated scenario, used by several cases below.
{
  scenario_head good
  printf 'workload:\n  generator:\n    jobs: 20\n'
} >"$work/good.yaml"

# The name is the folder under results/ when output.dir is not given: '' wrote into results/ itself and '../x'
# outside results/. One folder name only, from the file or from --set.
for case in "empty:''" "dot:." "dotdot:'..'" "parent:../x" "slash:a/b"; do
  {
    printf 'name: %s\n' "${case#*:}" # line 1
    printf 'platform: %s\ndeployment: %s\nworkload: {generator: {jobs: 5}}\n' "$platform" "$deployment"
  } >"$work/name-${case%%:*}.yaml"
done
expect_error name_empty 1 "error: $work/name-empty.yaml:1: name: must be one folder name (not empty, '.' or '..', \
no '/'), got ''" -- run "$work/name-empty.yaml"
expect_error name_dot 1 "name-dot.yaml:1: name: must be one folder name (not empty, '.' or '..', no '/'), got '.'" -- \
  run "$work/name-dot.yaml"
expect_error name_dotdot 1 "name-dotdot.yaml:1: name: must be one folder name (not empty, '.' or '..', no '/'), got \
'..'" -- run "$work/name-dotdot.yaml"
expect_error name_parent 1 "name-parent.yaml:1: name: must be one folder name (not empty, '.' or '..', no '/'), got \
'../x'" -- run "$work/name-parent.yaml"
expect_error name_slash 1 "name-slash.yaml:1: name: must be one folder name (not empty, '.' or '..', no '/'), got \
'a/b'" -- run "$work/name-slash.yaml"
expect_error name_set_parent 1 "error: --set: name: must be one folder name (not empty, '.' or '..', no '/'), got \
'../y'" -- run "$work/good.yaml" --set name=../y
# A file named ..yaml names its run '.' when it has no name:.
{
  scenario_head unused | sed 1d
  printf 'workload: {generator: {jobs: 5}}\n'
} >"$work/..yaml"
expect_error name_from_file 1 "error: $work/..yaml: name: not given, and the file's name gives '.', not one folder \
name: give name:" -- run "$work/..yaml"
# Without --out (expect_error gives one): nothing written in results/ or beside it, in a run and in a sweep.
for command in run sweep; do
  problems=""
  mkdir -p "$work/name-nowhere/in"
  (cd "$work/name-nowhere/in" && "$bin" "$command" "$work/name-parent.yaml" --quiet >/dev/null 2>"$work/nowhere.stderr")
  status=$?
  [ "$status" -eq 2 ] || problems+=" exit status $status (expected 2);"
  [ "$(awk 'END { print NR }' "$work/nowhere.stderr")" -eq 1 ] || problems+=" not one stderr line;"
  [ -z "$(ls -A "$work/name-nowhere/in")" ] || problems+=" wrote $(ls -A "$work/name-nowhere/in");"
  [ "$(ls -A "$work/name-nowhere")" = in ] || problems+=" wrote $(ls -A "$work/name-nowhere");"
  rm -rf "$work/name-nowhere"
  report "name_parent_no_output_$command" "$problems"
done

expect_error unknown_policy 2 "policy.name" "'nope'" -- run "$work/good.yaml" --set policy.name=nope
expect_error unknown_policy_parameter 1 "policy.params.foo: unknown parameter" -- \
  run "$work/good.yaml" --set policy.params.foo=1
# Under every registered policy (list-policies, in-tree ones and any added since), a parameter it does not declare is
# one line naming it, before anything else is checked: none reads its parameters past the declared ones.
policies=$("$bin" list-policies | awk '/^Allocators/ { exit } /^  [^ ]/ { print $1 }')
[ "$(echo "$policies" | wc -l)" -ge 18 ] || report every_policy_refuses_unknown_parameters " list-policies gave: $policies"
for policy in $policies; do
  expect_error "unknown_parameter_of_$policy" 1 "policy.params.no_such_parameter: unknown parameter (known: " -- \
    run "$work/good.yaml" --check --set policy.name="$policy" --set policy.params.no_such_parameter=1
done
expect_error bad_set_syntax 2 "--set policy.name" "KEY=VALUE" -- run "$work/good.yaml" --set policy.name
expect_error bad_simgrid_cfg 2 "--cfg=foo/bar:1: Bad config key: foo/bar" "(see --cfg=help)" -- \
  run "$work/good.yaml" --cfg=foo/bar:1
# SimGrid's messages for a bad value do not name the option ("--cfg: invalid integer"); a bad --log level was blamed
# on --cfg. The option is named as given, after the options before it that were fine.
expect_error cfg_bad_model 2 "--cfg=network/model:Bogus: Model 'Bogus' is invalid" "(see --cfg=help)" -- \
  run "$work/good.yaml" --cfg=network/optim:Lazy --cfg=network/model:Bogus
expect_error cfg_bad_integer 1 "--cfg=contexts/stack-size:abc: " -- run "$work/good.yaml" --cfg=contexts/stack-size:abc
expect_error cfg_bad_double 1 "--cfg=network/latency-factor:abc: " -- \
  run "$work/good.yaml" --cfg=network/latency-factor:abc
expect_error cfg_bad_boolean 1 "--cfg=debug/clean-atexit:maybe: " -- run "$work/good.yaml" --cfg=debug/clean-atexit:maybe
# SimGrid reads double options with std::stod, which takes NaN and infinities, and takes a precision of -1: each ran
# and changed the results (found by fuzzing). Refused naming the option; so is a precision set by the platform's
# <config>. A precision above 0 runs.
for setting in maxmin/precision:nan surf/precision:nan maxmin/precision:-1 surf/precision:-1 surf/precision:0; do
  expect_error "cfg_precision_${setting//[\/:]/_}" 2 "error: --cfg=$setting: a precision must be finite and above 0, not " \
    "${setting#*:}" -- run "$work/good.yaml" --cfg=$setting
done
for setting in network/latency-factor:inf network/weight-S:-nan; do
  expect_error "cfg_not_finite_${setting//[\/:]/_}" 1 "error: --cfg=$setting: not a finite number" -- \
    run "$work/good.yaml" "--cfg=network/optim:Lazy $setting"
done
sed 's|<platform version="4.1">|&<config><prop id="maxmin/precision" value="NaN"/></config>|' "$platform" \
  >"$work/precision-platform.xml"
printf 'name: precision
platform: %s
deployment: %s
workload:
  generator:
    jobs: 20
' \
  "$work/precision-platform.xml" "$deployment" >"$work/precision.yaml"
expect_error cfg_precision_in_platform 1 "error: $work/precision-platform.xml: <config> maxmin/precision: a precision \
must be finite and above 0, not nan" -- run "$work/precision.yaml"
problems=""
"$bin" run "$work/good.yaml" --quiet --out "$work/out-precision" --cfg=maxmin/precision:1e-4 --cfg=surf/precision:1e-8 \
  2>"$work/precision.stderr" || problems+=" refused: $(head -n 1 "$work/precision.stderr");"
report cfg_precisions_above_zero_run "$problems"
expect_error cfg_bad_factory 1 "--cfg=contexts/factory:bogus: " -- run "$work/good.yaml" --cfg=contexts/factory:bogus
expect_error log_bad_level 2 "error: --log=xbt.thres:bogus: Unknown priority name" "bogus" -- \
  run "$work/good.yaml" --cfg=network/optim:Lazy --log=xbt.thres:bogus
problems=""
! grep -q -- "--cfg" "$work/log_bad_level.stderr" || problems+=" names --cfg: $(cat "$work/log_bad_level.stderr");"
report log_bad_level_not_blamed_on_cfg "$problems"
# A file SimGrid cannot open: --log's file appender aborted the process (exit 134 and a backtrace), tracing's file was
# blamed on the platform.
expect_error log_file_unwritable 2 "--log=root.app:file:/nonexistent/dir/log: " "cannot write '/nonexistent/dir/log'" -- \
  run "$work/good.yaml" --log=root.app:file:/nonexistent/dir/log
expect_error log_rollfile_folder 2 "--log=root.app:rollfile:1000:$work: " "is a folder" -- \
  run "$work/good.yaml" "--log=root.app:rollfile:1000:$work"
expect_error tracing_file_unwritable 2 "--cfg=tracing/filename:/nonexistent/dir/x: cannot write '/nonexistent/dir/x'" \
  -- run "$work/good.yaml" --cfg=tracing:yes --cfg=tracing/filename:/nonexistent/dir/x
# One --cfg may hold several settings: SimGrid splits its value at spaces, tabs, newlines and commas. They are read as
# SimGrid reads them: s36 took the rest of the value for the trace file's name ("cannot write 't.trace
# tracing/precision:6'"), and named the whole --cfg where SimGrid refused one of its settings.
problems=""
(cd "$work" && "$bin" run "$work/good.yaml" --quiet --out "$work/out-several" --cfg=tracing:yes \
  "--cfg=tracing/filename:several.trace tracing/precision:6" >/dev/null 2>"$work/several.stderr") ||
  problems+=" refused: $(head -n 1 "$work/several.stderr");"
[ -s "$work/several.trace" ] || problems+=" no trace written;"
report cfg_several_settings "$problems"
expect_error cfg_several_settings_bad_one 2 "error: --cfg=network/model:Bogus: Model 'Bogus' is invalid" \
  "(see --cfg=help)" -- run "$work/good.yaml" "--cfg=network/optim:Lazy network/model:Bogus"
expect_error cfg_comma_settings_bad_one 1 "error: --cfg=contexts/stack-size:abc: " -- \
  run "$work/good.yaml" "--cfg=network/optim:Lazy,contexts/stack-size:abc"
expect_error cfg_several_settings_trace_file 1 "error: --cfg=tracing/filename:$work/none/x: cannot write" -- \
  run "$work/good.yaml" "--cfg=tracing:yes	tracing/filename:$work/none/x"
# An option written with '=' and nothing after it: CLI11 took the next word as its value ("--cfg= --out DIR" said
# "unexpected argument 'DIR'", "--log= --quiet" refused --quiet as a --log; found by fuzzing). Named as written.
expect_error empty_cfg_value 1 "error: run: --cfg=: empty value (see jobsched run --help)" -- run "$work/good.yaml" --cfg=
expect_error empty_log_value 1 "error: run: --log=: empty value (see jobsched run --help)" -- \
  run "$work/good.yaml" --log= --quiet
expect_error empty_cfg_first 1 "error: fork-join: --cfg=: empty value" -- fork-join --cfg= "$work/good.yaml"
expect_error empty_out_value 1 "error: sweep: --out=: empty value" -- sweep "$work/good.yaml" --out= --quiet
# An empty --out was taken as none: the run wrote to the scenario's output.dir (here results/good).
for command in run sweep; do
  problems=""
  mkdir -p "$work/empty-out"
  (cd "$work/empty-out" && "$bin" "$command" "$work/good.yaml" --quiet --out '' >/dev/null 2>"$work/empty-out.stderr")
  status=$?
  [ "$status" -eq 2 ] || problems+=" exit status $status (expected 2);"
  [ "$(awk 'END { print NR }' "$work/empty-out.stderr")" -eq 1 ] || problems+=" not one stderr line;"
  grep -q "^jobsched: error: $command: --out: empty folder name" "$work/empty-out.stderr" ||
    problems+=" said: $(head -n 1 "$work/empty-out.stderr");"
  [ -z "$(ls -A "$work/empty-out")" ] || problems+=" wrote $(ls -A "$work/empty-out");"
  rm -rf "$work/empty-out"
  report "empty_out_$command" "$problems"
done
# --cfg=help, which every --cfg error points to: SimGrid's options on stdout, exit 0, no run.
"$bin" run --cfg=help >"$work/cfg-help.stdout" 2>"$work/cfg-help.stderr"
status=$?
problems=""
[ "$status" -eq 0 ] || problems+=" exit status $status;"
grep -q "network/model" "$work/cfg-help.stdout" || problems+=" stdout does not list network/model;"
grep -q "contexts/stack-size" "$work/cfg-help.stdout" || problems+=" stdout does not list contexts/stack-size;"
report cfg_help "$problems"
# SimGrid takes a stack of -1 or 1 KiB, and the run crashed (exit 139) with no message.
expect_error tiny_actor_stack 1 "--cfg=contexts/stack-size: -1 KiB is too small for jobsched's actors (at least 16 KiB)" -- \
  run "$work/good.yaml" --cfg=contexts/stack-size:-1
# jobsched's own SimGrid options are for a program of one's own (jobsched::plugin_init), not for the launcher.
expect_error plugin_scenario_cfg 2 "--cfg=jobsched/scenario:" "--out" -- run "$work/good.yaml" \
  --cfg=jobsched/scenario:"$work/good.yaml"
expect_error plugin_out_cfg 2 "--cfg=jobsched/out:" "program of one's own" -- run "$work/good.yaml" \
  --cfg=jobsched/out:"$work/elsewhere"
expect_error plugin_cfg 2 "--cfg=plugin:jobsched:" "jobsched already" -- run "$work/good.yaml" --cfg=plugin:jobsched
# The front end (role master, where jobsched's actors run) switched off at 50 s by its state profile: one line naming
# the host and the time, not an internal error.
mkdir -p "$work/front-off"
printf 'platform: %s\nworkload: {generator: {jobs: 5}}\npolicy: {name: fcfs}\n' \
  "$src/tests/platforms/front-switched-off.xml" >"$work/front-off/s.yaml"
expect_error front_end_switched_off 2 "stopped at 50 s" "host 'frontend' was switched off" -- run "$work/front-off/s.yaml"
expect_error malformed_simgrid_log 2 "malformed --log=badlog" "CATEGORY.thres" -- run "$work/good.yaml" --log=badlog
expect_error missing_scenario_file 2 "$work/none.yaml" "cannot open" -- run "$work/none.yaml"
# A folder where the scenario file goes (a run's folder named run, say): it read as a scenario without its platform
# ("platform: missing").
mkdir -p "$work/a-folder"
for command in run fork-join sweep; do
  expect_error "folder_scenario_$command" 1 "error: $work/a-folder: a folder, not a scenario file" -- \
    "$command" "$work/a-folder"
done
# A named pipe (mkfifo) with no writer: opening it waited forever, and SIGTERM did not end the wait. A pipe of the
# shell's <(...) holds its text once: a run reads it, a sweep (which reads the file again for every point and run)
# read an empty scenario the second time ("platform: missing").
mkfifo "$work/fifo.yaml"
for command in run fork-join sweep; do
  expect_error "fifo_scenario_$command" 1 "error: $work/fifo.yaml: a named pipe (FIFO), not a scenario file" -- \
    "$command" "$work/fifo.yaml"
done
expect_error pipe_scenario_sweep 2 "error: /dev/fd/" ": a pipe, which a sweep cannot read again for each point" -- \
  sweep <(cat "$work/good.yaml") --quiet
problems=""
"$bin" run <(cat "$work/good.yaml") --quiet --out "$work/out-pipe-run" 2>"$work/pipe-run.stderr" ||
  problems+=" refused: $(head -c 300 "$work/pipe-run.stderr");"
[ "$(field jobs_simulated "$work/out-pipe-run/summary.json")" = 20 ] || problems+=" not 20 jobs;"
report pipe_scenario_run "$problems"
# jobsched plot of a path that is there but not a folder (a FIFO, a device, a file other than aggregate.csv or
# jobs.csv) said "no such folder".
for case in fifo:"$work/fifo.yaml" null:/dev/null file:"$work/good.yaml"; do
  expect_error "plot_not_a_folder_${case%%:*}" 1 "error: ${case#*:}: not a folder (a sweep folder with aggregate.csv" -- \
    plot "${case#*:}"
done

# Numbers checked where they are read: NaN, infinity and values out of range (these used to hang, abort SimGrid or
# give silently wrong results).
expect_error nan_interarrival 2 "--set" "workload.generator.mean_interarrival: expected a finite number" -- \
  run "$work/good.yaml" --set workload.generator.mean_interarrival=.nan
expect_error inf_max_run_time 2 "--set" "workload.generator.max_run_time: expected a finite number" -- \
  run "$work/good.yaml" --set workload.generator.max_run_time=.inf
expect_error negative_shake 2 "--set" "workload.shake: must be at least 0" -- \
  run "$work/good.yaml" --set workload.shake=-5
expect_error nan_shake 2 "--set" "workload.shake: expected a finite number" -- \
  run "$work/good.yaml" --set workload.shake=.nan
expect_error huge_level 2 "--set" "workload.communication.level: must be between 0 and 1000" -- \
  run "$work/good.yaml" --set workload.communication.level=2147483648
expect_error tiny_reference_speed 2 "--set" "simulation.reference_speed: must be at least 1000" -- \
  run "$work/good.yaml" --set simulation.reference_speed=1e-300
expect_error huge_tight 2 "policy.allocation_params.tight" "out of range" -- \
  run "$work/good.yaml" --set policy.allocation=smp --set policy.allocation_params.tight=9223372036854775807
expect_error smp_adaptive 2 "policy.allocation_params.adaptive" "'sometimes' is not one of off, false, true, cost-aware" -- \
  run "$work/good.yaml" --set policy.allocation=smp --set policy.allocation_params.adaptive=sometimes
expect_error smp_waits 2 "policy.allocation_params.waits" "'nobody' is not one of every-job, head" -- \
  run "$work/good.yaml" --set policy.allocation=smp --set policy.allocation_params.adaptive=cost-aware \
  --set policy.allocation_params.waits=nobody
expect_error smp_contention_weight 2 "policy.allocation_params.contention_weight" "'-1' is not at least 0" -- \
  run "$work/good.yaml" --set policy.allocation=smp --set policy.allocation_params.contention_weight=-1
expect_error smp_wait_tolerance 2 "policy.allocation_params.wait_tolerance" "'-0.5' is not at least 0" -- \
  run "$work/good.yaml" --set policy.allocation=smp --set policy.allocation_params.wait_tolerance=-0.5
expect_error huge_jobs 2 "workload.generator.jobs: must be between 1 and 100000000" -- \
  run "$work/good.yaml" --set workload.generator.jobs=2147483648
# Setia's workload (section 4.1) and adaptive-partitioning policies: one line naming the key.
expect_error memory_distribution 2 "--set" "workload.generator.memory_distribution: expected one of none, A, B, C" -- \
  run "$work/good.yaml" --set workload.generator.memory_distribution=D
expect_error two_class_key_alone 2 "--set" "workload.generator.short_mean: only run_time_distribution: two-class" -- \
  run "$work/good.yaml" --set workload.generator.short_mean=3
expect_error node_memory_alone 2 "--set" "workload.generator.node_memory_mb: only a memory_distribution" -- \
  run "$work/good.yaml" --set workload.generator.node_memory_mb=3
expect_error negative_backlog 2 "--set" "simulation.max_backlog: must be between 0" -- \
  run "$work/good.yaml" --set simulation.max_backlog=-1
expect_error apvm_fraction 1 "policy.params.fraction: '2' is not in (0, 1]" -- \
  run "$work/good.yaml" --set policy.name=apvm --set policy.params.fraction=2
# A reallocation cost of 1e20 s a processor ran forever: the clock went past where its seconds still count.
expect_error equi_reallocation_cost 1 "policy.params.reallocation_cost: '1e20' is not in [0, 1000000]" -- \
  run "$work/good.yaml" --set policy.name=equi --set workload.jobs.shape=malleable \
  --set policy.params.reallocation_cost=1e20
# Quanta below a millisecond: 1e-300 s would not move the clock (memory-constrained stopped with an internal error).
for policy in gang ap memory-constrained; do
  expect_error "tiny_quantum_$policy" 1 "policy.params.quantum: '1e-300' is not at least 0.001" -- \
    run "$work/good.yaml" --set policy.name=$policy --set policy.params.quantum=1e-300
done
# opt-epoch's search bound: a parameter in range, and a search past it stops the run naming the key, the quantum's time
# and its number of jobs (k = 0 has no early stop: two jobs on 16 nodes examine two partitions).
expect_error opt_epoch_bound_range 1 "policy.params.max_partitions_examined: '0' is not in [1, 1e+15]" -- \
  run "$work/good.yaml" --set policy.name=memory-constrained --set policy.params.max_partitions_examined=0
expect_error opt_epoch_bound_exceeded 4 "policy.params.max_partitions_examined: the opt-epoch schedule of the quantum" \
  "starting at 51 s, for 2 jobs," "more than 1 partitions" "use policy.params.policy: heuristic-epoch" -- \
  run "$work/good.yaml" --set policy.name=memory-constrained --set policy.params.k=0 \
  --set policy.params.max_partitions_examined=1
# The bound belongs to opt-epoch and k to hybrid, opt-epoch and heuristic-epoch: under the other schedulers they are read
# and not used, as a sweep over policy.params.policy holding them fixed needs (README): the same jobs.csv as without.
problems=""
for scheduler in buddy-star equi-epoch heuristic-epoch; do
  "$bin" run "$work/good.yaml" --quiet --out "$work/mc-$scheduler" --set policy.name=memory-constrained \
    --set policy.params.policy=$scheduler 2>>"$work/mc-bound.err" || problems+=" $scheduler failed;"
  "$bin" run "$work/good.yaml" --quiet --out "$work/mc-$scheduler-bound" --set policy.name=memory-constrained \
    --set policy.params.policy=$scheduler --set policy.params.max_partitions_examined=1 \
    $([ $scheduler = heuristic-epoch ] || echo --set policy.params.k=0) 2>>"$work/mc-bound.err" ||
    problems+=" $scheduler with the bound failed;"
  cmp -s "$work/mc-$scheduler/jobs.csv" "$work/mc-$scheduler-bound/jobs.csv" || problems+=" $scheduler jobs.csv differs;"
done
report opt_epoch_bound_ignored_elsewhere "$problems$(head -c 300 "$work/mc-bound.err")"
expect_error gang_now_owner_periods 1 "owners.mean_idle: must be at least 1" -- \
  run "$src/scenarios/gang-now/now.yaml" --set owners.mean_idle=1e-300
# A job whose memory needs more processors than its bounds allow (but no more than the machine has; more is an
# oversize job, below): moldable jobs of at most 1 processor.
expect_error apmc_memory_over_bounds 2 "job 1 needs at least 3 processors for its memory (policy.params.node_memory_mb: 1)" \
  "more than its maximum 1 (workload.jobs.max_size; without it, its size)" -- \
  run "$work/good.yaml" --set policy.name=apmc --set workload.generator.memory_distribution=A \
  --set policy.params.node_memory_mb=1 --set workload.jobs.shape=moldable --set workload.jobs.max_size=1
# workload.jobs.memory_mb, given to the jobs without memory of their own once the workload is built, counts in its
# filter: under APMC with nodes of 1 MB, 2 MB a process and moldable jobs of up to all 16 processors, a job of s
# processors needs 2 s of them, so those of more than 8 are larger than the machine: skipped (counted as
# larger_than_machine: as many as the same workload's jobs of more than 8 processors under fcfs), or, with
# oversize_jobs: error, refused naming both keys, where the policy used to refuse the first one mid-run naming
# policy.params alone.
memory_sets=(--set policy.name=apmc --set policy.params.node_memory_mb=1 --set workload.jobs.memory_mb=2
  --set workload.jobs.shape=moldable --set workload.jobs.max_size=16)
"$bin" run "$work/good.yaml" --quiet --out "$work/memory-mb" "${memory_sets[@]}" 2>"$work/memory-mb.err"
"$bin" run "$work/good.yaml" --quiet --out "$work/memory-mb-fcfs" --set policy.name=fcfs 2>>"$work/memory-mb.err"
wide=$(awk -F, 'NR > 1 && $5 > 8' "$work/memory-mb-fcfs/jobs.csv" | wc -l)
skipped=$(field jobs_rejected_by_reason "$work/memory-mb/summary.json")
[ "$wide" -gt 0 ] && [ "$skipped" = "{\"larger_than_machine\": $wide}" ]
report memory_mb_filtered_as_oversize "$([ $? -eq 0 ] || echo " $wide jobs of more than 8 processors, rejected: $skipped $(head -c 300 "$work/memory-mb.err")")"
expect_error memory_mb_oversize_error 2 "needs at least" "processors for its memory (policy.params.node_memory_mb: 1; workload.jobs.memory_mb: 2 for a job without its own), but the machine has 16" -- \
  run "$work/good.yaml" "${memory_sets[@]}" --set workload.oversize_jobs=error
expect_error scenario_is_a_string 2 "string.yaml:1:" "expected a mapping" -- run "$(printf '"a string"\n' >"$work/string.yaml"; echo "$work/string.yaml")"
expect_error set_blames_set 2 "--set" "policy.name: expected text" -- run "$work/good.yaml" --set policy.name.x=1
# Image stores checked before the run: a host that does not exist, or that the compute hosts cannot reach.
expect_error image_host_missing 1 "simulation.images.host: no host named 'nope'" -- \
  run "$work/good.yaml" --set policy.name=gang --set simulation.images='{store: host, host: nope}'
expect_error image_host_unreachable 2 "simulation.images.host: host node-0 has no route to frontend" "Bad gateways" -- \
  run "$work/good.yaml" --set policy.name=gang --set simulation.images='{store: host, host: frontend}'
expect_error image_local_disk_missing 1 "local-disk needs a disk on every compute host" -- \
  run "$work/good.yaml" --set policy.name=gang --set simulation.images='{store: local-disk}'
# An indentation error: yaml-cpp's words and what they mean.
printf 'name: indent\nplatform: %s\nworkload:\n  generator:\n    jobs: 5\n   seed: 3\n' "$platform" >"$work/indent.yaml"
expect_error yaml_indentation 3 "indent.yaml:6:" "end of map not found" "check the indentation" -- run "$work/indent.yaml"

# ---- Traces ----

# A 64-processor job (line 3) on a 16-processor machine, with oversize jobs made an error.
cat >"$work/big.swf" <<'EOF'
; MaxProcs: 64
1 0 0 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1
2 10 0 100 64 -1 -1 64 200 -1 1 1 1 -1 -1 -1 -1 -1
EOF
{
  scenario_head oversize
  printf 'workload:\n  trace: ./big.swf\n'
} >"$work/oversize.yaml"
expect_error oversize_job 3 "big.swf:3:" "job 2" "64 processors" -- \
  run "$work/oversize.yaml" --set workload.oversize_jobs=error

# APMC and APVM size partitions by memory: a workload without any (the generator's default, a trace whose SWF fields
# 7 and 10 are -1) would make them AP under another name.
expect_error apmc_without_memory 3 "--set: policy.name: apmc" "no job of the workload has any" \
  "SWF fields 7 and 10" -- run "$work/good.yaml" --set policy.name=apmc
expect_error apvm_without_memory 2 "--set: policy.name: apvm" "workload.generator.memory_distribution" -- \
  run "$work/good.yaml" --set policy.name=apvm
# A subnormal number where a positive one is expected (a VP of work 1e-320 s never ended).
expect_error subnormal_vp_work 2 "workload.generator.min_work: must be above 0, got 1e-320" "subnormal" -- \
  run "$src/scenarios/gang-now/now.yaml" --set workload.generator.min_work=1e-320
expect_error subnormal_run_time 1 "workload.generator.min_run_time: must be above 0, got 1e-320" -- \
  run "$work/good.yaml" --set workload.generator.min_run_time=1e-320
# memory-constrained with min_nodes: memory on jobs that have none used to fall back to min_size without a word.
expect_error min_nodes_memory_without_memory 3 "--set: policy.name: memory-constrained" \
  "no job of the workload has any" "workload.jobs.memory_mb" -- run "$work/good.yaml" \
  --set policy.name=memory-constrained --set policy.params.min_nodes=memory --set policy.params.node_memory_mb=64
expect_error apmc_trace_without_memory 2 "--set: policy.name: apmc" "no job of the workload has any" -- \
  run "$work/oversize.yaml" --set policy.name=apmc

# Under gang with partitions of 5, one job has at most 15 of the 16 processors: a 16-processor job (line 2) is an
# oversize job, an error when oversize_jobs says so (naming the key), else skipped and counted.
cat >"$work/whole.swf" <<'EOF'
1 0 0 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1
2 10 0 100 16 -1 -1 16 200 -1 1 1 1 -1 -1 -1 -1 -1
3 20 0 100 15 -1 -1 15 200 -1 1 1 1 -1 -1 -1 -1 -1
EOF
{
  scenario_head gang_oversize
  printf 'workload:\n  trace: ./whole.swf\npolicy:\n  name: gang\n  params: {partition_size: 5, quantum: 60}\n'
} >"$work/gang-oversize.yaml"
expect_error gang_oversize_job 4 "whole.swf:2:" "job 2 asks for 16 processors" "at most 15 of the 16" \
  "policy.params.partition_size: 3 partitions of 5 processors" -- \
  run "$work/gang-oversize.yaml" --set workload.oversize_jobs=error
problems=""
"$bin" run "$work/gang-oversize.yaml" --quiet --out "$work/out-gang-oversize" >/dev/null 2>"$work/gang-oversize.stderr" ||
  problems+=" exit status $? (expected 0): $(head -n 1 "$work/gang-oversize.stderr");"
grep -q '"jobs_rejected_by_reason": {"larger_than_machine": 1}' "$work/out-gang-oversize/summary.json" 2>/dev/null ||
  problems+=" summary.json does not count one larger_than_machine job;"
grep -q '"jobs_completed": 2,' "$work/out-gang-oversize/summary.json" 2>/dev/null ||
  problems+=" summary.json does not count 2 completed jobs;"
report gang_oversize_skipped "$problems"

# A job whose memory needs more processors than the machine has is an oversize job as one asking for more: under
# APMC with 100 MB nodes, job 2 (line 2: 16 processors of 100,000 KB = 1,600,000 KB) needs ceil(1,600,000 / 102,400)
# = 16 processors, job 3 (line 3: 2 of 900,000 KB) ceil(1,800,000 / 102,400) = 18, more than the 16: skipped and
# counted as larger_than_machine, or, with oversize_jobs: error, one line naming the trace's line and the keys.
# memory-constrained's min_nodes: memory counts nodes the same way. The policy refused the whole run, naming no file.
cat >"$work/memory.swf" <<'EOF'
1 0 0 100 4 -1 102400 4 200 -1 1 1 1 -1 -1 -1 -1 -1
2 10 0 100 16 -1 100000 16 200 -1 1 1 1 -1 -1 -1 -1 -1
3 20 0 100 2 -1 900000 2 200 -1 1 1 1 -1 -1 -1 -1 -1
EOF
{
  scenario_head memory_oversize
  printf 'workload:\n  trace: ./memory.swf\npolicy:\n  name: apmc\n  params: {node_memory_mb: 100}\n'
} >"$work/memory-oversize.yaml"
expect_error apmc_memory_oversize_job 3 "memory.swf:3:" "job 3 needs at least 18 processors for its memory" \
  "(policy.params.node_memory_mb: 100), but the machine has 16" -- \
  run "$work/memory-oversize.yaml" --set workload.oversize_jobs=error
expect_error mc_memory_oversize_job 3 "memory.swf:3:" "job 3 needs at least 18 processors for its memory" \
  "(policy.params.min_nodes: memory, node_memory_mb: 100), but the machine has 16" -- \
  run "$work/memory-oversize.yaml" --set workload.oversize_jobs=error --set policy.name=memory-constrained \
  --set policy.params='{min_nodes: memory, node_memory_mb: 100}'
for policy in apmc memory-constrained; do
  problems=""
  params='{node_memory_mb: 100}'
  [ $policy = memory-constrained ] && params='{min_nodes: memory, node_memory_mb: 100}'
  "$bin" run "$work/memory-oversize.yaml" --quiet --set policy.name=$policy --set policy.params="$params" \
    --out "$work/out-memory-oversize-$policy" >/dev/null 2>"$work/memory-oversize.stderr" ||
    problems+=" exit status $? (expected 0): $(head -n 1 "$work/memory-oversize.stderr");"
  grep -q '"jobs_rejected_by_reason": {"larger_than_machine": 1}' "$work/out-memory-oversize-$policy/summary.json" \
    2>/dev/null || problems+=" summary.json does not count one larger_than_machine job;"
  grep -q '"jobs_completed": 2,' "$work/out-memory-oversize-$policy/summary.json" 2>/dev/null ||
    problems+=" summary.json does not count 2 completed jobs;"
  report "memory_oversize_skipped_$policy" "$problems"
done

# APVM's paging overhead O is at most 100 (README): 1e6 made every paged job run a million times longer, and the run
# never ended.
expect_error apvm_overhead 1 "policy.params.overhead: '1e6' is not in [0, 100]" -- \
  run "$work/memory-oversize.yaml" --set policy.name=apvm --set policy.params.overhead=1e6

# Owners' traces: times are decimal numbers (README); strtod took hexadecimal. Spaces around fields are allowed.
printf '0x10,node-0,busy\n' >"$work/hex-owners.csv"
expect_error owners_hex_time 2 "hex-owners.csv:1:" "time '0x10' is not a finite decimal number of seconds" -- \
  run "$work/good.yaml" --set "owners={model: trace, trace: $work/hex-owners.csv}"
printf ' 16 , node-0 , busy \n20,node-0,idle\n' >"$work/spaced-owners.csv"
problems=""
"$bin" run "$work/good.yaml" --quiet --set "owners={model: trace, trace: $work/spaced-owners.csv}" \
  --out "$work/out-spaced-owners" >/dev/null 2>"$work/spaced-owners.stderr" ||
  problems+=" exit status $? (expected 0): $(head -n 1 "$work/spaced-owners.stderr");"
report owners_spaces_around_fields "$problems"
# An owner busy for good from 0: the jobs that need node-0 wait for ever: the error names the owners' trace, not the
# platform (every host is up).
printf '0,node-0,busy\n' >"$work/forever-owners.csv"
printf '1 0 0 100 16 -1 -1 16 200 -1 1 1 1 -1 -1 -1 -1 -1\n' >"$work/whole-machine.swf"
{
  scenario_head owner_forever
  printf 'workload:\n  trace: ./whole-machine.swf\nowners: {model: trace, trace: ./forever-owners.csv}\n'
} >"$work/owner-forever.yaml"
expect_error owner_busy_forever 2 "forever-owners.csv: 1 jobs wait and only hosts their owners hold could run them" \
  "(node-0), but none came back in the 2592000 s since 0 s" -- run "$work/owner-forever.yaml"

{
  scenario_head missing_trace
  printf 'workload:\n  trace: no-such-trace-7f3a.swf.gz\n'
} >"$work/missing-trace.yaml"
expect_error missing_trace 3 "workload.trace" "no-such-trace-7f3a.swf.gz" "Parallel Workloads Archive" -- \
  run "$work/missing-trace.yaml"

# Whole numbers in range, times that can be simulated, job numbers once.
swf_case() { # NAME LINE EXPECTED...: a trace of one good job then LINE
  local name=$1 line=$2
  shift 2
  printf '1 0 0 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n%s\n' "$line" >"$work/$name.swf"
  { scenario_head "$name"; printf 'workload:\n  trace: ./%s.swf\n' "$name"; } >"$work/$name.yaml"
  expect_error "$name" "$#" "$@" -- run "$work/$name.yaml"
}
swf_case swf_fractional_size "2 10 0 100 4.7 -1 -1 4.7 200 -1 1 1 1 -1 -1 -1 -1 -1" "swf_fractional_size.swf:2:" \
  "not a whole number: 4.7"
swf_case swf_huge_size "2 10 0 100 4 -1 -1 3e9 200 -1 1 1 1 -1 -1 -1 -1 -1" "swf_huge_size.swf:2:" "out of range"
swf_case swf_huge_id "1e30 10 0 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1" "swf_huge_id.swf:2:" "job number"
swf_case swf_huge_run_time "2 10 0 1e300 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1" "swf_huge_run_time.swf:2:" \
  "beyond what can be simulated"
# Identifiers (fields 12 to 18) are whole numbers, -1 when unknown; the average CPU time (field 6) is -1 when unknown.
swf_case swf_fractional_group "2 10 0 100 4 -1 -1 4 200 -1 1 1 4.7 -1 -1 -1 -1 -1" "swf_fractional_group.swf:2:" \
  "field 13 (group id) is not a whole number: 4.7"
swf_case swf_huge_preceding_job "2 10 0 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 1e20 -1" "swf_huge_preceding_job.swf:2:" \
  "field 17 (preceding job)" "out of range"
swf_case swf_negative_think_time "2 10 0 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -3" "swf_negative_think_time.swf:2:" \
  "field 18 (think time) -3 is negative"
swf_case swf_negative_cpu_time "2 10 0 100 4 -5 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1" "swf_negative_cpu_time.swf:2:" \
  "field 6 (average CPU time) -5 is negative"
# A trace of comments and blank lines only: the trace named, not "no job left after filtering" in the scenario.
printf '; MaxProcs: 16\n\n;\n' >"$work/no_jobs.swf"
{ scenario_head no_jobs; printf 'workload:\n  trace: ./no_jobs.swf\n'; } >"$work/no_jobs.yaml"
expect_error swf_no_jobs 1 "no_jobs.swf: no job in the trace" -- run "$work/no_jobs.yaml"
swf_case swf_duplicate_id "1 10 0 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1" "swf_duplicate_id.swf:2:" \
  "appears twice (first at" "swf_duplicate_id.swf:1)"

# Line 4 has 17 fields (comment on line 1, blank line 2, a good job on line 3).
cat >"$work/bad.swf" <<'EOF'
; MaxProcs: 16

1 0 0 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1
2 10 0 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1
EOF
{
  scenario_head bad_swf
  printf 'workload:\n  trace: ./bad.swf\n'
} >"$work/bad-swf.yaml"
expect_error malformed_swf_line 2 "bad.swf:4:" "18 fields" -- run "$work/bad-swf.yaml"

# ---- Platform ----

# A copy of cluster-16.xml whose line 11 closes the inner zone with a misspelt tag.
sed '11s#</zone>#</zonx>#' "$platform" >"$work/broken-platform.xml"
if cmp -s "$platform" "$work/broken-platform.xml"; then
  report malformed_platform_xml " could not break line 11 of $platform (its layout changed?)"
else
  {
    printf 'name: broken_platform\nplatform: broken-platform.xml\ndeployment: %s\n' "$deployment"
    printf 'workload:\n  generator:\n    jobs: 5\n'
  } >"$work/broken-platform.yaml"
  expect_error malformed_platform_xml 2 "broken-platform.xml: invalid platform" "broken-platform.xml:11" -- \
    run "$work/broken-platform.yaml"
fi

{
  printf 'name: missing_platform\nplatform: missing-platform.xml\ndeployment: %s\n' "$deployment"
  printf 'workload:\n  generator:\n    jobs: 5\n'
} >"$work/missing-platform.yaml"
expect_error missing_platform 2 "missing-platform.yaml: platform" "missing-platform.xml' does not exist" -- \
  run "$work/missing-platform.yaml"
# A folder given as the platform, in every kind of scenario (SimGrid's parser failed on it with no message).
for kind_scenario in quickstart.yaml gang-now/now.yaml hierarchical/ac-ds.yaml adaptive-partitioning/fork-join.yaml; do
  expect_error "folder_platform_${kind_scenario%%/*}" 1 "platform: file '$src/platforms' does not exist" -- \
    "$([ "$kind_scenario" = adaptive-partitioning/fork-join.yaml ] && echo fork-join || echo run)" \
    "$src/scenarios/$kind_scenario" --set "platform=$src/platforms"
done

# ---- Paths with a component longer than the file system allows (these used to end as an internal error, exit 3) ----

long_name=$(printf 'n%.0s' {1..300})
expect_error long_platform_name 2 "--set: platform: file '/tmp/$long_name.xml' cannot be looked up" \
  "File name too long" -- run "$work/good.yaml" --set "platform=/tmp/$long_name.xml"
expect_error long_deployment_name 1 "--set: deployment: file '/tmp/$long_name.xml' cannot be looked up" -- \
  run "$work/good.yaml" --set "deployment=/tmp/$long_name.xml"
expect_error long_trace_path 1 "workload.trace: file '/tmp/$long_name.swf' cannot be looked up" -- \
  run "$work/good.yaml" --set workload.generator=null --set "workload.trace=/tmp/$long_name.swf"
expect_error long_trace_name 2 "workload.trace: file '" "/$long_name.swf' cannot be looked up" -- \
  run "$work/good.yaml" --set workload.generator=null --set "workload.trace=$long_name.swf"
expect_error long_owner_trace 1 "owners.trace: file '/tmp/$long_name.csv' cannot be looked up" -- \
  run "$src/scenarios/gang-now/now.yaml" --set "owners={model: trace, trace: /tmp/$long_name.csv}"
expect_error long_scenario_name 1 "/tmp/$long_name.yaml" -- run "/tmp/$long_name.yaml"

# ---- Command line ----

# A quoted value stays on one line: a YAML block scalar's newlines are written \n, a tab \t (these used to split
# the message over several lines), and a long value is cut.
{
  scenario_head block_number
  printf 'workload:\n  generator:\n    jobs: |\n      5\n      6\n'
} >"$work/block-number.yaml"
expect_error block_scalar_number 2 "block-number.yaml:6: workload.generator.jobs" "got '5\\n6\\n'" -- \
  run "$work/block-number.yaml"
{
  scenario_head block_param
  printf 'workload:\n  generator: {jobs: 5}\n'
  printf 'policy:\n  name: gang\n  params:\n    quantum: |\n      60\n      \t120\n'
} >"$work/block-param.yaml"
expect_error block_scalar_parameter 1 "policy.params.quantum: expected a finite number, got '60\\n\\t120\\n'" -- \
  run "$work/block-param.yaml"
expect_error long_quoted_value 3 "policy.name" "unknown name 'xxxxxxxxxx" "xxx...' (300 characters)" -- \
  run "$work/good.yaml" --set "policy.name=$(printf 'x%.0s' {1..300})"
expect_error newline_in_option 1 "unknown option '--bo\\ngus'" -- run "$work/good.yaml" $'--bo\ngus'

expect_error unknown_option 1 "unknown option '--bogus'" -- run "$work/good.yaml" --bogus
expect_error no_scenario 1 "no scenario given" -- run

# ---- A trace named with a comma: jobs.csv quotes its workload_name (RFC 4180), every row keeps 29 fields ----
printf '1 0 0 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n2 10 0 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n' \
  >"$work/a,b.swf"
problems=""
"$bin" run "$work/good.yaml" --quiet --out "$work/comma" --set workload.generator=null \
  --set "workload.trace=$work/a,b.swf" 2>"$work/comma.err" || problems+=" failed: $(head -c 300 "$work/comma.err");"
[ "$(cut -c1-12 "$work/comma/jobs.csv" 2>/dev/null | sed -n 2p)" = '1,"a,b.swf",' ] ||
  problems+=" row 1: $(sed -n 2p "$work/comma/jobs.csv" 2>/dev/null | cut -c1-40);"
sed 's/"[^"]*"/Q/g' "$work/comma/jobs.csv" | awk -F, 'NR == 1 { n = NF } NF != n || n < 29 { bad = 1 } END { exit bad }' ||
  problems+=" rows without the header's fields;"
report comma_in_workload_name "$problems"

# ---- A successful run ----

out="$work/results/nested/ok"
"$bin" run "$work/good.yaml" --out "$out" >"$work/ok.stdout" 2>"$work/ok.stderr"
status=$?
problems=""
[ "$status" -eq 0 ] || problems+=" exit status $status;"
[ ! -s "$work/ok.stderr" ] || problems+=" stderr not empty: $(head -c 300 "$work/ok.stderr" | tr '\n' '|');"
listing=$(cd "$out" 2>/dev/null && ls -A | tr '\n' ' ')
[ "$listing" = "jobs.csv performance.json summary.json trace.csv " ] || problems+=" output folder holds '$listing';"
if [ -f "$out/jobs.csv" ]; then
  rows=$(awk 'END { print NR }' "$out/jobs.csv")
  [ "$rows" -eq 21 ] || problems+=" jobs.csv has $rows lines (expected a header and 20 jobs);"
  head -n 1 "$out/jobs.csv" | grep -q '^job_id,' || problems+=" jobs.csv header does not start with job_id;"
fi
if [ -f "$out/summary.json" ]; then
  grep -q '"jobs_simulated": 20' "$out/summary.json" || problems+=" summary.json lacks \"jobs_simulated\": 20;"
  if command -v python3 >/dev/null; then
    python3 -m json.tool "$out/summary.json" >/dev/null 2>&1 || problems+=" summary.json is not valid JSON;"
    python3 -m json.tool "$out/performance.json" >/dev/null 2>&1 || problems+=" performance.json is not valid JSON;"
  fi
fi
grep -qF "$out" "$work/ok.stdout" || problems+=" stdout does not name the output folder;"
report out_success "$problems"

# --quiet prints nothing at all.
"$bin" run "$work/good.yaml" --quiet --out "$work/quiet" >"$work/quiet.stdout" 2>"$work/quiet.stderr"
status=$?
problems=""
[ "$status" -eq 0 ] || problems+=" exit status $status;"
[ ! -s "$work/quiet.stdout" ] || problems+=" stdout not empty;"
[ ! -s "$work/quiet.stderr" ] || problems+=" stderr not empty;"
[ -f "$work/quiet/jobs.csv" ] || problems+=" no jobs.csv;"
report quiet_success "$problems"

# output.jobs: false and output.trace: false leave jobs.csv and trace.csv out; summary.json is the same.
"$bin" run "$work/good.yaml" --quiet --out "$work/lean" --set output.jobs=false --set output.trace=false
listing=$(cd "$work/lean" 2>/dev/null && ls -A | tr '\n' ' ')
problems=""
[ "$listing" = "performance.json summary.json " ] || problems+=" output folder holds '$listing';"
cmp -s "$work/lean/summary.json" "$work/quiet/summary.json" || problems+=" summary.json differs;"
report without_jobs_and_trace "$problems"

# A run into an existing folder replaces its outputs and nothing else. `--out .` from inside a folder, the shell
# redirecting stdout into it, deleted its .git and hidden files; `--out DIR` did so to DIR's.
here="$work/here"
mkdir -p "$here/.git" && echo ref >"$here/.git/HEAD" && echo h >"$here/.hidden" && echo n >"$here/notes.txt"
echo old >"$here/trace.csv"
(cd "$here" && "$bin" run "$work/good.yaml" --quiet --out . --set output.trace=false >log.txt 2>&1)
listing=$(cd "$here" && ls -A | tr '\n' ' ')
problems=""
[ "$listing" = ".git .hidden jobs.csv log.txt notes.txt performance.json summary.json " ] ||
  problems+=" the folder holds '$listing';"
[ "$(cat "$here/.git/HEAD" 2>/dev/null)" = ref ] || problems+=" .git/HEAD changed;"
cmp -s "$here/summary.json" "$work/lean/summary.json" || problems+=" summary.json differs from a new folder's;"
report out_current_folder_keeps_other_files "$problems"

(cd "$work" && "$bin" run "$work/good.yaml" --quiet --out here/ >/dev/null 2>&1)
listing=$(cd "$here" && ls -A | tr '\n' ' ')
problems=""
[ "$listing" = ".git .hidden jobs.csv log.txt notes.txt performance.json summary.json trace.csv " ] ||
  problems+=" the folder holds '$listing';"
cmp -s "$here/jobs.csv" "$work/quiet/jobs.csv" || problems+=" jobs.csv differs from a new folder's;"
report out_existing_folder_keeps_other_files "$problems"

# ---- Determinism: the quickstart twice gives byte-identical results (performance.json is wall time) ----

problems=""
for i in 1 2; do
  "$bin" run "$src/scenarios/quickstart.yaml" --quiet --out "$work/quick$i" >/dev/null 2>"$work/quick$i.stderr"
  status=$?
  [ "$status" -eq 0 ] || problems+=" run $i exit status $status: $(head -c 300 "$work/quick$i.stderr" | tr '\n' '|');"
  [ -f "$work/quick$i/performance.json" ] || problems+=" run $i wrote no performance.json;"
done
for f in jobs.csv summary.json; do
  if [ -f "$work/quick1/$f" ] && [ -f "$work/quick2/$f" ]; then
    cmp -s "$work/quick1/$f" "$work/quick2/$f" || problems+=" $f differs between the two runs;"
  else
    problems+=" $f missing;"
  fi
done
if [ -f "$work/quick1/jobs.csv" ]; then
  rows=$(awk 'END { print NR }' "$work/quick1/jobs.csv")
  [ "$rows" -eq 501 ] || problems+=" quickstart jobs.csv has $rows lines (expected a header and 500 jobs);"
fi
report quickstart_deterministic "$problems"

# ---- jobsched plan: bad arguments and inputs a policy cannot schedule ----

# expect_command_error NAME FRAGMENT -- COMMAND ARG...: like expect_error, for the commands that take no --out
# (plan, mesh-platform): exit status 2, one line 'jobsched: error: ...FRAGMENT...', nothing on stdout.
expect_command_error() {
  local name=$1 fragment=$2
  shift 2
  [ "$1" = "--" ] && shift
  "$bin" "$@" >"$work/$name.stdout" 2>"$work/$name.stderr"
  local status=$? problems=""
  [ "$status" -eq 2 ] || problems+=" exit status $status (expected 2);"
  local lines first
  lines=$(awk 'END { print NR }' "$work/$name.stderr")
  [ "$lines" -eq 1 ] || problems+=" $lines stderr lines (expected 1);"
  first=$(head -n 1 "$work/$name.stderr")
  case "$first" in
    "jobsched: error: "*"$fragment"*) ;;
    *) problems+=" stderr is not 'jobsched: error: ...$fragment...': $first;" ;;
  esac
  [ -s "$work/$name.stdout" ] && problems+=" stdout not empty;"
  report "$name" "$problems"
}
expect_plan_error() { expect_command_error "$1" "$2" -- plan "${@:4}"; }
expect_plan_error plan_no_policy "no policy given" -- --nodes 16 --mins 1,2
expect_plan_error plan_unknown_policy "unknown memory-constrained policy 'bubby'" -- bubby --nodes 16 --mins 1
expect_plan_error plan_no_nodes "--nodes N is required" -- buddy --mins 1,2
expect_plan_error plan_no_mins "--mins M1,M2,... is required" -- buddy --nodes 16
expect_plan_error plan_bad_nodes "--nodes: 'x16' is not a whole number" -- buddy --nodes x16 --mins 1
expect_plan_error plan_zero_nodes "--nodes: 0 is out of range" -- buddy --nodes 0 --mins 1
expect_plan_error plan_bad_mins "--mins: '' is not a whole number" -- equi-epoch --nodes 16 --mins 1,,2
expect_plan_error plan_trailing_comma "--mins: expected M1,M2,..." -- equi-epoch --nodes 16 --mins 1,2,
expect_plan_error plan_negative_k "--k: -1 is out of range" -- hybrid --nodes 16 --mins 1,2 --k -1
expect_plan_error plan_k_not_taken "buddy takes no --k" -- buddy --nodes 16 --mins 1,2 --k 1
expect_plan_error plan_unknown_option "unknown option '--out'" -- buddy --nodes 16 --mins 1,2 --out x
expect_plan_error plan_missing_value "--mins needs a value" -- buddy --nodes 16 --mins
expect_plan_error plan_job_too_big "job 1 needs 17 nodes, more than the 16" -- equi-epoch --nodes 16 --mins 4,17
expect_plan_error plan_buddy_j "buddy: needs J a power of two (J = 3)" -- buddy --nodes 16 --mins 1,2,3
expect_plan_error plan_buddy_n "buddy: needs N a power of two (N = 12)" -- buddy --nodes 12 --mins 1,2
expect_plan_error plan_buddy_star_n "buddy-star: needs N a power of two" -- buddy-star --nodes 12 --mins 1,2,3
expect_plan_error plan_opt_large_k "opt-epoch: k = 2" -- opt-epoch --nodes 16 --mins 1,2,3 --k 2
expect_plan_error plan_opt_bound "the search examined more than 3 partitions" -- \
  opt-epoch --nodes 140 --k 0 --max-partitions 3 --mins 10,10,10,10,10,10,10,10,10,10,10,10,10,10,10,10,10,10,10,10


# jobsched plot --label takes KEY=TEXT.
mkdir -p "$work/plot-sweep"
printf 'point,policy.name,metric,n,mean,std,ci95_half_width\n1,easy,mean_bounded_slowdown,1,2,,\n' \
  >"$work/plot-sweep/aggregate.csv"
expect_error plot_label_without_text 2 "--label 'policy.name'" "expected KEY=TEXT" -- \
  plot "$work/plot-sweep" --label policy.name
# jobsched plot on a run's files cut short (read while the run wrote them, or its writer stopped): the last row of
# trace.csv cut inside its state ('run' of running) was drawn as a job not computing, and jobs.csv cut inside its last
# field was read; a row's state that trace.csv never holds; the hidden folder a run writes into.
"$bin" run "$work/good.yaml" --set policy.name=gang --out "$work/plot-run" --quiet
plot_copy() { # NAME: a copy of the run's folder
  rm -rf "${work:?}/$1"
  cp -r "$work/plot-run" "$work/$1"
}
plot_copy plot-trace-cut
head -c -5 "$work/plot-run/trace.csv" >"$work/plot-trace-cut/trace.csv" # "...,running\n" -> "...,run"
trace_last_line=$(wc -l <"$work/plot-run/trace.csv")
expect_error plot_trace_cut_short 2 "plot-trace-cut/trace.csv:$trace_last_line: the file ends inside this line" \
  "cut short" -- plot "$work/plot-trace-cut"
plot_copy plot-jobs-cut
head -c -2 "$work/plot-run/jobs.csv" >"$work/plot-jobs-cut/jobs.csv" # its last field's last digit and the line end
expect_error plot_jobs_cut_short 1 "plot-jobs-cut/jobs.csv:$(wc -l <"$work/plot-run/jobs.csv"): the file ends inside \
this line" -- plot "$work/plot-jobs-cut"
plot_copy plot-trace-state
{
  head -n -1 "$work/plot-run/trace.csv"
  tail -n 1 "$work/plot-run/trace.csv" | sed 's/,[a-z]*$/,run/'
} >"$work/plot-trace-state/trace.csv"
expect_error plot_unknown_state 2 "plot-trace-state/trace.csv:$trace_last_line: state 'run'" \
  "expected running, suspended, switching or transferring" -- plot "$work/plot-trace-state"
plot_copy .plot-run.tmp-host-123
expect_error plot_hidden_run_folder 2 ".plot-run.tmp-host-123: the hidden folder of a run still writing" \
  "plot the run's folder then" -- plot "$work/.plot-run.tmp-host-123"
# ---- jobsched plan mtat|compress|expand: bad arguments and inputs ----
expect_plan_error gang_no_capacities "plan mtat: --capacities A1,A2,... is required" -- mtat --vps 3
expect_plan_error gang_no_vps "plan compress: --vps X is required" -- compress --capacities 1,2
expect_plan_error gang_bad_capacity "--capacities: 'x' is not a positive decimal number" -- \
  mtat --capacities 1,x --vps 2
expect_plan_error gang_zero_capacity "--capacities: '0' is not positive" -- mtat --capacities 0,1 --vps 2
expect_plan_error gang_empty_capacity "--capacities: '' is not a positive" -- mtat --capacities 1,,2 --vps 2
expect_plan_error gang_long_decimal "--capacities: '1.12345' has more than 4 decimal places" -- \
  mtat --capacities 1.12345 --vps 2
expect_plan_error gang_zero_vps "--vps: 0 is out of range (1 to 1000000)" -- mtat --capacities 1,2 --vps 0
expect_plan_error gang_bad_vps "--vps: 'many' is not a whole number" -- mtat --capacities 1,2 --vps many
expect_plan_error gang_bad_variant "--variant: unknown MTAT variant 'best'" -- \
  mtat --capacities 1 --vps 2 --variant best
expect_plan_error gang_bad_compression "--variant: unknown compression variant 'optimal'" -- \
  compress --capacities 1 --vps 2 --variant optimal
expect_plan_error gang_bad_pool_target "--pool-target: unknown pool target 'all'" -- \
  compress --capacities 1 --vps 2 --pool-target all
expect_plan_error gang_unknown_option "plan mtat: unknown option '--nodes'" -- mtat --capacities 1 --vps 2 --nodes 4
expect_plan_error gang_stray_argument "plan mtat: unexpected argument 'extra'" -- mtat --capacities 1 --vps 2 extra
expect_plan_error gang_twice "--vps is given twice" -- mtat --capacities 1 --vps 2 --vps 3
expect_plan_error gang_no_value "--vps needs a value" -- mtat --capacities 1 --vps
expect_plan_error gang_archs_count "--archs: 1 architectures for 2 capacities" -- \
  mtat --capacities 1,2 --archs a --vps 3
expect_plan_error gang_vps_per_arch "--vps: the processors have several architectures" -- \
  mtat --capacities 1,2 --archs a,b --vps 3
expect_plan_error gang_unknown_arch "--vps: no processor has architecture 'c'" -- \
  mtat --capacities 1,2 --archs a,b --vps a=1,c=2
expect_plan_error gang_no_map "plan expand: --map FILE.json is required" -- expand
expect_plan_error gang_missing_map "--map: cannot read '$work/none.json'" -- expand --map "$work/none.json"
printf '{"processors": [{"name": "P1", "capacity": 1}],\n "slices": [[{"job": 1, "vps": 1}]' >"$work/cut.json"
expect_plan_error gang_malformed_map \
  "cut.json: malformed JSON: parse error at line 2, column 35: syntax error while parsing array - unexpected end of input" -- \
  expand --map "$work/cut.json"
printf '%s\n' '{"processors": [{"name": "P1", "capacity": 1}, {"name": "P2", "capacity": 1}],' \
  ' "slices": [[{"job": 1, "vps": 1}, null], [null, {"job": 1, "vps": 1}]]}' >"$work/split.json"
expect_plan_error gang_invalid_map \
  "split.json: invalid allocation map: job 1 is not placed the same way in slices 0 and 1" -- \
  expand --map "$work/split.json"
printf '{"processors": [{"name": "P1", "capacity": -1}], "slices": []}' >"$work/negative.json"
expect_plan_error gang_map_capacity \
  "negative.json: /processors/0/capacity: processor 'P1' capacity: '-1' is not a positive" -- \
  expand --map "$work/negative.json"
printf '{"processors": [{"name": "P1", "capacity": 1}], "slices": [[null]], "colour": 2}' >"$work/key.json"
expect_plan_error gang_map_unknown_key \
  "key.json: /colour: unknown key \"colour\" in the allocation map" -- \
  expand --map "$work/key.json"
printf '{"processors": [{"name": "P1", "capacity": 1}], "slices": [[{"job": 1, "vps": 1}]]}' >"$work/one.json"
expect_plan_error gang_job_without_vps "--job applies to a submission: give --vps too" -- \
  expand --map "$work/one.json" --job 3
expect_plan_error gang_job_taken "--job: job 1 is already in the map" -- expand --map "$work/one.json" --vps 1 --job 1
expect_plan_error gang_bad_search "--search: unknown expansion search 'wide'" -- \
  expand --map "$work/one.json" --search wide
expect_plan_error gang_bad_rule "--rule: unknown new-slice rule 'never'" -- \
  expand --map "$work/one.json" --vps 1 --rule never

# ---- The mesh platform generator, and mesh platforms ----
expect_mesh_error() { expect_command_error "$1" "$2" -- mesh-platform "${@:4}"; }
expect_mesh_error mesh_bad_width "--width: 'x' is not a whole number" -- --width x
expect_mesh_error mesh_zero_height "mesh: width and height must be at least 1" -- --height 0
expect_mesh_error mesh_too_many_io_nodes "io-nodes must be between 0 and the height (8), got 9" -- --io-nodes 9
# A memory the run then refuses (above check_host_memory()'s 1e12 MB) was written into the platform.
expect_mesh_error mesh_huge_memory "mesh: memory-mb must be above 0 and at most 1e12, got 1e+308" -- --memory-mb 1e308
expect_mesh_error mesh_bad_bandwidth "--bandwidth: 'fast' is not a positive bandwidth with its unit" -- \
  --bandwidth fast
# Units are read by SimGrid's own parser: a unit it does not know, a number alone, a value beyond a double.
expect_mesh_error mesh_unknown_speed_unit "--speed: '1Gfx' is not a positive speed with its unit (e.g. 1Gf; unknown \
unit: Gfx)" -- --speed 1Gfx
expect_mesh_error mesh_unitless_bandwidth "--nic-bandwidth: '200' is not a positive bandwidth" -- --nic-bandwidth 200
expect_mesh_error mesh_time_for_latency "--latency: '1uss' is not a time >= 0" -- --latency 1uss
expect_mesh_error mesh_negative_latency "--latency: '-1us' is not a time >= 0" -- --latency=-1us
expect_mesh_error mesh_huge_speed "--speed: '1e400Gf' is not a positive speed" -- --speed 1e400Gf
expect_mesh_error mesh_infinite_speed "--speed: 'inff' is not a positive speed" -- --speed inff
# nan and inf end in a letter but are numbers alone (SimGrid would warn on stderr before our line)
expect_mesh_error mesh_unitless_nan_speed "--speed: 'nan' is not a positive speed with its unit (e.g. 1Gf; a number \
alone has no unit)" -- --speed nan
expect_mesh_error mesh_unitless_inf_latency "--latency: 'inf' is not a time >= 0 with its unit (e.g. 1us; a number \
alone has no unit)" -- --latency inf

# The Python platform generators: the same rule (one line naming the option, exit status 2, nothing on stdout).
# expect_script_error NAME FRAGMENT -- SCRIPT ARG...
expect_script_error() {
  local name=$1 fragment=$2
  shift 3
  python3 "$src/scripts/$1" "${@:2}" >"$work/$name.stdout" 2>"$work/$name.stderr"
  local status=$? problems="" lines first
  [ "$status" -eq 2 ] || problems+=" exit status $status (expected 2);"
  lines=$(awk 'END { print NR }' "$work/$name.stderr")
  [ "$lines" -eq 1 ] || problems+=" $lines stderr lines (expected 1);"
  first=$(head -n 1 "$work/$name.stderr")
  case "$first" in
    "$1: error: "*"$fragment"*) ;;
    *) problems+=" stderr is not '$1: error: ...$fragment...': $first;" ;;
  esac
  [ -s "$work/$name.stdout" ] && problems+=" stdout not empty;"
  report "$name" "$problems"
}
if command -v python3 >/dev/null; then
  expect_script_error now_unknown_unit "--bandwidth: '1Gfx' is not a positive number with its unit" -- \
    now_platform.py --bandwidth 1Gfx
  expect_script_error now_unitless_latency "--latency: '100' is not a positive number with its unit" -- \
    now_platform.py --latency 100
  expect_script_error now_zero_bandwidth "--bandwidth: '0Mbps'" -- now_platform.py --bandwidth 0Mbps
  expect_script_error now_no_workstation "--workstations: must be between 1 and 1000, got 0" -- \
    now_platform.py --workstations 0
  expect_script_error grid_bad_wan_unit "--wan-bandwidth: '1GBpsx'" -- grid_of_clusters.py --wan-bandwidth 1GBpsx
  expect_script_error grid_no_node "--nodes: must be at least 1, got 0" -- grid_of_clusters.py --nodes 0
  # The scripts' unit tables against SimGrid's parser (which mesh-platform uses): every unit the scripts accept,
  # SimGrid accepts, and near misses are refused by both.
  problems=""
  while read -r kind option unit; do
    "$bin" mesh-platform --width 1 --height 1 "$option" "1$unit" >/dev/null 2>"$work/units.stderr" ||
      problems+=" SimGrid refuses the $kind unit '$unit' the scripts accept: $(head -n 1 "$work/units.stderr");"
  done < <(python3 -c "
import sys; sys.path.insert(0, '$src/scripts')
import simgrid_units as u
for x in sorted(u.BANDWIDTH_UNITS): print('bandwidth --bandwidth', x)
for x in sorted(u.TIME_UNITS): print('time --latency', x)")
  for unit in MBPS Mbs mbps Gfx B; do
    "$bin" mesh-platform --bandwidth "1$unit" >/dev/null 2>&1 && problems+=" SimGrid accepts the bandwidth unit '$unit';"
    python3 "$src/scripts/now_platform.py" --bandwidth "1$unit" >/dev/null 2>&1 &&
      problems+=" now_platform.py accepts the bandwidth unit '$unit';"
  done
  report generator_units_match_simgrid "$problems"
fi
expect_mesh_error mesh_unknown_option "unknown option '--depth'" -- --depth 3

# ---- The command line (CLI11): every sub-command refuses an unknown option in one line naming the command ----
for command in run fork-join sweep collect list-policies plot plan "plan mtat" "plan compress" "plan expand" \
  plan-sweep mesh-platform; do
  # shellcheck disable=SC2086 # "plan mtat" is two words
  expect_command_error "unknown_option_${command// /_}" "$command: unknown option '--bogus' (see jobsched $command --help)" \
    -- $command --bogus=1
done
expect_command_error unknown_option_launcher "unknown option '--bogus' (see jobsched --help)" -- --bogus
# A missing value, an extra word, an option given twice: one line each, naming the option or word.
expect_command_error missing_value_out "sweep: --out needs a value" -- sweep "$work/good.yaml" --out
expect_command_error extra_scenario "run: unexpected argument 'second.yaml'" -- run "$work/good.yaml" second.yaml
expect_command_error out_twice "run: --out is given twice" -- run "$work/good.yaml" --out a --out=b
# -jN is -j N: -j0 reaches the check of -j's value (it was an unknown option '-j0').
expect_command_error sweep_j0 "-j: expected an integer >= 1, got '0'" -- sweep "$work/good.yaml" -j0
# --shards N is the number of tasks of --slurm's array: alone it was accepted and did nothing (the sweep ran).
expect_command_error sweep_shards_without_slurm "--shards: only with --slurm (the number of its array tasks); to \
run one slice of the runs here, --shard I/N" -- sweep "$work/good.yaml" --shards 5
expect_error submesh_without_positions 2 "policy.allocation" "needs a mesh platform" -- \
  run "$work/good.yaml" --set policy.allocation=submesh-first-fit
sed 's|<prop id="y" value="3"/>||' "$src/platforms/mesh-16x8.xml" >"$work/mesh-without-y.xml"
expect_error mesh_host_without_y 1 "mesh-without-y.xml: host node-48: property y is missing" -- \
  run "$src/scenarios/adaptive-partitioning/mesh.yaml" --set platform="$work/mesh-without-y.xml"


# ---- Sweeps: a point that its runs would refuse is bad input of the sweep, refused before anything is written ----
# (every point is set up as `jobsched run --check` before the first run: the first bad one is named by its swept values)
mkdir -p "$work/sweep-points"
sed 's/speed="[^"]*"/speed="0"/' "$platform" >"$work/sweep-points/zero-speed.xml"
sweep_point() { # NAME SWEEP-LINE: a generated scenario on cluster-16 whose sweep is SWEEP-LINE
  printf 'name: %s\nplatform: %s\nworkload: {generator: {jobs: 20}}\nsweep: %s\n' "$1" "$platform" "$2" \
    >"$work/sweep-points/$1.yaml"
}
sweep_point platform "{platform: [$platform, $work/sweep-points/zero-speed.xml]}"
expect_error sweep_point_zero_speed 3 "sweep point 1 (platform=$work/sweep-points/zero-speed.xml)" \
  "zero-speed.xml: host 'node-0'" "speed of 0" -- sweep "$work/sweep-points/platform.yaml" --quiet
sweep_point end_time "{workload.end_time: [1e9, 0]}"
expect_error sweep_point_no_job_left 2 "sweep point 1 (workload.end_time=0)" "workload: no job left" -- \
  sweep "$work/sweep-points/end_time.yaml" --quiet
sweep_point paging "{workload.memory.model: [none, paging]}"
expect_error sweep_point_paging_without_memory 2 "sweep point 1 (workload.memory.model=paging)" \
  "paging needs each host's memory" -- sweep "$work/sweep-points/paging.yaml" --quiet
# A swept key given with --set as sweep.KEY: --set's dots are nesting, so the error names --set and the form that works
# (it named the scenario file and "sweep.policy", a key nobody typed).
expect_error sweep_dotted_key_by_set 2 "--set sweep.policy.name: --set reads the dots of a swept key as nesting" \
  "--set 'sweep={policy.name: [...]}'" -- sweep "$work/good.yaml" --quiet --set 'sweep.policy.name=[fcfs, easy]'
# A value given with --set, or by a point of the sweep, is named where it came from: --set, or the line of the sweep's
# list (the sweep named the scenario file's line 1 for --set's values, and the file for a policy's unknown name).
expect_error set_sweep_not_a_list 1 "error: --set: sweep.policy.name: expected a list" -- \
  sweep "$work/good.yaml" --quiet --set 'sweep={policy.name: fcfs}'
expect_error set_sweep_null 1 "error: --set: sweep.policy.name: null is refused" -- \
  sweep "$work/good.yaml" --quiet --set 'sweep={policy.name: [null]}'
expect_error set_seed_in_sweep 1 "error: --set: simulation.seed: expected an integer, got 'abc'" -- \
  sweep "$work/good.yaml" --quiet --set simulation.seed=abc
expect_error set_output_dir_in_sweep 1 "error: --set: output.dir: expected a folder name" -- \
  sweep "$work/good.yaml" --quiet --set 'output.dir=[1]'
expect_error set_rule_metric 1 "error: --set: replications.metric: 'foo' is not a numeric field" -- \
  sweep "$work/good.yaml" --quiet --set 'replications={min: 2, max: 4, metric: foo}'
expect_error set_policy_name 1 "error: --set: policy.name: unknown name 'bogus'" -- \
  run "$work/good.yaml" --quiet --set policy.name=bogus
expect_error set_policy_parameter 1 "error: --set: policy.params.foo: unknown parameter" -- \
  run "$work/good.yaml" --quiet --set policy.params.foo=1
sweep_point names "{policy.name: [fcfs, easy]}"
expect_error set_policy_parameter_in_sweep 2 "error: sweep point 0 (policy.name=fcfs): --set: policy.params.foo: unknown" \
  "parameter" -- sweep "$work/sweep-points/names.yaml" --quiet --set policy.params.foo=1
sweep_point bad_name "{policy.name: [fcfs, bogus]}"
expect_error sweep_point_unknown_name 1 "error: $work/sweep-points/bad_name.yaml:4: sweep point 1 (policy.name=bogus): \
policy.name: unknown name 'bogus'" -- sweep "$work/sweep-points/bad_name.yaml" --quiet
expect_error set_sweep_point_unknown_name 1 "error: --set: sweep point 1 (policy.name=bogus): policy.name: unknown \
name 'bogus'" -- sweep "$work/good.yaml" --quiet --set 'sweep={policy.name: [fcfs, bogus]}'
expect_error set_platform_missing 1 "error: --set: platform: file '$work/nothere.xml' does not exist" -- \
  run "$work/good.yaml" --quiet --set platform=nothere.xml
# --slurm checks every point too: no plan.csv, no sweep.sbatch.
expect_error sweep_point_slurm 1 "sweep point 1 (workload.end_time=0)" -- \
  sweep "$work/sweep-points/end_time.yaml" --quiet --slurm

# ---- replications: read by jobsched run too (it was read by sweep only), naming the key ----
for bad in 0 -1 1.5 .nan 1e99 100001 ten '!!str 3' '[]' '{}' '[1, -2]' '{min: 1}' '{min: 3, confidence: 2}' \
  '{min: 3, relative_half_width: .inf}' '{min: 3, foo: 1}'; do
  name="replications_$(printf '%s' "$bad" | tr -c 'A-Za-z0-9' '_')"
  { scenario_head "$name"; printf 'workload:\n  generator: {jobs: 5}\nreplications: %s\n' "$bad"; } >"$work/$name.yaml"
  expect_error "run_$name" 2 "$name.yaml:6: " "replications" -- run "$work/$name.yaml" --quiet
done
expect_error run_replications_set 1 "--set: replications: must be at least 1" -- \
  run "$work/good.yaml" --quiet --set replications=0
expect_error sweep_replications_set 1 "--set: replications: expected an integer, got '1.5'" -- \
  sweep "$work/good.yaml" --quiet --set replications=1.5
# An empty mapping: neither the absence's one run nor a stopping rule of defaults (it ran 3 to 30 runs a point).
expect_error sweep_replications_empty_set 1 "--set: replications: an empty stopping rule: give its keys" -- \
  sweep "$work/good.yaml" --quiet --set 'replications={}'

# ---- An empty --set value was read as null, which removes the key: the default ran ----
expect_error empty_set_value 1 "--set workload.generator.jobs: empty value" -- \
  run "$work/good.yaml" --quiet --set workload.generator.jobs=
expect_error empty_set_value_sweep 1 "--set policy.name: empty value" -- sweep "$work/good.yaml" --quiet --set 'policy.name= '

# ---- A second YAML document after '---' was dropped without a word ----
{ scenario_head two_documents; printf 'workload:\n  generator: {jobs: 5}\n---\npolicy: {name: fcfs}\n'; } \
  >"$work/two-documents.yaml"
expect_error second_document 2 "two-documents.yaml:6:" "a second YAML document" -- run "$work/two-documents.yaml"
{ printf -- '--- # the first document may open with its marker\n'; scenario_head two_documents
  printf 'workload:\n  generator: {jobs: 5}\n---\npolicy: {name: fcfs}\n'; } >"$work/two-markers.yaml"
expect_error second_document_after_marker 2 "two-markers.yaml:7:" "a second YAML document" -- \
  run "$work/two-markers.yaml"
# An empty document (a marker and comments alone) before the second one: the line is that of the content's marker, 6
# (s36 named the empty document's, 4).
{ scenario_head empty_then_content; printf -- '---\n# nothing here\n---\npolicy: {name: fcfs}\n'; } \
  >"$work/empty-then-content.yaml"
expect_error second_document_after_empty_one 2 "empty-then-content.yaml:6:" "a second YAML document" -- \
  run "$work/empty-then-content.yaml"
{ printf -- '# a comment before the first marker\n--- # it opens document 0\n'; scenario_head comment_first
  printf -- '--- # an empty document\n--- {policy: {name: fcfs}}\n'; } >"$work/comment-first.yaml"
expect_error second_document_comment_first 2 "comment-first.yaml:7:" "a second YAML document" -- \
  run "$work/comment-first.yaml"
{ scenario_head after_end; printf 'workload:\n  generator: {jobs: 5}\n...\n# the next document needs no marker\n'
  printf 'policy: {name: fcfs}\n# the end\n'; } >"$work/after-end.yaml"
expect_error second_document_after_end 2 "after-end.yaml:8:" "a second YAML document" -- run "$work/after-end.yaml"

# ---- A tag on a number or a boolean (!!str 20, !foo 20) was dropped, and the value read as the number ----
for tagged in '!!str 20' '!foo 20' '!!float 20'; do
  name="tagged_$(printf '%s' "$tagged" | tr -c 'A-Za-z0-9' '_')"
  { scenario_head "$name"; printf 'workload:\n  generator:\n    jobs: %s\n' "$tagged"; } >"$work/$name.yaml"
  expect_error "$name" 3 "$name.yaml:6: " "workload.generator.jobs: expected an integer" "tagged" -- \
    run "$work/$name.yaml"
done
# A quoted number (tag "!") is read as the number, as it always was.
{ scenario_head quoted_number; printf 'workload:\n  generator:\n    jobs: "7"\n'; } >"$work/quoted-number.yaml"
problems=""
"$bin" run "$work/quoted-number.yaml" --quiet --out "$work/out-quoted" 2>"$work/quoted.stderr" ||
  problems+=" refused: $(head -n 1 "$work/quoted.stderr");"
[ "$(grep -o '"jobs_simulated": [0-9]*' "$work/out-quoted/summary.json" | head -n 1)" = '"jobs_simulated": 7' ] ||
  problems+=" not 7 jobs: $(grep -o '"jobs_simulated": [0-9]*' "$work/out-quoted/summary.json" | head -n 1);"
report quoted_number_is_read "$problems"
{ scenario_head tagged_bool; printf 'workload:\n  generator: {jobs: 5}\noutput: {trace: !!str true}\n'; } \
  >"$work/tagged-bool.yaml"
expect_error tagged_boolean 2 "tagged-bool.yaml:6: " "output.trace: expected true or false" -- run "$work/tagged-bool.yaml"
{ scenario_head tagged_param; printf 'workload:\n  generator: {jobs: 5}\npolicy: {name: gang, params: {quantum: !x 600}}\n'; } \
  >"$work/tagged-param.yaml"
expect_error tagged_parameter 2 "tagged-param.yaml: " "policy.params.quantum: expected a number, got '600' tagged \
'!x'" -- run "$work/tagged-param.yaml"
# A policy's parameters take the core schema tags that name their declared type, as the scenario's keys do (s35
# refused every tag there): gang's quantum is a number, partition_size an integer, first-fit's allocator none.
{ scenario_head param_core_tags
  printf 'workload:\n  generator: {jobs: 5}\npolicy: {name: gang, params: {quantum: !!int 900, partition_size: !!int 4}}\n'; } \
  >"$work/param-core-tags.yaml"
problems=""
"$bin" run "$work/param-core-tags.yaml" --quiet --out "$work/out-param-core-tags" 2>"$work/param-core-tags.stderr" ||
  problems+=" refused: $(head -n 1 "$work/param-core-tags.stderr");"
[ "$(field jobs_simulated "$work/out-param-core-tags/summary.json")" = 5 ] || problems+=" not 5 jobs;"
"$bin" run "$work/param-core-tags.yaml" --quiet --out "$work/out-param-core-tags-set" \
  --set 'policy.params.quantum=!!float 600.5' 2>"$work/param-core-tags-set.stderr" ||
  problems+=" --set refused: $(head -n 1 "$work/param-core-tags-set.stderr");"
report parameter_core_schema_tags "$problems"
expect_error parameter_str_tag 1 "policy.params.quantum: expected a number, got '600' tagged 'tag:yaml.org,2002:str'" \
  -- run "$work/param-core-tags.yaml" --set 'policy.params.quantum=!!str 600'
expect_error parameter_float_tag_on_integer 1 "policy.params.partition_size: expected an integer, got '4' tagged" -- \
  run "$work/param-core-tags.yaml" --set 'policy.params.partition_size=!!float 4'
# The YAML core schema's tags that name the type asked (!!int, !!float, !!bool, !!null) were refused (s35); an empty
# document after the first (a file ending in '---', or '---' and comments) was refused as a second document.
{ scenario_head core_tags
  printf 'workload:\n  generator:\n    jobs: !!int 20\n    mean_interarrival: !!float 900\n'
  printf 'output: {trace: !!bool false}\nreplications: !!int 3\npolicy: !!null\n---\n# nothing more\n'; } \
  >"$work/core-tags.yaml"
problems=""
"$bin" run "$work/core-tags.yaml" --quiet --out "$work/out-core-tags" 2>"$work/core-tags.stderr" ||
  problems+=" refused: $(head -n 1 "$work/core-tags.stderr");"
[ "$(field jobs_simulated "$work/out-core-tags/summary.json")" = 20 ] ||
  problems+=" not 20 jobs: $(field jobs_simulated "$work/out-core-tags/summary.json");"
"$bin" sweep "$work/core-tags.yaml" --quiet --set 'replications=!!int 2' --out "$work/out-core-tags-sweep" \
  2>"$work/core-tags-sweep.stderr" || problems+=" sweep refused: $(head -n 1 "$work/core-tags-sweep.stderr");"
[ "$(find "$work/out-core-tags-sweep/runs" -name summary.json 2>/dev/null | wc -l)" = 2 ] ||
  problems+=" not 2 replications;"
printf -- '---\n' >>"$work/core-tags.yaml"
"$bin" run "$work/core-tags.yaml" --quiet --out "$work/out-core-tags-2" 2>"$work/core-tags-2.stderr" ||
  problems+=" trailing '---' refused: $(head -n 1 "$work/core-tags-2.stderr");"
report core_schema_tags_and_empty_second_document "$problems"
{ scenario_head wrong_core_tag; printf 'workload:\n  generator: {jobs: 5}\nreplications: !!float 3\n'; } \
  >"$work/wrong-core-tag.yaml"
expect_error wrong_core_tag 2 "wrong-core-tag.yaml:6: " "replications: expected an integer" -- run "$work/wrong-core-tag.yaml"
# ---- Hosts' memory (property memory_mb), which paging needs ----
# A value that is not a memory was taken as none ("paging needs each host's memory", naming neither the file nor the
# value), and inf as infinite memory. node-1's memory is good throughout; node-0's varies.
memory_platform() { # FILE PROPERTY-OF-NODE-0
  printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n'
  printf '  <zone id="world" routing="Full">\n    <host id="node-0" speed="1Gf">%s</host>\n' "$2"
  printf '    <host id="node-1" speed="1Gf"><prop id="memory_mb" value="32"/></host>\n'
  printf '    <host id="frontend" speed="1Gf"><prop id="role" value="master"/></host>\n'
  printf '    <link id="l" bandwidth="1GBps" latency="10us"/>\n'
  printf '    <route src="node-0" dst="node-1"><link_ctn id="l"/></route>\n'
  printf '    <route src="node-0" dst="frontend"><link_ctn id="l"/></route>\n'
  printf '    <route src="node-1" dst="frontend"><link_ctn id="l"/></route>\n  </zone>\n</platform>\n'
}
memory_scenario() { # NAME PLATFORM
  printf 'name: %s\nplatform: %s\nworkload:\n  generator: {jobs: 5, max_size: 2}\n  memory: {model: paging}\n' "$1" "$2"
}
for value in abc -5 nan 0 inf 1e13 "32MB" ""; do
  memory_platform x "<prop id=\"memory_mb\" value=\"$value\"/>" >"$work/memory-$value.xml"
  memory_scenario "memory_$value" "$work/memory-$value.xml" >"$work/memory-$value.yaml"
  expect_error "host_memory_$value" 1 \
    "memory-$value.xml: host node-0: property memory_mb: '$value' is not a number of MB above 0 and at most 1e12" -- \
    run "$work/memory-$value.yaml"
done
memory_platform x "" >"$work/memory-missing.xml"
memory_scenario memory_missing "$work/memory-missing.xml" >"$work/memory-missing.yaml"
expect_error host_memory_missing 1 \
  "memory-missing.xml: host node-0: property memory_mb is missing: workload.memory.model: paging needs each host's memory" -- \
  run "$work/memory-missing.yaml"
# Without paging, or with workload.memory.node_memory_mb for all hosts, a host needs no memory; 1e12 MB is the most.
memory_platform x '<prop id="memory_mb" value="1e12"/>' >"$work/memory-most.xml"
problems=""
for case in "memory-missing.yaml --set workload.memory.model=none" \
  "memory-missing.yaml --set workload.memory.node_memory_mb=64" "memory-most.yaml"; do
  memory_scenario memory_good "$work/memory-most.xml" >"$work/memory-most.yaml"
  # shellcheck disable=SC2086 # the case is a file and its options
  "$bin" run $work/$case --quiet --out "$work/out-memory-good" 2>"$work/memory-good.stderr" ||
    problems+=" $case refused: $(head -n 1 "$work/memory-good.stderr");"
  rm -rf "$work/out-memory-good"
done
# Only paging without node_memory_mb reads the property: any value is left alone otherwise (s36 refused these).
for value in 4GB 0 -1 "16 GB" 1e13 abc; do
  memory_platform x "<prop id=\"memory_mb\" value=\"$value\"/>" >"$work/memory-unread.xml"
  memory_scenario memory_unread "$work/memory-unread.xml" >"$work/memory-unread.yaml"
  for option in workload.memory.model=none workload.memory.node_memory_mb=1024; do
    "$bin" run "$work/memory-unread.yaml" --set "$option" --quiet --out "$work/out-memory-unread" \
      2>"$work/memory-unread.stderr" || problems+=" '$value' with $option refused: $(head -n 1 "$work/memory-unread.stderr");"
    [ "$(field jobs_simulated "$work/out-memory-unread/summary.json")" = 5 ] ||
      problems+=" '$value' with $option: not 5 jobs;"
    rm -rf "$work/out-memory-unread"
  done
done
report host_memory_good "$problems"
finish
