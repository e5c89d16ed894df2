#!/usr/bin/env bash
# The response-time experiments of McCann & Zahorjan 1994, section 5.2 (Figures 13-18), then their tables and figures:
#   scenarios/memory-constrained/run-response.sh [JOBSCHED] [OUT]     (defaults: build/jobsched, results/mc-response,
#                                                                      relative to the current folder)
# Runs the five sweeps (-j 2, niced; their scenarios write no trace.csv: 5000 jobs make 8-25 MB of trace a run, 3,000
# runs: tens of GB that the tables do not need), then writes OUT/*.md, *.csv and *.png with response_tables.py.
# Interrupted, it resumes: finished runs are not redone.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
jobsched=$(realpath "${1:-build/jobsched}")
mkdir -p "${2:-results/mc-response}"
out=$(realpath "${2:-results/mc-response}")
cd "$here/../.."
for sweep in vs-jobs vs-nodes vs-nodes-buddy vs-k-load100 vs-k-load200; do
  start=$(date +%s)
  nice "$jobsched" sweep "$here/response-$sweep.yaml" -j 2 --quiet --out "$out/$sweep"
  echo "$sweep: $(($(date +%s) - start)) s"
done
python3 "$here/response_tables.py" "$out"
