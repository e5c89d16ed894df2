# Shared by the CLI test scripts: argument checks, a scratch folder, and the PASS/FAIL bookkeeping.
# Usage (sourced): source lib.sh NAME JOBSCHED_BINARY SOURCE_DIR   -> sets bin, src (absolute) and work.

if [ $# -ne 3 ]; then
  echo "usage: $(basename "$0") JOBSCHED_BINARY SOURCE_DIR" >&2
  exit 2
fi
if [ ! -x "$2" ] || [ ! -d "$3" ]; then
  echo "error: $2 is not an executable or $3 is not a folder" >&2
  exit 2
fi
# Absolute paths: the cases may run inside the scratch folder.
bin="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
src="$(cd "$3" && pwd)"
work=$(mktemp -d "${TMPDIR:-/tmp}/jobsched-cli-$1.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

report() { # NAME PROBLEMS
  if [ -z "$2" ]; then
    echo "PASS $1"
    passed=$((passed + 1))
  else
    echo "FAIL $1:$2"
    failed=$((failed + 1))
  fi
}

# field KEY FILE: the value of the top-level KEY of a JSON file (summary.json), read by Python's json module: strings
# as they are, other values as JSON (numbers, true/false, null); nothing when KEY is absent.
field() {
  python3 -c 'import json, sys
v = json.load(open(sys.argv[2], encoding="utf-8")).get(sys.argv[1], "")
print(v if isinstance(v, str) else json.dumps(v))' "$1" "$2"
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# expect_error NAME NFRAGMENTS FRAGMENT... -- ARG...
# Runs "$bin ARG... --out DIR"; checks exit status 2, exactly one stderr line, starting with "jobsched: error:" and
# holding every FRAGMENT, no output folder, and no core file (SimGrid's aborts stay in the checking child).
expect_error() {
  local name=$1 count=$2
  shift 2
  local fragments=()
  while [ "$count" -gt 0 ]; do
    fragments+=("$1")
    shift
    count=$((count - 1))
  done
  [ "$1" = "--" ] && shift
  local out="$work/out-$name" err="$work/$name.stderr"
  "$bin" "$@" --out "$out" >"$work/$name.stdout" 2>"$err"
  local status=$?
  local problems=""
  [ "$status" -eq 2 ] || problems+=" exit status $status (expected 2);"
  local lines
  lines=$(awk 'END { print NR }' "$err")
  [ "$lines" -eq 1 ] || problems+=" $lines stderr lines (expected 1);"
  local first
  first=$(head -n 1 "$err")
  case "$first" in
    "jobsched: error:"*) ;;
    *) problems+=" stderr does not start with 'jobsched: error:';" ;;
  esac
  local f
  for f in "${fragments[@]}"; do
    case "$first" in
      *"$f"*) ;;
      *) problems+=" message lacks '$f';" ;;
    esac
  done
  [ ! -e "$out" ] || problems+=" output folder $out was created;"
  local core
  for core in "$work"/core "$work"/core.[0-9]*; do
    [ -e "$core" ] && problems+=" a core file $core was left;"
  done
  [ -s "$work/$name.stdout" ] && problems+=" stdout not empty;"
  [ -n "$problems" ] && problems+=" stderr was: $(head -c 600 "$err" | tr '\n' '|')"
  report "$name" "$problems"
}

# expect_bad_setting NAME FRAGMENT SET...
# Runs "$bin run $scenario --quiet --set SET..." and checks it as expect_error does (case bad_NAME), the one line
# naming FRAGMENT (the key at fault).
expect_bad_setting() {
  local name=$1 fragment=$2
  shift 2
  local sets=() s
  for s in "$@"; do sets+=(--set "$s"); done
  expect_error "bad_$name" 1 "$fragment" -- run "$scenario" --quiet "${sets[@]}"
}
