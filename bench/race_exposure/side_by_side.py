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

Usage: side_by_side.py BUILD_DIR overhead|quiet [--trials N] [--np 4,8]
       [--compute-us 0,1000] [--iterations 100] [--out DIR]
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


def run(scalefuzz, build, out, mode, np, compute, iterations, variant, seed, timeout):
    argv = [scalefuzz, "exec", "--out", out, "--seed", str(seed), "--timeout", f"{timeout}s"]
    argv += ["--no-record"] if mode == "bare" else ["--noise", mode]
    argv += ["--", "mpiexec", "-n", str(np), os.path.join(build, "scenarios", "races_same_site_race"),
             "--iterations", str(iterations), "--compute-us", str(compute), "--bytes", "8",
             "--on-wrong", "count", variant]
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout + 60)
    text = ""
    for name in ("stdout.txt", "stderr.txt"):
        try:
            text += open(os.path.join(out, name), errors="replace").read()
        except OSError:
            pass
    per_it = re.search(r"us_per_iteration=([0-9.]+)", text)
    wrong = re.search(r"wrong match at loop", text) is not None
    return (float(per_it.group(1)) if per_it else None), wrong


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("build")
    p.add_argument("what", choices=["overhead", "quiet"])
    p.add_argument("--trials", type=int, default=7)
    p.add_argument("--np", default="4,8")
    p.add_argument("--compute-us", default="0,1000")
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--out", default=None)
    p.add_argument("--modes", default=None, help="bare (no injector), none, system, ... (default: overhead "
                   "none,system; quiet bare,none)")
    a = p.parse_args()
    build = os.path.abspath(a.build)
    scalefuzz = os.path.join(build, "scalefuzz")
    work = os.path.abspath(a.out or os.path.join(build, "bench", "side_by_side"))
    modes = a.modes.split(",") if a.modes else (["none", "system"] if a.what == "overhead" else ["bare", "none"])
    variant = "--safe" if a.what == "overhead" else "--races"
    print(f"side_by_side {a.what}: {a.trials} trials per cell, interleaved, {os.cpu_count()} cores, "
          f"load average {load()}")
    for np in [int(x) for x in a.np.split(",")]:
        for compute in [int(x) for x in a.compute_us.split(",")]:
            times = {m: [] for m in modes}
            wrong = {m: 0 for m in modes}
            for t in range(a.trials):
                for m in modes:
                    out = os.path.join(work, f"np{np}-c{compute}-{m}")
                    us, w = run(scalefuzz, build, out, m, np, compute, a.iterations, variant, 1000 + t, 120)
                    if us is not None:
                        times[m].append(us)
                    wrong[m] += w
            cell = f"{np} ranks / {compute // 1000} ms"
            if a.what == "overhead":
                best = {m: min(v) if v else float("nan") for m, v in times.items()}
                med = {m: statistics.median(v) if v else float("nan") for m, v in times.items()}
                print(f"  {cell}: us/loop best (median): " +
                      ", ".join(f"{m} {best[m]:.0f} ({med[m]:.0f})" for m in modes) +
                      f"; system/none best {best['system'] / best['none']:.2f}x, median "
                      f"{med['system'] / med['none']:.2f}x")
            else:
                print(f"  {cell}: trials with a wrong match: " +
                      ", ".join(f"{'plain mpiexec' if m == 'bare' else 'injector, noise ' + m} {wrong[m]}/{a.trials}"
                                for m in modes))
            sys.stdout.flush()
    print(f"load average at the end: {load()}")


if __name__ == "__main__":
    main()
