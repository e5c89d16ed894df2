#!/usr/bin/env bash
# Gang scheduling on networks of workstations (scenarios/gang-now/now.yaml) as a user runs it: runs under the three
# eviction policies and the paper's variants finish every job; the same seed gives the same bytes; the owners' trace
# and every key are checked, one line naming the file, line or key, exit status 2, no outputs.
source "$(dirname "$0")/lib.sh" gang_now "$@"
scenario=$src/scenarios/gang-now/now.yaml
small=(--set gang_now.workload.jobs=8)

check_run() { # NAME SET...
  local name=$1
  shift
  local sets=() problems=""
  for s in "$@"; do sets+=(--set "$s"); done
  if ! "$bin" run "$scenario" --quiet --out "$work/$name" "${small[@]}" "${sets[@]}" 2>"$work/$name.err"; then
    report "$name" " failed: $(head -c 300 "$work/$name.err")"
    return
  fi
  [ "$(field jobs "$work/$name/summary.json")" = 8 ] || problems+=" jobs;"
  [ "$(($(wc -l <"$work/$name/jobs.csv") - 1))" = 8 ] || problems+=" jobs.csv rows;"
  # Every job ran at least as long as one VP's work on the fastest workstation (capacity 5): its last VP does its
  # whole work (VP_exit never ends a job's last VP).
  awk -F, 'NR > 1 && !($8 >= $4 / 5 * (1 - 1e-9)) { bad = 1 } END { exit bad }' "$work/$name/jobs.csv" ||
    problems+=" a job ended faster than its work allows;"
  report "$name" "$problems"
}
check_run migrate
check_run wait gang_now.policy.eviction=wait
check_run restart gang_now.policy.eviction=restart
check_run paper gang_now.policy.mtat=paper gang_now.policy.compression=paper gang_now.policy.pool_target=per-pool
check_run exhaustive gang_now.policy.expansion=exhaustive gang_now.policy.new_slice_rule=time-share
check_run switched platform=$src/platforms/now-16-switched.xml
check_run no_owners gang_now.owners.activity=0

[ "$(field restarts "$work/migrate/summary.json")" = 0 ] && [ "$(field migrations "$work/restart/summary.json")" = 0 ]
report restart_never_migrates "$([ $? -eq 0 ] || echo ' migrate restarted or restart migrated')"
[ "$(field migrations "$work/no_owners/summary.json")" != "" ] && [ "$(field owner_returns "$work/no_owners/summary.json")" = 0 ]
report no_owner_no_return "$([ $? -eq 0 ] || echo ' owners came back')"

"$bin" run "$scenario" --quiet --out "$work/again" "${small[@]}" 2>/dev/null
cmp -s "$work/again/summary.json" "$work/migrate/summary.json" && cmp -s "$work/again/jobs.csv" "$work/migrate/jobs.csv"
report same_seed_same_bytes "$([ $? -eq 0 ] || echo ' outputs differ')"

# An architecture named with a comma is quoted in jobs.csv (RFC 4180; it used to add a column to its rows): with
# the quoted fields taken as one, every row has the header's 14 fields.
sed 's/value="x86"/value="x86,64"/' "$src/platforms/now-16-lan.xml" >"$work/now-comma.xml"
problems=""
"$bin" run "$scenario" --quiet --out "$work/comma" "${small[@]}" --set "platform=$work/now-comma.xml" \
  2>"$work/comma.err" || problems+=" failed: $(head -c 300 "$work/comma.err");"
grep -q '^[0-9]*,"x86,64",' "$work/comma/jobs.csv" || problems+=" no row of arch \"x86,64\";"
sed 's/"[^"]*"/Q/g' "$work/comma/jobs.csv" | awk -F, 'NF != 14 { bad = 1 } END { exit bad }' ||
  problems+=" rows without 14 fields;"
report comma_in_arch "$problems"

