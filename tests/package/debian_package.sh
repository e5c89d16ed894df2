#!/usr/bin/env bash
# The Debian package on a clean Debian 12: makes it with `cpack -G DEB` from a build folder, bootstraps a minimal
# Debian 12 (bookworm) into a temporary folder, installs the package there with `apt-get install ./jobsched_*.deb`
# (which must fetch its dependencies by itself), runs the quickstart from /usr/share/jobsched, and checks that its
# jobs.csv and summary.json are byte-identical to those of the build folder's launcher.
#
# Usage: debian_package.sh BUILD_DIR SOURCE_DIR
#
# Needs root (debootstrap and chroot; debootstrap is installed when missing) and Debian's mirror. When either is
# missing, prints one line "SKIP: <reason>" and exits 0. Otherwise prints one line per check, then "N passed, M
# failed"; exits non-zero if any check failed. The temporary folder is unmounted and removed on exit.
set -u
if [ $# -ne 2 ] || [ ! -d "$1" ] || [ ! -d "$2" ]; then
  echo "usage: $(basename "$0") BUILD_DIR SOURCE_DIR" >&2
  exit 2
fi
build="$(cd "$1" && pwd)"
src="$(cd "$2" && pwd)"
export LC_ALL=C DEBIAN_FRONTEND=noninteractive
PATH=$PATH:/usr/sbin:/sbin
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

skip() {
  echo "SKIP: $*"
  exit 0
}
[ "$(id -u)" -eq 0 ] || skip "not root (debootstrap and chroot need root)"
if ! command -v debootstrap >/dev/null; then
  apt-get install -y -qq debootstrap >/dev/null 2>&1 || skip "debootstrap is not installed and could not be installed"
fi

tmp=$(mktemp -d /tmp/jobsched-deb.XXXXXX)
root=$tmp/root
cleanup() {
  mountpoint -q "$root/proc" 2>/dev/null && umount "$root/proc"
  rm -rf "$tmp"
}
trap cleanup EXIT

passed=0
failed=0
check() { # NAME OK(0/1) DETAIL
  if [ "$2" -eq 0 ]; then
    echo "ok   $1"
    passed=$((passed + 1))
  else
    echo "FAIL $1: $3"
    failed=$((failed + 1))
  fi
}

(cd "$build" && cpack -G DEB -B "$tmp/package" >"$tmp/cpack.log" 2>&1)
deb=$(ls "$tmp"/package/jobsched_*.deb 2>/dev/null | head -1)
[ -n "$deb" ]
check "cpack -G DEB makes jobsched_<version>_<arch>.deb" $? "$(tail -3 "$tmp/cpack.log" | tr '\n' '|')"
[ -n "$deb" ] || { echo "$passed passed, $failed failed"; exit 1; }

if ! debootstrap --variant=minbase bookworm "$root" "$mirror" >"$tmp/debootstrap.log" 2>&1; then
  skip "debootstrap of Debian 12 from $mirror failed (no network?): $(tail -1 "$tmp/debootstrap.log")"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
cp "$deb" "$root/tmp/"
name=$(basename "$deb")
chroot "$root" /bin/bash -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends /tmp/$name" \
  >"$tmp/apt.log" 2>&1
check "apt-get install ./$name on a clean Debian 12" $? "$(tail -3 "$tmp/apt.log" | tr '\n' '|')"

chroot "$root" /bin/bash -c "cd /tmp && jobsched run --quiet /usr/share/jobsched/scenarios/quickstart.yaml" \
  >"$tmp/run.log" 2>&1
check "the installed jobsched runs /usr/share/jobsched/scenarios/quickstart.yaml" $? "$(head -3 "$tmp/run.log")"

# The same scenario with the build folder's launcher, here.
(cd "$tmp" && "$build/jobsched" run --quiet "$src/scenarios/quickstart.yaml" >/dev/null 2>&1)
for f in jobs.csv summary.json; do
  cmp -s "$root/tmp/results/quickstart/$f" "$tmp/results/quickstart/$f"
  check "the installed launcher's $f is byte-identical to the build's" $? "they differ"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
