#!/usr/bin/env python3
"""Why the policies rank as they do in section 5.2: the widths their quantum schedules give, without simulation.

    python3 scenarios/memory-constrained/schedule_widths.py [build/jobsched]

For 150 draws of Table 3's M_j (N = 128; J = 7 and 8 at load 100%; rounding "mix"), schedules each draw with
`jobsched plan` and prints, per policy: the mean width of a piece, the static waste (the fraction of the node-time
given to pieces that static jobs of N threads leave idle, 1 - N / (n ceil(N/n)), weighted by area) and the dynamic
efficiency at the mean beta (165: (1 + beta) / (beta + n), weighted by area). Seeded: the same output every time."""
import json
import math
import random
import subprocess
import sys

N = 128
BETA = 165  # the mean of Uniform[30, 300]


def draw(rng, jobs, load):
    u = 2 * load * N / (100 * jobs) - 1
    low = math.floor(u)
    return [1 + int(rng.random() * (low + (1 if rng.random() < u - low else 0))) for _ in range(jobs)]


def main():
    jobsched = sys.argv[1] if len(sys.argv) > 1 else "build/jobsched"
    rng = random.Random(5)
    print("| J | policy | mean width | static waste | dynamic efficiency | epochs |")
    print("|---|---|---|---|---|---|")
    for jobs, load in ((7, 100), (8, 100)):
        draws = [draw(rng, jobs, load) for _ in range(150)]
        buddy = "buddy" if jobs & (jobs - 1) == 0 else "buddy-star"
        policies = [("equi-epoch", None), (buddy, None), ("opt-epoch", 1)]
        policies += [("heuristic-epoch", k) for k in (0, 1, 2, 3, 4, 6, 8)]
        for policy, k in policies:
            waste = area = width = efficiency = epochs = 0.0
            for mins in draws:
                cmd = [jobsched, "plan", policy, "--nodes", str(N), "--mins", ",".join(map(str, mins))]
                if k is not None:
                    cmd += ["--k", str(k)]
                plan = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
                epochs += plan["epoch_count"]
                for piece in plan["pieces"]:
                    n = piece["width"]
                    a = n * piece["duration"]
                    area += a
                    waste += a * (1 - N / (n * math.ceil(N / n)))
                    efficiency += a * (1 + BETA) / (BETA + n)
                    width += n / len(plan["pieces"])
            name = policy + ("" if k is None else f"({k})")
            print(f"| {jobs} | {name} | {width / len(draws):.1f} | {waste / area:.3f} | {efficiency / area:.3f} | "
                  f"{epochs / len(draws):.2f} |")


if __name__ == "__main__":
    main()
