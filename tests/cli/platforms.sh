#!/usr/bin/env bash
# Platforms written by others, as a user sees them: the platforms of tests/platforms/ (the shapes of SimGrid's and
# Batsim's example platforms) run without a deployment, with the compute hosts and the host of jobsched's actors that
# the host-role rule gives (README, "Platforms written by others"); and every platform or deployment SimGrid cannot
# load is one line of error naming the file, exit status 2, no output folder, never an abort or a core file.
#
# Usage: platforms.sh JOBSCHED_BINARY SOURCE_DIR
# Prints one line per case, then "N passed, M failed".
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" platforms "$@"
cd "$work" || exit 2

platforms="$src/tests/platforms"
cluster16="$src/platforms/cluster-16.xml"
single="$src/deployments/single-scheduler.xml"

# scenario NAME PLATFORM [DEPLOYMENT]: writes $work/NAME.yaml, 20 generated jobs, no deployment key unless given.
scenario() {
  {
    printf 'name: %s\nplatform: %s\n' "$1" "$2"
    [ $# -ge 3 ] && printf 'deployment: %s\n' "$3"
    printf 'workload:\n  generator: {jobs: 20, mean_interarrival: 30, max_run_time: 600}\n'
  } >"$work/$1.yaml"
}

# The messages of the host-role rule, from --log=jobsched_host_roles.thres:verbose, without SimGrid's prefix.
roles_log() {
  sed -n 's/.*\[jobsched_host_roles\/VERBOSE\] //p' "$1"
}

# expect_run NAME HOSTS PROCESSORS ACTORS_HOST COMPUTE_HOSTS [OPTION...]
# Runs $work/NAME.yaml (with the options given); checks exit status 0, the hosts and processors counts in summary.json, 20 completed jobs, the
# host of jobsched's actors ("-": placed by a deployment, so no such message) and the compute hosts, in order.
expect_run() {
  local name=$1 hosts=$2 processors=$3 actors=$4 compute=$5
  shift 5
  local out="$work/out-$name" err="$work/$name.stderr"
  "$bin" run "$work/$name.yaml" --quiet --out "$out" --log=jobsched_host_roles.thres:verbose "$@" \
    >"$work/$name.stdout" 2>"$err"
  local status=$?
  local problems=""
  [ "$status" -eq 0 ] || problems+=" exit status $status (expected 0);"
  local summary="$out/summary.json"
  if [ -f "$summary" ]; then
    grep -q "\"hosts\": $hosts," "$summary" || problems+=" summary.json: $(grep '"hosts"' "$summary") (expected $hosts);"
    grep -q "\"processors\": $processors," "$summary" ||
      problems+=" summary.json: $(grep '"processors"' "$summary") (expected $processors);"
    grep -q '"jobs_completed": 20,' "$summary" || problems+=" summary.json: not 20 completed jobs;"
  else
    problems+=" no summary.json;"
  fi
  local log
  log=$(roles_log "$err")
  local placed
  placed=$(printf '%s\n' "$log" | sed -n "s/^jobsched's actors run on //p")
  if [ "$actors" = "-" ]; then
    [ -z "$placed" ] || problems+=" actors placed on '$placed' although a deployment places them;"
  else
    [ "$placed" = "$actors" ] || problems+=" actors run on '$placed' (expected '$actors');"
  fi
  local listed
  listed=$(printf '%s\n' "$log" | sed -n 's/^[0-9]* compute hosts of [0-9]*: //p')
  [ "$listed" = "$compute" ] || problems+=" compute hosts '$listed' (expected '$compute');"
  # Nothing else on stderr: the check in a child process prints nothing when the files are good.
  local others
  others=$(grep -cv 'jobsched_host_roles/VERBOSE' "$err")
  [ "$others" -eq 0 ] || problems+=" $others other stderr lines: $(head -c 300 "$err" | tr '\n' '|');"
  report "$name" "$problems"
}


# ---- Third-party platform shapes, no deployment key ----

scenario plain_cluster "$platforms/plain-cluster.xml"
expect_run plain_cluster 12 12 cpu-0.lab.example "$(for i in $(seq 0 11); do printf 'cpu-%s.lab.example ' "$i"; done |
  sed 's/ $//')"

scenario fat_tree "$platforms/fat-tree.xml"
expect_run fat_tree 8 16 ft-0 "ft-0 ft-1 ft-2 ft-3 ft-4 ft-5 ft-6 ft-7"

scenario small_full "$platforms/small-full.xml"
expect_run small_full 4 5 Amber "Amber Beryl Cobalt Delft"

# Batsim's default master by name: a host named master_host without a role computes nothing and runs the actors (here
# the two-core Amber renamed, which was first in natural order; 3 hosts and 3 processors are left).
sed 's/"Amber"/"master_host"/g' "$platforms/small-full.xml" >"$work/master-host.xml"
scenario master_host "$work/master-host.xml"
expect_run master_host 3 3 master_host "Beryl Cobalt Delft"

