# Shared by quickstart.sh and test.sh: install what is missing (as root), configure and build.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${JOBSCHED_BUILD_DIR:-$ROOT/build}
PACKAGES=(cmake g++ make pkg-config libsimgrid-dev libyaml-cpp-dev libboost-graph-dev zlib1g-dev googletest libgtest-dev
  gnuplot-nox python3 nlohmann-json3-dev libcli11-dev)

install_missing_packages() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "jobsched: missing Debian packages: ${missing[*]}" >&2
    echo "jobsched: install them with: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "jobsched: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

build() {
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD" -j"$(nproc)" "$@"
}
