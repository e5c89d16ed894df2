#!/usr/bin/env bash
# shellcheck disable=SC2317 # stop_pid and cleanup run from the EXIT trap, which shellcheck does not follow
# A jobsched sweep on a REAL Slurm: starts a private one-node Slurm cluster on localhost (its own munged, slurmctld
# and slurmd, all in a temporary folder, on private ports), runs a small sweep as a Slurm job array, collects it,
# runs the same sweep locally and checks that both give byte-identical results.csv and aggregate.csv.
#
# Usage: sweep_on_slurm.sh JOBSCHED_BINARY SOURCE_DIR
#
# Needs root (the daemons run as root, and the Slurm and munge packages are installed when missing). When that is not
# possible, or the daemons cannot start in this machine, prints one line "SKIP: <reason>" and exits 0.
# Otherwise prints one line per check, then "N passed, M failed"; exits non-zero if any check failed.
# Every daemon it started is stopped, and the temporary folder removed, on exit, whatever happens.
#
# Environment: SLURM_TEST_TIMEOUT (seconds a job array may take, default 300); SLURM_TEST_KEEP=1 keeps the temporary
# folder (logs, job outputs, sweeps) for debugging, and says where it is; SLURM_TEST_VERBOSE=1 prints the daemons'
# logs when they cannot start.
set -u

