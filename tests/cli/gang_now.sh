#!/usr/bin/env bash
# Gang scheduling on networks of workstations (scenarios/gang-now/now.yaml: policy.name gang-now, owners:, the VP
# workload of workload.generator.model vp) as a user runs it: runs under the three eviction policies and the paper's
# variants finish every job, with no processor computing for two jobs at once; the same seed gives the same bytes,
# and timers (the default) the same run as ptasks;
# `jobsched plot` draws the run; an SWF trace runs under gang-now; every key is checked, one line naming the file,
# line or key, exit status 2, no outputs; the old gang_now: section is refused, naming the keys that replace it.
source "$(dirname "$0")/lib.sh" gang_now "$@"
scenario=$src/scenarios/gang-now/now.yaml
# validate_map: every rule of the allocation map checked before and after each event (off by default: slow on large
# maps); a broken map is a PolicyError, so these runs would fail.
small=(--set workload.generator.jobs=8 --set policy.params.validate_map=true)

# No processor computes (running or switching) for two jobs at one instant in trace.csv: prints the first overlap
# (the mutation campaign's check of every successful run, tests/mutation/mutated_inputs.py).
overlap() { # TRACE
  python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); from mutated_inputs import trace_overlap
print(trace_overlap(sys.argv[2]) or "")' "$src/tests/mutation" "$1"
}

check_run() { # NAME SET...
  local name=$1
  shift
  local sets=() problems=""
  for s in "$@"; do sets+=(--set "$s"); done
  if ! "$bin" run "$scenario" --quiet --out "$work/$name" "${small[@]}" "${sets[@]}" 2>"$work/$name.err"; then
    report "$name" " failed: $(head -c 300 "$work/$name.err")"
    return
  fi
  [ "$(field jobs_completed "$work/$name/summary.json")" = 8 ] || problems+=" jobs_completed;"
  [ "$(($(wc -l <"$work/$name/jobs.csv") - 1))" = 8 ] || problems+=" jobs.csv rows;"
  # Every job ran at least as long as one VP's work (its requested_time, column 6) on the fastest workstation
  # (capacity 5): its last VP does its whole work (VP_exit never ends a job's last VP). Turnaround: column 13.
  awk -F, 'NR > 1 && !($13 >= $6 / 5 * (1 - 1e-9)) { bad = 1 } END { exit bad }' "$work/$name/jobs.csv" ||
    problems+=" a job ended faster than its work allows;"
  local o
  o=$(overlap "$work/$name/trace.csv")
  [ -z "$o" ] || problems+=" $o;"
  report "$name" "$problems"
}
check_run migrate
check_run wait policy.params.eviction=wait
check_run restart policy.params.eviction=restart
check_run paper policy.params.mtat=paper policy.params.compression=paper policy.params.pool_target=per-pool
check_run exhaustive policy.params.expansion=exhaustive policy.params.new_slice_rule=time-share
check_run switched platform=$src/platforms/now-16-switched.xml
check_run no_owners owners.activity=0

[ "$(field work_lost "$work/migrate/summary.json")" = 0 ] && [ "$(field migrations "$work/restart/summary.json")" = 0 ]
report restart_never_migrates "$([ $? -eq 0 ] || echo ' migrate lost work or restart migrated')"
[ "$(field work_lost "$work/restart/summary.json")" != 0 ]
report restart_loses_work "$([ $? -eq 0 ] || echo ' restart lost no work')"
[ "$(field owner_returns "$work/no_owners/summary.json")" = 0 ] && [ "$(field owner_returns "$work/migrate/summary.json")" != 0 ]
report owner_returns_counted "$([ $? -eq 0 ] || echo ' owners came back with activity 0, or never with 0.3')"

"$bin" run "$scenario" --quiet --out "$work/again" "${small[@]}" 2>/dev/null
cmp -s "$work/again/summary.json" "$work/migrate/summary.json" && cmp -s "$work/again/jobs.csv" "$work/migrate/jobs.csv" &&
  cmp -s "$work/again/trace.csv" "$work/migrate/trace.csv"
