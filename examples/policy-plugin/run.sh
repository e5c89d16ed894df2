#!/usr/bin/env bash
# run.sh PREFIX: builds the policy plugin (sjf.cpp) against the jobsched installed under PREFIX (cmake --install ...
# --prefix PREFIX), from wherever this folder was copied, and runs scenario.yaml with PREFIX/bin/jobsched; then builds
# the same file a second way, with pkg-config --cflags --libs jobsched, runs the scenario with that library, and checks
# that both runs give the same jobs.csv. Builds go to build/ and build-pkg-config/, outputs to results/, beside this
# script. Any failure stops it with a message and a non-zero exit status.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 1; }
prefix=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
jobsched="$prefix/bin/jobsched"
cd "$here"
rm -rf build build-pkg-config results

# 1. CMake: find_package(jobsched) through CMAKE_PREFIX_PATH; scenario.yaml loads build/libsjf.so.
cmake -S . -B build -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build >/dev/null
"$jobsched" run scenario.yaml --out results/cmake

# 2. pkg-config, the same source file; the scenario's plugins: replaced with this library.
pc=$(find "$prefix" -name jobsched.pc -path '*/pkgconfig/*' | head -n 1)
[ -n "$pc" ] || { echo "FAIL: no jobsched.pc under $prefix" >&2; exit 1; }
mkdir build-pkg-config
# shellcheck disable=SC2046 # the flags are words
${CXX:-c++} -O2 -fPIC -shared sjf.cpp -o build-pkg-config/libsjf.so \
  $(PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --cflags --libs jobsched)
"$jobsched" run scenario.yaml --set 'plugins=[build-pkg-config/libsjf.so]' --out results/pkg-config

if ! cmp -s results/cmake/jobs.csv results/pkg-config/jobs.csv; then
  echo "FAIL: the two builds of sjf.cpp gave different jobs.csv (results/cmake, results/pkg-config)" >&2
  exit 1
fi
echo "OK: the plugin built with CMake and with pkg-config gives the same $(($(wc -l <results/cmake/jobs.csv) - 1)) jobs"
