#!/usr/bin/env python3
"""Race exposure and detector recall on scenarios/races (issue 14).

For each scenario and cell (ranks, compute (matching_race: sleep) between
exchanges, message size)
it writes one campaign and runs it with `scalefuzz run` (real mpiexec, the
injector preloaded): noise none, random, system, application, and each of
them + 10 us of tool overhead (the `overhead` knob), TRIALS repetitions.
Then, per mode, from the run store:

- wrong: trials whose program saw a wrong match (its own check: "wrong match
  at loop N" on stderr). The programs count wrong matches here (--on-wrong
  count) instead of aborting, so that system runs finish and write the
  analysis application runs read (as in the paper, which took it from
  system runs that did not crash);
- median first loop of those;
- recall: of those trials, how many got an Error race finding (findings.json);
- errors on runs without a wrong match (false alarms);
- potential-race Warnings (from the quiet runs).

Safe twins (--safe) and the benign program must show 0 wrong matches and no
Error race finding; their time per iteration under system noise relative to
none (median over trials, side by side in this run) is the overhead row.

Usage: races_suite.py BUILD_DIR [--trials N] [--cells quick|full] [--modes M,...]
       [--scenarios matching_race,same_site_race,cross_iteration_race,benign_wildcard] [--out DIR]
Commands are argv lists; nothing goes through a shell.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

MODES = [
    ("none", "{ mode: none }"),
    ("random", "{ mode: random, probability: 0.5, delay: 2ms }"),
    ("system", "{ mode: system }"),
    ("application", "{ mode: application }"),
    ("none+10us", "{ mode: none, overhead: 10us }"),
    ("random+10us", "{ mode: random, probability: 0.5, delay: 2ms, overhead: 10us }"),
    ("system+10us", "{ mode: system, overhead: 10us }"),
    ("application+10us", "{ mode: application, overhead: 10us }"),
]
OVERHEAD_MODES = ["none", "system"]


def cells(kind):
    # (scenario binary, nprocs, compute_us, bytes, extra args): the textbook
    # race (matching_race, the reference test's shape) and its all-to-all
    # variant (same_site_race) in every cell
    textbook = [(sc, np, c, b, []) for sc in ("matching_race", "same_site_race") for np in (4, 8) for c in (0, 1000)
                for b in (8,)]
    if kind == "full":
        textbook += [(sc, 4, 0, 64, []) for sc in ("matching_race", "same_site_race")]
    return textbook + [("cross_iteration_race", 4, 0, 8, []), ("benign_wildcard", 4, 0, 8, [])]


def campaign_text(name, binary, np, compute, size, variant, trials, modes):
    noise = "\n".join(f"  - {spec}" for label, spec in MODES if label in modes)
    return f"""campaign: {name}
app:
  command: ["{{build}}/scenarios/races_{binary}", "--iterations", "100", "--compute-us", "{compute}",
            "--bytes", "{size}", "--on-wrong", "count", "{variant}"]
  check: {{ stderr-regex: "wrong match at loop" }}
