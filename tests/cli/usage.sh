#!/usr/bin/env bash
# The launcher's help, version and policy list.
#
# Usage: usage.sh JOBSCHED_BINARY SOURCE_DIR
#
# Prints one line per case, then "N passed, M failed"; exits non-zero if any case failed.
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" usage "$@"

# run_case NAME EXPECTED_STATUS STREAM(stdout|stderr) NFRAGMENTS FRAGMENT... -- ARG...
# Every FRAGMENT must be a line of STREAM, or appear in it if it starts with '~' (then the rest is searched for).
# The other stream must be empty.
run_case() {
  local name=$1 expected=$2 stream=$3 count=$4
  shift 4
  local fragments=()
  while [ "$count" -gt 0 ]; do
    fragments+=("$1")
    shift
    count=$((count - 1))
  done
  [ "$1" = "--" ] && shift
  "$bin" "$@" >"$work/$name.stdout" 2>"$work/$name.stderr"
  local status=$?
  local problems=""
  [ "$status" -eq "$expected" ] || problems+=" exit status $status (expected $expected);"
  local main="$work/$name.$stream" other
  if [ "$stream" = stdout ]; then other="$work/$name.stderr"; else other="$work/$name.stdout"; fi
  [ -s "$main" ] || problems+=" nothing on $stream;"
  [ ! -s "$other" ] || problems+=" unexpected output on the other stream: $(head -c 200 "$other" | tr '\n' '|');"
  local f
  for f in "${fragments[@]}"; do
    if [ "${f:0:1}" = "~" ]; then
      grep -qF -- "${f:1}" "$main" || problems+=" $stream lacks '${f:1}';"
    else
      grep -qxF -- "$f" "$main" || problems+=" $stream has no line '$f';"
    fi
  done
  report "$name" "$problems"
}

run_case help 0 stdout 4 "Usage:" "~jobsched run SCENARIO.yaml [options]" "~jobsched list-policies" \
  "~jobsched --help | --version" -- --help
run_case help_short 0 stdout 1 "Usage:" -- -h
run_case run_help 0 stdout 6 "Usage: jobsched run SCENARIO.yaml [options]" "~--set KEY=VALUE" "~--out DIR" \
  "~--quiet" "~jobs.csv" "~Exit status: 0 success, 2 bad input" -- run --help

# Policies and allocators, each on its own line after two spaces of indent.
run_case list_policies 0 stdout 5 "~Policies (policy.name" "~Allocators (policy.allocation" "~  fcfs " "~  easy " \
  "~  conservative " -- list-policies
problems=""
for name in fcfs easy conservative first-fit; do
  grep -qE "^  $name +[^ ]" "$work/list_policies.stdout" || problems+=" no line for $name;"
done
# Policies come before the allocators heading, the allocator after it.
policies_end=$(grep -n '^Allocators' "$work/list_policies.stdout" | cut -d: -f1)
first_fit_line=$(grep -nE '^  first-fit ' "$work/list_policies.stdout" | cut -d: -f1)
fcfs_line=$(grep -nE '^  fcfs ' "$work/list_policies.stdout" | cut -d: -f1)
if [ -n "$policies_end" ] && [ -n "$first_fit_line" ] && [ -n "$fcfs_line" ]; then
  [ "$fcfs_line" -lt "$policies_end" ] || problems+=" fcfs listed under the allocators;"
  [ "$first_fit_line" -gt "$policies_end" ] || problems+=" first-fit listed under the policies;"
else
  problems+=" could not find the headings and entries;"
fi
report list_policies_sections "$problems"

