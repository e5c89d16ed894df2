# Shared by scale.sh and families.sh (sourced): the generated workload at an offered load of about 0.8 and the plain
# clusters both run it on.

# Mean inter-arrival time for an offered load of 0.8 on M processors with the generator's defaults: sizes are serial
# (1/4), a power of two 2..2^K (3/4 of the rest, exponent uniform) or uniform in 2..M; run times log-uniform in
# [10, 7200] s.
interarrival() {
  awk -v M="$1" 'BEGIN {
    K = int(log(M) / log(2)); pow = 0; for (k = 1; k <= K; k++) pow += 2 ^ k; pow /= K;
    size = 0.25 + 0.75 * (0.75 * pow + 0.25 * (2 + M) / 2);
    run = (7200 - 10) / log(7200 / 10);
    printf "%.6f", size * run / (0.8 * M) }'
}

# Mean inter-arrival time for an offered load of 0.8 on M processors under the formula cost model (SMP nodes of C
# cores, communication Level L, BASE 0.05): a job of s processors placed on its fewest nodes, ceil(s / C), runs
# 1 + 0.05 x L x ceil(s / C) times its run time, so its processor-seconds are weighted by that stretch (the largest
# jobs, on 1,250 nodes at Level 2, run 126 times longer; without the weight the machine is overloaded about 60 times).
interarrival_formula() {
  awk -v M="$1" -v C="$2" -v L="$3" 'BEGIN {
    K = int(log(M) / log(2));
    serial = 1 + 0.05 * L;
    pow = 0; for (k = 1; k <= K; k++) pow += 2 ^ k * (1 + 0.05 * L * int((2 ^ k + C - 1) / C)); pow /= K;
    uni = 0; for (s = 2; s <= M; s++) uni += s * (1 + 0.05 * L * int((s + C - 1) / C)); uni /= M - 1;
    size = 0.25 * serial + 0.75 * (0.75 * pow + 0.25 * uni);
    run = (7200 - 10) / log(7200 / 10);
    printf "%.6f", size * run / (0.8 * M) }'
}

# write_cluster FILE HOSTS: HOSTS one-core hosts node-0... (no deployment: jobsched places its actors).
write_cluster() {
  cat >"$1" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-$(($2 - 1))" speed="1Gf" bw="1GBps" lat="10us"
           bb_bw="100GBps" bb_lat="0us"/>
</platform>
XML
}

# write_smp_cluster FILE NODES: NODES SMP nodes of 8 cores smp-0... (the SMP-cluster paper's machines).
write_smp_cluster() {
  cat >"$1" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="smp" prefix="smp-" suffix="" radical="0-$(($2 - 1))" speed="1Gf" core="8" bw="125MBps" lat="50us"
           bb_bw="2.25GBps" bb_lat="500us" loopback_bw="1GBps" loopback_lat="1us"/>
</platform>
XML
}