# Batsim's roles: the master runs the actors and computes nothing, the storage host computes nothing.
all_w="w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15"
scenario batsim_roles "$platforms/batsim-roles.xml"
expect_run batsim_roles 16 16 head0 "$all_w"

# The repository's own platform without a deployment: its front end has role master, so it runs the actors and the
# same 16 hosts compute as with the deployment below.
scenario cluster16_no_deployment "$cluster16"
expect_run cluster16_no_deployment 16 16 frontend "node-0 node-1 node-2 node-3 node-4 node-5 node-6 node-7 node-8 \
node-9 node-10 node-11 node-12 node-13 node-14 node-15"

# A platform without roles: every host computes, the first in natural order too (the front end here, 17 hosts).
sed 's|<prop id="role" value="master"/>||' "$cluster16" >"$work/cluster16-no-roles.xml"
scenario cluster16_no_roles "$work/cluster16-no-roles.xml"
expect_run cluster16_no_roles 17 17 frontend "frontend node-0 node-1 node-2 node-3 node-4 node-5 node-6 node-7 \
node-8 node-9 node-10 node-11 node-12 node-13 node-14 node-15"

# ---- With a deployment: its hosts are the front end, and master and storage hosts still compute nothing ----

scenario cluster16_deployment "$cluster16" "$single"
expect_run cluster16_deployment 16 16 - "node-0 node-1 node-2 node-3 node-4 node-5 node-6 node-7 node-8 node-9 \
node-10 node-11 node-12 node-13 node-14 node-15"

# deployment FILE HOST FUNCTION...: one actor per FUNCTION on HOST.
deployment() {
  local file=$1 host=$2
  shift 2
  {
    printf '<?xml version='"'"'1.0'"'"'?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
    printf '<platform version="4.1">\n'
    local f
    for f in "$@"; do
      printf '  <actor host="%s" function="%s"/>\n' "$host" "$f"
    done
    printf '</platform>\n'
  } >"$work/$file"
}

deployment on-w3.xml w3 jobsched_scheduler jobsched_submitter
scenario batsim_deployed_on_w3 "$platforms/batsim-roles.xml" "$work/on-w3.xml"
expect_run batsim_deployed_on_w3 15 15 - "w0 w1 w2 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15"

# ---- Deployments SimGrid or jobsched refuse ----

deployment missing-host.xml nosuchhost jobsched_scheduler jobsched_submitter
scenario missing_host "$cluster16" "$work/missing-host.xml"
expect_error deployment_missing_host 3 "missing-host.xml: invalid deployment" \
  "host 'nosuchhost' does not exist in $cluster16" \
  "(--set deployment=null places jobsched's actors by the platform's roles)" -- run "$work/missing_host.yaml"
# ... and the remedy it gives runs: the actors go to cluster-16's front end (role master), the 16 nodes compute.
cp "$work/missing_host.yaml" "$work/missing_host_remedy.yaml"
expect_run missing_host_remedy 16 16 frontend "node-0 node-1 node-2 node-3 node-4 node-5 node-6 node-7 node-8 node-9 \
node-10 node-11 node-12 node-13 node-14 node-15" --set deployment=null

deployment misspelt-function.xml frontend jobsched_scheduler jobsched_submiter
scenario misspelt_function "$cluster16" "$work/misspelt-function.xml"
expect_error deployment_misspelt_function 2 "misspelt-function.xml: invalid deployment" "'jobsched_submiter'" -- \
  run "$work/misspelt_function.yaml"

deployment two-schedulers.xml frontend jobsched_scheduler jobsched_submitter jobsched_scheduler
scenario two_schedulers "$cluster16" "$work/two-schedulers.xml"
expect_error two_schedulers 1 "two-schedulers.xml: 2 actors run jobsched_scheduler: only one jobsched_scheduler actor \
is supported" -- run "$work/two_schedulers.yaml"

deployment two-submitters.xml frontend jobsched_submitter jobsched_scheduler jobsched_submitter
scenario two_submitters "$cluster16" "$work/two-submitters.xml"
expect_error two_submitters 1 "two-submitters.xml: 2 actors run jobsched_submitter: only one jobsched_submitter actor \
is supported" -- run "$work/two_submitters.yaml"

# What jobsched's actors do not honour, refused with the file, line and attribute: kill_time on the scheduler crashed
# the run (exit 139) or deadlocked it, start_time hid the actor ("must place one actor..."), kill_time on the submitter,
# on_failure, <argument> and <prop> were silently ignored. Line 4 is the scheduler's, line 5 the submitter's.
# platform FILE BODY...: a version 4.1 platform whose <platform> element holds the BODY lines (line 4 onwards).
platform() {
  local file=$1
  shift
  {
    printf '<?xml version='"'"'1.0'"'"'?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
    printf '<platform version="4.1">\n'
    printf '%s\n' "$@"
    printf '</platform>\n'
  } >"$work/$file"
}
# actor_lines FILE SCHEDULER_LINE SUBMITTER_LINE...: a deployment with these lines as its body (a deployment is a
# platform file holding actors), and its scenario.
actor_lines() {
  platform "$@"
  scenario "${1%.xml}" "$cluster16" "$work/$1"
}
submitter='  <actor host="frontend" function="jobsched_submitter"/>'
actor_lines kill-time-scheduler.xml '  <actor host="frontend" function="jobsched_scheduler" kill_time="5000"/>' "$submitter"
expect_error deployment_kill_time_scheduler 2 "kill-time-scheduler.xml:4: " "attribute kill_time is not supported" -- \
  run "$work/kill-time-scheduler.yaml"
