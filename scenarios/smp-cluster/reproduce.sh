#!/usr/bin/env bash
# The placement rules of docs/reproduction/smp-cluster.md ("Cost-aware placement"): every fixed Tight, the paper's
# adaptive rule and the cost-aware rule against the communication Level, EASY on KTH SP2, in eight variants
# (placement first-fit or fewest-nodes; 10 x 10, 32 x 8 and 16 x 16 platforms; formula or network model), with the
# cost-aware rule's `waits: head` variant, then the
# readings of the paper's FCFS. Prints the doc's tables (markdown) and draws its figure.
#
# Usage: scenarios/smp-cluster/reproduce.sh [BUILD_DIR [RESULTS_DIR]]   (defaults: build, results)
# Run from the repository's root. 8 x 60 + 40 + 8 x 30 + 6 x 660 + 2 x 720 + 24 runs, about 100 minutes of CPU
# (55 of wall time) on the 2-core development machine, most of it the shaken replications (SHAKEN_REPS=3 takes a
# third of that time); finished runs are kept in RESULTS_DIR (summaries only: output.jobs and output.trace off), so an interrupted
# reproduction resumes where it stopped (the runs that another build of jobsched made are redone).
set -eu
build=${1:-build}
results=${2:-results}
here=scenarios/smp-cluster
figures=docs/reproduction/figures
mkdir -p "$figures"
lean=(--set output.jobs=false --set output.trace=false) # the tables read summary.json only

grid() { # PLACEMENT: the sweep of rules.yaml with that placement
  local p=$1 values=""
  for t in 0 1 2 3 4 5 6; do values+="{tight: $t, placement: $p}, "; done
  values+="{adaptive: true, placement: $p}, {adaptive: cost-aware, placement: $p}, "
  values+="{adaptive: cost-aware, waits: head, placement: $p}"
  echo "sweep={policy.allocation_params: [$values], workload.communication.level: [0, 1, 2, 3, 4, 5]}"
}
variant() { # NAME PLACEMENT [--set ...]: one variant of rules.yaml into RESULTS_DIR/smp-rules-NAME, and its table
  local name=$1 placement=$2
  shift 2
  nice "$build/jobsched" sweep "$here/rules.yaml" --set "$(grid "$placement")" "$@" "${lean[@]}" \
    --out "$results/smp-rules-$name" --quiet
  echo "## $name"
  python3 "$here/rules_table.py" "$results/smp-rules-$name"
  echo
}

