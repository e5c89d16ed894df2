#!/usr/bin/env python3
"""Writes a SimGrid platform: a grid of clusters, one front end per site, sites joined by wide-area links.

Every site has a front end (`site-S-frontend`, role `frontend`: where `hierarchy.messages: platform` places the
scheduler actors) and a cluster of `--nodes` compute nodes behind a LAN link. A message from one site's front end to
another's crosses both sites' wide-area uplinks: one-way latency 2 x `--wan-latency`. The hierarchy scenarios count
their P processors rather than run on them; the clusters make the platform a usable grid for other scenarios too.

usage: scripts/grid_of_clusters.py [--sites 4] [--nodes 64] [--wan-latency 2.5ms] [--wan-bandwidth 1Gbps] > FILE.xml
platforms/grid-of-clusters.xml is the default output.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from simgrid_units import check_bandwidth, check_time, refuse  # noqa: E402

p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
p.add_argument("--sites", type=int, default=4)
p.add_argument("--nodes", type=int, default=64)
p.add_argument("--wan-latency", default="2.5ms")
p.add_argument("--wan-bandwidth", default="1Gbps")
a = p.parse_args()
for option, value in (("--sites", a.sites), ("--nodes", a.nodes)):
    if value < 1:
        refuse("grid_of_clusters.py", f"{option}: must be at least 1, got {value}")
check_time("grid_of_clusters.py", "--wan-latency", a.wan_latency)
check_bandwidth("grid_of_clusters.py", "--wan-bandwidth", a.wan_bandwidth)
S = range(a.sites)
out = ["<?xml version='1.0'?>",
       '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
       f"<!-- A grid of {a.sites} clusters of {a.nodes} nodes ({a.sites * a.nodes} processors), written by",
       "     scripts/grid_of_clusters.py. Each site has a front end (role frontend: the hierarchy scenarios' schedulers",
       f"     run there with hierarchy.messages: platform) and a cluster behind a 10 Gbps, 50 us LAN link. Sites reach",
       f"     each other through their wide-area uplinks ({a.wan_bandwidth}, {a.wan_latency} each): front end to front",
       f"     end is two uplinks, so 2 x {a.wan_latency} one way under the ptask_L07 model (no latency factor). -->",
       '<platform version="4.1">',
       '  <zone id="grid" routing="Full">']
for s in S:
    out.append(f'    <zone id="site-{s}" routing="Full">')
    out.append(f'      <host id="site-{s}-frontend" speed="1Gf"><prop id="role" value="frontend"/></host>')
    out.append('    </zone>')
for s in S:
    out.append(f'    <cluster id="site-{s}-cluster" prefix="site-{s}-node-" suffix="" radical="0-{a.nodes - 1}" '
               f'speed="1Gf" bw="10Gbps" lat="5us" router_id="site-{s}-router"/>')
for s in S:
    out.append(f'    <link id="site-{s}-uplink" bandwidth="{a.wan_bandwidth}" latency="{a.wan_latency}"/>')
    out.append(f'    <link id="site-{s}-lan" bandwidth="10Gbps" latency="50us"/>')
for s in S:
    out.append(f'    <zoneRoute src="site-{s}" dst="site-{s}-cluster" gw_src="site-{s}-frontend" '
               f'gw_dst="site-{s}-router"><link_ctn id="site-{s}-lan"/></zoneRoute>')
for s in S:
    for t in S:
        if t <= s:
            continue
        up = f'<link_ctn id="site-{s}-uplink"/><link_ctn id="site-{t}-uplink"/>'
        out.append(f'    <zoneRoute src="site-{s}" dst="site-{t}" gw_src="site-{s}-frontend" '
                   f'gw_dst="site-{t}-frontend">{up}</zoneRoute>')
        out.append(f'    <zoneRoute src="site-{s}-cluster" dst="site-{t}-cluster" gw_src="site-{s}-router" '
                   f'gw_dst="site-{t}-router"><link_ctn id="site-{s}-lan"/>{up}<link_ctn id="site-{t}-lan"/>'
                   '</zoneRoute>')
        for (x, y) in ((s, t), (t, s)):
            out.append(f'    <zoneRoute src="site-{x}" dst="site-{y}-cluster" gw_src="site-{x}-frontend" '
                       f'gw_dst="site-{y}-router"><link_ctn id="site-{x}-uplink"/><link_ctn id="site-{y}-uplink"/>'
                       f'<link_ctn id="site-{y}-lan"/></zoneRoute>')
out += ['  </zone>', '</platform>']
print("\n".join(out))