actor_lines start-time-scheduler.xml '  <actor host="frontend" function="jobsched_scheduler" start_time="10"/>' \
  "$submitter"
expect_error deployment_start_time_scheduler 2 "start-time-scheduler.xml:4: " "attribute start_time is not supported" \
  -- run "$work/start-time-scheduler.yaml"
actor_lines kill-time-submitter.xml '  <actor host="frontend" function="jobsched_scheduler"/>' \
  '  <actor host="frontend" function="jobsched_submitter" kill_time="50"/>'
expect_error deployment_kill_time_submitter 3 "kill-time-submitter.xml:5: " "jobsched_submitter" \
  "attribute kill_time is not supported" -- run "$work/kill-time-submitter.yaml"
actor_lines on-failure.xml '  <actor host="frontend" function="jobsched_scheduler" on_failure="RESTART"/>' "$submitter"
expect_error deployment_on_failure 2 "on-failure.xml:4: " "attribute on_failure is not supported" -- \
  run "$work/on-failure.yaml"
# Values SimGrid reads as its defaults (no start delay, never killed, die on failure) change nothing: s36 refused them.
actor_lines deployment_simgrid_defaults.xml \
  '  <actor host="frontend" function="jobsched_scheduler" on_failure="DIE" start_time="0" kill_time="-1"/>' \
  '  <actor host="frontend" function="jobsched_submitter" start_time="-1.0" kill_time="0"/>'
expect_run deployment_simgrid_defaults 16 16 - "node-0 node-1 node-2 node-3 node-4 node-5 node-6 node-7 node-8 node-9 \
node-10 node-11 node-12 node-13 node-14 node-15"
actor_lines start-time-small.xml '  <actor host="frontend" function="jobsched_scheduler" start_time="0.5"/>' "$submitter"
expect_error deployment_start_time_small 2 "start-time-small.xml:4: " \
  "attribute start_time is not supported with value '0.5'" -- run "$work/start-time-small.yaml"
actor_lines kill-time-nan.xml '  <actor host="frontend" function="jobsched_scheduler" kill_time="nan"/>' "$submitter"
expect_error deployment_kill_time_nan 2 "kill-time-nan.xml:4: " "attribute kill_time is not supported with value 'nan'" \
  -- run "$work/kill-time-nan.yaml"
actor_lines argument.xml '  <actor host="frontend" function="jobsched_scheduler">' '    <argument value="x"/>' \
  '  </actor>' "$submitter"
expect_error deployment_argument 2 "argument.xml:5: <argument> in <actor function=\"jobsched_scheduler\">" \
  "take no arguments" -- run "$work/argument.yaml"
actor_lines prop.xml '  <actor host="frontend" function="jobsched_scheduler"/>' \
  '  <actor host="frontend" function="jobsched_submitter">' '    <prop id="a" value="b"/>' '  </actor>'
expect_error deployment_prop 2 "prop.xml:6: <prop> in <actor function=\"jobsched_submitter\">" "take no properties" \
  -- run "$work/prop.yaml"

# ---- Platforms SimGrid refuses (no deployment key: the platform alone is checked) ----


platform bogus-routing.xml '  <zone id="z" routing="bogus">' '    <host id="h1" speed="1Gf"/>' '  </zone>'
scenario bogus_routing "$work/bogus-routing.xml"
expect_error bogus_routing 2 "bogus-routing.xml: invalid platform" "routing" -- run "$work/bogus_routing.yaml"

platform core-zero.xml '  <cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf" core="0" bw="1GBps" lat="1us"/>'
scenario core_zero "$work/core-zero.xml"
expect_error core_zero 1 "core-zero.xml: invalid platform: line 4: cluster 'c': core='0' is not a number of cores (a \
whole number from 1 to 2147483647)" -- run "$work/core_zero.yaml"
# SimGrid said "Host h2 must have at least one core, not 0" for core="-2", read core="1.5" as one core, and said only
# "stoi" for a count beyond an int (found by fuzzing): each is refused naming the file, the line, the host and the value.
# Spaces around a count are taken, as SimGrid takes them.
for bad in -2 1.5 99999999999 ''; do
  platform "core-$bad.xml" '  <zone id="z" routing="Full">' '    <host id="h1" speed="1Gf"/>' \
    "    <host id=\"h2\" speed=\"1Gf\" core=\"$bad\"/>" '  </zone>'
  scenario "core_$bad" "$work/core-$bad.xml"
  expect_error "host_core_$bad" 1 "core-$bad.xml: invalid platform: line 6: host 'h2': core='$bad' is not a number of \
cores (a whole number from 1 to 2147483647)" -- run "$work/core_$bad.yaml"
done
platform core-spaced.xml '  <zone id="z" routing="Full">' '    <host id="h1" speed="1Gf"/>' \
  '    <host id="h2" speed="1Gf" core=" 3 "/>' '  </zone>'
