#!/usr/bin/env python3
"""Compare two run folders of one scenario, one whose trace.csv may hold aggregated rows of cycles advanced whole
(simulation.cycles: true) and one stepped boundary by boundary (false, or an older build): the same jobs with start and
end times within a tolerance, summary.json's figures within a tolerance, and the traces once expanded: the same
segments (job, state, processors) with start and end times within a tolerance, the same segments.csv rows (its
aggregated rows, metadata "repeats=K;period=P", expanded; the submission times it writes), and the same busy
processor-seconds per processor. Prints the largest differences found; exit status 1 when one is above its tolerance.

Usage: cycles_compare.py CYCLES_DIR STEPPED_DIR [--time-tolerance S] [--relative-tolerance R] [--no-segments]
An aggregated row of trace.csv (its `repeats` column not empty) stands for `repeats` segments, the i-th (from 0)
spanning [start + i x period, end + i x period); ordinary rows stand for themselves. --no-segments skips the
row-by-row pairing (it holds every expanded row in memory) and compares busy time only.
"""
import argparse
import csv
import json
import math
import sys
from collections import defaultdict


def ranges(text):
    """Batsim's interval notation: "0-31 64-95" or "0-31,64-95"."""
    for part in text.replace(",", " ").split():
        if "-" in part:
            a, b = part.split("-")
            yield int(a), int(b)
        else:
            yield int(part), int(part)


def expanded(path):
    """Each segment of trace.csv, aggregated rows expanded: (job, start, end, processors, state)."""
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        col = {name: i for i, name in enumerate(header)}
        has_cycles = "repeats" in col
        for r in rows:
            job, start, end, processors, state = (r[col["job_id"]], float(r[col["start"]]), float(r[col["end"]]),
                                                  r[col["processors"]], r[col["state"]])
            repeats = 1
            period = 0.0
            if has_cycles and r[col["repeats"]] != "":
                repeats = int(r[col["repeats"]])
                period = float(r[col["period"]])
            for i in range(repeats):
                yield job, start + i * period, end + i * period, processors, state


def busy_time(path):
    """Busy seconds per processor: each running segment's length added over its ranges by differences (a range
    adds at its first processor and takes away after its last), summed along the processors at the end."""
    delta = defaultdict(float)
    segments = 0
    for job, start, end, processors, state in expanded(path):
        segments += 1
        if state != "running":
            continue
        for a, b in ranges(processors):
            delta[a] += end - start
            delta[b + 1] -= end - start
    busy = {}
    level = 0.0
    previous = None
    for p in sorted(delta):
        if previous is not None:
            for q in range(previous, p):
                busy[q] = level
        level += delta[p]
        previous = p
    return busy, segments


def segments_rows(path):
    """segments.csv's rows, an aggregated one (metadata "repeats=K;period=P") expanded: (job, start, finish,
    processors, submission or None when the row is a repetition, whose submission the file does not write)."""
    out = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            start, finish = float(r["starting_time"]), float(r["finish_time"])
            meta = dict(kv.split("=") for kv in r["metadata"].split(";")) if r["metadata"] else {}
            repeats, period = int(meta.get("repeats", 1)), float(meta.get("period", 0))
            for i in range(repeats):
                submission = float(r["submission_time"]) if i == 0 else None
                out.append((r["job_id"], start + i * period, finish + i * period, r["allocated_resources"], submission))
    return sorted(out, key=lambda x: (x[0], x[1]))


def over(difference, tolerance):
    """Whether `difference` exceeds `tolerance`. Times are written with 6 decimals, so two of them differ by a whole
    number of millionths, computed in binary with an error of a few 1e-10 at most (1.0000076e-06 for one millionth
    between times near 1e7): a thousandth of the tolerance absorbs it."""
    return difference > tolerance * 1.001


def compare_segments(a, b, time_tolerance, worst, problems):
    sa, sb = segments_rows(a), segments_rows(b)
    print(f"segments.csv: {len(sa)} rows expanded, {len(sb)} stepped")
    if len(sa) != len(sb):
        problems.append(f"segments.csv: {len(sa)} rows expanded against {len(sb)}")
        return
    d = ds = 0.0
    for x, y in zip(sa, sb):
        if x[0] != y[0] or x[3] != y[3]:
            problems.append(f"segments.csv: row {x} against {y}")
            return
        d = max(d, abs(x[1] - y[1]), abs(x[2] - y[2]))
        if x[4] is not None:
            ds = max(ds, abs(x[4] - y[4]))
    worst["segments.csv start and finish"] = d
    worst["segments.csv submission (rows written)"] = ds
    if over(max(d, ds), time_tolerance):
        problems.append(f"segments.csv: times differ by up to {max(d, ds)} s")