if [ $# -ne 2 ]; then
  echo "usage: $(basename "$0") JOBSCHED_BINARY SOURCE_DIR" >&2
  exit 2
fi
if [ ! -x "$1" ] || [ ! -d "$2" ]; then
  echo "error: $1 is not an executable or $2 is not a folder" >&2
  exit 2
fi
# Absolute paths: the Slurm jobs run in other folders, and sweep.sbatch calls the binary by the path it was given.
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
src="$(cd "$2" && pwd)"
job_timeout=${SLURM_TEST_TIMEOUT:-300}
# The daemons live in /usr/sbin, which a CI user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
export LC_ALL=C

skip() {
  echo "SKIP: $*"
  exit 0
}

# ---------------------------------------------------------------------------------------------------------------------
# 1. Root, and the packages.

[ "$(id -u)" -eq 0 ] || skip "not root (the test starts Slurm and munge daemons as root)"

packages=(slurmctld slurmd slurm-client munge)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || skip "missing packages ${missing[*]} and no apt-get to install them"
  export DEBIAN_FRONTEND=noninteractive
  apt_log=$(mktemp "${TMPDIR:-/tmp}/jobsched-slurm-apt.XXXXXX")
  # The package lists may be stale or absent: update them only when a plain install fails.
  if ! apt-get install -y -q "${missing[@]}" </dev/null >"$apt_log" 2>&1; then
    if ! { apt-get update -q && apt-get install -y -q "${missing[@]}"; } </dev/null >>"$apt_log" 2>&1; then
      reason=$(grep -E '^(E|W):' "$apt_log" | head -n 1)
      rm -f "$apt_log"
      skip "cannot install ${missing[*]}: ${reason:-apt-get failed}"
    fi
  fi
  rm -f "$apt_log"
fi
for c in munged mungekey slurmctld slurmd sbatch sinfo squeue scancel; do
  command -v "$c" >/dev/null || skip "$c not found after installing ${packages[*]}"
done

# ---------------------------------------------------------------------------------------------------------------------
# 2. The private cluster.

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jobsched-slurm.XXXXXX")
# munged wants a socket that every user can reach (it refuses, or with --force warns, when a folder on the way is
# not searchable by all, as mktemp's 0700 is); nothing in here is secret but the key, which gets its own 0700 folder.
chmod 755 "$tmp"
mkdir -p "$tmp/munge/key" "$tmp/munge/run" "$tmp/slurm/state" "$tmp/slurm/spool" "$tmp/slurm/log" "$tmp/slurm/run"
chmod 700 "$tmp/munge/key"
chmod 755 "$tmp/munge/run"

munged_pid="" slurmctld_pid="" slurmd_pid=""
conf="$tmp/slurm/slurm.conf"

stop_pid() { # PID: SIGTERM, up to 10 s to exit, then SIGKILL. Only ever called with a daemon this script started.
  local pid=$1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}

cleanup() {
  trap - EXIT INT TERM
  if [ -n "$slurmctld_pid" ] && kill -0 "$slurmctld_pid" 2>/dev/null; then
    # Cancel what is still queued or running (only on this private cluster: SLURM_CONF points at it), and give the
    # job steps a little time to end, so that no slurmstepd outlives the test.
    scancel --quiet --user=root >/dev/null 2>&1
    for _ in $(seq 20); do
      [ -z "$(squeue --noheader 2>/dev/null)" ] && break
      sleep 0.5
    done
  fi
  stop_pid "$slurmd_pid"
  stop_pid "$slurmctld_pid"
  # A job step that survived the cancel: a slurmstepd started by our slurmd (it inherits our SLURM_CONF).
  local pid
  for pid in $(pgrep -x slurmstepd 2>/dev/null); do
    tr '\0' '\n' 2>/dev/null <"/proc/$pid/environ" | grep -qxF "SLURM_CONF=$conf" && kill -KILL "$pid" 2>/dev/null
  done
  stop_pid "$munged_pid"
  if [ -n "${SLURM_TEST_KEEP:-}" ]; then
    echo "# kept $tmp"
  else
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

first_log_line() { # LOG...: the first fatal error in the logs, else their first telling error, else their first line
  local line
  line=$(cat "$@" 2>/dev/null | grep -m 1 -iE 'fatal')
  # Errors that a fresh cluster always logs: the PMIx plugin (Debian builds it; MpiDefault=none never uses it) and
  # the missing state files of a first start.
  [ -n "$line" ] || line=$(cat "$@" 2>/dev/null | grep -iE 'error' |
    grep -m 1 -viE 'pmix|Could not open .* state file|Trying backup state save file')
  [ -n "$line" ] || line=$(cat "$@" 2>/dev/null | head -n 1)
  echo "${line:-no log}"
}

# munge: a fresh key, and a munged of our own on a private socket, so that the machine's munge (if any) is untouched.
# munged refuses to run as root without --force; in the foreground it logs to stderr (munged.out). The slurm daemons
# and commands find its socket through AuthInfo below.
munge_socket="$tmp/munge/run/munge.socket"
mungekey --create --keyfile="$tmp/munge/key/munge.key" >/dev/null 2>&1 ||
  { dd if=/dev/urandom of="$tmp/munge/key/munge.key" bs=1024 count=1 status=none &&
    chmod 600 "$tmp/munge/key/munge.key"; } ||
  skip "cannot create a munge key"
munged --foreground --force --socket="$munge_socket" --key-file="$tmp/munge/key/munge.key" \
  --log-file="$tmp/munge/munged.log" --pid-file="$tmp/munge/run/munged.pid" --seed-file="$tmp/munge/munged.seed" \
  </dev/null >>"$tmp/munge/munged.out" 2>&1 &
munged_pid=$!
for _ in $(seq 50); do
  [ -S "$munge_socket" ] && break
  kill -0 "$munged_pid" 2>/dev/null || break
  sleep 0.1
done
[ -S "$munge_socket" ] || skip "slurm could not start: munged: $(first_log_line "$tmp/munge/munged.out" "$tmp/munge/munged.log")"

# Two free TCP ports next to each other for slurmctld and slurmd, so that a system Slurm (6817/6818) or another
# copy of this test cannot collide with ours.
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ctld_port=""
for p in $(seq 16817 2 16899); do
  if ! port_in_use "$p" && ! port_in_use $((p + 1)); then
    ctld_port=$p
    break
  fi
done
[ -n "$ctld_port" ] || skip "slurm could not start: no free ports in 16817-16900"
slurmd_port=$((ctld_port + 1))

host=$(hostname -s)
cpus=$(nproc)
memory=$(free -m | awk '/^Mem:/ { print $2 }')

cat >"$conf" <<EOF
# A private one-node Slurm cluster for jobsched's tests (generated by tests/slurm/sweep_on_slurm.sh).
ClusterName=jobsched-test
# The controller and the node are this machine, reached at 127.0.0.1 so that no DNS nor /etc/hosts entry is needed.
SlurmctldHost=$host(127.0.0.1)
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
# Private ports: a system Slurm may use the default 6817/6818.
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
# Both daemons run as root (the test's user); the jobs run as their submitter, root too.
SlurmUser=root
SlurmdUser=root
# Authentication through our own munged, not the system's socket.
AuthType=auth/munge
AuthInfo=socket=$munge_socket
CredType=cred/munge
# No cgroups (a container may have none, or read-only ones): track job processes through /proc, bind no tasks.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
# No database: the test only needs the controller's memory of the jobs.
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
# Schedule cores (one per array task by default); memory is not a consumable, so tasks never wait for it.
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# Use the node as configured even if the hardware detected in a sandbox looks different (no draining for it).
SlurmdParameters=config_overrides
# A node that was down (e.g. slurmd restarted) comes back by itself when it registers.
ReturnToService=2
MpiDefault=none
# No mail for job events.
MailProg=/bin/true
# All state, spool, logs and pid files in the temporary folder: nothing of the machine's Slurm is touched.
StateSaveLocation=$tmp/slurm/state
SlurmdSpoolDir=$tmp/slurm/spool
SlurmctldLogFile=$tmp/slurm/log/slurmctld.log
SlurmdLogFile=$tmp/slurm/log/slurmd.log
SlurmctldPidFile=$tmp/slurm/run/slurmctld.pid
SlurmdPidFile=$tmp/slurm/run/slurmd.pid
SlurmctldDebug=info
SlurmdDebug=info
# Quick node checks, so that a problem shows within the test's waits.
SlurmdTimeout=30
SlurmctldTimeout=30
EOF
# Every Slurm command below (and the jobs, which inherit the environment) talks to this cluster only.
# In case this script itself runs inside a Slurm job or a user's Slurm settings: no inherited job or option variables.
for v in $(compgen -e | grep -E '^(SLURM|SBATCH|SALLOC|SRUN|SQUEUE|SINFO|SCANCEL)_'); do
  unset "$v"
done
export SLURM_CONF="$conf"

started=$SECONDS
# -D: stay in the foreground, so that $! is the daemon and we can stop it; -i: ignore any (there is none) old state.
slurmctld -D -i -f "$conf" </dev/null >"$tmp/slurm/log/slurmctld.out" 2>&1 &
slurmctld_pid=$!
# -N: our node's name, in case the configured and the detected host names differ.
slurmd -D -N "$host" -f "$conf" </dev/null >"$tmp/slurm/log/slurmd.out" 2>&1 &
slurmd_pid=$!

# Wait (at most 60 s) until the node is idle. The daemons may die early: then their logs say why.
node_state=""
deadline=$((SECONDS + 60))
while [ "$SECONDS" -lt "$deadline" ]; do
  node_state=$(sinfo --noheader --nodes="$host" --format=%T 2>/dev/null | head -n 1)
  [ "$node_state" = idle ] && break
  if ! kill -0 "$slurmctld_pid" 2>/dev/null || ! kill -0 "$slurmd_pid" 2>/dev/null; then
    break
  fi
  sleep 0.5
done
if [ "$node_state" != idle ]; then
  logs=("$tmp"/slurm/log/slurmctld.out "$tmp"/slurm/log/slurmctld.log "$tmp"/slurm/log/slurmd.out
    "$tmp"/slurm/log/slurmd.log)
  if [ -n "${SLURM_TEST_VERBOSE:-}" ]; then
    tail -n 30 "${logs[@]}" >&2
  fi
  skip "slurm could not start (node state: ${node_state:-none}): $(first_log_line "${logs[@]}")"
fi
echo "# slurm up in $((SECONDS - started)) s: node $host, $cpus CPUs, ports $ctld_port/$slurmd_port"

# ---------------------------------------------------------------------------------------------------------------------
# 3. The checks.

passed=0
failed=0
report() { # NAME PROBLEMS (empty: passed)
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
  exit
}

# submit_wait LOG SBATCH_ARGS...: submits with --wait (then sbatch's status is the job's: the highest of its tasks)
# and waits at most $job_timeout s. Gives up at once when the node drains or goes down (e.g. a job step could not
# start: Slurm then drains the node and the job would wait forever). A job left behind is cancelled by the cleanup.
submit_wait() {
  local log=$1 pid node deadline=$((SECONDS + job_timeout))
  shift
  sbatch --wait "$@" </dev/null >"$log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    node=$(sinfo --noheader --nodes="$host" --format='%T|%E' 2>/dev/null | head -n 1)
    case ${node%%|*} in
      drain* | down* | fail*)
        echo "node $host is ${node%%|*}: ${node#*|}" >>"$log"
        kill "$pid" 2>/dev/null
        wait "$pid"
        return 1
        ;;
    esac
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "timed out after $job_timeout s; queue: $(squeue --noheader --format='%i %T %R' | tr '\n' ';')" >>"$log"
      kill "$pid" 2>/dev/null
      wait "$pid"
      return 124
    fi
    sleep 1
  done
  wait "$pid"
}

# show_outputs FILE...: the first lines of job outputs and logs, after a failure (to tell what broke).
show_outputs() {
  local f
  for f in "$@"; do
    [ -s "$f" ] || continue
    echo "--- ${f#"$tmp"/}"
    grep -v pmix "$f" | head -n 20 # (the PMIx plugin's load errors are noise: see first_log_line)
  done | sed 's/^/#   /'
}

# 3a. A trivial job array: tells a broken Slurm from a broken sweep.
started=$SECONDS
mkdir "$tmp/array"
problems=""
# shellcheck disable=SC2016 # the job expands $SLURM_ARRAY_TASK_ID, not this script
if submit_wait "$tmp/array/sbatch.log" --chdir="$tmp/array" --output="$tmp/array/slurm-%A_%a.out" --array=1-3 \
  --wrap 'echo $SLURM_ARRAY_TASK_ID > out.$SLURM_ARRAY_TASK_ID'; then
  for i in 1 2 3; do
    [ "$(cat "$tmp/array/out.$i" 2>/dev/null)" = "$i" ] || problems+=" out.$i does not hold $i;"
  done
else
  problems+=" sbatch --wait failed: $(tail -n 1 "$tmp/array/sbatch.log");"
fi
report "slurm: a 3-task job array runs ($((SECONDS - started)) s)" "$problems"
if [ -n "$problems" ]; then
  # Slurm itself is broken: the sweep could not run either.
  show_outputs "$tmp/array/sbatch.log" "$tmp"/array/slurm-*.out "$tmp/slurm/log/slurmd.log"
  finish
fi

# 3b. The sweep, on Slurm and locally.
if ! "$bin" --help 2>&1 | grep -qw sweep; then
  report "jobsched has a sweep command" " '$bin --help' does not mention sweep"
  finish
fi

# 2 policies x 2 replications = 4 runs, in 3 shards: uneven shards, and more shards than the node has CPUs (2 on
# small machines), so that some array tasks wait for others.
shards=3
scenario="$tmp/sweep.yaml"
cat >"$scenario" <<EOF
name: slurm-sweep
platform: $src/platforms/cluster-16.xml
deployment: $src/deployments/single-scheduler.xml
workload:
  generator:
    jobs: 50
policy:
  name: fcfs
sweep:
  policy.name: [fcfs, easy]
replications: 2
EOF
on_slurm="$tmp/on-slurm"
local_dir="$tmp/local"

problems=""
"$bin" sweep "$scenario" --out "$on_slurm" --slurm --shards "$shards" </dev/null >"$tmp/plan.log" 2>&1 ||
  problems+=" exit status $?: $(tail -n 1 "$tmp/plan.log");"
[ -s "$on_slurm/plan.csv" ] || problems+=" no plan.csv;"
[ -s "$on_slurm/sweep.sbatch" ] || problems+=" no sweep.sbatch;"
[ -d "$on_slurm/runs" ] && [ -n "$(find "$on_slurm/runs" -name summary.json 2>/dev/null)" ] &&
  problems+=" --slurm ran simulations;"
report "sweep --slurm --shards $shards writes plan.csv and sweep.sbatch" "$problems"
[ -z "$problems" ] || { show_outputs "$tmp/plan.log"; finish; }

runs=$(($(wc -l <"$on_slurm/plan.csv") - 1))
problems=""
[ "$runs" -eq 4 ] || problems+=" $runs runs (expected 2 policies x 2 replications = 4);"
report "plan.csv lists 4 runs" "$problems"

started=$SECONDS
problems=""
mkdir "$tmp/sbatch"
# Submitted from a folder of its own: job outputs that sweep.sbatch does not place land there.
(cd "$tmp/sbatch" && submit_wait "$tmp/sbatch/sbatch.log" "$on_slurm/sweep.sbatch") ||
  problems+=" sbatch --wait failed: $(tail -n 1 "$tmp/sbatch/sbatch.log");"
report "the sweep's job array runs on slurm ($((SECONDS - started)) s)" "$problems"
[ -z "$problems" ] || show_outputs "$tmp/sbatch/sbatch.log" "$tmp"/sbatch/*.out "$on_slurm"/*.out \
  "$on_slurm"/*/*.out "$on_slurm"/runs/*/error.txt

problems=""
"$bin" collect "$on_slurm" </dev/null >"$tmp/collect.log" 2>&1 ||
  problems+=" exit status $?: $(tail -n 1 "$tmp/collect.log");"
for f in results.csv aggregate.csv; do
  [ -s "$on_slurm/$f" ] || problems+=" no $f;"
done
if [ -s "$on_slurm/results.csv" ]; then
  ok=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") s = i; next } $s == "ok"' \
    "$on_slurm/results.csv" | wc -l)
  [ "$ok" -eq 4 ] || problems+=" $ok of 4 runs ok;"
fi
report "collect: results.csv and aggregate.csv, 4 runs ok" "$problems"

started=$SECONDS
problems=""
"$bin" sweep "$scenario" --out "$local_dir" -j 2 </dev/null >"$tmp/local.log" 2>&1 ||
  problems+=" exit status $?: $(tail -n 1 "$tmp/local.log");"
report "the same sweep runs locally with -j 2 ($((SECONDS - started)) s)" "$problems"

for f in results.csv aggregate.csv; do
  problems=""
  if [ -f "$on_slurm/$f" ] && [ -f "$local_dir/$f" ]; then
    cmp -s "$on_slurm/$f" "$local_dir/$f" ||
      problems+=" differ: $(diff "$on_slurm/$f" "$local_dir/$f" | grep -m 2 '^[<>]' | tr '\n' ' ')"
  else
    problems+=" missing on one side;"
  fi
  report "$f on slurm = $f locally (byte for byte)" "$problems"
done

finish