# The version is the project's, as declared in the top CMakeLists.txt, and the plugin interface's digest (12 hexadecimal
# digits; cli.plugins checks it against the headers).
version=$(sed -n 's/^project(jobsched VERSION \([0-9][0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
if [ -z "$version" ]; then
  report version " could not read the project version from $src/CMakeLists.txt"
else
  run_case version 0 stdout 1 "~jobsched $version (plugin interface " -- --version
  grep -qxE "jobsched $version \(plugin interface [0-9a-f]{12}\)" "$work/version.stdout" ||
    report version_form " $(head -c 200 "$work/version.stdout")"
  lines=$(awk 'END { print NR }' "$work/version.stdout")
  if [ "$lines" -eq 1 ]; then report version_one_line ""; else report version_one_line " $lines lines"; fi
fi

# No arguments: the usage on stderr, status 2.
run_case no_arguments 2 stderr 2 "Usage:" "~jobsched run SCENARIO.yaml" --

# Every sub-command's --help: its own usage on stdout, status 0 (-h alike).
for command in run fork-join sweep collect list-policies plot plan "plan mtat" "plan compress" "plan expand" \
  plan-sweep mesh-platform; do
  usage_line="~Usage: jobsched $command"
  case "$command" in "plan compress" | "plan expand") usage_line="~jobsched $command " ;; esac
  # shellcheck disable=SC2086 # "plan mtat" is two words
  run_case "help_${command// /_}" 0 stdout 2 "$usage_line" "~Exit status" -- $command --help
done
run_case help_short_sweep 0 stdout 1 "Usage: jobsched sweep SCENARIO.yaml [options]" -- sweep -h
run_case help_word 0 stdout 1 "Usage:" -- help

# list-policies shows each parameter's choices and range.
run_case list_policies_allowed 0 stdout 3 "~admission = skip" "~[one of skip, in-order]" "~[in (0, 1]]" -- list-policies
problems=""
grep -qE '^      admission = skip.*\[one of skip, in-order\]$' "$work/list_policies_allowed.stdout" ||
  problems+=" equi's admission line lacks its choices;"
grep -qE '^      fraction = 0.5.*\[in \(0, 1\]\]$' "$work/list_policies_allowed.stdout" ||
  problems+=" apvm's fraction line lacks its range;"
grep -qE '^      quantum = 600.0.*\[at least 0.001\]$' "$work/list_policies_allowed.stdout" ||
  problems+=" gang's quantum line lacks its range;"
report list_policies_allowed_lines "$problems"

# An unknown command: one error line.
run_case unknown_command 2 stderr 1 "~jobsched: error: unknown command 'frobnicate'" -- frobnicate
lines=$(awk 'END { print NR }' "$work/unknown_command.stderr")
if [ "$lines" -eq 1 ]; then report unknown_command_one_line ""; else report unknown_command_one_line " $lines lines"; fi

# jobsched plan: Figure 3 of McCann & Zahorjan 1994 as JSON (BUDDY, N = 16: the M = 3 job placed second gets 8
# nodes), and its help.
run_case plan_help 0 stdout 2 "~Usage: jobsched plan POLICY --nodes N" "~heuristic-epoch" -- plan --help
run_case help_lists_plan 0 stdout 1 "~jobsched plan POLICY --nodes N --mins M1,M2,... [--k K]" -- --help
run_case plan_buddy_figure3 0 stdout 6 '  "policy": "buddy",' '  "overhead": 36,' '  "normalized_overhead": 2.25,' \
  '    {"job": 2, "min": 3, "first_node": 0, "width": 8, "start": 0.25, "duration": 0.25, "start_fraction": "1/4", "duration_fraction": "1/4"},' \
  '  "epochs": []' '}' -- plan buddy --nodes 16 --mins 1,2,3,3,3,3,3,8
# OPT-EPOCH(0) on the N = 140 example of section 4.1.2: two epochs of five jobs on 28 nodes each.
run_case plan_opt_epoch_140 0 stdout 4 '  "k": 0,' '  "epoch_count": 2,' '  "overhead": 280,' \
  '~"widths": [28, 28, 28, 28, 28], "pieces": [5, 6, 7, 8, 9]}' -- \
  plan opt-epoch --nodes 140 --k 0 --mins 20,20,20,20,20,20,20,20,20,20
# The output is JSON (checked with python3 when there is one).
if command -v python3 >/dev/null; then
  if python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["pieces"]) == 10 and d["assignments_tested"] >= 2' \
    "$work/plan_opt_epoch_140.stdout" 2>"$work/plan_json.stderr"; then
    report plan_json_parses ""
  else
    report plan_json_parses " $(head -c 300 "$work/plan_json.stderr" | tr '\n' '|')"
  fi
