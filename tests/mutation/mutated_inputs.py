#!/usr/bin/env python3
"""Mutation campaign: the one-line rule on inputs written by others or damaged.

Takes the project's platforms, deployments, SWF traces and scenarios, makes seeded random mutants of each (lines
deleted, duplicated or cut, attribute values replaced by empty, negative, zero, NaN, infinite, huge, tiny or
nonsense values, attribute and tag names misspelt, closing tags dropped, stray bytes, numbers in SWF fields and YAML
values replaced) and runs `jobsched run` on each with a small workload. Every run must either succeed (the mutant
was still valid) or fail with exit status 2, exactly one line on stderr that starts with "jobsched: error:", and no
output folder; a crash, a hang (timeout), another exit status or a second line is a failure, printed with the
mutant so that it can be replayed.

Usage: mutated_inputs.py JOBSCHED_BINARY SOURCE_DIR [--mutants N] [--seed S] [--keep DIR]
"""
import argparse
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

BAD_VALUES = ["", "-1", "0", "-0", "nan", "NaN", "inf", "-inf", "1e400", "1e-300", "1e300", "bogus", "2147483648",
              "4294967295", "-2147483649", "0x10", "1,5", "3.7", " ", "\u00e9", "x" * 300]


def mutate_xml(text, rng):
    lines = text.split("\n")
    op = rng.randrange(9)
    if op == 0 and len(lines) > 1:  # delete a line
        del lines[rng.randrange(len(lines))]
    elif op == 1:  # duplicate a line
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif op == 2:  # cut the file
        return text[: rng.randrange(len(text))]
    elif op in (3, 4, 5):  # an attribute value
        attrs = list(re.finditer(r'(\w+)="([^"]*)"', text))
        if attrs:
            m = rng.choice(attrs)
            value = rng.choice(BAD_VALUES) if op != 5 else m.group(2) + rng.choice(["x", "0", "%", "Gf", "e9"])
            return text[: m.start(2)] + value + text[m.end(2):]
    elif op == 6:  # an attribute name
        attrs = list(re.finditer(r'(\w+)="', text))
        if attrs:
            m = rng.choice(attrs)
            return text[: m.start(1)] + m.group(1)[::-1] + text[m.end(1):]
    elif op == 7:  # a tag name, or a closing tag dropped
        tags = list(re.finditer(r"<(/?)(\w+)", text))
        if tags:
            m = rng.choice(tags)
            if rng.random() < 0.5:
                return text[: m.start(2)] + m.group(2) + "x" + text[m.end(2):]
            closes = [c for c in re.finditer(r"/>", text)]
            if closes:
                c = rng.choice(closes)
                return text[: c.start()] + ">" + text[c.end():]
    else:  # stray bytes
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(["<", ">", "&", '"', "\x00", "\xff", "<!--", "]]>"]) + text[i:]
    return "\n".join(lines)


def mutate_numbers(text, rng, comment_prefix):
    lines = text.split("\n")
    data = [i for i, l in enumerate(lines) if l.strip() and not l.lstrip().startswith(comment_prefix)]
    if not data:
        return text
    i = rng.choice(data)
    op = rng.randrange(4)
    if op == 0:
        nums = list(re.finditer(r"-?\d+(\.\d+)?([eE][-+]?\d+)?", lines[i]))
        if nums:
            m = rng.choice(nums)
            lines[i] = lines[i][: m.start()] + rng.choice(BAD_VALUES + ["1e30", "-5", "999999999999"]) + lines[i][m.end():]
    elif op == 1:
        del lines[i]
    elif op == 2:
        lines.insert(i, lines[i])
    else:
        cut = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:cut]
    return "\n".join(lines)