# The eight variants: FUNCTION NAME PLACEMENT [--set ...] for each machine or model, then each placement.
for_each_variant() { # FUNCTION
  local v name sets p
  for v in "10x10|" "32x8|--set platform=platforms/smp-cluster-32x8.xml" \
    "16x16|--set platform=platforms/smp-cluster-16x16.xml" "network|--set workload.communication.model=network"; do
    name=${v%%|*}
    sets=${v#*|}
    for p in first-fit fewest-nodes; do
      # shellcheck disable=SC2086 # $sets is zero or two words
      "$1" "$name-$p" "$p" $sets
    done
  done
}
for_each_variant variant

# The network estimate's contention_weight (cost-aware only, Levels 1-5): distance from the best fixed Tight.
for p in first-fit fewest-nodes; do
  values=""
  for w in 1.0 2.0 4.0 8.0; do values+="{adaptive: cost-aware, contention_weight: $w, placement: $p}, "; done
  nice "$build/jobsched" sweep "$here/rules.yaml" --set workload.communication.model=network \
    --set "sweep={policy.allocation_params: [${values%, }], workload.communication.level: [1, 2, 3, 4, 5]}" \
    "${lean[@]}" --out "$results/smp-contention-$p" --quiet
  echo "## contention weight, network, $p"
  python3 "$here/contention_table.py" "$results/smp-rules-network-$p" "$results/smp-contention-$p"
  echo
done

# The cost-aware rule's wait_tolerance (every variant, Levels 0-5): distance from the best fixed Tight.
tolerance() { # NAME PLACEMENT [--set ...]: the wait_tolerance sweep of one variant into RESULTS_DIR/smp-tolerance-NAME
  local name=$1 p=$2 values=""
  shift 2
  for t in 0.05 0.1 0.3 0.5 1.0; do values+="{adaptive: cost-aware, wait_tolerance: $t, placement: $p}, "; done
  nice "$build/jobsched" sweep "$here/rules.yaml" \
    --set "sweep={policy.allocation_params: [${values%, }], workload.communication.level: [0, 1, 2, 3, 4, 5]}" "$@" \
    "${lean[@]}" --out "$results/smp-tolerance-$name" --quiet
  tolerance_args+=("$name" "$results/smp-rules-$name" "$results/smp-tolerance-$name")
}
tolerance_args=()
for_each_variant tolerance
echo "## wait tolerance"
python3 "$here/tolerance_table.py" "${tolerance_args[@]}"
echo

# The same rules on shaken copies of the log (workload.shake: 60 s, SHAKEN_REPS replications, default 10): every fixed
# Tight, the paper's rule, and the cost-aware rule as it is (stretched releases, spread_weight 1, mean network load),
# without the spread weight, in its first version (estimate releases, no spread weight, the network load now) and,
# with the network model, with the load now; means and paired confidence intervals with shaken_table.py, and a figure
# of the 10 x 10 first-fit variant.
shaken() { # NAME PLACEMENT [--set ...]: the shaken sweep of one variant into RESULTS_DIR/smp-shaken-NAME
  local name=$1 p=$2 values=""
  shift 2
  for t in 0 1 2 3 4 5 6; do values+="{tight: $t, placement: $p}, "; done
  values+="{adaptive: true, placement: $p}, {adaptive: cost-aware, placement: $p}, "
  values+="{adaptive: cost-aware, spread_weight: 0, load_measure: now, placement: $p}, "
  values+="{adaptive: cost-aware, releases: estimate, spread_weight: 0, load_measure: now, placement: $p}"
  # The network estimate with the load at the decision instead of its mean (the formula model measures no load).
  if [[ $name == network-* ]]; then values+=", {adaptive: cost-aware, load_measure: now, placement: $p}"; fi
  nice "$build/jobsched" sweep "$here/rules.yaml" --set workload.shake=60 --set "replications=${SHAKEN_REPS:-10}" \
    "${lean[@]}" \
    --set "sweep={policy.allocation_params: [$values], workload.communication.level: [0, 1, 2, 3, 4, 5]}" "$@" \
    --out "$results/smp-shaken-$name" --quiet
  shaken_args+=("$name" "$results/smp-shaken-$name")
}
shaken_args=()
for_each_variant shaken
echo "## shaken"
python3 "$here/shaken_table.py" --tables "${shaken_args[@]}"
echo
# The figures: slowdown against Level, one line per rule (10 x 10, first-fit, formula), on the log as recorded and on
# its shaken copies.
rules_figure() { # SWEEP_DIR FIGURE_NAME Y_LABEL [--label ...]: draw the sweep's figure into docs/reproduction/figures
  local sweep=$1 figure=$2 ylabel=$3 t
  shift 3
  local labels=()
  for t in 0 1 2 3 4 5 6; do
    labels+=(--label "policy.allocation_params:{tight: $t, placement: first-fit}=Tight $t")
  done
  "$build/jobsched" plot "$sweep" --metric mean_slowdown --x workload.communication.level \
    --series policy.allocation_params --log-y --label 'workload.communication.level=communication Level' \
    --label "mean_slowdown=$ylabel" "${labels[@]}" \
    --label 'policy.allocation_params:{adaptive: true, placement: first-fit}=paper adaptive (6 - Level)' \
    --label 'policy.allocation_params:{adaptive: cost-aware, placement: first-fit}=cost-aware' "$@" \
    --out "$sweep/plots" >/dev/null
  for ext in png svg; do
    cp "$sweep/plots/mean_slowdown-vs-workload.communication.level.$ext" "$figures/$figure.$ext"
  done
}
rules_figure "$results/smp-rules-10x10-first-fit" smp-rules-slowdown-vs-level 'mean slowdown (EASY, KTH SP2)' \
  --label 'policy.allocation_params:{adaptive: cost-aware, waits: head, placement: first-fit}=cost-aware, waits: head'
rules_figure "$results/smp-shaken-10x10-first-fit" smp-rules-shaken-slowdown-vs-level \
  "mean slowdown (EASY, ${SHAKEN_REPS:-10} shaken copies of KTH SP2)" \
  --label 'policy.allocation_params:{adaptive: cost-aware, spread_weight: 0, load_measure: now, placement: first-fit}=cost-aware, spread_weight 0' \
  --label 'policy.allocation_params:{adaptive: cost-aware, releases: estimate, spread_weight: 0, load_measure: now, placement: first-fit}=cost-aware, first version'

# The paper's FCFS (Table 1, 178-268 at Level 0): strict FCFS and first-fit list scheduling, plain and bounded
# slowdown (tau = 10 s), every Tight at Levels 0, 2 and 4 (first-fit placement).
nice "$build/jobsched" sweep "$here/tight-level.yaml" \
  --set 'sweep={policy.name: [fcfs, first-fit-list], policy.allocation_params.tight: [0, 2, 4, 6], workload.communication.level: [0, 2, 4]}' \
  "${lean[@]}" --out "$results/smp-fcfs-readings" --quiet
echo "## FCFS readings"
python3 "$here/fcfs_table.py" "$results/smp-fcfs-readings"
