#!/usr/bin/env python3
"""Side-by-side timing and quiet-run checks of scenarios/races (issue 14).

Two measurements, each run interleaved trial by trial (mode A, mode B, mode
A, ...) so that the machine's load hits every mode alike; the machine's load
average (/proc/loadavg) is printed before and after.

overhead: the safe twins (--safe) of the textbook race under noise none and
  system (--modes bare adds the program without the injector, `exec --no-record`:
  plain MPICH busy-polls on oversubscribed cores, 50-80x slower here):
  time per loop (the program's own us_per_iteration), best of N and median,
  and system/none ratios of both.
quiet: the racy textbook program with no noise: plain mpiexec without the
  injector (`exec --no-record`) against the injector recording in mode none;
  trials with a wrong match (the program's own check).
exposure: the racy program under plain mpiexec (bare), noise none, system
  and application (reading the same trial's system run), interleaved; trials
  with a wrong match and the median first loop.

--scenario picks the program (scenarios/races_<name>: matching_race, the
textbook shape, by default; same_site_race, the all-to-all variant).

--previous-injector LIB runs every mode a second time in each trial with
that injector library (exec takes it from SCALEFUZZ_INJECTOR), e.g. a copy
of the previous release's build/injectors/libscalefuzz_inject.so: the two
builds side by side, columns "MODE@prev". `exposure --modes random` with it
is random noise's reach against the previous release's (issue 35); the
figures the issue recorded for the previous release are printed beside it.

Usage: side_by_side.py BUILD_DIR overhead|quiet|exposure [--trials N] [--np 4,8]
       [--compute-us 0,1000] [--iterations 100] [--bytes 8] [--scenario NAME] [--out DIR]
Commands are argv lists; nothing goes through a shell.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


# Random noise (default knobs) on the reference NINJA matching-race shape,
# 20 runs per cell, as issue 35 recorded them for the previous release:
# (ranks, compute ms) -> wrong runs.
PREVIOUS_RANDOM = {(4, 0): "18/20", (8, 0): "17/20", (4, 1): "10/20", (8, 1): "14/20"}


def run(scalefuzz, build, out, mode, np, compute, iterations, variant, seed, timeout, scenario="matching_race",
        size=8, analysis=None, injector=None):
    argv = [scalefuzz, "exec", "--out", out, "--seed", str(seed), "--timeout", f"{timeout}s"]
    argv += ["--no-record"] if mode == "bare" else ["--noise", mode]
    if analysis:  # application mode: the system run it reads
        argv += ["--noise-set", f"analysis={analysis}"]
    argv += ["--", "mpiexec", "-n", str(np), os.path.join(build, "scenarios", "races_" + scenario),
             "--iterations", str(iterations), "--compute-us", str(compute), "--bytes", str(size),
             "--on-wrong", "count", variant]
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ)
    if injector:
        env["SCALEFUZZ_INJECTOR"] = injector
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout + 60, env=env)
    text = ""
    for name in ("stdout.txt", "stderr.txt"):
        try:
            text += open(os.path.join(out, name), errors="replace").read()
        except OSError:
            pass
    per_it = re.search(r"us_per_iteration=([0-9.]+)", text)
    loops = [int(x) for x in re.findall(r"wrong match at loop (\d+)", text)]
    return (float(per_it.group(1)) if per_it else None), (min(loops) if loops else None)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("build")
    p.add_argument("what", choices=["overhead", "quiet", "exposure"])
    p.add_argument("--trials", type=int, default=7)
    p.add_argument("--np", default="4,8")
    p.add_argument("--compute-us", default="0,1000")
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--bytes", type=int, default=8)
    p.add_argument("--scenario", default="matching_race", help="scenarios/races_<NAME> (default matching_race)")
    p.add_argument("--out", default=None)
    p.add_argument("--keep", action="store_true", help="keep every trial's run directory (default: the last)")
    p.add_argument("--modes", default=None, help="bare (no injector), none, system, ... (default: overhead "
                   "none,system; quiet bare,none)")
    p.add_argument("--previous-injector", default=None, help="also run every mode with this injector library "
                   "(columns MODE@prev)")
    a = p.parse_args()
    build = os.path.abspath(a.build)
    scalefuzz = os.path.join(build, "scalefuzz")
    work = os.path.abspath(a.out or os.path.join(build, "bench", "side_by_side"))
    default_modes = {"overhead": "none,system", "quiet": "bare,none", "exposure": "bare,none,system,application"}
    modes = (a.modes or default_modes[a.what]).split(",")
    if "application" in modes and ("system" not in modes or modes.index("system") > modes.index("application")):
        p.error("application reads the same trial's system run: list system before it in --modes")
    injectors = {m: None for m in modes}
    if a.previous_injector:
        prev = os.path.abspath(a.previous_injector)
        if not os.path.isfile(prev):
            p.error(f"--previous-injector: no file {prev}")
        for m in list(modes):
            injectors[m + "@prev"] = prev
        modes = [x for m in modes for x in (m, m + "@prev")]
    variant = "--safe" if a.what == "overhead" else "--races"
    print(f"side_by_side {a.what}: races_{a.scenario}, {a.bytes} B, {a.iterations} loops, {a.trials} trials per "
          f"cell, interleaved, {os.cpu_count()} cores, load average {load()}")
    scenarios = a.scenario.split(",")
    cells = [(sc, np, compute) for sc in scenarios for np in [int(x) for x in a.np.split(",")]
             for compute in [int(x) for x in a.compute_us.split(",")]]
    times = {(c, m): [] for c in cells for m in modes}
    firsts = {(c, m): [] for c in cells for m in modes}
    # Trial by trial over every cell, scenario and mode: one batch, the load
    # hits all of them alike.
    for t in range(a.trials):
        for cell in cells:
            sc, np, compute = cell
            stem = os.path.join(work, f"{sc}-np{np}-c{compute}-b{a.bytes}" + (f"-t{t}" if a.keep else ""))
            for m in modes:
                mode, _, prev = m.partition("@")
                us, first = run(scalefuzz, build, f"{stem}-{m}", mode, np, compute, a.iterations, variant, 1000 + t,
                                120, sc, a.bytes, f"{stem}-system" + ("@" + prev if prev else "")
                                if mode == "application" else None, injectors[m])
                if us is not None:
                    times[(cell, m)].append(us)
                if first is not None:
                    firsts[(cell, m)].append(first)
        print(f"  trial {t + 1}/{a.trials} done, load average {load()}", file=sys.stderr, flush=True)
    for cell in cells:
        sc, np, compute = cell
        tm = {m: times[(cell, m)] for m in modes}
        fi = {m: firsts[(cell, m)] for m in modes}
        name = f"{sc if len(scenarios) > 1 else ''} {np} ranks / {compute // 1000} ms".strip()
        if a.what == "overhead":
            best = {m: min(v) if v else float("nan") for m, v in tm.items()}
            med = {m: statistics.median(v) if v else float("nan") for m, v in tm.items()}
            print(f"  {name}: us/loop best (median): " +
                  ", ".join(f"{m} {best[m]:.0f} ({med[m]:.0f})" for m in modes) +
                  (f"; system/none best {best['system'] / best['none']:.2f}x, median "
                   f"{med['system'] / med['none']:.2f}x" if "system" in modes and "none" in modes else ""))
        elif a.what == "quiet":
            print(f"  {name}: trials with a wrong match: " +
                  ", ".join(f"{'plain mpiexec' if m == 'bare' else 'injector, noise ' + m} "
                            f"{len(fi[m])}/{a.trials}" for m in modes))
        else:
            print(f"  {name}: wrong/trials (median first loop): " +
                  ", ".join(f"{'plain' if m == 'bare' else m} {len(fi[m])}/{a.trials} "
                            f"({statistics.median(fi[m]) if fi[m] else '-'})" for m in modes) +
                  "; us/loop median: " +
                  ", ".join(f"{'plain' if m == 'bare' else m} "
                            f"{statistics.median(tm[m]) if tm[m] else float('nan'):.0f}" for m in modes) +
                  (f"; previous release as issue 35 recorded it: random {PREVIOUS_RANDOM[(np, compute // 1000)]}"
                   if "random" in modes and sc == "matching_race" and (np, compute // 1000) in PREVIOUS_RANDOM
                   else ""))
        sys.stdout.flush()
    print(f"load average at the end: {load()}")


if __name__ == "__main__":
    main()
