#!/usr/bin/env python3
"""Cost of forced runs against recorded runs (issue 30: each forced run <= 1.2x a recorded run).

Reads campaign output directories written by `scalefuzz run` with `explore:`
(e.g. the per-program directories of minimal_replay.py's --out) and prints,
per directory, the median wall time of the campaign's own recorded runs
(OUT/runs/*/outcome.json) and of its forced runs (OUT/explore/runs/*: forced
alternatives, the controls of a failing base and the shrinking runs), and
their ratio. Runs that hung (outcome kind "hang") are left out of both: their
wall time is the timeout, not a cost. Nothing is run.

Usage: cost.py OUT_DIR [OUT_DIR ...]
"""
import json
import os
import statistics
import sys


def walls(runs_dir):
    out = []
    if not os.path.isdir(runs_dir):
        return out
    for run in sorted(os.listdir(runs_dir)):
        path = os.path.join(runs_dir, run, "outcome.json")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            outcome = json.load(f)
        if outcome.get("kind") != "hang" and outcome.get("wall_seconds"):
            out.append(outcome["wall_seconds"])
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print(f"{'campaign':28} {'recorded':>9} {'median s':>9} {'forced':>7} {'median s':>9} {'ratio':>6}")
    ratios = []
    for out in sys.argv[1:]:
        recorded, forced = walls(os.path.join(out, "runs")), walls(os.path.join(out, "explore", "runs"))
        if not recorded or not forced:
            print(f"{os.path.basename(out.rstrip('/')):28} (no recorded or no forced run)")
            continue
        r, f = statistics.median(recorded), statistics.median(forced)
        ratios.append(f / r)
        print(f"{os.path.basename(out.rstrip('/')):28} {len(recorded):9} {r:9.3f} {len(forced):7} {f:9.3f} {f / r:6.2f}")
    if ratios:
        print(f"largest ratio {max(ratios):.2f} (target <= 1.2)")


if __name__ == "__main__":
    main()