report same_seed_same_bytes "$([ $? -eq 0 ] || echo ' outputs differ')"

# The run above chose timers (simulation.execution auto: no traffic); SimGrid's ptasks give the same run.
"$bin" run "$scenario" --quiet --out "$work/ptask" "${small[@]}" --set simulation.execution=ptask 2>/dev/null
grep -q '"execution": "timer"' "$work/migrate/performance.json" &&
  grep -q '"execution": "ptask"' "$work/ptask/performance.json" &&
  cmp -s "$work/ptask/jobs.csv" "$work/migrate/jobs.csv" && cmp -s "$work/ptask/trace.csv" "$work/migrate/trace.csv"
report timers_and_ptasks_agree "$([ $? -eq 0 ] || echo ' the two execution paths differ')"

"$bin" plot "$work/migrate" --out "$work/plots" >"$work/plot.out" 2>&1
report plot "$([ $? -eq 0 ] && ls "$work/plots" | grep -q . || echo " jobsched plot failed: $(head -c 300 "$work/plot.out")")"

# scripts/now_platform.py --routing star (no per-pair route: one host_link per workstation) gives every pair of
# workstations the links of the full routes (lan: the segment once; switched: the sender's port, then the
# receiver's), so the same run, migrations included, byte for byte.
problems=""
for net in lan switched; do
  for routing in full star; do
    python3 "$src/scripts/now_platform.py" --workstations 16 --network $net --routing $routing >"$work/$routing-$net.xml"
    "$bin" run "$scenario" --quiet --out "$work/$routing-$net" "${small[@]}" --set "platform=$work/$routing-$net.xml" \
      2>"$work/$routing-$net.err" || problems+=" $routing $net failed: $(head -c 300 "$work/$routing-$net.err");"
  done
  grep -q '"migrations": 0,' "$work/star-$net/summary.json" && problems+=" no migration on $net;"
  for f in jobs.csv trace.csv; do
    cmp -s "$work/full-$net/$f" "$work/star-$net/$f" || problems+=" $net: $f differs;"
  done
done
report star_routing_same_run "$problems"

# A rigid SWF job of size n is n VPs of its run time: 3 jobs of sizes 1, 4 and 20 (more VPs than the 16 workstations)
# on the network, no owners.
printf '1 0 -1 100 1 -1 -1 1 100 -1 1 1 1 1 1 1 -1 -1\n2 10 -1 200 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n3 20 -1 50 20 -1 -1 20 50 -1 1 1 1 1 1 1 -1 -1\n' >"$work/w.swf"
problems=""
"$bin" run "$scenario" --quiet --out "$work/swf" --set workload.generator=null --set "workload.trace=$work/w.swf" \
  --set owners.activity=0 2>"$work/swf.err" || problems+=" failed: $(head -c 300 "$work/swf.err");"
[ "$(field jobs_completed "$work/swf/summary.json")" = 3 ] || problems+=" not 3 jobs completed;"
report swf_jobs_are_vps "$problems"

# SWF job numbers up to 2^53 (JobId): job 5778374239 (1483406943 when cut to int, which gang-now once placed as an
# unknown job: internal error, exit 3) runs as it does numbered 2, the same schedule but for its number.
printf '1 0 0 100 2 -1 -1 2 200 -1 1 1 1 -1 -1 -1 -1 -1\n%s 10 0 100 2 -1 -1 2 200 -1 1 1 1 -1 -1 -1 -1 -1\n' \
  5778374239 >"$work/large.swf"
sed 's/^5778374239 /2 /' "$work/large.swf" >"$work/small.swf"
problems=""
for n in large small; do
  "$bin" run "$scenario" --quiet --out "$work/$n" --set workload=null --set "workload.trace=$work/$n.swf" \
    2>"$work/$n.err" || problems+=" $n failed: $(head -c 300 "$work/$n.err");"
