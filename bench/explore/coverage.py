#!/usr/bin/env python3
"""Coverage and verdicts of schedule exploration on the race corpus (issue 30).

For each corpus program (scenarios/races, racy default and --safe twins) it
runs, side by side at one run budget B:

- exploration: a campaign with noise none, one run, `explore: {budget: B-1}`
  (the quiet base run plus at most B-1 forced runs);
- random noise and application-centric noise: B runs each (the application
  campaign also has one system-centric run per repetition, whose ninja/
  analysis it reads; those runs are not counted in its budget but their
  tuples count: an advantage for noise).

The programs count their wrong matches (--on-wrong count, the campaign's
check a regex on stderr) instead of aborting at the first: a quiet base run
that went wrong still shows the other sender's message, which exploration
then forces (the root cause).

From each campaign's findings.json it takes the races detector's
match-coverage finding (distinct match tuples seen over all runs of the
point, forced runs included) and the race verdicts: harmful-race Errors of
exploration, unintended-match Errors, Error/Warning race findings on the
--safe twins (false alarms). It prints one row per program and the ratio of
distinct tuples, exploration / noise.

Usage: coverage.py BUILD_DIR [--budget B] [--out DIR] [--programs a,b,...]
Every command is an argv list (no shell); MPI campaigns are run one at a time.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

# program -> (ranks, argv after the binary): small sizes so one run takes
# well under a second on a loaded 2-core machine.
PROGRAMS = {
    "matching_race": (4, ["--iterations", "4", "--print-loops", "0"]),
    "same_site_race": (3, ["--iterations", "6"]),
    "cross_iteration_race": (3, ["--iterations", "6"]),
    "task_pool": (3, ["--iterations", "6"]),
    "benign_wildcard": (3, ["--iterations", "6"]),
    # many wildcard receives (8 rounds x 3 answers), arrival order skewed by
    # 2 ms per worker: the first receive takes worker 1 unless forced
    "first_answer": (4, ["--iterations", "8"]),
}
# benign_wildcard's default program is the wildcard one whose order never
# matters (--safe receives in rank order): a correct program, not a race.
TWINS = {"benign_wildcard": ["--races"]}
NOISE = {
    "random": "[{ mode: random, probability: 0.5, delay: 2ms }]",
    "application": "[{ mode: system }, { mode: application }]",
}


def campaign(name, binary, ranks, args, variant, noise, repetitions, explore_budget):
    command = ", ".join(json.dumps(a) for a in [binary] + args + ["--on-wrong", "count", variant])
    text = (f"campaign: {name}\napp:\n  command: [{command}]\n"
            "  check: { stderr-regex: \"wrong match at loop\" }\n"
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


def summary(findings):
    seen = potential = 0
    for f in findings:
        if f.get("detector") == "races" and f.get("kind") == "match-coverage":
            seen = max(seen, f["details"]["seen"])
            potential = max(potential, f["details"]["potential"])
    races = [f for f in findings if f.get("detector") == "races" and f.get("severity") in ("error", "warning")]
    harmful = [f for f in races if f.get("kind") == "harmful-race"]
    return {"seen": seen, "potential": potential, "errors": sum(f["severity"] == "error" for f in races),
            "warnings": sum(f["severity"] == "warning" for f in races), "harmful": len(harmful),
            "harmful_title": harmful[0]["title"] if harmful else ""}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--budget", type=int, default=10)
    ap.add_argument("--out", default="/tmp/scalefuzz-explore-bench")
    ap.add_argument("--programs", default=",".join(PROGRAMS))
    a = ap.parse_args()
    scalefuzz = os.path.join(a.build, "scalefuzz")
    os.makedirs(a.out, exist_ok=True)
    rows, ratios = [], []
    for program in a.programs.split(","):
        ranks, args = PROGRAMS[program]
        binary = os.path.join(os.path.abspath(a.build), "scenarios", "races_" + program)
        for variant in TWINS.get(program, ["--races", "--safe"]):
            tag = program + variant.replace("--", "-")
            got = {"explore": summary(run_campaign(scalefuzz, a.out, tag + "-explore",
                                                   campaign(tag, binary, ranks, args, variant, "[{ mode: none }]", 1,
                                                            a.budget - 1)))}
            for mode, noise in NOISE.items():
                got[mode] = summary(run_campaign(scalefuzz, a.out, tag + "-" + mode,
                                                 campaign(tag, binary, ranks, args, variant, noise, a.budget, 0)))
            rows.append((tag, got))
            if variant == "--races" and program not in TWINS:
                best_noise = max(got["random"]["seen"], got["application"]["seen"])
                ratios.append(got["explore"]["seen"] / best_noise if best_noise else float("inf"))
    print(f"budget {a.budget} runs per program and technique; distinct match tuples seen (of potential)")
    print(f"{'program':34} {'explore':>12} {'random':>12} {'application':>12}  verdict (exploration)")
    for tag, got in rows:
        cells = [f"{got[m]['seen']}/{got[m]['potential']}" for m in ("explore", "random", "application")]
        e = got["explore"]
        verdict = (f"harmful-race: {e['harmful_title'][:90]}" if e["harmful"] else
                   f"no harmful race; race errors {e['errors']}, warnings {e['warnings']}")
        print(f"{tag:34} {cells[0]:>12} {cells[1]:>12} {cells[2]:>12}  {verdict}")
    if ratios:
        print("ratio explore / best noise per racy program: " + ", ".join(f"{r:.2f}" for r in ratios))
    json.dump({t: g for t, g in rows}, open(os.path.join(a.out, "coverage.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