scales: [{np}]
noise:
{noise}
repetitions: {trials}
timeout: 120s
detectors: [races]
scheduler: {{ type: local, jobs: 1 }}
"""


def label_of(spec):
    noise = spec.get("noise", {})
    label = noise.get("mode", "none")
    if "overhead" in noise.get("settings", {}):
        label += "+10us"
    return label


def run_cell(scalefuzz, build, work, binary, np, compute, size, variant, trials, modes, analyze_only=False):
    name = f"races-{binary}-np{np}-c{compute}-b{size}{'-safe' if variant == '--safe' else ''}"
    out = os.path.join(work, name)
    if analyze_only:  # the stored runs of an earlier invocation, detectors rerun
        subprocess.run([scalefuzz, "analyze", out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=3600)
    else:
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(work, exist_ok=True)
        yaml = os.path.join(work, name + ".yaml")
        with open(yaml, "w") as f:
            f.write(campaign_text(name, binary, np, compute, size, variant, trials, modes))
        subprocess.run([scalefuzz, "run", yaml, "--out", out, "--build", build], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=24 * 3600)
    findings = []
    try:
        findings = json.load(open(os.path.join(out, "findings.json"))).get("findings", [])
    except (OSError, ValueError):
        pass
    if isinstance(findings, dict):
        findings = findings.get("findings", [])
    errors, warnings = {}, 0
    for f in findings:
        if f.get("detector") != "races":
            continue
        if f.get("kind") == "unintended-match" and f.get("severity") == "error":
            errors[f.get("run_id")] = errors.get(f.get("run_id"), 0) + 1
        if f.get("kind") == "potential-race":
            warnings += 1
    rows = {}
    runs_dir = os.path.join(out, "runs")
    for run_id in sorted(os.listdir(runs_dir)) if os.path.isdir(runs_dir) else []:
        d = os.path.join(runs_dir, run_id)
        try:
            spec = json.load(open(os.path.join(d, "spec.json")))
            outcome = json.load(open(os.path.join(d, "outcome.json")))
        except (OSError, ValueError):
            continue
        stderr = open(os.path.join(d, "stderr.txt"), errors="replace").read()
        stdout = open(os.path.join(d, "stdout.txt"), errors="replace").read()
        loops = [int(m) for m in re.findall(r"wrong match at loop (\d+)", stderr)]
        per_it = re.search(r"us_per_iteration=([0-9.]+)", stdout)
        rows.setdefault(label_of(spec), []).append({
            "first": min(loops) if loops else None,
            "outcome": outcome.get("kind", outcome.get("outcome", "?")),
            "error": errors.get(run_id, 0) > 0,
            "us": float(per_it.group(1)) if per_it else None,
        })
    return name, rows, warnings


def print_rows(name, rows, warnings, modes):
    print(f"{name}: potential-race warnings {warnings}")
    print(f"  {'mode':18} {'wrong':>7} {'median loop':>11} {'recall':>8} {'false errors':>12}  outcomes")
    for label in modes:
        rs = rows.get(label, [])
        if not rs:
            continue
        hits = [r for r in rs if r["first"] is not None]
        median = f"{statistics.median([r['first'] for r in hits]):.0f}" if hits else "-"
        recall = f"{sum(r['error'] for r in hits)}/{len(hits)}" if hits else "-"
        false = sum(r["error"] for r in rs if r["first"] is None)
        kinds = {}
        for r in rs:
            kinds[r["outcome"]] = kinds.get(r["outcome"], 0) + 1
        print(f"  {label:18} {len(hits):>3}/{len(rs):<3} {median:>11} {recall:>8} {false:>12}  "
              + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build")
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--cells", choices=["quick", "full"], default="full")
    parser.add_argument("--modes", default=",".join(label for label, _ in MODES))
    parser.add_argument("--out", default=None)
    parser.add_argument("--scenarios", default="matching_race,same_site_race,cross_iteration_race,benign_wildcard",
                        help="comma-separated scenarios to run (default all)")
    parser.add_argument("--analyze-only", action="store_true",
                        help="rerun the detectors on the runs stored under --out by an earlier invocation")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    scalefuzz = os.path.join(build, "scalefuzz")
    work = os.path.abspath(args.out or os.path.join(build, "bench", "races_suite"))
    modes = [m for m in args.modes.split(",") if m]
    print(f"races_suite: {args.trials} trials per cell and mode, {os.cpu_count()} cores, runs under {work}, "
          f"load average {open('/proc/loadavg').read().split()[:3]}")
    overhead_rows = []
    for binary, np, compute, size, _ in cells(args.cells):
        if binary not in args.scenarios.split(","):
            continue
        name, rows, warnings = run_cell(scalefuzz, build, work, binary, np, compute, size, "--races", args.trials, modes,
                                    args.analyze_only)
        print_rows(name, rows, warnings, modes)
        if binary == "benign_wildcard":
            continue
        name, rows, warnings = run_cell(scalefuzz, build, work, binary, np, compute, size, "--safe",
                                        max(3, args.trials // 4), OVERHEAD_MODES + ["application"],
                                        args.analyze_only)
        print_rows(name, rows, warnings, OVERHEAD_MODES + ["application"])
        times = {m: [r["us"] for r in rows.get(m, []) if r["us"]] for m in OVERHEAD_MODES}
        if times["none"] and times["system"]:
            ratio = statistics.median(times["system"]) / statistics.median(times["none"])
            overhead_rows.append(f"  {name}: none {statistics.median(times['none']):.0f} us/loop, system "
                                 f"{statistics.median(times['system']):.0f} us/loop ({ratio:.2f}x)")
    print("== safe twins: time per loop under system noise relative to none (medians, side by side) ==")
    for row in overhead_rows:
        print(row)


if __name__ == "__main__":
    main()