done
[ "$(cut -d, -f1 "$work/large/jobs.csv" | tail -n +2 | tr '\n' ' ')" = "1 5778374239 " ] ||
  problems+=" jobs.csv does not name jobs 1 and 5778374239;"
# The same rows but for the job number and the workload's name (the trace's file name).
cmp -s <(cut -d, -f1,2 --complement "$work/large/jobs.csv") <(cut -d, -f1,2 --complement "$work/small/jobs.csv") &&
  cmp -s <(sed 's/5778374239/2/g' "$work/large/trace.csv") "$work/small/trace.csv" ||
  problems+=" not the schedule of the trace numbered 2;"
report swf_job_numbers_beyond_int "$problems"

# jobsched plan expand reads and writes such ids too: a map holding job 5778374239, and a submission numbered one
# more by default, or 2^53 with --job.
printf '%s\n' '{"processors": [{"name": "P1", "capacity": 1}, {"name": "P2", "capacity": 2}],' \
  ' "slices": [[{"job": 5778374239, "vps": 1}, null]]}' >"$work/large.json"
problems=""
"$bin" plan expand --map "$work/large.json" --vps 1 >"$work/plan1.json" 2>"$work/plan1.err" ||
  problems+=" plan failed: $(head -c 300 "$work/plan1.err");"
"$bin" plan expand --map "$work/large.json" --vps 1 --job 9007199254740992 >"$work/plan2.json" 2>"$work/plan2.err" ||
  problems+=" plan --job failed: $(head -c 300 "$work/plan2.err");"
python3 - "$work/plan1.json" "$work/plan2.json" >"$work/plan.out" 2>&1 <<'PY' || problems+=" $(head -c 300 "$work/plan.out")"
import json, sys
for path, new in zip(sys.argv[1:], (5778374240, 9007199254740992)):
    doc = json.load(open(path))
    assert doc["submission"]["job"] == new, (path, doc["submission"]["job"])
    ids = [job["id"] for job in doc["map"]["jobs"]]
    assert ids == [5778374239, new], (path, ids)
    # The new job takes P2, free beside the old one (T 1/2 there, as in a slice of its own: 4.4.1's rule).
    assert doc["map"]["slices"] == [[{"job": 5778374239, "vps": 1}, {"job": new, "vps": 1}]], (path, doc["map"])
PY
report plan_job_ids_beyond_int "$problems"

# Under `eviction: wait` the map keeps a workstation that fails (tests/platforms/profiles-lan.xml: w5 is off from
# t = 30000 to 30500) and events may move a VP onto it meanwhile: its image cannot reach a host that is off (SimGrid
# aborted the run on the transfer), so the VP's job fails, is requeued and ends later; every job completes.
cat >"$work/wait-failure.yaml" <<EOF
simulation: {seed: 792200}
platform: $src/tests/platforms/profiles-lan.xml
policy:
  name: gang-now
  params: {mtat: paper, compression: exact, pool_target: per-pool, expansion: column, new_slice_rule: time-share,
           eviction: wait, quantum: 100, switch_cost: 38.342}
workload:
  generator: {model: vp, jobs: 60, mean_interarrival: 600, min_vps: 2, max_vps: 9, min_work: 60, max_work: 3000,
              image_mb: 8, new_vp_per_hour: 0.5, vp_exit_per_hour: 0.5}
EOF
problems=""
"$bin" run "$work/wait-failure.yaml" --quiet --out "$work/wait-failure" 2>"$work/wait-failure.err" ||
  problems+=" failed: $(head -c 300 "$work/wait-failure.err");"
[ "$(field jobs_completed "$work/wait-failure/summary.json")" = 60 ] || problems+=" not 60 jobs completed;"
[ "$(field requeues "$work/wait-failure/summary.json")" -gt 0 ] 2>/dev/null || problems+=" no job requeued;"
report wait_keeps_failed_workstation "$problems"

