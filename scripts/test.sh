#!/usr/bin/env bash
# Build jobsched and its tests, then run every test with CTest.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
install_missing_packages
build
cd "$BUILD"
ctest --output-on-failure -j"$(nproc)"
