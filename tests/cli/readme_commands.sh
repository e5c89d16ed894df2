#!/usr/bin/env bash
# Every jobsched command line the README quotes works as written: each `build/jobsched ...` found in README.md runs,
# in the order it appears, from a scratch folder (so results/ lands there), with build/jobsched standing for the built
# launcher and scenarios/ for the repository's. A command whose input is not here (the KTH log when ../shared is
# missing) is reported as skipped. Usage: readme_commands.sh JOBSCHED_BINARY SOURCE_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" readme "$@"
cd "$work" || exit 2
ln -s "$src/scenarios" scenarios
ln -s "$src/platforms" platforms
ln -s "$src/deployments" deployments
# The commands, one per line, with any shell comment cut off; "A && B" stays one line.
mapfile -t commands < <(grep -o 'build/jobsched [^`]*' "$src/README.md" | sed 's/  *#.*$//; s/ *$//' | awk '!seen[$0]++')
[ "${#commands[@]}" -ge 5 ] || report found_commands " only ${#commands[@]} commands found in README.md"
for command in "${commands[@]}"; do
  line=${command//build\/jobsched/\"$bin\"}
  if [[ $command == *kth-sp2* ]] && [ ! -e "$src/../shared/data/traces/KTH-SP2-1996-2.1-cln.swf.gz" ]; then
    echo "SKIP $command (no KTH trace)"
    continue
  fi
  if eval "$line" >"$work/out.txt" 2>"$work/err.txt"; then
    report "$command" ""
  else
    report "$command" " exit status $?: $(head -c 300 "$work/err.txt" | tr '\n' '|')"
  fi
done
finish
