#!/usr/bin/env bash
# A scenario whose name holds a quote, a backslash, a tab and a non-ASCII character: the summary.json and
# performance.json of a normal run (scenarios/quickstart.yaml), a gang-now run and a hierarchy run are JSON that
# Python's json module reads, and the summary's "scenario" is the name, unchanged.
source "$(dirname "$0")/lib.sh" json_names "$@"
name=$'say "hi" \\ back\tslash \u00e9'
yaml_name='name="say \"hi\" \\ back\tslash \u00e9"' # the same name as a YAML double-quoted scalar, for --set

check() { # CASE SCENARIO SET...
  local case=$1 scenario=$2 problems=""
  shift 2
  local sets=(--set "$yaml_name") s
  for s in "$@"; do sets+=(--set "$s"); done
  if ! "$bin" run "$src/$scenario" --quiet --out "$work/$case" "${sets[@]}" 2>"$work/$case.err"; then
    report "$case" " failed: $(head -c 300 "$work/$case.err")"
    return
  fi
  local verdict
  verdict=$(python3 - "$work/$case" "$name" <<'PY'
import json, sys
folder, name = sys.argv[1], sys.argv[2]
try:
    summary = json.load(open(folder + "/summary.json", encoding="utf-8"))
    json.load(open(folder + "/performance.json", encoding="utf-8"))
except ValueError as e:
    print("not valid JSON: %s" % e)
    sys.exit()
if summary.get("scenario") != name:
    print("scenario is %r, not %r" % (summary.get("scenario"), name))
PY
)
  [ -z "$verdict" ] || problems+=" $verdict;"
  report "$case" "$problems"
}
check normal scenarios/quickstart.yaml workload.generator.jobs=30
check gang_now scenarios/gang-now/now.yaml workload.generator.jobs=8
check hierarchy scenarios/hierarchical/ac-ds.yaml workload.generator.jobs=40 workload.generator.work_unit=1e-6 \
  policy.params.levels=3
finish