fi

# jobsched plot: its help names the label options.
run_case plot_help 0 stdout 4 "Usage: jobsched plot PATH [options]" "~--xlabel TEXT" "~--ylabel TEXT" \
  "~--label KEY=TEXT" -- plot --help
# jobsched plan mtat|compress|expand: gang scheduling on heterogeneous workstations (Al-Saqabi, Otto & Walpole).
run_case gang_plan_help 0 stdout 2 "~Usage: jobsched plan mtat" "~jobsched plan expand   --map FILE.json" -- \
  plan mtat --help
run_case plan_help_mentions_gang 0 stdout 1 "~'jobsched plan mtat|compress|expand'" -- plan --help
# Example 1 (section 4.1): T_min = 6/5 with {12, 1, 4, 3}, and the published steps.
run_case gang_mtat_example1 0 stdout 4 '  "turnaround": "6/5",' '  "allocation": [12, 1, 4, 3],' \
  '~"floors": [11, 1, 4, 3], "diff": 1, "drags": ["4/45", "8/9", "5/36", "2/9"]' '  "variant": "paper",' -- \
  plan mtat --capacities 10,1,4,3 --vps 20 --variant paper
# Theorem 1's counterexample: the paper's steps give 2, the default (optimal) 3/2.
run_case gang_mtat_paper_counterexample 0 stdout 2 '  "turnaround": "2",' '  "allocation": [14, 2, 1, 1],' -- \
  plan mtat --capacities 10,1,1,1 --vps 18 --variant paper
run_case gang_mtat_optimal 0 stdout 2 '  "turnaround": "3/2",' '  "allocation": [15, 1, 1, 1],' -- \
  plan mtat --capacities 10,1,1,1 --vps 18
# Decimal capacities read exactly: x = {1, 3}, both processors finish at 10/11.
run_case gang_mtat_decimals 0 stdout 2 '  "turnaround": "10/11",' '  "allocation": [1, 3],' -- \
  plan mtat --capacities 1.1,3.3 --vps 4 --variant paper
# Architecture pools: T_min is the slower pool's.
run_case gang_mtat_pools 0 stdout 2 '  "turnaround": "3/2",' '  "allocation": [15, 1, 1, 1, 3, 1],' -- \
  plan mtat --capacities 10,1.1,1,1,3.3,1 --archs x86,sparc,x86,x86,sparc,x86 --vps x86=18,sparc=4
# Example 3 (Figure 4-b): compressed to {6, 3}, the third processor freed.
run_case gang_compress_example3 0 stdout 3 '  "allocation": [6, 3, 0],' '  "processors_freed": [2],' \
  '  "mtat_allocation": [5, 3, 1],' -- plan compress --capacities 4,2,1 --vps 9 --variant paper --mtat paper
# Example 2 (Figure 3): two processors of two VPs.
run_case gang_compress_example2 0 stdout 2 '  "allocation": [2, 2, 0],' '  "turnaround": "2",' -- \
  plan compress --capacities 1,1,1 --vps 4
# Figure 1's map: P5 and P6 are free in T3 and T4, a regular pattern of size 4. A job of four VPs gets a new slice
# under the default rule (T_free = 2 > T_min = 1) and the free space under the time-share rule (2 x 5/2 <= 1 x 6).
cat >"$work/figure1.json" <<'JSON'
{"processors": [{"name": "P1", "capacity": 1}, {"name": "P2", "capacity": 1}, {"name": "P3", "capacity": 1},
                {"name": "P4", "capacity": 1}, {"name": "P5", "capacity": 1}, {"name": "P6", "capacity": 1}],
 "slices": [
  [{"job": 1, "vps": 1}, {"job": 1, "vps": 1}, {"job": 1, "vps": 1}, {"job": 1, "vps": 1}, {"job": 1, "vps": 1}, {"job": 1, "vps": 1}],
  [{"job": 2, "vps": 1}, {"job": 2, "vps": 1}, {"job": 3, "vps": 1}, {"job": 3, "vps": 1}, {"job": 3, "vps": 1}, {"job": 3, "vps": 1}],
  [{"job": 4, "vps": 1}, {"job": 5, "vps": 1}, {"job": 6, "vps": 1}, {"job": 6, "vps": 1}, null, null],
  [{"job": 7, "vps": 1}, {"job": 7, "vps": 1}, {"job": 7, "vps": 1}, {"job": 7, "vps": 1}, null, null],
  [{"job": 8, "vps": 1}, {"job": 8, "vps": 1}, {"job": 8, "vps": 1}, {"job": 8, "vps": 1}, {"job": 8, "vps": 1}, {"job": 8, "vps": 1}]]}
