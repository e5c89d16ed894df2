#!/usr/bin/env bash
# Benchmark against pyss, an independent Python simulator (rebuilt outside the project by ../shared/peers): the whole
# KTH SP2 trace under FCFS, EASY and conservative backfilling, CPU time (user + system) of each whole process, best
# of 3 runs, and the ratio. Skips (and succeeds) when pyss is not installed.
# Usage: vs_pyss.sh JOBSCHED_BIN SOURCE_DIR   PYSS_DIR: the pyss port (default ~/.cache/jobsched-peers/pyss-py3)
set -uo pipefail
bin=$1
src=$(cd "$2" && pwd)
pyss=${PYSS_DIR:-$HOME/.cache/jobsched-peers/pyss-py3}
peers=$src/../shared/peers
trace=$src/../shared/data/traces/KTH-SP2-1996-2.1-cln.swf.gz
if [ ! -d "$pyss" ] || [ ! -x "$peers/run_peer.sh" ] || [ ! -f "$trace" ]; then
  echo "SKIP: pyss not found (set PYSS_DIR; ../shared/peers/README.md says how to rebuild it) or no KTH trace"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
zcat "$trace" >"$work/kth.swf"
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)
cpu() { # best CPU seconds (user + system) of 3 runs of the command
  local best=""
  for _ in 1 2 3; do
    /usr/bin/time -f "%U %S" -o "$work/t" "$@" >/dev/null 2>&1 || { echo fail; return; }
    local t
    t=$(awk '{ printf "%.3f", $1 + $2 }' "$work/t")
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
  done
  echo "$best"
}
printf '%-14s %12s %14s %8s\n' policy "pyss CPU (s)" "jobsched CPU (s)" ratio
for policy in fcfs easy conservative; do
  p=$(PEER_DIR=$(dirname "$pyss") cpu "${pin[@]}" bash "$peers/run_peer.sh" "$work/kth.swf" 100 "$policy" --procs-field req)
  # Both read the same uncompressed log (the scenario's own trace is gzipped: decompressing it costs jobsched 0.01 s).
  j=$(cpu "${pin[@]}" "$bin" run "$src/scenarios/kth-sp2-easy.yaml" --quiet --out "$work/out-$policy" \
    --set policy.name="$policy" --set workload.communication.pattern=none --set workload.trace="$work/kth.swf")
  printf '%-14s %12s %14s %8s\n' "$policy" "$p" "$j" "$(awk -v a="$p" -v b="$j" 'BEGIN { if (b > 0) printf "%.1fx", a / b }')"
done
echo "target: jobsched at least 10x faster than pyss for each policy"
