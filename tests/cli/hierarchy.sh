#!/usr/bin/env bash
# Hierarchical scheduling (scenarios/hierarchical/) as a user runs it: AC-DS, AG-DS and EQUI-EQUI runs finish with the
# paper's invariants checked where they apply (QF 1, CF 0, fractional); makespan between the lower bound and Theorem 1's
# bound, Lemma 1's ratios at most 1, no deprived job while processors idle, on generated trees of K = 2..5 and several
# seeds; runs outside the analysis's preconditions break the invariants, and `invariants: on` then fails them (the
# checks can fail); a lone Step job's completion computed by hand; the same seed gives the same bytes; a tree from
# GraphML, and malformed or non-tree GraphML as one line naming the file; messages over a wide-area platform, with the
# allotments' delays and the jobs' starts computed by hand; bad settings are one line naming the key, exit status 2.
source "$(dirname "$0")/lib.sh" hierarchy "$@"
scenario=$src/scenarios/hierarchical/ac-ds.yaml
small=(--set hierarchy.workload.jobs=40 --set hierarchy.workload.work_unit=1e-6 --set hierarchy.levels=3)

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
    le "$(field lemma1_satisfied_ratio "$f")" 1 || problems+=" Lemma 1 (3) broken;"
    le "$(field lemma1_allotment_ratio "$f")" 1 || problems+=" Lemma 1 (4) broken;"
  fi
  if [ "$invariants" = true ]; then
    [ "$(field deprived_quanta_with_idle_processors "$f")" = 0 ] || problems+=" deprived with idle processors;"
  fi
  report "$name" "$problems"
}

check_run ac-ds true
check_run ag-ds true hierarchy.algorithm=ag-ds
check_run equi-equi false hierarchy.algorithm=equi-equi
check_run ac-ds_deep true hierarchy.levels=5
check_run ac-ds_whole_qf2_cf false hierarchy.allotments=whole hierarchy.quantum_factor=2 hierarchy.cost_factor=0.1
for k in 2 4; do
  for seed in 2 3; do
    check_run "ac-ds_k${k}_seed$seed" true hierarchy.levels=$k simulation.seed=$seed
  done
done

