#!/usr/bin/env bash
# install.examples: installs the build into a temporary prefix (cmake --install), copies every examples/*/ folder that
# has a run.sh to a temporary folder outside the source tree, and runs its run.sh PREFIX there (each builds itself
# against the installed jobsched and checks its own results). One line per example, then "N passed, M failed".
#
# Usage: examples.sh BUILD_DIR SOURCE_DIR
set -u
if [ $# -ne 2 ] || [ ! -d "$1" ] || [ ! -d "$2/examples" ]; then
  echo "usage: $(basename "$0") BUILD_DIR SOURCE_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/jobsched-examples.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The examples' builds are small and each is a new folder: the compiler cache would only fill up.
export CCACHE_DISABLE=1

if ! cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1; then
  echo "FAIL install: $(tail -n 5 "$work/install.log" | tr '\n' '|')"
  exit 1
fi
passed=0
failed=0
for script in "$src"/examples/*/run.sh; do
  [ -f "$script" ] || continue
  name=$(basename "$(dirname "$script")")
  mkdir "$work/$name"
  # The example's files as the repository has them (not an in-tree run's build or results folders).
  (cd "$(dirname "$script")" && git ls-files -z . 2>/dev/null | xargs -0 -r cp --parents -t "$work/$name")
  [ -f "$work/$name/run.sh" ] || cp -r "$(dirname "$script")/." "$work/$name" # not a git checkout: the whole folder
  if bash "$work/$name/run.sh" "$work/prefix" >"$work/$name.log" 2>&1; then
    echo "PASS $name: $(tail -n 1 "$work/$name.log")"
    passed=$((passed + 1))
  else
    echo "FAIL $name: $(tail -n 15 "$work/$name.log" | tr '\n' '|')"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