scenario core_spaced "$work/core-spaced.xml"
problems=""
"$bin" run "$work/core_spaced.yaml" --quiet --out "$work/out-core-spaced" 2>"$work/core-spaced.stderr" ||
  problems+=" refused: $(head -n 1 "$work/core-spaced.stderr");"
[ -f "$work/out-core-spaced/summary.json" ] && [ "$(field processors "$work/out-core-spaced/summary.json")" = 4 ] ||
  problems+=" not 4 processors (1 + 3);"
report core_count_with_spaces_runs "$problems"

# The host opened on line 5 is never closed: the parser stops at the end tag on line 6.
platform unclosed-tag.xml '  <zone id="z" routing="Full">' '    <host id="h1" speed="1Gf">' '  </zone>'
scenario unclosed_tag "$work/unclosed-tag.xml"
expect_error unclosed_tag 2 "unclosed-tag.xml: invalid platform" "unclosed-tag.xml:6" -- run "$work/unclosed_tag.yaml"

sed 's#<!DOCTYPE platform #<!DOCTYPE platfrom #' "$platforms/small-full.xml" >"$work/bad-doctype.xml"
scenario bad_doctype "$work/bad-doctype.xml"
expect_error bad_doctype 2 "bad-doctype.xml: invalid platform" "DOCTYPE platfrom" -- run "$work/bad_doctype.yaml"

platform missing-speed-file.xml '  <zone id="z" routing="Full">' \
  '    <host id="h1" speed="1Gf" speed_file="no-such-profile.txt"/>' '  </zone>'
scenario missing_speed_file "$work/missing-speed-file.xml"
expect_error missing_speed_file 2 "missing-speed-file.xml: invalid platform" "'no-such-profile.txt'" -- \
  run "$work/missing_speed_file.yaml"

# A profile found through a path setting given with another in one --cfg (SimGrid splits a --cfg's value at spaces)
# is checked as any other: s36 read "network/optim:Lazy path:DIR" as no path at all, did not find the file, and left
# its negative speed factor to SimGrid, which took it.
mkdir -p "$work/far-profiles"
printf '0 1\n100 -0.5\n' >"$work/far-profiles/far-speed.txt"
platform far-profile.xml '  <zone id="z" routing="Full">' '    <host id="h1" speed="1Gf" speed_file="far-speed.txt"/>' \
  '    <host id="h2" speed="1Gf"/>' '  </zone>'
scenario far_profile "$work/far-profile.xml"
expect_error profile_path_among_settings 1 "far-profile.xml: invalid platform: far-speed.txt:2: a speed factor must \
be finite and 0 or more" -- run "$work/far_profile.yaml" "--cfg=network/optim:Lazy path:$work/far-profiles"

# Speeds SimGrid accepts but no job could run at: they end at once, or never (found by the mutation campaign).
platform infinite-speed.xml '  <zone id="z" routing="Full">' '    <host id="h1" speed="inf"/>' '  </zone>'
scenario infinite_speed "$work/infinite-speed.xml"
expect_error infinite_speed 2 "infinite-speed.xml: host 'h1' has a speed of inf flop/s" "between 1000 and 1e18" -- \
  run "$work/infinite_speed.yaml"
platform tiny-speed.xml '  <zone id="z" routing="Full">' '    <host id="h1" speed="1e-300f"/>' '  </zone>'
scenario tiny_speed "$work/tiny-speed.xml"
expect_error tiny_speed 1 "tiny-speed.xml: host 'h1' has a speed of 1e-300 flop/s" -- run "$work/tiny_speed.yaml"

sed 's/version="4.1"/version="3"/' "$platforms/small-full.xml" >"$work/old-version.xml"
scenario old_version "$work/old-version.xml"
expect_error v3_platform 2 "old-version.xml: invalid platform" "TOO OLD" -- run "$work/old_version.yaml"

# A deployment's error is found even when the platform is good and the deployment is the only problem left; a bad
# platform is reported before its deployment is looked at.
scenario bad_platform_and_deployment "$work/core-zero.xml" "$work/missing-host.xml"
expect_error bad_platform_before_deployment 1 "core-zero.xml: invalid platform" -- \
  run "$work/bad_platform_and_deployment.yaml"

