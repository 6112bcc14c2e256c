#!/usr/bin/env python3
"""Runs the usage corpus (scenarios/usage/*.c; with --folder rma the one-sided
corpus scenarios/rma/*.c, issue 33) through `scalefuzz run` and checks every
program's expected finding (issue 21).

Each program's header holds "ranks: N", optionally "mode: zero-buffer" or
"mode: guard-receives" or "mode: guard-windows" (the campaign's noise
profile is then {mode: none, zero_buffer: true}, {mode: none,
guard_receives: true} or {mode: none, guard_windows: true}), and
"expect: KIND rank R line L [severity S]" (R may be "0|1": any of those ranks, for a
symmetric error whose first reporter aborts the job; with a severity, the
finding must have it), "expect: clean", or "expect: none of KIND KIND ..."
(a program that fails on purpose, e.g. by MPI_Abort: it passes when no
finding of those kinds is reported).
Programs are batched into one
campaign per (ranks, mode) with the program as a parameter. An erroneous
program passes when a finding of KIND names rank R at line L of that program
(any side of the finding); a clean program passes when it has no finding of
severity error or warning. "twin: NAME -DMACRO" adds the correct twin NAME,
built from the same source with MACRO defined. Prints per-program results, recall and
specificity; exits 1 when any program fails (or recall < --min-recall).

usage: usage_corpus.py SCALEFUZZ SOURCE_DIR BUILD_DIR WORK_DIR [--only REGEX] [--folder usage|rma]
       [--detectors 'usage, mpipd, pdg'] [--mpi mpich|openmpi]
"""
import argparse
import json
import os
import re
import subprocess
import sys

HEADER = re.compile(r"^\s*\*\s*(ranks|mode|expect|twin):\s*(.+?)\s*$")
TWIN = re.compile(r"^(\w+) -D(\w+)$")
MODES = ("none", "zero-buffer", "guard-receives", "guard-windows")
EXPECT = re.compile(r"^(\S+) rank (\d+(?:\|\d+)*) line (\d+)(?: severity (info|warning|error))?$")
NONE_OF = re.compile(r"^none of ((?:[a-z-]+ ?)+)$")


def read_corpus(src, sub):
    corpus = []
    folder = os.path.join(src, "scenarios", sub)
    for name in sorted(os.listdir(folder)):
        if not name.endswith((".c", ".cpp")):  # .cpp: C++ built -O3 (scenarios/usage/CMakeLists.txt)
            continue
        meta = {"name": name.rsplit(".", 1)[0], "source": name, "ranks": 2, "mode": "none", "expect": None}
        with open(os.path.join(folder, name)) as f:
            for line in f:
                m = HEADER.match(line)
                if m:
                    meta[m.group(1)] = int(m.group(2)) if m.group(1) == "ranks" else m.group(2)
                if line.startswith(" */"):
                    break
        if meta["mode"] not in MODES:
            sys.exit(f"{folder}/{name}: unknown mode {meta['mode']!r} (expected one of {', '.join(MODES)})")
        if meta["expect"] is None:
            sys.exit(f"{folder}/{name}:1: no 'expect:' line in the header")
        if "twin" in meta:
            # "twin: NAME -DMACRO": a correct twin built from this source
            # with MACRO defined (scenarios/usage/CMakeLists.txt).
            t = TWIN.match(meta.pop("twin"))
            if not t:
                sys.exit(f"{folder}/{name}: bad twin line (expected 'twin: NAME -DMACRO')")
            corpus.append({"name": t.group(1), "file": meta["name"], "source": name, "ranks": meta["ranks"],
                           "mode": meta["mode"], "expect": "clean"})
        if NONE_OF.match(meta["expect"]):
            meta["forbidden"] = set(NONE_OF.match(meta["expect"]).group(1).split())
        elif meta["expect"] != "clean":
            m = EXPECT.match(meta["expect"])
            if not m:
                sys.exit(f"{folder}/{name}: bad expect line {meta['expect']!r}")
            meta["kind"], meta["line"], meta["severity"] = m.group(1), int(m.group(3)), m.group(4)
            # "rank 0|1": the program is symmetric and whichever rank MPI
            # reports first aborts the job, so any of them is the right one.
            meta["rank"] = m.group(2)
            meta["ranks_ok"] = {int(r) for r in m.group(2).split("|")}
        corpus.append(meta)
    return corpus


def campaign_text(name, ranks, mode, progs, build, sub, detectors, mpi="mpich"):
    noise = {"zero-buffer": "{ mode: none, zero_buffer: true }",
             "guard-receives": "{ mode: none, guard_receives: true }",
             "guard-windows": "{ mode: none, guard_windows: true }"}.get(mode, "{ mode: none }")
    return "\n".join([
        f"campaign: {name}",
        "app:",
        f'  command: ["{build}/scenarios/{"openmpi/" if mpi == "openmpi" else ""}{sub}/{{prog}}"]',
        "  check: exit-code",
        *([f"mpi: {mpi}"] if mpi != "mpich" else []),
        f"scales: {{ test: [{ranks}] }}",
        "parameters: { prog: [" + ", ".join(progs) + "] }",
        "noise:",
        f"  - {noise}",
        "repetitions: 1",
        "timeout: 15s",
        f"detectors: [{detectors}]",
        "scheduler: { type: local, jobs: 2 }",
        ""])


