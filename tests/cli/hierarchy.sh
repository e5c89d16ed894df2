#!/usr/bin/env bash
# Hierarchical scheduling (scenarios/hierarchical/) as a user runs it: AC-DS, AG-DS and EQUI-EQUI runs finish with the
# paper's invariants checked where they apply (QF 1, CF 0, fractional); makespan between the lower bound and Theorem 1's
# bound; a lone Step job's completion computed by hand; the same seed gives the same bytes; bad settings are one line
# naming the key, exit status 2.
source "$(dirname "$0")/lib.sh" hierarchy "$@"
scenario=$src/scenarios/hierarchical/ac-ds.yaml
small=(--set hierarchy.workload.jobs=40 --set hierarchy.workload.work_unit=1e-6 --set hierarchy.levels=3)

field() { sed -n "s/.*\"$1\": \"*\([a-z0-9.e+-]*\)\"*,*$/\1/p" "$2"; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b * (1 + 1e-9)) }'; }

check_run() { # NAME EXPECTED_INVARIANTS SET...
  local name=$1 invariants=$2
  shift 2
  local sets=() problems=""
  for s in "$@"; do sets+=(--set "$s"); done
  if ! "$bin" run "$scenario" --quiet --out "$work/$name" "${small[@]}" "${sets[@]}" 2>"$work/$name.err"; then
    report "$name" " failed: $(head -c 300 "$work/$name.err")"
    return
  fi
  local f=$work/$name/summary.json
  [ "$(field invariants_checked "$f")" = "$invariants" ] || problems+=" invariants_checked $(field invariants_checked "$f");"
  le "$(field lower_bound "$f")" "$(field makespan "$f")" || problems+=" makespan below the lower bound;"
  [ "$(field algorithm "$f")" = "${name%%_*}" ] || problems+=" algorithm $(field algorithm "$f");"
  [ "$(($(wc -l <"$work/$name/jobs.csv") - 1))" = 40 ] || problems+=" jobs.csv rows;"
  if [ "$invariants" = true ] && [ "${name%%_*}" = ac-ds ]; then
    le "$(field makespan "$f")" "$(field theorem1_bound "$f")" || problems+=" above Theorem 1's bound;"
  fi
  report "$name" "$problems"
}

check_run ac-ds true
check_run ag-ds true hierarchy.algorithm=ag-ds
check_run equi-equi false hierarchy.algorithm=equi-equi
check_run ac-ds_deep true hierarchy.levels=5
check_run ac-ds_whole_qf2_cf false hierarchy.allotments=whole hierarchy.quantum_factor=2 hierarchy.cost_factor=0.1

# A lone Step job of parallelism 4 under AC-DS, K = 2: its first quantum on 1 processor (the initial desire) covers
# L / 4 of its span; from then on it has its 4 and covers L per L: it ends at L + (span - L / 4).
"$bin" run "$scenario" --quiet --out "$work/lone" --set hierarchy.levels=2 --set hierarchy.workload.jobs=1 \
  --set hierarchy.workload.min_parallelism=4 --set hierarchy.workload.max_parallelism=4 \
  --set 'hierarchy.workload.shapes=[step]' --set hierarchy.workload.work_unit=1e-4 2>"$work/lone.err"
read -r span finish < <(awk -F, 'NR == 2 { print $5, $9 }' "$work/lone/jobs.csv")
awk -v s="$span" -v f="$finish" 'BEGIN { e = 0.001 + s - 0.00025; exit !(f - e < 1e-9 && e - f < 1e-9) }'
report lone_step_job "$([ $? -eq 0 ] || echo " finish $finish, expected 0.001 + $span - 0.00025")"

"$bin" run "$scenario" --quiet --out "$work/again" "${small[@]}" 2>/dev/null
cmp -s "$work/again/summary.json" "$work/ac-ds/summary.json" && cmp -s "$work/again/jobs.csv" "$work/ac-ds/jobs.csv"
report same_seed_same_bytes "$([ $? -eq 0 ] || echo ' outputs differ')"

"$bin" run "$src/scenarios/hierarchical/explicit-tree.yaml" --quiet --out "$work/explicit" 2>"$work/explicit.err"
[ "$(field levels "$work/explicit/summary.json")" = 4 ] && [ "$(field leaves "$work/explicit/summary.json")" = 3 ]
report explicit_tree "$([ $? -eq 0 ] || echo " $(head -c 300 "$work/explicit.err")")"

bad() { # NAME KEY SET...
  local name=$1 key=$2
  shift 2
  local sets=()
  for s in "$@"; do sets+=(--set "$s"); done
  "$bin" run "$scenario" --quiet --out "$work/$name" "${sets[@]}" 2>"$work/$name.err"
  local status=$?
  local problems=""
  [ $status -eq 2 ] || problems+=" exit status $status;"
  [ "$(wc -l <"$work/$name.err")" -eq 1 ] || problems+=" not one line;"
  grep -q "$key" "$work/$name.err" || problems+=" does not name $key: $(cat "$work/$name.err");"
  [ ! -e "$work/$name" ] || problems+=" wrote outputs;"
  report "bad_$name" "$problems"
}
bad quantum_factor hierarchy.quantum_factor hierarchy.quantum_factor=0
bad algorithm hierarchy.algorithm hierarchy.algorithm=fifo
bad uneven_tree hierarchy.tree 'hierarchy.tree={children: [{children: [{}]}, {}]}' hierarchy.levels=null \
  hierarchy.min_children=null hierarchy.max_children=null
bad unknown_key hierarchy.workload.size hierarchy.workload.size=3
bad jobs_and_load hierarchy.workload.load hierarchy.workload.load=2
bad shape hierarchy.workload.shapes 'hierarchy.workload.shapes=[square]'
bad with_policy policy 'policy={name: easy}'
finish