def compare_jobs(a, b, time_tolerance, worst):
    def read(path):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        return {r["job_id"]: r for r in rows}

    ja, jb = read(a), read(b)
    problems = []
    if set(ja) != set(jb):
        problems.append(f"jobs.csv: {len(set(ja) ^ set(jb))} jobs in one run only")
    identical = open(a, "rb").read() == open(b, "rb").read()
    for job in set(ja) & set(jb):
        ra, rb = ja[job], jb[job]
        for column in ra:
            if ra[column] == rb.get(column):
                continue
            try:
                x, y = float(ra[column]), float(rb[column])
            except (TypeError, ValueError):
                problems.append(f"jobs.csv: job {job}: {column} {ra[column]!r} against {rb.get(column)!r}")
                continue
            d = abs(x - y)
            key = "jobs.csv " + column
            worst[key] = max(worst.get(key, 0.0), d)
            if column in ("starting_time", "finish_time", "waiting_time", "turnaround_time", "execution_time"):
                if over(d, time_tolerance):
                    problems.append(f"jobs.csv: job {job}: {column} {x} against {y}")
    return identical, problems


def compare_summary(a, b, relative_tolerance, worst):
    sa, sb = json.load(open(a)), json.load(open(b))
    problems = []
    for key in sorted(set(sa) | set(sb)):
        x, y = sa.get(key), sb.get(key)
        if x == y:
            continue
        if isinstance(x, (int, float)) and isinstance(y, (int, float)):
            d = abs(x - y) / max(1.0, abs(y))
            worst["summary.json " + key + " (relative)"] = d
            if d > relative_tolerance:
                problems.append(f"summary.json: {key} {x} against {y}")
        elif key not in ("scenario",):
            problems.append(f"summary.json: {key} {x!r} against {y!r}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cycles")
    ap.add_argument("stepped")
    ap.add_argument("--time-tolerance", type=float, default=1e-6)
    ap.add_argument("--relative-tolerance", type=float, default=1e-9)
    ap.add_argument("--no-segments", action="store_true")
    ap.add_argument("--no-trace", action="store_true")
    args = ap.parse_args()
    worst = {}
    identical, problems = compare_jobs(f"{args.cycles}/jobs.csv", f"{args.stepped}/jobs.csv", args.time_tolerance,
                                       worst)
    problems += compare_summary(f"{args.cycles}/summary.json", f"{args.stepped}/summary.json",
                                args.relative_tolerance, worst)
    print(f"jobs.csv {'byte-identical' if identical else 'differs'}")
    if not args.no_trace:
        ta, tb = f"{args.cycles}/trace.csv", f"{args.stepped}/trace.csv"
        if not args.no_segments:
            sa = sorted(expanded(ta), key=lambda s: (s[0], s[1], s[4]))
            sb = sorted(expanded(tb), key=lambda s: (s[0], s[1], s[4]))
            print(f"trace.csv: {len(sa)} segments expanded, {len(sb)} stepped")
            if len(sa) != len(sb):
                problems.append(f"trace.csv: {len(sa)} segments expanded against {len(sb)}")
            ds = de = 0.0
            for x, y in zip(sa, sb):
                if x[0] != y[0] or x[3] != y[3] or x[4] != y[4]:
                    problems.append(f"trace.csv: segment {x} against {y}")
                    break
                ds, de = max(ds, abs(x[1] - y[1])), max(de, abs(x[2] - y[2]))
            worst["trace.csv start"] = ds
            worst["trace.csv end"] = de
            if over(max(ds, de), args.time_tolerance):
                problems.append(f"trace.csv: segment times differ by up to {max(ds, de)} s")
            compare_segments(f"{args.cycles}/segments.csv", f"{args.stepped}/segments.csv", args.time_tolerance,
                             worst, problems)
        ba, na = busy_time(ta)
        bb, nb = busy_time(tb)
        d = max((abs(ba.get(p, 0.0) - bb.get(p, 0.0)) for p in set(ba) | set(bb)), default=0.0)
        worst["busy seconds per processor"] = d
        total = sum(bb.values())
        print(f"busy processor-seconds: {sum(ba.values()):.9f} and {total:.9f}")
        if over(d, args.time_tolerance * max(1.0, nb)):
            problems.append(f"busy time of a processor differs by {d} s")
    for key, value in sorted(worst.items()):
        print(f"largest difference, {key}: {value:.3g}")
    for p in problems[:20]:
        print("PROBLEM:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