def sides_of(f):
    for s in f.get("details", {}).get("sides", []):
        yield s.get("rank"), s.get("code", {}).get("line"), s.get("code", {}).get("file", "")
    code = f.get("details", {}).get("code")
    if isinstance(code, dict):
        yield code.get("rank"), code.get("line"), code.get("file", "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scalefuzz")
    ap.add_argument("src")
    ap.add_argument("build")
    ap.add_argument("work")
    ap.add_argument("--only", default="")
    ap.add_argument("--min-recall", type=float, default=1.0)
    ap.add_argument("--folder", default="usage", choices=["usage", "rma"])
    ap.add_argument("--detectors", default="usage, mpipd, pdg")
    # openmpi: the corpus built against Open MPI (scenarios/openmpi/FOLDER,
    # cmake/ScalefuzzTargets.cmake), run by mpirun.openmpi (campaign key mpi: openmpi).
    ap.add_argument("--mpi", default="mpich", choices=["mpich", "openmpi"])
    a = ap.parse_args()
    corpus = [p for p in read_corpus(a.src, a.folder) if re.search(a.only, p["name"])]
    os.makedirs(a.work, exist_ok=True)
    groups = {}
    for p in corpus:
        groups.setdefault((p["ranks"], p["mode"]), []).append(p)
    findings = {}  # prog -> list
    for (ranks, mode), progs in sorted(groups.items()):
        name = f"{a.folder}-corpus-np{ranks}-{mode}"
        path = os.path.join(a.work, name + ".yaml")
        with open(path, "w") as f:
            f.write(campaign_text(name, ranks, mode, [p["name"] for p in progs], a.build, a.folder, a.detectors,
                                   a.mpi))
        out = os.path.join(a.work, name)
        subprocess.run(["rm", "-rf", out], check=True)
        log = open(os.path.join(a.work, name + ".log"), "w")
        rc = subprocess.run([a.scalefuzz, "run", path, "--out", out], stdout=log, stderr=subprocess.STDOUT).returncode
        if rc not in (0, 1):
            print(f"FAIL: scalefuzz run {path} exited {rc} (log {log.name})")
            return 1
        with open(os.path.join(out, "findings.json")) as f:
            data = json.load(f)
        for fnd in data["findings"]:
            m = re.search(r"prog([A-Za-z0-9_]+)", fnd.get("run_id", ""))
            if m:
                findings.setdefault(m.group(1), []).append(fnd)
    tp = fn = tn = fp = 0
    failed = []
    for p in corpus:
        fs = findings.get(p["name"], [])
        serious = [f for f in fs if f["severity"] in ("error", "warning") and f["detector"] != "outcome"]
        if "forbidden" in p:
            bad = [f for f in fs if f["kind"] in p["forbidden"]]
            ok = not bad
            tn += ok
            fp += not ok
            what = ("none of " + " ".join(sorted(p["forbidden"]))) if ok else "false alarm: " + "; ".join(
                f["title"] for f in bad)
        elif p["expect"] == "clean":
            ok = not serious and not [f for f in fs if f["detector"] == "outcome"]
            tn += ok
            fp += not ok
            what = "clean" if ok else "false alarm: " + "; ".join(f["title"] for f in fs)
        else:
            hit = [f for f in fs if f["kind"] == p["kind"] and p["severity"] in (None, f["severity"]) and any(
                r in p["ranks_ok"] and l == p["line"] and f_.endswith(p["source"]) for r, l, f_ in sides_of(f))]
            ok = bool(hit)
            tp += ok
            fn += not ok
            sev = f" severity {p['severity']}" if p["severity"] else ""
            what = (f"{p['kind']} rank {p['rank']} line {p['line']}{sev}" if ok else
                    f"MISSED {p['kind']} rank {p['rank']} line {p['line']}{sev}; got: " +
                    "; ".join(f"{f['kind']} ({f['severity']}) ranks {f.get('ranks')} at {f.get('location', '')}"
                              for f in fs if f["detector"] != "outcome"))
        print(f"{'ok  ' if ok else 'FAIL'} {p['name']}: {what}")
        if not ok:
            failed.append(p["name"])
    recall = tp / (tp + fn) if tp + fn else 1.0
    spec = tn / (tn + fp) if tn + fp else 1.0
    print(f"corpus: {tp}/{tp + fn} erroneous found with the right kind, rank and line (recall {recall:.2f}); "
          f"{tn}/{tn + fp} correct programs clean (specificity {spec:.2f})")
    return 0 if not failed or (recall >= a.min_recall and spec == 1.0 and a.min_recall < 1.0) else 1


if __name__ == "__main__":
    sys.exit(main())