# Only master and storage hosts: nothing to compute on.
platform no-compute.xml '  <zone id="z" routing="Full">' \
  '    <host id="m" speed="1Gf"><prop id="role" value="master"/></host>' \
  '    <host id="s" speed="1Gf"><prop id="role" value="storage"/></host>' '  </zone>'
scenario no_compute "$work/no-compute.xml"
expect_error no_compute_host 2 "no-compute.xml" "no compute host" -- run "$work/no_compute.yaml"

# A host SimGrid accepts but that could never finish a job, and a platform without hosts.
platform zero-speed.xml '  <zone id="z" routing="Full">' '    <host id="h1" speed="1Gf"/>' '    <host id="h2" speed="0f"/>' \
  '  </zone>'
scenario zero_speed "$work/zero-speed.xml"
expect_error zero_speed 2 "zero-speed.xml" "host 'h2' has a speed of 0 or less" -- run "$work/zero_speed.yaml"

# The same with a unit-less value: SimGrid warns about the missing unit while loading, and that warning must not join
# the error line (SimGrid's messages during a failed set-up are dropped; a set-up that works shows them).
platform unitless-speed.xml '  <zone id="z" routing="Full">' '    <host id="h1" speed="1Gf"/>' \
  '    <host id="h2" speed="-inf"/>' '  </zone>'
scenario unitless_speed "$work/unitless-speed.xml"
expect_error unitless_negative_speed 2 "unitless-speed.xml" "host 'h2' has a speed of 0 or less" -- \
  run "$work/unitless_speed.yaml"

# Links SimGrid accepts but over which a message would never arrive (a time-sharing run's quanta then went on forever):
# a route's link of bandwidth 0, a cluster's links of a negative bandwidth, a split-duplex link (named by its halves).
platform zero-bandwidth.xml '  <zone id="z" routing="Full">' '    <host id="h1" speed="1Gf"/>' '    <host id="h2" speed="1Gf"/>' \
  '    <link id="wire" bandwidth="0Bps" latency="1us"/>' \
  '    <route src="h1" dst="h2"><link_ctn id="wire"/></route>' '  </zone>'
scenario zero_bandwidth "$work/zero-bandwidth.xml"
expect_error zero_bandwidth 2 "zero-bandwidth.xml" "link 'wire' has a bandwidth of 0 or less" -- \
  run "$work/zero_bandwidth.yaml" --set policy.name=gang --set policy.params.quantum=10
platform negative-bandwidth.xml \
  '  <cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf" bw="-1GBps" lat="1us"/>'
scenario negative_bandwidth "$work/negative-bandwidth.xml"
expect_error negative_bandwidth 2 "negative-bandwidth.xml" "has a bandwidth of 0 or less" -- \
  run "$work/negative_bandwidth.yaml"
platform split-duplex-zero.xml '  <zone id="z" routing="Full">' '    <host id="h1" speed="1Gf"/>' \
  '    <host id="h2" speed="1Gf"/>' '    <link id="duplex" bandwidth="0MBps" latency="1us" sharing_policy="SPLITDUPLEX"/>' \
  '    <route src="h1" dst="h2"><link_ctn id="duplex" direction="UP"/></route>' '  </zone>'
scenario split_duplex_zero "$work/split-duplex-zero.xml"
expect_error split_duplex_zero 2 "split-duplex-zero.xml" "link 'duplex_DOWN' has a bandwidth of 0 or less" -- \
  run "$work/split_duplex_zero.yaml"

# A cluster's backbone, loopback and limiter links exist only when SimGrid finds their values above 0: bb_bw="-1GBps"
# without a bb_lat gave a cluster without a backbone, and ran (found by fuzzing). Each is refused naming the cluster.
for bad in -1GBps 0 NaN inf; do
  platform "backbone-$bad.xml" \
    "  <cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" bb_bw=\"$bad\"/>"
  scenario "backbone_$bad" "$work/backbone-$bad.xml"
  expect_error "backbone_bw_$bad" 2 "backbone-$bad.xml: invalid platform: line 4: cluster 'c'" \
    "bb_bw='$bad' is not a bandwidth above 0 and finite" -- run "$work/backbone_$bad.yaml"
done
cluster_with() { # cluster_with FILE ATTRIBUTES: a 4-host cluster with these extra attributes
  platform "$1" "  <cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" $2/>"
}
cluster_with backbone-lat.xml 'bb_bw="1GBps" bb_lat="-1s"'
scenario backbone_lat "$work/backbone-lat.xml"
expect_error backbone_negative_lat 1 "backbone-lat.xml: invalid platform: line 4: cluster 'c': bb_lat='-1s' is not a \
latency of 0 or more and finite" -- run "$work/backbone_lat.yaml"
cluster_with loopback.xml 'loopback_bw="-1GBps"'
scenario loopback "$work/loopback.xml"
expect_error loopback_negative_bw 1 "loopback.xml: invalid platform: line 4: cluster 'c': loopback_bw='-1GBps'" -- \
  run "$work/loopback.yaml"
