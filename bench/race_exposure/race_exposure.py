#!/usr/bin/env python3
"""NINJA race exposure bench (Sato et al., PPoPP'17, section 6).

For each racy scenario (scenarios/ninja case 1, 2, 3) and each noise mode,
runs TRIALS trials through `scalefuzz exec` (real mpiexec, the injector
preloaded) and records the iteration of the first wrong match (the
scenario's own payload check: "first_iteration=F" on stdout, or the
"WRONG MATCH at iteration N" line on stderr for case 3, which then hangs).
Modes: none, random, system, application, and none / system / application
with the paper's 10 us "tool overhead" after every send, receive and wait
(the scenario's --overhead-us 10). Each application trial reads the analysis
of the system trial with the same seed and arguments.

Then, on the safe twins (--safe), runs every mode interleaved trial by trial
and prints each mode's time per iteration relative to none, measured side by
side in this one run.

Usage: race_exposure.py BUILD_DIR [--trials N] [--np N] [--out DIR]
Commands are argv lists; nothing goes through a shell.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys

CASES = {
    # case: (binary, max iterations, timeout seconds)
    1: ("ninja_case1", 300, 30),
    2: ("ninja_case2", 300, 30),
    3: ("ninja_case3", 100, 6),
}
RANDOM = ["--noise-set", "probability=0.5", "--noise-set", "delay=2ms"]  # about an iteration
MODES = [
    # label, noise mode, extra exec args, scenario args
    ("none", "none", [], []),
    ("random", "random", RANDOM, []),
    ("system", "system", [], []),
    ("application", "application", [], []),
    ("none+10us", "none", [], ["--overhead-us", "10"]),
    ("system+10us", "system", [], ["--overhead-us", "10"]),
    ("application+10us", "application", [], ["--overhead-us", "10"]),
]
OVERHEAD_MODES = ["none", "random", "system", "application"]


def run_exec(scalefuzz, build, out_dir, case, mode, exec_args, app_args, seed, safe, analysis=None):
    binary, iterations, timeout = CASES[case]
    if safe:
        timeout = 60
    argv = [scalefuzz, "exec", "--noise", mode, "--seed", str(seed), "--timeout", f"{timeout}s", "--out", out_dir]
    argv += exec_args
    if analysis:
        argv += ["--noise-set", f"analysis={analysis}"]
    argv += ["--", "mpiexec", "-n", str(ARGS.np), os.path.join(build, "scenarios", binary),
             "--iterations", str(iterations), "--seed", str(seed)]
    argv += app_args + (["--safe"] if safe else [])
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace",
                          timeout=timeout + 60)
    if not os.path.exists(os.path.join(out_dir, "stdout.txt")):  # refused before launching (usage error)
        sys.exit(f"race_exposure: {' '.join(argv)}\n{done.stderr.strip()}")
    stdout = open(os.path.join(out_dir, "stdout.txt"), errors="replace").read()
    stderr = open(os.path.join(out_dir, "stderr.txt"), errors="replace").read()
    first = None
    m = re.search(r"first_iteration=(\d+)", stdout)
    if m:
        first = int(m.group(1))
    for m in re.finditer(r"WRONG MATCH at iteration (\d+)", stderr):
        first = int(m.group(1)) if first is None else min(first, int(m.group(1)))
    per_iteration = None
    m = re.search(r"us_per_iteration=([0-9.]+)", stdout)
    if m:
        per_iteration = float(m.group(1))
    return first, per_iteration


def exposure(scalefuzz, build, work):
    print(f"== iterations until the first wrong match ({ARGS.trials} trials, {ARGS.np} ranks; "
          f"'-' = none within the limit) ==")
    results = {}
    for case in CASES:
        limit = CASES[case][1]
        for trial in range(ARGS.trials):
            seed = 1000 + trial
            system_dirs = {}
            for label, mode, exec_args, app_args in MODES:
                out_dir = os.path.join(work, f"c{case}-{label}-{trial}")
                shutil.rmtree(out_dir, ignore_errors=True)
                analysis = None
                if mode == "application":
                    analysis = system_dirs.get(tuple(app_args))
                    if analysis is None or not os.path.isdir(os.path.join(analysis, "ninja")):
                        results.setdefault((case, label), []).append(None)
                        continue
                first, _ = run_exec(scalefuzz, build, out_dir, case, mode, exec_args, app_args, seed, False, analysis)
                if mode == "system":
                    system_dirs[tuple(app_args)] = out_dir
                results.setdefault((case, label), []).append(first)
        print(f"case {case} (limit {limit} iterations):")
        print(f"  {'mode':18} {'exposed':>9} {'in 3 it':>8} {'median':>7}  first wrong iteration per trial")
        for label, *_ in MODES:
            firsts = results[(case, label)]
            hits = [f for f in firsts if f is not None]
            within3 = sum(1 for f in hits if f < 3)
            median = f"{statistics.median(hits):.0f}" if hits else "-"
            row = " ".join("-" if f is None else str(f) for f in firsts)
            print(f"  {label:18} {len(hits):>4}/{len(firsts):<4} {100.0 * within3 / len(firsts):>6.0f}% {median:>7}  {row}")
        sys.stdout.flush()


def overhead(scalefuzz, build, work):
    trials = max(3, ARGS.trials // 4)
    print(f"== time per iteration on the safe twins, relative to none "
          f"(median of {trials} interleaved trials each) ==")
    for case in CASES:
        times = {m: [] for m in OVERHEAD_MODES}
        for trial in range(trials):
            seed = 2000 + trial
            system_dir = None
            for mode in OVERHEAD_MODES:
                out_dir = os.path.join(work, f"safe-c{case}-{mode}-{trial}")
                shutil.rmtree(out_dir, ignore_errors=True)
                exec_args = RANDOM if mode == "random" else []
                _, per_it = run_exec(scalefuzz, build, out_dir, case, mode, exec_args, [], seed, True,
                                     system_dir if mode == "application" else None)
                if mode == "system":
                    system_dir = out_dir
                if per_it is not None:
                    times[mode].append(per_it)
        base = statistics.median(times["none"]) if times["none"] else None
        cells = []
        for mode in OVERHEAD_MODES:
            if not times[mode] or not base:
                cells.append(f"{mode} n/a")
                continue
            med = statistics.median(times[mode])
            cells.append(f"{mode} {med:.0f} us ({med / base:.2f}x)")
        print(f"  case {case} --safe: " + ", ".join(cells))
        sys.stdout.flush()


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build")
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--np", type=int, default=4)
    parser.add_argument("--out", default=None)
    parser.add_argument("--skip-exposure", action="store_true")
    ARGS = parser.parse_args()
    build = os.path.abspath(ARGS.build)
    scalefuzz = os.path.join(build, "scalefuzz")
    work = os.path.abspath(ARGS.out or os.path.join(build, "bench", "race_exposure"))
    os.makedirs(work, exist_ok=True)
    print(f"race_exposure: {ARGS.trials} trials, {ARGS.np} ranks, {os.cpu_count()} cores, runs under {work}")
    overhead(scalefuzz, build, work)
    if not ARGS.skip_exposure:
        exposure(scalefuzz, build, work)


if __name__ == "__main__":
    main()