# simulation.max_backlog stops a gang_now run as it stops the main runs (it was ignored). Jobs arrive about every second
# and none of 10^5 s can end before the third arrives: with max_backlog 2 the run stops at the third job's submission,
# read from a run of 1 s jobs with the same seed (the arrivals do not depend on the work), with 3 jobs unfinished.
fast=(--set gang_now.workload.mean_interarrival=1 --set gang_now.owners.activity=0)
"$bin" run "$scenario" --quiet --out "$work/arrivals" "${small[@]}" "${fast[@]}" --set gang_now.workload.min_work=1 \
  --set gang_now.workload.max_work=1 2>/dev/null
"$bin" run "$scenario" --quiet --out "$work/backlog" "${small[@]}" "${fast[@]}" --set gang_now.workload.min_work=1e5 \
  --set gang_now.workload.max_work=1e5 --set simulation.max_backlog=2 2>"$work/backlog.err"
third=$(awk -F, '$1 == 2 { print $5 }' "$work/arrivals/jobs.csv")
problems=""
[ "$(field saturated "$work/arrivals/summary.json")" = 0 ] &&
  [ "$(field backlog_stop_time "$work/arrivals/summary.json")" = -1 ] || problems+=" the unbounded run saturated;"
[ "$(field saturated "$work/backlog/summary.json")" = 1 ] || problems+=" saturated not 1;"
[ -n "$third" ] && [ "$(field backlog_stop_time "$work/backlog/summary.json")" = "$third" ] ||
  problems+=" stopped at $(field backlog_stop_time "$work/backlog/summary.json"), third arrival at '$third';"
b=$work/backlog/summary.json
[ "$(field unfinished_jobs "$b")" = 3 ] && [ "$(field jobs "$b")" = 0 ] ||
  problems+=" jobs $(field jobs "$b"), unfinished $(field unfinished_jobs "$b");"
report max_backlog_stops "$problems$(head -c 300 "$work/backlog.err")"

expect_bad_setting eviction gang_now.policy.eviction gang_now.policy.eviction=never
expect_bad_setting quantum gang_now.policy.quantum gang_now.policy.quantum=-1
expect_bad_setting unknown_key gang_now.workload.vps gang_now.workload.vps=3
expect_bad_setting activity gang_now.owners.activity gang_now.owners.activity=1.5
expect_bad_setting cv gang_now.owners.idle_cv gang_now.owners.idle_cv=nan
expect_bad_setting arch gang_now.workload.archs 'gang_now.workload.archs=[mips]'
expect_bad_setting missing_trace gang_now.owners.trace gang_now.owners.model=trace gang_now.owners.activity=null \
  gang_now.owners.mean_idle=null gang_now.owners.idle_cv=null gang_now.owners.busy_cv=null \
  gang_now.owners.trace=$work/none.csv
printf '10,ws-0,busy\n5,ws-0,idle\n' >"$work/owners.csv"
expect_bad_setting trace_order "owners.csv:2" gang_now.owners.model=trace gang_now.owners.activity=null \
  gang_now.owners.mean_idle=null gang_now.owners.idle_cv=null gang_now.owners.busy_cv=null \
  gang_now.owners.trace=$work/owners.csv
expect_bad_setting with_policy policy 'policy={name: easy}'
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
expect_bad_setting no_route "no route between workstations a1 and a2" platform=$work/noroute.xml
# One workstation whose owner is there from the start and never leaves: the job would wait for ever.
sed -e 's|<host id="a2" speed="2Gf"/>||' -e 's|id="a1"|id="ws-0"|' "$work/noroute.xml" >"$work/one.xml"
printf '0,ws-0,busy\n' >"$work/forever.csv"
expect_bad_setting owners_forever "owners never leave" gang_now.owners.model=trace gang_now.owners.activity=null \
  gang_now.owners.mean_idle=null gang_now.owners.idle_cv=null gang_now.owners.busy_cv=null \
  gang_now.owners.trace=$work/forever.csv platform=$work/one.xml gang_now.workload.jobs=1
finish
