#!/usr/bin/env bash
# Policies from shared libraries (policy/plugin_loader.hpp) as a user loads them: a scenario's plugins:, --plugin and
# JOBSCHED_PLUGIN_PATH run the test plugin's policy (test-lifo, tests/plugins/lifo.cpp) with the schedule worked out by
# hand below; list-policies marks it; every refusal is one line, exit 2, no output folder; a resumed sweep redoes its
# runs after the plugin library changed, and only then.
#
# Usage: plugins.sh JOBSCHED_BINARY SOURCE_DIR TEST_PLUGIN_DIR   (the folder of the libtest_plugin_*.so libraries)
set -u
plugins=$(cd "$3" && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" plugins "$1" "$2"
cd "$work" || exit 2
unset JOBSCHED_PLUGIN_PATH

# Four jobs on the 16 single-core nodes of cluster-16 (no communication: a job runs its SWF run time). Last come, first
# served: job 1 (16 processors) runs 0-100; at 100 jobs 2, 3, 4 wait and the last submitted, 4 (16 processors), runs
# 100-140; then 3 and 2 (8 each) run side by side, 140-170 and 140-190. (FCFS would run 2 and 3 at 100, 4 at 150.)
expected='1,0,100
2,140,190
3,140,170
4,100,140'
cat >tiny.swf <<'SWF'
1 0 0 100 16 -1 -1 16 100 -1 1 1 1 -1 -1 -1 -1 -1
2 10 0 50 8 -1 -1 8 50 -1 1 1 1 -1 -1 -1 -1 -1
3 20 0 30 8 -1 -1 8 30 -1 1 1 1 -1 -1 -1 -1 -1
4 30 0 40 16 -1 -1 16 40 -1 1 1 1 -1 -1 -1 -1 -1
SWF
mkdir -p scenario/lib elsewhere
cp "$plugins/libtest_plugin_lifo.so" scenario/lib/liblifo.so
mv tiny.swf scenario/
scenario_text() { # PLUGINS_LINE
  printf 'platform: %s\n%bworkload: {trace: ./tiny.swf}\npolicy: {name: test-lifo}\n' "$src/platforms/cluster-16.xml" "$1"
}
scenario_text 'plugins: [lib/liblifo.so]\n' >scenario/with-plugins.yaml
scenario_text '' >scenario/bare.yaml

schedule() { # JOBS_CSV -> job_id,starting_time,finish_time per line
  python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(",".join((r["job_id"], r["starting_time"], r["finish_time"])))' "$1"
}
expect_schedule() { # NAME OUT_DIR STATUS
  local problems=""
  [ "$3" -eq 0 ] || problems+=" exit status $3: $(cat "$work/$1.stderr" 2>/dev/null | head -c 300);"
  [ "$(schedule "$2/jobs.csv" 2>/dev/null)" = "$expected" ] ||
    problems+=" schedule $(schedule "$2/jobs.csv" 2>/dev/null | tr '\n' ' ') is not the hand-made one;"
  report "$1" "$problems"
}

# 1. The three ways, each from another folder than the scenario's (plugins: is relative to the scenario file).
(cd elsewhere && "$bin" run ../scenario/with-plugins.yaml --out "$work/o1" --quiet 2>"$work/scenario_plugins.stderr")
expect_schedule scenario_plugins o1 $?
"$bin" run scenario/bare.yaml --plugin scenario/lib/liblifo.so --out o2 --quiet 2>option.stderr
expect_schedule option o2 $?
JOBSCHED_PLUGIN_PATH="$work/scenario/lib" "$bin" run scenario/bare.yaml --out o3 --quiet 2>variable_folder.stderr
expect_schedule variable_folder o3 $?
JOBSCHED_PLUGIN_PATH=":$work/nothing-here-is-a-folder-entry:" "$bin" run scenario/bare.yaml --out o4 --quiet \
  2>variable_missing.stderr
[ $? -eq 2 ] && grep -q "JOBSCHED_PLUGIN_PATH: $work/nothing-here-is-a-folder-entry: no such file" \
  variable_missing.stderr && report variable_missing_entry "" ||
  report variable_missing_entry " $(cat variable_missing.stderr)"
# The same library from all three sources, once through a symbolic link: loaded once, no name taken twice.
ln -s liblifo.so scenario/lib/link.so
JOBSCHED_PLUGIN_PATH="::scenario/lib/liblifo.so" "$bin" run scenario/with-plugins.yaml \
  --plugin scenario/lib/link.so --out o5 --quiet 2>same_library_thrice.stderr
expect_schedule same_library_thrice o5 $?
"$bin" run scenario/bare.yaml --set 'plugins=[scenario/lib/liblifo.so]' --out o6 --quiet 2>set_plugins.stderr
expect_schedule set_plugins o6 $?

# 2. list-policies shows the plugin's policy, marked with its library; without the plugin it is not there.
problems=""
"$bin" list-policies --plugin scenario/lib/liblifo.so >list.txt 2>&1 || problems+=" exit status $?;"
grep -q "^  test-lifo *\[$work/scenario/lib/liblifo.so\] last come, first served" list.txt ||
  problems+=" no marked test-lifo line;"
grep -q "^  fcfs  .*\[" list.txt && problems+=" an in-tree policy is marked;"
"$bin" list-policies | grep -q test-lifo && problems+=" test-lifo listed without the plugin;"
report list_policies "$problems"

# 3. Refusals: one line naming where the library was asked for, the file and why; exit 2; no output folder.
version=$("$bin" --version | cut -d' ' -f2)
# The plugin interface --version names is the digest of the public headers that plugin/CMakeLists.txt lists, worked
# out here with sha256sum: each header's path and digest on a line, in the list's order, then the first 12 digits of
# their digest.
interface=$("$bin" --version | sed -n 's/.*(plugin interface \([0-9a-f]*\))$/\1/p')
headers=$(sed -n '/^set(JOBSCHED_PUBLIC_HEADERS/,/)/p' "$src/plugin/CMakeLists.txt" |
  sed 's/set(JOBSCHED_PUBLIC_HEADERS//; s/)//')
headers_digest=$(for h in $headers; do echo "$h $(sha256sum <"$src/plugin/$h" | cut -d' ' -f1)"; done |
  sha256sum | cut -c1-12)
if [ -n "$interface" ] && [ "$interface" = "$headers_digest" ]; then
  report interface_digest ""
else
  report interface_digest " --version says '$interface', the headers' digest is '$headers_digest'"
fi
echo "not a library" >scenario/lib/text.so
cp "$plugins/libtest_plugin_lifo.so" scenario/lib/liblifo-copy.so
scenario_text 'plugins:\n  - lib/liblifo.so\n  - lib/missing.so\n' >scenario/missing.yaml
expect_error missing_in_scenario 3 "scenario/missing.yaml:4: plugins[1]:" "lib/missing.so" "no such file" -- \
  run scenario/missing.yaml
expect_error missing_option 2 "--plugin: nope/libnone.so" "no such file" -- run scenario/bare.yaml \
  --plugin nope/libnone.so
expect_error missing_set 2 "--set: plugins[0]: $work/nope.so" "no such file" -- run scenario/bare.yaml \
  --set 'plugins=[nope.so]'
expect_error not_a_library 2 "--plugin: scenario/lib/text.so: cannot load it: " "text.so" -- run scenario/bare.yaml \
  --plugin scenario/lib/text.so
expect_error no_version_symbol 2 "libtest_plugin_no_version.so: not a jobsched plugin" "jobsched_plugin_version" -- \
  run scenario/bare.yaml --plugin "$plugins/libtest_plugin_no_version.so"
expect_error other_version 3 "libtest_plugin_other_version.so: built against jobsched '0.0.1-other'" \
  "this is jobsched $version" "rebuild" -- run scenario/bare.yaml --plugin "$plugins/libtest_plugin_other_version.so"
expect_error other_headers 3 "libtest_plugin_other_headers.so: built against jobsched '$version+000000000000'" \
  "this is jobsched $version+$interface (version+headers)" "rebuild" -- run scenario/bare.yaml \
  --plugin "$plugins/libtest_plugin_other_headers.so"
expect_error name_taken_in_tree 2 "libtest_plugin_taken_name.so: policy 'fcfs' is already registered" \
  "by jobsched itself" -- run scenario/bare.yaml --plugin "$plugins/libtest_plugin_taken_name.so"
expect_error name_taken_by_plugin 2 "--set: plugins[0]: $work/scenario/lib/liblifo-copy.so: policy 'test-lifo'" \
  "already registered by $work/scenario/lib/liblifo.so" -- \
  run scenario/with-plugins.yaml --plugin scenario/lib/liblifo.so --set 'plugins=[scenario/lib/liblifo-copy.so]'
expect_error registers_nothing 2 "libtest_plugin_empty.so: registers no policy and no allocator" "--plugin: " -- \
  run scenario/bare.yaml --plugin "$plugins/libtest_plugin_empty.so"
# A copy of jobsched's own library: its static initialisers registered jobsched's SimGrid options a second time as
# dlopen ran them, and SimGrid aborted (exit 134, a backtrace). It is refused before it is loaded.
own_library=$(ldd "$bin" | awk '$1 ~ /^libjobsched/ { print $3; exit }')
cp "$own_library" copy-of-jobsched.so
expect_error copy_of_jobsched 2 "--plugin: copy-of-jobsched.so: a copy of jobsched's own library" "not a plugin" -- \
  run scenario/bare.yaml --plugin copy-of-jobsched.so
# The check reads the ELF file's header, section headers and dynamic symbol and string tables a part at a time: s36
# read the whole file into memory (2 GB of memory for a 1 GB file, bad_alloc under the limit below, exit 3). Here a
# library made 1 GB long, its string table said to run to the file's end, is read under a 500 MB address-space limit
# (jobsched alone takes about 300 MB of it; not under AddressSanitizer, which reserves far more).
if ! grep -qa __asan_init "$bin"; then
  cp "$own_library" big-copy.so
  truncate -s 1G big-copy.so
  python3 - big-copy.so <<'PY'
import struct, sys
with open(sys.argv[1], "r+b") as f:
    data = f.read(64)
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    size = f.seek(0, 2)
    sections = []
    for i in range(shnum):
        f.seek(shoff + i * shentsize)
        sections.append(struct.unpack("<IIQQQQIIQQ", f.read(64)))
    link = next(s[6] for s in sections if s[1] == 11)  # SHT_DYNSYM's string table
    f.seek(shoff + link * shentsize + 32)  # its sh_size
    f.write(struct.pack("<Q", size - sections[link][4]))
PY
  unlimited_bin=$bin
  printf '#!/bin/bash\nulimit -v 500000\nexec "%s" "$@"\n' "$unlimited_bin" >limited-jobsched
  chmod +x limited-jobsched
  bin="$work/limited-jobsched"
  expect_error big_library_bounded_memory 2 "--plugin: big-copy.so: a copy of jobsched's own library" -- \
    run scenario/bare.yaml --plugin big-copy.so
  bin=$unlimited_bin
  rm -f big-copy.so
fi
# A library cut short: dlopen mapped what its headers promised, and the process died of SIGBUS (exit 135, no line).
head -c 4096 "$own_library" >cut-short.so
expect_error cut_short_library 2 "--plugin: cut-short.so: cannot load it: the file is cut short" -- \
  run scenario/bare.yaml --plugin cut-short.so
"$bin" list-policies --plugin "$plugins/libtest_plugin_no_version.so" >list-refused.txt 2>&1
[ $? -eq 2 ] && [ "$(wc -l <list-refused.txt)" = 1 ] &&
  grep -q "^jobsched: error: --plugin: .*libtest_plugin_no_version.so: not a jobsched plugin" list-refused.txt &&
  report list_policies_refusal "" || report list_policies_refusal " $(cat list-refused.txt)"
mkdir -p badpath
cp "$plugins/libtest_plugin_empty.so" badpath/
JOBSCHED_PLUGIN_PATH="$work/scenario/lib/liblifo.so:$work/badpath" expect_error variable_refusal 2 \
  "JOBSCHED_PLUGIN_PATH: $work/badpath/libtest_plugin_empty.so" "registers no policy" -- run scenario/bare.yaml
expect_error sweep_refusal 2 "--plugin: " "libtest_plugin_taken_name.so: policy 'fcfs'" -- \
  sweep scenario/bare.yaml --plugin "$plugins/libtest_plugin_taken_name.so" --quiet

# 4. A sweep: its runs load the same plugins (the scenario's, and --plugin's passed on); build.txt records the
# library's hash; a resumed sweep redoes every run once the library's bytes changed, and none otherwise.
scenario_text 'plugins: [lib/liblifo.so]\nsweep: {policy.name: [test-lifo, fcfs]}\n' >scenario/sweep.yaml
problems=""
"$bin" sweep scenario/sweep.yaml --out S -j 2 >sweep1.txt 2>&1 || problems+=" exit status $?: $(cat sweep1.txt);"
grep -q "2 simulated now, 0 already done" sweep1.txt || problems+=" first sweep said: $(head -1 sweep1.txt);"
hash=$(python3 -c 'import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], "rb").read():
    h = ((h ^ b) * 0x100000001b3) % 2**64
print("%016x" % h)' scenario/lib/liblifo.so)
for b in S/runs/*/build.txt; do
  [ "$(sed -n 2p "$b")" = "plugin $hash $work/scenario/lib/liblifo.so" ] || problems+=" $b: $(sed -n 2p "$b");"
done
lifo_run=$(awk -F, '$5 == "test-lifo" { print "S/runs/" $6 }' S/plan.csv)
[ "$(schedule "$lifo_run/jobs.csv" 2>/dev/null)" = "$expected" ] || problems+=" the sweep's test-lifo run differs;"
"$bin" sweep scenario/sweep.yaml --out S -j 2 >sweep2.txt 2>&1
grep -q "0 simulated now, 2 already done" sweep2.txt || problems+=" resumed sweep said: $(head -1 sweep2.txt);"
cp S/results.csv results-before.csv
printf '\0' >>scenario/lib/liblifo.so # rebuilt: other bytes, same code
"$bin" sweep scenario/sweep.yaml --out S -j 2 >sweep3.txt 2>&1
grep -q "2 simulated now, 0 already done" sweep3.txt || problems+=" sweep after the rebuild said: $(head -1 sweep3.txt);"
grep -q "2 finished runs had been made by another build" sweep3.txt || problems+=" no note of the other build;"
cmp -s S/results.csv results-before.csv || problems+=" the same code gave other results;"
"$bin" sweep scenario/sweep.yaml --out S -j 2 >sweep4.txt 2>&1
grep -q "0 simulated now, 2 already done" sweep4.txt || problems+=" sweep after that said: $(head -1 sweep4.txt);"
report sweep_rebuilt_plugin "$problems"

problems=""
scenario_text 'replications: 2\n' >scenario/sweep-bare.yaml
"$bin" sweep scenario/sweep-bare.yaml --plugin scenario/lib/liblifo.so --out T -j 2 >sweep5.txt 2>&1 ||
  problems+=" exit status $?: $(cat sweep5.txt);"
grep -q "2 simulated now" sweep5.txt || problems+=" sweep with --plugin said: $(head -1 sweep5.txt);"
for r in T/runs/*/; do
  [ "$(schedule "$r/jobs.csv" 2>/dev/null)" = "$expected" ] || problems+=" run $r differs;"
done
report sweep_option_passed_on "$problems"

finish