# Outside the analysis's preconditions the invariant breaks (so the check can fail): whole processors (DEQ rounds
# desires up, a satisfied subtree keeps processors its jobs cannot take), QF = 2 (upper levels decide on older
# desires), CF = 0.1 (allotments reach the subtrees late). `invariants: on` checks anyway: exit 4 (a finding, not an
# internal error, 3), one line.
for broken in hierarchy.allotments=whole hierarchy.quantum_factor=2 hierarchy.cost_factor=0.1; do
  name=broken_${broken#hierarchy.}
  "$bin" run "$scenario" --quiet --out "$work/$name" "${small[@]}" --set "$broken" 2>"$work/$name.err"
  idle=$(field deprived_quanta_with_idle_processors "$work/$name/summary.json")
  [ "$(field invariants_checked "$work/$name/summary.json")" = false ] && [ "${idle:-0}" -gt 0 ]
  report "$name" "$([ $? -eq 0 ] || echo " expected deprived quanta with idle processors, got '$idle'")"
  "$bin" run "$scenario" --quiet --out "$work/$name-on" "${small[@]}" --set "$broken" \
    --set hierarchy.invariants=on 2>"$work/$name-on.err"
  status=$?
  [ $status -eq 4 ] && [ "$(wc -l <"$work/$name-on.err")" -eq 1 ] && [ ! -e "$work/$name-on" ] &&
    grep -q "invariant violated: at t = .* a job is deprived" "$work/$name-on.err"
  report "$name-on" "$([ $? -eq 0 ] || echo " exit $status: $(head -c 300 "$work/$name-on.err")")"
done
# Lemma 1 is about A-Control: EQUI's jobs hold what they are given, far more than (c + 1) w.
"$bin" run "$scenario" --quiet --out "$work/equi-on" "${small[@]}" --set hierarchy.algorithm=equi-equi \
  --set hierarchy.invariants=on 2>"$work/equi-on.err"
status=$?
[ $status -eq 4 ] && grep -q "invariant violated: Lemma 1 violated by job .*total allotment" "$work/equi-on.err"
report lemma1_on_equi "$([ $? -eq 0 ] || echo " exit $status: $(head -c 300 "$work/equi-on.err")")"

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

# GraphML (hierarchy.tree_file): the two-site tree of tests/cli/hierarchy/, K = 3.
graphml_scenario=$src/tests/cli/hierarchy/two-sites.yaml
"$bin" run "$graphml_scenario" --quiet --out "$work/graphml" --set hierarchy.messages=free 2>"$work/graphml.err"
[ "$(field levels "$work/graphml/summary.json")" = 3 ] && [ "$(field leaves "$work/graphml/summary.json")" = 2 ]
report graphml_tree "$([ $? -eq 0 ] || echo " $(head -c 300 "$work/graphml.err")")"

bad_graphml() { # NAME WORDS CONTENT
  printf '%s\n' "$3" >"$work/$1.graphml"
  (cd "$work" && "$bin" run "$graphml_scenario" --quiet --out "$work/$1-out" --set hierarchy.tree_file="$1.graphml" \
    --set hierarchy.messages=free 2>"$work/$1.err")
  local status=$? problems=""
  [ $status -eq 2 ] || problems+=" exit status $status;"
  [ "$(wc -l <"$work/$1.err")" -eq 1 ] || problems+=" not one line;"
  grep -q "$work/$1.graphml: .*$2" "$work/$1.err" || problems+=" $(cat "$work/$1.err");"
  [ ! -e "$work/$1-out" ] || problems+=" wrote outputs;"
  report "bad_graphml_$1" "$problems"
}
head='<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph edgedefault="directed">'
bad_graphml malformed "malformed GraphML" "$head<node id=\"a\">"
bad_graphml cycle "a cycle: node 3" "$head<node id=\"r\"/><node id=\"a\"/><node id=\"b\"/><edge source=\"r\" target=\"a\"/>
<edge source=\"b\" target=\"b\"/></graph></graphml>"
bad_graphml roots "several roots" "$head<node id=\"r\"/><node id=\"s\"/></graph></graphml>"
bad_graphml attribute "unknown attribute 'speed'" '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
<key id="s" for="node" attr.name="speed" attr.type="double"/><graph edgedefault="directed">
<node id="r"><data key="s">2</data></node></graph></graphml>'
bad_graphml uneven "every leaf must be at the same depth" "$head<node id=\"r\"/><node id=\"a\"/><node id=\"b\"/>
<node id=\"c\"/><edge source=\"r\" target=\"a\"/><edge source=\"a\" target=\"b\"/><edge source=\"r\" target=\"c\"/>
</graph></graphml>"
bad_graphml empty "malformed GraphML" ""
(cd "$work" && "$bin" run "$graphml_scenario" --quiet --out "$work/nofile" --set hierarchy.tree_file=none.graphml \
  2>"$work/nofile.err")
[ $? -eq 2 ] && grep -q "hierarchy.tree_file: cannot open .*none.graphml" "$work/nofile.err"
report graphml_missing_file "$([ $? -eq 0 ] || echo " $(cat "$work/nofile.err")")"

# Messages over the platform (tests/platforms/grid-2-sites.xml): a message between the two front ends crosses two
# uplinks of 1.15 ms at 1 Gbps: lambda = 2 x 1.15 ms + 1000 B / 125 MB/s = 2.308 ms (ptask_L07: no latency factor).
# The root decides a round when both feedbacks are in, at b + lambda (b the round's boundary); the cluster beside it
# has its allotment then, the remote one lambda later. So the delays are lambda and 2 lambda. A job released at r to
# an idle cluster (allotment 0: DEQ gives no more than the desire 0) is admitted at b = ceil(r / L) L and starts at the
# first boundary after the allotment's arrival: ceil((b + lambda) / L) L beside the root, ceil((b + 2 lambda) / L) L
# on site 1.
"$bin" run "$graphml_scenario" --quiet --out "$work/wide" 2>"$work/wide.err"
f=$work/wide/summary.json
problems=""
awk -v a="$(field allotment_delay_min "$f")" -v b="$(field allotment_delay_max "$f")" \
  'BEGIN { exit !(a - 0.002308 < 1e-6 && 0.002308 - a < 1e-6 && b - 0.004616 < 1e-6 && 0.004616 - b < 1e-6) }' ||
  problems+=" delays $(field allotment_delay_min "$f") $(field allotment_delay_max "$f");"
problems+=$(awk -F, 'NR > 1 {
  L = 0.001; lambda = 0.002308
  b = L * int($3 / L - 1e-9 + 1); if ($3 / L == int($3 / L)) b = $3
  arrival = b + ($2 == 0 ? 1 : 2) * lambda
  want = L * int(arrival / L + 1)
  if ((want - $8) ^ 2 > 1e-18) printf " job %s at leaf %s starts at %s, expected %s;", $1, $2, $8, want }' \
  "$work/wide/jobs.csv")
[ "$(field messages "$f")" = platform ] || problems+=" messages $(field messages "$f");"
report wide_area_delays "$problems"
"$bin" run "$graphml_scenario" --quiet --out "$work/wide-free" --set hierarchy.messages=free 2>/dev/null
[ "$(awk -F, 'NR == 2 { print $8 }' "$work/wide-free/jobs.csv")" = 0 ] &&
  [ "$(field allotment_delay_max "$work/wide-free/summary.json")" = 0 ]
report free_messages_no_delay "$([ $? -eq 0 ] || echo ' the first job waited with free messages')"

expect_bad_setting quantum_factor hierarchy.quantum_factor hierarchy.quantum_factor=0
expect_bad_setting algorithm hierarchy.algorithm hierarchy.algorithm=fifo
expect_bad_setting uneven_tree hierarchy.tree 'hierarchy.tree={children: [{children: [{}]}, {}]}' hierarchy.levels=null \
  hierarchy.min_children=null hierarchy.max_children=null
expect_bad_setting unknown_key hierarchy.workload.size hierarchy.workload.size=3
expect_bad_setting jobs_and_load hierarchy.workload.load hierarchy.workload.load=2
expect_bad_setting shape hierarchy.workload.shapes 'hierarchy.workload.shapes=[square]'
expect_bad_setting with_policy policy 'policy={name: easy}'
expect_bad_setting zero_bytes hierarchy.message_bytes hierarchy.message_bytes=0
expect_bad_setting tree_and_file hierarchy.tree_file 'hierarchy.tree={children: [{}]}' hierarchy.tree_file=x.graphml \
  hierarchy.levels=null hierarchy.min_children=null hierarchy.max_children=null
expect_bad_setting no_front_end hierarchy.messages hierarchy.messages=platform
# Bounds with their reasons: a run simulates at least one root quantum, QF^(K - 2) leaf quanta (10^9 ran for hours, and
# QF^(K - 2) of a deep explicit tree overflowed: SIGFPE); every node is an actor (levels 20 exhausted memory); every
# job is kept in memory (10^7 jobs: bad_alloc inside an actor, abort).
expect_bad_setting root_quanta "hierarchy.quantum_factor: quantum_factor^(levels - 2) = 10^9" hierarchy.levels=11 \
  hierarchy.quantum_factor=10 hierarchy.max_children=1
deep='{}'
for _ in 1 2 3 4 5 6 7 8 9; do deep="{children: [$deep]}"; done # depth 9: K = 11
expect_bad_setting deep_tree_root_quanta "= 64^9 (the tree's depth)" "hierarchy.tree=$deep" \
  hierarchy.quantum_factor=64 hierarchy.levels=null hierarchy.min_children=null hierarchy.max_children=null
expect_bad_setting tree_nodes "hierarchy.levels: a generated tree of 20 levels" hierarchy.levels=20
expect_bad_setting hierarchy_jobs "hierarchy.workload.jobs: must be at most 1000000" hierarchy.workload.jobs=10000000
expect_bad_setting hierarchy_load "hierarchy.workload.load: load 1e+05 makes 1.6e+07 jobs" \
  hierarchy.workload.jobs=null hierarchy.workload.load=1e5
# A 400-node tree's actors: with SimGrid's 8 MiB stacks they did not fit under ulimit -v 1.5 GB (SIGABRT, no message);
# with small stacks they do, and when the user asks for 8 MiB again, one line says so.
tree400=(--set hierarchy.levels=5 --set hierarchy.min_children=7 --set hierarchy.max_children=7 --set
  hierarchy.workload.jobs=5 --set hierarchy.workload.work_unit=1e-9)
(ulimit -v 1500000 && "$bin" run "$scenario" --quiet --out "$work/tree400" "${tree400[@]}" 2>"$work/tree400.err")
[ "$(field tree_nodes "$work/tree400/summary.json")" = 400 ]
report tree400_under_ulimit "$([ $? -eq 0 ] || echo " $(head -c 300 "$work/tree400.err")")"
(ulimit -v 1500000 && "$bin" run "$scenario" --quiet --out "$work/tree400-8m" "${tree400[@]}" \
  --cfg=contexts/stack-size:8192 2>"$work/tree400-8m.err")
status=$?
[ $status -eq 2 ] && [ "$(wc -l <"$work/tree400-8m.err")" -eq 1 ] && [ ! -e "$work/tree400-8m" ] &&
  grep -q "400 actors need 3202 MiB of stacks" "$work/tree400-8m.err"
report tree400_big_stacks_one_line "$([ $? -eq 0 ] || echo " exit $status: $(head -c 300 "$work/tree400-8m.err")")"
# A grid without the zoneRoute between the two sites: the messages across it made SimGrid abort mid-run (134).
grep -v 'zoneRoute src="site-0" dst="site-1"' "$src/tests/platforms/grid-2-sites.xml" >"$work/grid-noroute.xml"
expect_error missing_zone_route 2 "grid-noroute.xml: no route from site-1-frontend to site-0-frontend" \
  "tree node 3 and its parent exchange messages" -- run "$graphml_scenario" --quiet \
  --set "platform=$work/grid-noroute.xml"
finish