def check_run(command, out):
    """Run one mutant: success, or exit status 2 with one 'jobsched: error:' line and no output folder.
    Returns (what broke the rule or None, the stderr lines)."""
    try:
        r = subprocess.run(command, capture_output=True, timeout=60)
        rc, err = r.returncode, r.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, err = "timeout", ""
    lines = [l for l in err.split("\n") if l.strip()]
    if rc == 0:
        return None, lines
    if rc != 2:
        return f"exit status {rc}", lines
    if len(lines) != 1 or not lines[0].startswith("jobsched: error:"):
        return f"{len(lines)} stderr lines", lines
    if os.path.exists(out):
        return "output folder left", lines
    return None, lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("src")
    ap.add_argument("--mutants", type=int, default=40, help="per kind of input")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="copy failing mutants here")
    args = ap.parse_args()
    src = os.path.abspath(args.src)
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="jobsched-mutants.")
    failures = 0
    runs = 0
    try:
        platforms = sorted(glob.glob(os.path.join(src, "platforms", "*.xml")) +
                           glob.glob(os.path.join(src, "tests", "platforms", "*.xml")))
        deployment = os.path.join(src, "deployments", "single-scheduler.xml")
        swf_text = "\n".join(["; MaxProcs: 16"] + [
            f"{j} {j * 30} 1 {100 + j * 7} {1 + j % 4} -1 -1 {1 + j % 4} {400 + j} -1 1 1 1 -1 -1 -1 -1 -1"
            for j in range(1, 21)]) + "\n"
        kinds = ["platform", "deployment", "swf", "scenario"]
        for kind in kinds:
            for n in range(args.mutants):
                case = os.path.join(work, f"{kind}-{n}")
                os.makedirs(case)
                platform = rng.choice(platforms)
                deploy = None
                swf = os.path.join(case, "w.swf")
                with open(swf, "w") as f:
                    f.write(swf_text)
                if kind == "platform":
                    text = open(platform).read()
                    platform = os.path.join(case, "p.xml")
                    with open(platform, "w", errors="surrogateescape") as f:
                        f.write(mutate_xml(text, rng))
                    # profile files named relative to the platform stay reachable
                    if os.path.isdir(os.path.join(src, "tests", "platforms", "profiles")):
                        shutil.copytree(os.path.join(src, "tests", "platforms", "profiles"),
                                        os.path.join(case, "profiles"))
                elif kind == "deployment":
                    platform = os.path.join(src, "platforms", "cluster-16.xml")
                    deploy = os.path.join(case, "d.xml")
                    with open(deploy, "w", errors="surrogateescape") as f:
                        f.write(mutate_xml(open(deployment).read(), rng))
                elif kind == "swf":
                    platform = os.path.join(src, "platforms", "cluster-16.xml")
                    with open(swf, "w") as f:
                        f.write(mutate_numbers(swf_text, rng, ";"))
                scenario_lines = [f"platform: {platform}"]
                if deploy:
                    scenario_lines.append(f"deployment: {deploy}")
                scenario_lines += ["workload:", f"  trace: {swf}", "policy:",
                                   f"  name: {rng.choice(['fcfs', 'easy', 'conservative', 'gang', 'equi'])}",
                                   "simulation:", "  seed: 3"]
                scenario = "\n".join(scenario_lines) + "\n"
                if kind == "scenario":
                    scenario = mutate_numbers(scenario.replace("seed: 3", "seed: 3\n  reference_speed: 1e9"), rng, "#")
                sc = os.path.join(case, "s.yaml")
                with open(sc, "w") as f:
                    f.write(scenario)
                out = os.path.join(case, "out")
                runs += 1
                problem, lines = check_run([args.bin, "run", sc, "--quiet", "--out", out], out)
                if problem:
                    failures += 1
                    print(f"FAIL {kind} mutant {n} ({problem}): " + " | ".join(lines[:4])[:400])
                    if args.keep:
                        shutil.copytree(case, os.path.join(args.keep, f"{kind}-{n}"), dirs_exist_ok=True)
        # The other scenario kinds (gang on workstations, hierarchies, fork-join, meshes): the repository's scenarios,
        # made small with --set, one number-line mutated.
        kind_bases = [("scenarios/gang-now/now.yaml", ["gang_now.workload.jobs=12"]),
                      ("scenarios/hierarchical/ac-ds.yaml", ["hierarchy.workload.jobs=20"]),
                      ("scenarios/hierarchical/wide-area.yaml", ["hierarchy.workload.jobs=20", "sweep=null"]),
                      ("scenarios/adaptive-partitioning/mesh.yaml", ["workload.generator.jobs=15"]),
                      ("scenarios/adaptive-partitioning/fork-join.yaml", [])]
        for n in range(args.mutants):
            base, sets = rng.choice(kind_bases)
            case = os.path.join(work, f"kind-{n}")
            os.makedirs(case)
            folder = os.path.dirname(os.path.join(src, base))
            for extra in glob.glob(os.path.join(folder, "*.graphml")):
                shutil.copy(extra, case)
            text = open(os.path.join(src, base)).read().replace("../../", src + "/")
            sc = os.path.join(case, "s.yaml")
            with open(sc, "w") as f:
                f.write(mutate_numbers(text, rng, "#"))
            out = os.path.join(case, "out")
            runs += 1
            command = [args.bin, "run", sc, "--quiet", "--out", out]
            for setting in sets:
                command += ["--set", setting]
            problem, lines = check_run(command, out)
            if problem:
                failures += 1
                print(f"FAIL {base} mutant {n} ({problem}): " + " | ".join(lines[:4])[:400])
                if args.keep:
                    shutil.copytree(case, os.path.join(args.keep, f"kind-{n}"), dirs_exist_ok=True)
        print(f"{runs} mutants, {failures} broke the one-line rule")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
