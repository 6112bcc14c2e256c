#!/usr/bin/env python3
"""Does each racy corpus program's minimal failing schedule replay its failure? (issue 30)

For each racy program of the race corpus (scenarios/races and scenarios/replay)
it runs a campaign with noise none, one run and `explore: {budget: B}`, takes
the harmful-race Error of exploration from findings.json and:

- replays its minimal schedule the way the finding offers it
  (`minimal_replay_argv`: `scalefuzz replay DIR`, DIR the last failing run of
  the shrinking) with `--times N` and reads "reproduced K/N" (same outcome,
  same bug fingerprints, no divergence);
- reruns the minimal schedule itself N times (`DIR/schedule`: only the
  decisions ddmin kept, the rest free) through the injector and counts the
  runs whose outcome is the failing one (the program's check: its exit code or
  its stderr pattern).

Prints one row per program: the harmful race's receive, the minimal schedule's
size, both counts. Every command is an argv list; runs are one at a time.

Usage: minimal_replay.py BUILD_DIR [--budget B] [--times N] [--out DIR] [--programs a,b,...]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# name -> (binary under BUILD/scenarios, ranks, argv after the binary, stderr pattern of a failure)
PROGRAMS = {
    "matching_race": ("races_matching_race", 4, ["--iterations", "4", "--print-loops", "0", "--on-wrong", "count"],
                      "wrong match at loop"),
    "same_site_race": ("races_same_site_race", 3, ["--iterations", "6", "--on-wrong", "count"], "wrong match at loop"),
    "cross_iteration_race": ("races_cross_iteration_race", 3, ["--iterations", "6", "--on-wrong", "count"],
                             "wrong match at loop"),
    "task_pool": ("races_task_pool", 3, ["--iterations", "6", "--on-wrong", "count"], "wrong match at loop"),
    "first_answer": ("races_first_answer", 4, ["--iterations", "8", "--on-wrong", "count"], "wrong match at loop"),
    "master_worker": ("replay_master_worker", 4, ["--tasks", "24"], "wrong result"),
    "halo_any_source": ("replay_halo_any_source", 4, ["--steps", "20"], "wrong result"),
    "iprobe_poll": ("replay_iprobe_poll", 4, ["--items", "6"], "wrong result"),
    "waitany_pipeline": ("replay_waitany_pipeline", 4, ["--rounds", "4"], "wrong result"),
}


def campaign(name, binary, ranks, args, pattern, budget):
    command = ", ".join(json.dumps(a) for a in [binary] + args)
    return (f"campaign: {name}\napp:\n  command: [{command}]\n"
            f"  check: {{ stderr-regex: {json.dumps(pattern)} }}\n"
            f"scales: [{ranks}]\nnoise: [{{ mode: none }}]\nrepetitions: 3\ntimeout: 60s\ndetectors: [races]\n"
            f"explore: {{ budget: {budget} }}\n")


def rerun_schedule(build, schedule_dir, ranks, argv, pattern, times):
    """Runs with only the schedule's decisions forced; returns how many failed the program's check."""
    lib = os.path.join(build, "injectors", "libscalefuzz_inject.so")
    failed = 0
    for _ in range(times):
        with tempfile.TemporaryDirectory(prefix="sf-minrerun-") as run_dir:
            env = {k: v for k, v in os.environ.items() if not k.startswith("SCALEFUZZ_")}
            env.update({"SCALEFUZZ_RUN_DIR": run_dir, "SCALEFUZZ_REPLAY_DIR": schedule_dir, "MPIEXEC_TIMEOUT": "60"})
            proc = subprocess.run(["mpiexec", "-n", str(ranks), "-genv", "LD_PRELOAD", lib] + argv, env=env,
                                  capture_output=True, text=True)
            failed += bool(re.search(pattern, proc.stderr)) or proc.returncode != 0
    return failed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--budget", type=int, default=20)
    ap.add_argument("--times", type=int, default=10)
    ap.add_argument("--out", default="/tmp/scalefuzz-explore-minimal")
    ap.add_argument("--programs", default=",".join(PROGRAMS))
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    scalefuzz = os.path.join(build, "scalefuzz")
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for program in a.programs.split(","):
        binary, ranks, args, pattern = PROGRAMS[program]
        binary = os.path.join(build, "scenarios", binary)
        out = os.path.join(a.out, program)
        shutil.rmtree(out, ignore_errors=True)
        path = out + ".yaml"
        with open(path, "w") as f:
            f.write(campaign(program, binary, ranks, args, pattern, a.budget))
        proc = subprocess.run([scalefuzz, "run", path, "--out", out], capture_output=True, text=True)
        if proc.returncode not in (0, 1):
            sys.exit(f"{program}: scalefuzz run exited {proc.returncode}:\n{proc.stderr[-2000:]}")
        with open(os.path.join(out, "findings.json")) as f:
            findings = json.load(f)["findings"]
        harmful = [f for f in findings if f.get("kind") == "harmful-race"]
        row = {"program": program, "harmful": len(harmful), "receive": "", "minimal": 0, "replay": "-",
               "rerun": "-", "base_outcome": "", "outcome": ""}
        shrunk = [f for f in harmful if f["details"].get("minimal_replay_argv")]
        if harmful:
            d = harmful[0]["details"]
            row["receive"] = harmful[0]["title"][:70]
            row["base_outcome"], row["outcome"] = d.get("base_outcome", ""), d.get("outcome", "")
        if shrunk:
            d = shrunk[0]["details"]
            row["minimal"] = len([s for s in d["minimal_schedule"] if not s.startswith("(")])
            argv = d["minimal_replay_argv"] + ["--times", str(a.times)]
            rep = subprocess.run(argv, capture_output=True, text=True)
            m = re.findall(r"reproduced (\d+/\d+)", rep.stdout + rep.stderr)
            row["replay"] = m[-1] if m else f"error (exit {rep.returncode}): {(rep.stdout + rep.stderr)[-200:]}"
            schedule = os.path.join(d["minimal_replay_argv"][-1], "schedule")
            row["rerun"] = f"{rerun_schedule(build, schedule, ranks, [binary] + args, pattern, a.times)}/{a.times}"
            row["minimal_schedule"] = d["minimal_schedule"]
        rows.append(row)
        print(f"{program:22} harmful {row['harmful']}  {row['base_outcome']} -> {row['outcome']}  minimal "
              f"{row['minimal']}  replay {row['replay']}  rerun {row['rerun']}  {row['receive']}", flush=True)
    json.dump(rows, open(os.path.join(a.out, "minimal_replay.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