# simulation.max_backlog stops a gang-now run as any run. Jobs arrive about every second and none of 10^5 s can end
# before the third arrives: with max_backlog 2 the run stops at the third job's submission, read from a run of 1 s
# jobs with the same seed (the arrivals do not depend on the work), with no job completed.
fast=(--set workload.generator.mean_interarrival=1 --set owners.activity=0)
"$bin" run "$scenario" --quiet --out "$work/arrivals" "${small[@]}" "${fast[@]}" --set workload.generator.min_work=1 \
  --set workload.generator.max_work=1 2>/dev/null
"$bin" run "$scenario" --quiet --out "$work/backlog" "${small[@]}" "${fast[@]}" \
  --set workload.generator.min_work=1e5 --set workload.generator.max_work=1e5 --set simulation.max_backlog=2 \
  2>"$work/backlog.err"
third=$(awk -F, '$1 == 2 { print $4 }' "$work/arrivals/jobs.csv")
problems=""
[ "$(field saturated "$work/arrivals/summary.json")" = 0 ] &&
  [ "$(field backlog_stop_time "$work/arrivals/summary.json")" = -1 ] || problems+=" the unbounded run saturated;"
[ "$(field saturated "$work/backlog/summary.json")" = 1 ] || problems+=" saturated not 1;"
[ -n "$third" ] && [ "$(field backlog_stop_time "$work/backlog/summary.json")" = "$third" ] ||
  problems+=" stopped at $(field backlog_stop_time "$work/backlog/summary.json"), third arrival at '$third';"
[ "$(field jobs_completed "$work/backlog/summary.json")" = 0 ] || problems+=" jobs completed;"
report max_backlog_stops "$problems$(head -c 300 "$work/backlog.err")"

expect_bad_setting eviction "policy.params.eviction: 'never' is not one of" policy.params.eviction=never
expect_bad_setting quantum policy.params.quantum policy.params.quantum=-1
expect_bad_setting switch_cost policy.params.switch_cost policy.params.switch_cost=60
expect_bad_setting slices policy.params.max_exhaustive_slices policy.params.max_exhaustive_slices=30
expect_bad_setting validate_map "policy.params.validate_map: expected true or false" policy.params.validate_map=yes
expect_bad_setting unknown_key workload.generator.vps workload.generator.vps=3
expect_bad_setting other_model "workload.generator.max_size: model vp has no such key" workload.generator.max_size=4
expect_bad_setting activity owners.activity owners.activity=1.5
expect_bad_setting cv owners.idle_cv owners.idle_cv=nan
expect_bad_setting arch workload.generator.archs 'workload.generator.archs=[mips]'
expect_bad_setting execution "simulation.execution: expected one of" simulation.execution=bogus
expect_bad_setting rates_need_processes workload.generator.new_vp_per_hour 'policy={name: equi}'
owner_trace=(owners.model=trace owners.activity=null owners.mean_idle=null owners.idle_cv=null owners.busy_cv=null)
expect_bad_setting missing_trace owners.trace "${owner_trace[@]}" owners.trace=$work/none.csv
printf '10,ws-0,busy\n5,ws-0,idle\n' >"$work/owners.csv"
expect_bad_setting trace_order "owners.csv:2" "${owner_trace[@]}" owners.trace=$work/owners.csv
expect_bad_setting old_section "gang_now: this section is gone: write policy.name: gang-now" \
  'gang_now={policy: {quantum: 3}}'
cat >"$work/noroute.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a1" speed="1Gf"/> <host id="a2" speed="2Gf"/>
    <host id="ctl" speed="1Gf"><prop id="role" value="master"/></host>
  </zone>
</platform>
XML
expect_bad_setting no_route "no route between hosts a1 and a2" platform=$work/noroute.xml
# One workstation whose owner is there from the start and never leaves: the job would wait for ever.
sed -e 's|<host id="a2" speed="2Gf"/>||' -e 's|id="a1"|id="ws-0"|' "$work/noroute.xml" >"$work/one.xml"
printf '0,ws-0,busy\n' >"$work/forever.csv"
expect_bad_setting owners_forever "none came back" "${owner_trace[@]}" owners.trace=$work/forever.csv \
  platform=$work/one.xml workload.generator.jobs=1
finish
