#!/usr/bin/env bash
# The experiments of docs/reproduction/gang-now.md (gang scheduling on networks of workstations, Al-Saqabi, Otto &
# Walpole): every sweep, its figures (docs/reproduction/figures/gang-now/) and its tables (printed, markdown).
#
# Usage: scenarios/gang-now/reproduce.sh [BUILD_DIR [RESULTS_DIR]]   (defaults: build, results)
# Run from the repository's root. About 3 minutes of CPU; finished runs are kept in RESULTS_DIR, so an interrupted
# reproduction resumes where it stopped.
set -eu
build=${1:-build}
results=${2:-results}
here=scenarios/gang-now
figures=docs/reproduction/figures/gang-now
mkdir -p "$figures"

sweep() { # NAME
  nice "$build/jobsched" sweep "$here/$1.yaml" --out "$results/gang-now/$1" -j 2 --quiet
}
plot() { # NAME METRIC X FIGURE [OPTIONS...]
  local name=$1 metric=$2 x=$3 figure=$4
  shift 4
  "$build/jobsched" plot "$results/gang-now/$name" --metric "$metric" --x "$x" "$@" \
    --label 'owners.activity=owner activity (busy fraction)' \
    --label 'policy.params.eviction=eviction' --label 'workload.generator.image_mb=image per VP (MB)' \
    --label 'mean_turnaround_time=mean turnaround (s)' --label 'fairness=fairness (Jain index of slowdowns)' \
    --label 'migrations=migrations' --label 'mean_slowdown=mean slowdown' \
    --label 'policy.params.eviction:migrate=migrate' --label 'policy.params.eviction:wait=wait' \
    --label 'policy.params.eviction:restart=restart' \
    --label 'platform:../../platforms/now-16-lan.xml=10 Mbit/s shared' \
    --label 'platform:platforms/now-16-lan-100mbit.xml=100 Mbit/s shared' \
    --label 'platform:../../platforms/now-16-switched.xml=10 Mbit/s switched' \
    --out "$results/gang-now/$name/plots" >/dev/null
  cp "$results/gang-now/$name/plots/$metric-vs-$x.png" "$figures/$figure.png"
}

sweep activity
plot activity mean_turnaround_time owners.activity activity-turnaround
plot activity fairness owners.activity activity-fairness
sweep network
plot network mean_turnaround_time workload.generator.image_mb network-turnaround --log-y
plot network migrations workload.generator.image_mb network-migrations
sweep variants
sweep expansion
for name in activity network variants expansion; do
  echo "## $name"
  python3 "$here/tables.py" "$results/gang-now/$name"
  echo
done
