#!/usr/bin/env bash
# Same scenario, same seed: byte-identical outputs, for one scenario of every policy family (space sharing, the SMP
# allocator with both communication models, a submesh allocator with traffic over the network, gang, EQUI, AP with
# images, APVM, the memory-constrained schedulers, gang-now on networks of workstations with owners, owners under
# space and time sharing, Cao et al.'s hierarchical schedulers on their phased jobs and on rigid ones, the fork-join
# study). Each scenario runs twice in separate processes; every output but performance.json (wall time) must match.
source "$(dirname "$0")/lib.sh" determinism "$@"

twice() { # NAME COMMAND SCENARIO SET...
  local name=$1 command=$2 scenario=$3
  shift 3
  local sets=() problems=""
  for s in "$@"; do sets+=(--set "$s"); done
  for i in 1 2; do
    if ! "$bin" "$command" "$scenario" --quiet --out "$work/$name.$i" "${sets[@]}" 2>"$work/$name.$i.err"; then
      report "$name" " run $i failed: $(head -c 300 "$work/$name.$i.err")"
      return
    fi
  done
  local compared=0 least=${least_files:-2}
  for f in "$work/$name.1"/*; do
    local base
    base=$(basename "$f")
    [ "$base" = performance.json ] && continue
    compared=$((compared + 1))
    cmp -s "$f" "$work/$name.2/$base" || problems+=" $base differs;"
  done
  [ "$compared" -ge "$least" ] || problems+=" only $compared files compared;"
  [ "$(ls "$work/$name.1" | wc -l)" = "$(ls "$work/$name.2" | wc -l)" ] || problems+=" different file sets;"
  report "$name" "$problems"
}

quick=$src/scenarios/quickstart.yaml
small=workload.generator.jobs=150
twice fcfs run "$quick" "$small" policy.name=fcfs
twice easy run "$quick" "$small" policy.name=easy
twice conservative run "$quick" "$small" policy.name=conservative
twice first_fit_list run "$quick" "$small" policy.name=first-fit-list
twice gang run "$src/scenarios/time-sharing.yaml"
twice equi run "$quick" "$small" policy.name=equi 'workload.jobs={shape: malleable, max_size: 16}'
twice smp_formula run "$quick" "$small" platform="$src/platforms/smp-cluster-10x10.xml" policy.allocation=smp \
  'workload.communication={model: formula, level: 3, base: 0.05}'
twice smp_network run "$quick" workload.generator.jobs=60 platform="$src/platforms/smp-cluster-10x10.xml" \
  policy.allocation=smp 'workload.communication={model: network, level: 3, base: 0.05}'
twice ap_images run "$src/scenarios/adaptive-partitioning/mesh-apvm.yaml" workload.generator.jobs=60 \
  'policy={name: ap, params: {quantum: 60}}' policy.allocation=submesh-best-fit simulation.images.store=host \
  workload.load_factor=0.4 \
  sweep=null replications=null
twice apvm run "$src/scenarios/adaptive-partitioning/mesh-apvm.yaml" workload.generator.jobs=60 \
  policy.allocation=first-fit simulation.images.store=none workload.load_factor=0.4 sweep=null replications=null
twice memory_constrained run "$src/scenarios/memory-constrained/dynamic.yaml" workload.generator.jobs=60
twice owners_easy run "$quick" "$small" platform="$src/platforms/now-16-lan.xml" \
  'owners={model: alternating, mean_idle: 3000, mean_busy: 1000}'
twice owners_gang run "$src/scenarios/time-sharing.yaml" platform="$src/platforms/now-16-lan.xml" \
  'owners={model: alternating, mean_idle: 3000, mean_busy: 1000}'
twice gang_now run "$src/scenarios/gang-now/now.yaml" workload.generator.jobs=15
twice gang_now_swf run "$quick" workload.generator.jobs=40 platform="$src/platforms/now-16-lan.xml" \
  'policy={name: gang-now, params: {quantum: 600}}' 'owners={model: alternating, mean_idle: 3000, mean_busy: 500}'
twice ac_ds run "$src/scenarios/hierarchical/ac-ds.yaml" workload.generator.jobs=40
twice equi_equi_swf run "$quick" workload.generator.jobs=60 'policy={name: equi-equi, params: {quantum: 60}}'
least_files=1 twice fork_join fork-join "$src/scenarios/adaptive-partitioning/fork-join.yaml" fork_join.threads=16
finish
