#!/usr/bin/env bash
# Speed of the Al-Saqabi scheduler (policy gang-now) against the network's size and the workload's length: CPU seconds
# (user + system, of the whole process) and peak memory of scenarios/gang-now/now.yaml (owners busy 30% of the time,
# jobs of 2 to 16 VPs with 8 MB images, a 10 Mbit/s segment) on 16 workstations (platforms/now-16-lan.xml), 128
# (scripts/now_platform.py --workstations 128) and 1,000 (--workstations 1000 --routing star: one link per
# workstation, no per-pair route), one run at a time on one core.
# Usage: gang_now_scale.sh JOBSCHED_BIN [SOURCE_DIR]   ROWS="16/300/150 1000/200/2.4" selects the rows
#        (workstations/jobs/mean inter-arrival in seconds), TIMEOUT (CPU seconds, default 600: a limit on CPU, not
#        wall time, so that a machine shared with other work stops the same runs) stops a run that takes longer
#        (printed as "> TIMEOUT s"), LIB: a folder holding the libjobsched.so to use (an older build kept for
#        comparison).
# Prints one row per run: CPU seconds, peak MiB, and from summary.json the makespan, the mean turnaround, the jobs in
# the system over the last third of the run and the most slices the allocation map had.
set -euo pipefail
bin=$1
src=${2:-$(cd "$(dirname "$0")/.." && pwd)}
# The default rows: the README's table. 150 s is now.yaml's own inter-arrival; 18.75 s and 2.4 s keep the load per
# workstation of 16 workstations at 150 s; on 1,000 workstations the scheduler sustains about one job every 35 s (its
# rule puts each job on its architecture's fastest workstations, so jobs of one architecture mostly take slices of
# their own), so 2.4 s overloads it and 60 s does not.
rows=${ROWS:-"16/300/150 128/100/150 128/100/18.75 1000/200/2.4 1000/1000/2.4 1000/10000/2.4 1000/1000/60 1000/10000/60"}
limit=${TIMEOUT:-600}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)
lib=()
[ -n "${LIB:-}" ] && lib=(env LD_LIBRARY_PATH="$LIB")

cp "$src/platforms/now-16-lan.xml" "$work/now-16.xml"
python3 "$src/scripts/now_platform.py" --workstations 128 --network lan >"$work/now-128.xml"
python3 "$src/scripts/now_platform.py" --workstations 1000 --network lan --routing star >"$work/now-1000.xml"

printf '%12s %6s %11s %9s %11s %12s %13s %12s %10s\n' workstations jobs interarrival "CPU (s)" "peak (MiB)" \
  "makespan (s)" "turnaround (s)" "jobs (last)" "max slices"
for row in $rows; do
  IFS=/ read -r workstations jobs interarrival <<<"$row"
  rm -rf "$work/out"
  set +e
  (
    ulimit -t "$limit" # the kernel stops the run (SIGXCPU, then SIGKILL) after that much CPU
    exec "${lib[@]}" /usr/bin/time -f '%U %S %M' -o "$work/time" "${pin[@]}" "$bin" run \
      "$src/scenarios/gang-now/now.yaml" --quiet --out "$work/out" --set platform="$work/now-$workstations.xml" \
      --set workload.generator.jobs="$jobs" --set workload.generator.mean_interarrival="$interarrival" 2>"$work/err"
  )
  rc=$?
  set -e
  if [ $rc != 0 ] && grep -q -E 'signal (9|24)|CPU time limit' "$work/err" "$work/time" 2>/dev/null; then
    printf '%12s %6s %11s %9s\n' "$workstations" "$jobs" "$interarrival" "> $limit s"
    continue
  elif [ $rc != 0 ]; then
    printf '%12s %6s %11s   failed: %s\n' "$workstations" "$jobs" "$interarrival" \
      "$(grep -v '^Command' "$work/err" | head -c 200)"
    continue
  fi
  read -r user sys peak_kb <"$work/time"
  read -r makespan turnaround last slices < <(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["makespan"], d["mean_turnaround_time"], d["jobs_in_system_last_third"], int(d["max_slices"]))' \
    "$work/out/summary.json")
  awk -v w="$workstations" -v j="$jobs" -v i="$interarrival" -v u="$user" -v s="$sys" -v m="$peak_kb" \
    -v ms="$makespan" -v t="$turnaround" -v l="$last" -v x="$slices" \
    'BEGIN { printf "%12s %6s %11s %9.2f %11.0f %12.0f %13.0f %12.1f %10s\n", w, j, i, u + s, m / 1024, ms, t, l, x }'
done