cluster_with loopback-lat.xml 'loopback_bw="10GBps" loopback_lat="NaN"'
scenario loopback_lat "$work/loopback-lat.xml"
expect_error loopback_nan_lat 1 "loopback-lat.xml: invalid platform: line 4: cluster 'c': loopback_lat='NaN'" -- \
  run "$work/loopback_lat.yaml"
cluster_with limiter.xml 'limiter_link="0Bps"'
scenario limiter "$work/limiter.xml"
expect_error limiter_zero 1 "limiter.xml: invalid platform: line 4: cluster 'c': limiter_link='0Bps'" -- \
  run "$work/limiter.yaml"

# Links SimGrid makes with an infinite bandwidth (no documented meaning) or a latency that is negative, NaN or
# infinite: refused naming the link (a cluster's private links as SimGrid names them).
two_hosts_over() { # two_hosts_over FILE LINK_ATTRIBUTES: h1 and h2 joined by link 'wire'
  platform "$1" '  <zone id="z" routing="Full">' '    <host id="h1" speed="1Gf"/>' '    <host id="h2" speed="1Gf"/>' \
    "    <link id=\"wire\" $2/>" '    <route src="h1" dst="h2"><link_ctn id="wire"/></route>' '  </zone>'
}
two_hosts_over infinite-bandwidth.xml 'bandwidth="infBps" latency="1us"'
scenario infinite_bandwidth "$work/infinite-bandwidth.xml"
expect_error infinite_bandwidth 1 "infinite-bandwidth.xml: link 'wire' has an infinite bandwidth" -- \
  run "$work/infinite_bandwidth.yaml"
for lat in -1s NaN inf; do
  two_hosts_over "latency-$lat.xml" "bandwidth=\"1GBps\" latency=\"$lat\""
  scenario "latency_$lat" "$work/latency-$lat.xml"
  expect_error "link_latency_$lat" 2 "latency-$lat.xml: link 'wire' has a latency of" \
    "a latency must be finite and 0 or more" -- run "$work/latency_$lat.yaml"
done
cluster_with cluster-lat.xml ''
sed -i 's/lat="1us"/lat="-1us"/' "$work/cluster-lat.xml"
scenario cluster_lat "$work/cluster-lat.xml"
expect_error cluster_negative_lat 1 "cluster-lat.xml: link 'c_link_0_DOWN' has a latency of -1e-06 s" -- \
  run "$work/cluster_lat.yaml"

# Disks SimGrid accepts with a read or write bandwidth of 0, negative, NaN or infinite: an image read or written on one
# never ended, and a local-disk run stopped "saturated" with nothing done, exit 0 (found by fuzzing). Refused naming the
# disk and its host, in host then disk name order, whether or not the run stores images on disks.
disk_hosts() { # disk_hosts FILE BW_A BW_B: hosts a and b with one disk each, of these read_bw and write_bw values
  platform "$1" '  <zone id="z" routing="Full">' \
    "    <host id=\"b\" speed=\"1Gf\"><disk id=\"d2\" read_bw=\"1MBps\" write_bw=\"$3\"/></host>" \
    "    <host id=\"a\" speed=\"1Gf\"><disk id=\"d\" read_bw=\"$2\" write_bw=\"1MBps\"/></host>" '  </zone>'
}
for bad in 0MBps -1MBps NaN infBps; do
  disk_hosts "disk-$bad.xml" "$bad" "$bad"
  scenario "disk_$bad" "$work/disk-$bad.xml"
  expect_error "disk_bandwidth_$bad" 2 "disk-$bad.xml: disk 'd' of host 'a' has a read bandwidth of " \
    "a disk's read and write bandwidths must be finite and above 0" -- run "$work/disk_$bad.yaml" \
    --set simulation.images.store=local-disk --set workload.jobs.memory_mb=100 --set policy.name=gang
done
disk_hosts disk-write.xml 1MBps 0MBps
scenario disk_write "$work/disk-write.xml"
expect_error disk_write_zero 1 "disk-write.xml: disk 'd2' of host 'b' has a write bandwidth of 0 B/s" -- \
  run "$work/disk_write.yaml"
disk_hosts disk-good.xml 1MBps 1MBps
scenario disk_good "$work/disk-good.xml"
problems=""
"$bin" run "$work/disk_good.yaml" --quiet --out "$work/out-disk-good" --set simulation.images.store=local-disk \
  --set workload.jobs.memory_mb=100 --set policy.name=gang 2>"$work/disk_good.stderr" ||
  problems+=" refused: $(head -n 1 "$work/disk_good.stderr");"
report disks_above_zero_run "$problems"

# Two hosts of a Full zone without a <route>: a job's traffic between them was free (a ring of 0.1 byte a flop ran as
# fast as without traffic; found by fuzzing). Refused naming the two hosts, for each traffic pattern and for the
# network model, with no output; with the route the same runs run.
platform no-route.xml '  <zone id="z" routing="Full">' '    <host id="a" speed="1Gf"/>' '    <host id="b" speed="1Gf"/>' \
  '    <link id="l" bandwidth="1MBps" latency="0"/>' '  </zone>'
