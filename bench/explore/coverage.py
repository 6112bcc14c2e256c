#!/usr/bin/env python3
"""Coverage and verdicts of schedule exploration on the race corpus (issue 30).

For each corpus program (PROGRAMS: scenarios/races and scenarios/replay,
the racy variant; with --twins the correct twin too) it runs, side by side
at one run budget B:

- exploration: a campaign with noise none, one run, `explore: {budget: B-1}`
  (the quiet base run plus at most B-1 forced runs);
- random noise and application-centric noise: B runs each (the application
  campaign also has one system-centric run per repetition, whose ninja/
  analysis it reads; those runs are not counted in its budget but their
  tuples count: an advantage for noise).

From each campaign's findings.json it takes the races detector's
match-coverage finding (distinct match tuples seen over all runs of the
point, forced runs included) and the race verdicts, and from its runs how
many failed the program's check. It prints one row per program, the totals
of distinct tuples over the racy programs per technique, and the ratios
exploration / random and exploration / application.

Usage: coverage.py BUILD_DIR [--budget B] [--out DIR] [--programs a,b,...] [--twins]
Every command is an argv list (no shell); MPI campaigns are run one at a time.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

# The race corpus: program -> (binary under BUILD/scenarios, ranks, argv
# after the binary, racy variant, correct twin, the campaign's check).
# Small sizes so one run takes well under a second on a loaded 2-core
# machine. The scenarios/races programs count their wrong matches
# (--on-wrong count) instead of aborting at the first: a quiet base run that
# went wrong still shows the other sender's message, which exploration then
# forces (the root cause).
RACES_CHECK = "wrong match at loop"
REPLAY_CHECK = "wrong result"


def races(ranks, iterations, *extra):
    """A scenarios/races program: --races, its --safe twin, counting wrong matches."""
    return (ranks, ["--iterations", str(iterations), *extra, "--on-wrong", "count"], "--races", "--safe", RACES_CHECK)


PROGRAMS = {
    "races_matching_race": races(4, 4, "--print-loops", "0"),
    "races_same_site_race": races(3, 6),
    "races_cross_iteration_race": races(3, 6),
    "races_task_pool": races(3, 6),
    # a correct program: its default receives with MPI_ANY_SOURCE in any
    # order (--races), its twin in rank order
    "races_benign_wildcard": races(3, 6),
    # 8 rounds x 3 answers, arrival order skewed by 2 ms per worker
    "races_first_answer": races(4, 8),
    # compute imbalance of 10 ms per rank step (a slow subtree, a load
    # gradient, a slow checkpoint rank): more than random noise's delays
    "races_tree_reduce": races(4, 4),
    "races_halo_phases": races(4, 4),
    "races_slow_last": races(4, 4),
    # scenarios/replay (issue 29): exit 1 with "wrong result"
    "replay_master_worker": (4, ["--tasks", "12"], "--bug", "--safe", REPLAY_CHECK),
    "replay_halo_any_source": (4, ["--steps", "10"], "--bug", "--safe", REPLAY_CHECK),
    "replay_iprobe_poll": (4, ["--items", "4"], "--bug", "--safe", REPLAY_CHECK),
    "replay_waitany_pipeline": (4, ["--rounds", "3"], "--fold", "--sum", REPLAY_CHECK),
}
CORRECT = {"races_benign_wildcard"}  # no racy variant: not in the ratio
NOISE = {
    "random": "[{ mode: random, probability: 0.5, delay: 2ms }]",
    "application": "[{ mode: system }, { mode: application }]",
}
TECHNIQUES = ("explore", "random", "application")


def campaign(name, binary, ranks, args, variant, check, noise, repetitions, explore_budget):
    command = ", ".join(json.dumps(a) for a in [binary] + args + [variant])
    text = (f"campaign: {name}\napp:\n  command: [{command}]\n"
            f"  check: {{ stderr-regex: {json.dumps(check)} }}\n"
            f"scales: [{ranks}]\nnoise: {noise}\nrepetitions: {repetitions}\ntimeout: 20s\ndetectors: [races]\n")
    if explore_budget:
        text += f"explore: {{ budget: {explore_budget} }}\n"
    return text


def run_campaign(scalefuzz, work, name, text):
    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    path = os.path.join(work, name + ".yaml")
    with open(path, "w") as f:
        f.write(text)
    proc = subprocess.run([scalefuzz, "run", path, "--out", out], capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        sys.exit(f"{name}: scalefuzz run exited {proc.returncode}:\n{proc.stderr[-2000:]}")
    with open(os.path.join(out, "findings.json")) as f:
        return json.load(f)["findings"]


def tuple_key(t):
    """A match tuple as the match-coverage finding names it (sites by name: stable across campaigns of one binary)."""
    return (t["receive_rank"], t["receive_site"], t["send_rank"], t["send_site"], t["tag"])


def summary(findings, out):
    seen, potential = set(), set()
    for f in findings:
        if f.get("detector") == "races" and f.get("kind") == "match-coverage":
            for t in f["details"]["tuples"]:
                potential.add(tuple_key(t))
                if t["state"] == "seen":
                    seen.add(tuple_key(t))
    races = [f for f in findings if f.get("detector") == "races" and f.get("severity") in ("error", "warning")]
    harmful = [f for f in races if f.get("kind") == "harmful-race"]
    # runs of the campaign (not forced ones) whose outcome is not ok: did noise show the bug at all?
    failed = runs = 0
    runs_dir = os.path.join(out, "runs")
    for run in sorted(os.listdir(runs_dir)) if os.path.isdir(runs_dir) else []:
        path = os.path.join(runs_dir, run, "outcome.json")
        if os.path.exists(path):
            runs += 1
            with open(path) as f:
                failed += json.load(f).get("kind") != "ok"
    forced = 0
    for record in glob.glob(os.path.join(out, "explore", "*.json")):
        with open(record) as f:
            forced += json.load(f).get("runs", 0)
    return {"seen": sorted(seen), "potential": sorted(potential),
            "errors": sum(f["severity"] == "error" for f in races),
            "warnings": sum(f["severity"] == "warning" for f in races), "harmful": len(harmful),
            "harmful_title": harmful[0]["title"] if harmful else "", "runs": runs, "failed": failed,
            "forced": forced}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--budget", type=int, default=10)
    ap.add_argument("--out", default="/tmp/scalefuzz-explore-bench")
    ap.add_argument("--programs", default=",".join(PROGRAMS))
    ap.add_argument("--twins", action="store_true", help="also the correct twins (their verdicts; not in the ratio)")
    a = ap.parse_args()
    scalefuzz = os.path.join(a.build, "scalefuzz")
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for program in a.programs.split(","):
        if program not in PROGRAMS:
            sys.exit(f"unknown program '{program}' (known: {', '.join(PROGRAMS)})")
        ranks, args, racy, twin, check = PROGRAMS[program]
        binary = os.path.join(os.path.abspath(a.build), "scenarios", program)
        for variant in [racy, twin] if a.twins else [racy]:
            tag = program + variant.replace("--", "-")
            got = {}
            for mode in TECHNIQUES:
                out = os.path.join(a.out, tag + "-" + mode)
                text = (campaign(tag, binary, ranks, args, variant, check, "[{ mode: none }]", 1, a.budget - 1)
                        if mode == "explore" else
                        campaign(tag, binary, ranks, args, variant, check, NOISE[mode], a.budget, 0))
                got[mode] = summary(run_campaign(scalefuzz, a.out, tag + "-" + mode, text), out)
            rows.append((tag, variant == racy and program not in CORRECT, got))
            print(f"{tag}: " + ", ".join(f"{m} {len(got[m]['seen'])}/{len(got[m]['potential'])}" for m in TECHNIQUES),
                  flush=True)
    print(f"budget {a.budget} runs per program and technique. potential: the union of the potential match tuples "
          "of all three campaigns (each campaign's match-coverage finding); per technique: tuples it saw (of the "
          "potential its own runs showed); miss: potential tuples exploration did not see, of them seen by noise; "
          "failed: campaign runs that failed the check under random/application noise (forced runs not counted); "
          "forced: exploration's forced runs")
    print(f"{'program':30} {'potential':>9} {'explore':>9} {'random':>9} {'application':>11} {'miss(noise)':>11} "
          f"{'failed r/a':>10} {'forced':>6}  verdict (exploration)")
    totals = {m: 0 for m in TECHNIQUES}
    total_potential = 0
    for tag, racy, got in rows:
        union = set().union(*(set(got[m]["potential"]) for m in TECHNIQUES))
        seen = {m: set(got[m]["seen"]) for m in TECHNIQUES}
        missed = union - seen["explore"]
        by_noise = missed & (seen["random"] | seen["application"])
        cells = [f"{len(seen[m])}/{len(got[m]['potential'])}" for m in TECHNIQUES]
        e = got["explore"]
        verdict = (f"harmful-race: {e['harmful_title'][:80]}" if e["harmful"] else
                   f"no harmful race; race errors {e['errors']}, warnings {e['warnings']}")
        failed = f"{got['random']['failed']}/{got['application']['failed']}"
        print(f"{tag:30} {len(union):>9} {cells[0]:>9} {cells[1]:>9} {cells[2]:>11} "
              f"{f'{len(missed)}({len(by_noise)})':>11} {failed:>10} {e['forced']:>6}  {verdict}")
        if racy:
            total_potential += len(union)
            for m in TECHNIQUES:
                totals[m] += len(seen[m])
    for noise in NOISE:
        ratio = totals["explore"] / totals[noise] if totals[noise] else float("inf")
        # The most any technique can reach is every potential tuple: the ratio's ceiling on this corpus.
        ceiling = total_potential / totals[noise] if totals[noise] else float("inf")
        print(f"total over the racy programs: explore {totals['explore']}, {noise} {totals[noise]}: "
              f"ratio {ratio:.2f} (target >= 2; ceiling {ceiling:.2f} with all {total_potential} potential tuples seen)")
    with open(os.path.join(a.out, "coverage.json"), "w") as f:
        json.dump({t: g for t, _, g in rows}, f, indent=1)


if __name__ == "__main__":
    main()
