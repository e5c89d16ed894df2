#!/usr/bin/env bash
# run.sh PREFIX: builds this example against the jobsched installed under PREFIX (cmake --install ... --prefix PREFIX),
# from wherever this folder was copied, runs the program with its own actor (background traffic from 600 s to 4 h)
# and without it, and checks that the traffic had an effect on the jobs: the same jobs, a larger mean communication
# cost and a longer mean turnaround (summary.json). The outputs stay in results/ beside this script.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 1; }
prefix=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT

cmake -S "$here" -B "$build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" >/dev/null

for run in with-traffic:deployment.xml without-traffic:deployment-quiet.xml; do
  "$build/s4u-program" "$here/platform.xml" "$here/${run#*:}" --cfg=jobsched/scenario:"$here/scenario.yaml" \
    --cfg=jobsched/out:"$here/results/${run%%:*}" --log=xbt_cfg.thres:warning
done

# A number of summary.json: "key": value,
value() { sed -n "s/^ *\"$2\": \\([-0-9.e+]*\\),*$/\\1/p" "$here/results/$1/summary.json"; }
echo "                 jobs  makespan  mean turnaround  mean communication cost"
for run in with-traffic without-traffic; do
  printf "%-15s %5s %9s %16s %24s\n" "$run" "$(value $run jobs_completed)" "$(value $run makespan)" \
    "$(value $run mean_turnaround_time)" "$(value $run mean_communication_cost)"
done
awk -v jw="$(value with-traffic jobs_completed)" -v jq="$(value without-traffic jobs_completed)" \
    -v tw="$(value with-traffic mean_turnaround_time)" -v tq="$(value without-traffic mean_turnaround_time)" \
    -v cw="$(value with-traffic mean_communication_cost)" -v cq="$(value without-traffic mean_communication_cost)" \
    'BEGIN { if (jw == "" || jw != jq || !(cw > cq) || !(tw > tq)) {
               print "FAIL: the program'"'"'s background traffic did not slow the jobs down"; exit 1 }
             print "OK: the program'"'"'s own actor slowed the jobs down" }'