JSON
run_case gang_expand_figure1 0 stdout 2 '  "pattern": {"processors": ["P5", "P6"], "slices": [2, 3], "size": "4"}' \
  '  "free_entries": 4,' -- plan expand --map "$work/figure1.json"
run_case gang_expand_new_slice 0 stdout 3 '    "uses_free_space": false,' '    "slices": [5],' \
  '    "free_turnaround": "2",' -- plan expand --map "$work/figure1.json" --vps 4
run_case gang_expand_time_share 0 stdout 2 '    "uses_free_space": true,' '    "slices": [2, 3],' -- \
  plan expand --map "$work/figure1.json" --vps 4 --rule time-share
# The outputs are JSON, and the map printed after a submission reads back in.
if command -v python3 >/dev/null; then
  if python3 - "$work" 2>"$work/gang_json.stderr" <<'PY'
import json, sys
work = sys.argv[1]
m = json.load(open(work + "/gang_mtat_example1.stdout"))
assert m["allocation"] == [12, 1, 4, 3] and m["turnaround"] == "6/5" and m["turnaround_decimal"] == 1.2
c = json.load(open(work + "/gang_compress_example3.stdout"))
assert c["processors_kept"] == [0, 1] and c["pools"][0]["bounds"] == [6, 3, 1]
e = json.load(open(work + "/gang_expand_time_share.stdout"))
assert e["submission"]["allocation"] == [{"processor": "P5", "vps": 2}, {"processor": "P6", "vps": 2}]
json.dump(e["map"], open(work + "/after.json", "w"))
PY
  then
    report gang_plan_json_parses ""
  else
    report gang_plan_json_parses " $(head -c 300 "$work/gang_json.stderr" | tr '\n' '|')"
  fi
  run_case gang_expand_reads_its_output 0 stdout 1 '  "free_entries": 0,' -- plan expand --map "$work/after.json"
fi

# The summary's outputs line names exactly the files written (it listed jobs.csv and trace.csv whatever output.jobs and
# output.trace said, and never segments.csv); each listed file exists, and no other output does.
outputs_case() { # NAME EXPECTED_LIST SCENARIO [--set ...]
  local name=$1 list=$2 scenario=$3
  shift 3
  run_case "$name" 0 stdout 1 "  outputs: $work/$name/{$list}" -- run "$src/scenarios/$scenario" --out "$work/$name" \
    --set workload.generator.jobs=20 "$@"
  local written
  written=$(cd "$work/$name" 2>/dev/null && ls | paste -sd, -)
  [ "$written" = "$(echo "$list" | tr ',' '\n' | sort | paste -sd, -)" ] ||
    report "${name}_files" " the folder holds '$written', the line lists '$list'"
}
outputs_case outputs_all "jobs.csv,trace.csv,summary.json,performance.json" quickstart.yaml
outputs_case outputs_no_trace "jobs.csv,summary.json,performance.json" quickstart.yaml --set output.trace=false
outputs_case outputs_no_jobs_no_trace "summary.json,performance.json" quickstart.yaml --set output.trace=false \
  --set output.jobs=false
outputs_case outputs_time_sharing "jobs.csv,trace.csv,segments.csv,summary.json,performance.json" time-sharing.yaml

finish