sed 's|  </zone>|    <route src="a" dst="b"><link_ctn id="l"/></route>\n  </zone>|' "$work/no-route.xml" >"$work/routed.xml"
scenario no_route "$work/no-route.xml"
scenario routed "$work/routed.xml"
two_processors=(--set workload.generator.serial_fraction=0 --set workload.generator.max_size=2)
for pattern in ring neighbours all-to-all mesh; do
  traffic=(--set workload.communication.pattern=$pattern --set workload.communication.bytes_per_flop=0.1
    --set simulation.execution=ptask "${two_processors[@]}")
  expect_error "no_route_$pattern" 2 "no-route.xml: no route between hosts a and b (job " \
    "'s processes send messages from one to the other at 0 s: workload.communication's traffic crosses the platform \
over a route of links)" -- run "$work/no_route.yaml" "${traffic[@]}"
  problems=""
  "$bin" run "$work/routed.yaml" --quiet --out "$work/out-routed-$pattern" "${traffic[@]}" \
    2>"$work/routed-$pattern.stderr" || problems+=" refused: $(head -n 1 "$work/routed-$pattern.stderr");"
  report "routed_$pattern" "$problems"
done
network=(--set workload.communication.model=network --set workload.communication.level=2 --set policy.allocation=smp
  "${two_processors[@]}")
expect_error no_route_network 1 "no-route.xml: no route between hosts a and b (job " -- run "$work/no_route.yaml" \
  "${network[@]}"
problems=""
"$bin" run "$work/routed.yaml" --quiet --out "$work/out-routed-network" "${network[@]}" \
  2>"$work/routed-network.stderr" || problems+=" refused: $(head -n 1 "$work/routed-network.stderr");"
report routed_network "$problems"

# Profiles SimGrid reads without a word: a negative or infinite speed factor, a line of three fields (the third was
# ignored), a state other than 0 or 1 (2 was "on", NaN "off"). Refused naming the profile's
# file and line.
profile_case() { # profile_case NAME ATTRIBUTE PROFILE_TEXT EXPECTED
  printf '%b' "$3" >"$work/$1.txt"
  platform "$1.xml" '  <zone id="z" routing="Full">' '    <host id="h1" speed="1Gf"/>' \
    "    <host id=\"h2\" speed=\"1Gf\" $2=\"$1.txt\"/>" '  </zone>'
  scenario "$1" "$work/$1.xml"
  expect_error "$1" 1 "$1.xml: invalid platform: $4" -- run "$work/$1.yaml"
}
profile_case speed_negative speed_file '0 1\n100 -0.5\n' "speed_negative.txt:2: a speed factor must be finite and 0 or more"
profile_case speed_infinite speed_file '0 inf\n' "speed_infinite.txt:1: a speed factor must be finite and 0 or more"
profile_case speed_three_fields speed_file '0 1\n100 0.5 9\n' "speed_three_fields.txt:2: 3 fields"
profile_case state_two state_file '8000 0\n9000 2\n' "state_two.txt:2: a state must be 0 (off) or 1 (on), not 2"
profile_case state_nan state_file '8000 NaN\n' "state_nan.txt:1: a state must be 0 (off) or 1 (on), not NaN"
printf '0 1e9\n50 -1e9\n' >"$work/wire-bandwidth.txt"
two_hosts_over bandwidth-profile.xml 'bandwidth="1GBps" latency="1us" bandwidth_file="wire-bandwidth.txt"'
scenario bandwidth_profile "$work/bandwidth-profile.xml"
expect_error bandwidth_profile_negative 1 "bandwidth-profile.xml: invalid platform: wire-bandwidth.txt:2: a bandwidth \
must be finite and 0 or more, not -1e9" -- run "$work/bandwidth_profile.yaml"

# SimGrid 3.32 aborts on a profile file read twice ("Refusing to define trace shared.txt twice", no line) and never opens
# one given by an absolute name ("Cannot open file", the file being there): both are refused naming the elements. One
# <trace> connected to two hosts is the way to share a profile, and runs.
printf '0 1\n100 0.5\n' >"$work/shared.txt"
platform shared-profile.xml '  <zone id="z" routing="Full">' '    <host id="h1" speed="1Gf" speed_file="shared.txt"/>' \
  '    <host id="h2" speed="1Gf" speed_file="shared.txt"/>' '    <host id="h3" speed="1Gf"/>' '  </zone>'
scenario shared_profile "$work/shared-profile.xml"
expect_error profile_read_twice 1 "shared-profile.xml: invalid platform: 'shared.txt' is read twice, by line 5: host \
'h1' (speed_file) and by line 6: host 'h2' (speed_file)" -- run "$work/shared_profile.yaml"
platform absolute-profile.xml '  <zone id="z" routing="Full">' '    <host id="h1" speed="1Gf"/>' \
  "    <host id=\"h2\" speed=\"1Gf\" state_file=\"$work/shared.txt\"/>" '  </zone>'
