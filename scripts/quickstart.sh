#!/usr/bin/env bash
# Build jobsched and run the default scenario (no external data needed).
# Usage: scripts/quickstart.sh [SCENARIO.yaml] [jobsched run options...]
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
install_missing_packages
build --target jobsched-cli
scenario=${1:-$ROOT/scenarios/quickstart.yaml}
shift || true
exec "$BUILD/jobsched" run "$scenario" "$@"
