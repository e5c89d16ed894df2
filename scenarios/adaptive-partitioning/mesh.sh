#!/usr/bin/env bash
# Beyond Setia's paper: AP, APMC and APVM(0.5) on the 16 x 8 mesh (platforms/mesh-16x8.xml), count-only against
# submesh allocation, free dispatch against memory images over the mesh: the three sweeps, their figures
# (docs/reproduction/figures/adaptive-partitioning/mesh-*.png), tables and paired ratios (printed, markdown), for
# the section "Beyond the paper" of docs/reproduction/adaptive-partitioning.md.
#
# Usage: scenarios/adaptive-partitioning/mesh.sh [BUILD_DIR [RESULTS_DIR]]   (defaults: build, results)
# Run from the repository's root. About 15 minutes of CPU on the 2-core development machine; finished runs are kept
# in RESULTS_DIR, so an interrupted run resumes where it stopped.
set -eu
build=${1:-build}
results=${2:-results}
here=scenarios/adaptive-partitioning
figures=docs/reproduction/figures/adaptive-partitioning
mkdir -p "$figures"

series=(
  'policy.allocation:first-fit=count-only' 'policy.allocation:submesh-first-fit=submesh first fit'
  'policy.allocation:submesh-best-fit=submesh best fit'
  'simulation.images.store:none=no transfer' 'simulation.images.store:host=images via io-0'
)
for name in mesh-ap mesh-apmc mesh-apvm; do
  nice "$build/jobsched" sweep "$here/$name.yaml" --out "$results/$name" --quiet
  args=()
  for label in "${series[@]}"; do args+=(--label "$label"); done
  "$build/jobsched" plot "$results/$name" --metric mean_turnaround_time --x workload.load_factor --log-y \
    --label 'workload.load_factor=utilization rho' --label 'mean_turnaround_time=mean response time (s)' \
    "${args[@]}" --out "$results/$name/plots" >/dev/null
  cp "$results/$name/plots/mean_turnaround_time-vs-workload.load_factor.png" "$figures/$name.png"
  echo "## $name"
  python3 "$here/tables.py" "$results/$name" --label 'first-fit, none=count-only' \
    --label 'first-fit, host=count-only, images' --label 'submesh-first-fit, none=submesh FF' \
    --label 'submesh-first-fit, host=submesh FF, images' --label 'submesh-best-fit, none=submesh BF' \
    --label 'submesh-best-fit, host=submesh BF, images'
  echo
  python3 "$here/mesh_pairs.py" "$results/$name"
  echo
done