scenario absolute_profile "$work/absolute-profile.xml"
expect_error profile_absolute_name 1 "absolute-profile.xml: invalid platform: line 6: host 'h2' (state_file): \
'$work/shared.txt': SimGrid 3.32 cannot open a profile file by an absolute name" -- run "$work/absolute_profile.yaml"
platform connected-profile.xml '  <zone id="z" routing="Full">' '    <host id="h1" speed="1Gf"/>' \
  '    <host id="h2" speed="1Gf"/>' '    <host id="h3" speed="1Gf"/>' '  </zone>' \
  '  <trace id="half" file="shared.txt" periodicity="-1"/>' '  <trace_connect trace="half" element="h2" kind="SPEED"/>' \
  '  <trace_connect trace="half" element="h3" kind="SPEED"/>'
scenario connected_profile "$work/connected-profile.xml"
problems=""
"$bin" run "$work/connected_profile.yaml" --quiet --out "$work/out-connected" 2>"$work/connected.stderr" ||
  problems+=" refused: $(head -n 1 "$work/connected.stderr");"
report profile_connected_twice_runs "$problems"

# jobsched run --check writes nothing, even where SimGrid's tracing is on: by the platform's <config> (a file name
# relative to the working folder) or by --cfg (an absolute one). s35 wrote the trace from the check child and from the
# --check engine. The run itself still writes it, which shows that tracing was on.
platform traced.xml '  <config id="tracing on">' '    <prop id="tracing" value="yes"/>' \
  '    <prop id="tracing/filename" value="traced.trace"/>' '  </config>' '  <zone id="z" routing="Full">' \
  '    <host id="h1" speed="1Gf"/>' '    <host id="h2" speed="1Gf"/>' '  </zone>'
scenario traced "$work/traced.xml"
mkdir -p "$work/trace-folder"
problems=""
(cd "$work/trace-folder" && "$bin" run "$work/traced.yaml" --check >/dev/null 2>&1) || problems+=" --check failed;"
[ ! -e "$work/trace-folder/traced.trace" ] || problems+=" --check wrote the platform's trace;"
"$bin" run "$work/traced.yaml" --check --cfg=tracing:yes --cfg=tracing/filename:"$work/absolute.trace" >/dev/null \
  2>&1 || problems+=" --check --cfg=tracing:yes failed;"
"$bin" fork-join "$src/scenarios/adaptive-partitioning/fork-join.yaml" --check --cfg=tracing:yes \
  --cfg=tracing/filename:"$work/absolute.trace" >/dev/null 2>&1 || problems+=" fork-join --check failed;"
[ ! -e "$work/absolute.trace" ] || problems+=" --check wrote --cfg's trace;"
(cd "$work/trace-folder" && "$bin" run "$work/traced.yaml" --quiet --out "$work/out-traced" >/dev/null 2>&1) ||
  problems+=" the run failed;"
[ -s "$work/trace-folder/traced.trace" ] || problems+=" the run wrote no trace (tracing was not on);"
report check_writes_no_trace "$problems"
# Errors only SimGrid's tracing raises (it finds no container for cluster-16.xml's link halves with tracing/platform
# or tracing/uncategorized) are met by the check as by the run: the check keeps tracing on, its file /dev/null. s36
# turned tracing off there: the run aborted (exit 134, no line, an empty trace file left) and --check passed.
for mode in --quiet --check; do
  expect_error "tracing_only_error$mode" 1 "cluster-16.xml: invalid platform: container with name small_link_0_DOWN \
not found" -- run "$src/scenarios/quickstart.yaml" "$mode" --cfg=tracing:yes --cfg=tracing/platform:yes \
    --cfg=tracing/filename:"$work/container.trace"
  expect_error "tracing_uncategorized_error$mode" 1 "cluster-16.xml: invalid platform: container with name \
small_link_0_DOWN not found" -- run "$src/scenarios/time-sharing.yaml" "$mode" --cfg=tracing:yes \
    --cfg=tracing/uncategorized:yes --cfg=tracing/filename:"$work/container.trace"
done
problems=""
[ ! -e "$work/container.trace" ] || problems+=" a trace file was left;"
report tracing_only_error_leaves_no_trace "$problems"
# A trace file SimGrid cannot open is still refused before the run, and by --check, with SimGrid's words.
for mode in --check --quiet; do
  expect_error "unwritable_trace$mode" 2 "traced.xml: invalid platform" "Tracefile $work/none/x.trace could not be \
opened" -- run "$work/traced.yaml" "$mode" --cfg=tracing/filename:"$work/none/x.trace"
done

platform no-host.xml '  <zone id="z" routing="Full">' '  </zone>'
scenario no_host "$work/no-host.xml"
expect_error no_host 2 "no-host.xml" "no host" -- run "$work/no_host.yaml"

finish
