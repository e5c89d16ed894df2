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

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
