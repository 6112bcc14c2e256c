#!/usr/bin/env python3
"""RMARaceBench's MPI one-sided race tests through scalefuzz (issue 33).

Compiles every test of ../shared/external/rmaracebench/MPIRMA/<folder>/
(mpicc -g -O0; `hybrid` with -fopenmp), runs them in batched `scalefuzz run`
campaigns (one per NPROCS of the tests' JSON headers, the program as a
parameter) under {mode: none, guard_windows: true} with the detectors
[rma, usage], and prints per folder: true/false positives and negatives,
precision and recall. A test is reported racy when it has an `rma` finding
of a race kind (rma-conflict, rma-origin-buffer); the verdict is the file
name's (-yes.c / -no.c; the JSON header's RACE_PAIR says where). "line"
counts the reported races naming one of RACE_PAIR's two lines.

usage: rmaracebench.py SCALEFUZZ WORK_DIR [--suite DIR] [--only REGEX] [--skip-hybrid]
       [--timeout S] [--jobs N] [--json FILE] [--min-precision X] [--min-recall X]
Exit: 0 ok, 1 below --min-precision/--min-recall, 2 usage, 3 scalefuzz failed,
77 when the suite folder is absent (ctest SKIP_RETURN_CODE).
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corrbench"))
from corrbench import lines_named, run_campaigns  # noqa: E402  (one campaign runner for both suites)

FOLDERS = ["atomic", "conflict", "hybrid", "misc", "sync"]
RACE_KINDS = {"rma-conflict", "rma-origin-buffer"}
LABELS = re.compile(r"// RACE LABELS BEGIN\s*/\*(.*?)\*/\s*// RACE LABELS END", re.S)


def tests(suite, only):
    out = []
    for folder in FOLDERS:
        d = os.path.join(suite, folder)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if not f.endswith(".c") or not re.search(only, f):
                continue
            path = os.path.join(d, f)
            text = open(path, errors="replace").read()
            m = LABELS.search(text)
            if not m:
                sys.exit(f"{path}: no RACE LABELS block")
            labels = json.loads(m.group(1))
            verdict = f.endswith("-yes.c")
            if verdict != (len(labels.get("RACE_PAIR", [])) > 0):
                sys.exit(f"{path}: file name and RACE_PAIR disagree")
            lines = {int(p.rsplit("@", 1)[1]) for p in labels.get("RACE_PAIR", [])}
            out.append({"folder": folder, "name": f, "path": path, "race": verdict, "lines": lines,
                        "nprocs": int(labels.get("NPROCS", 2)), "kind": labels.get("RACE_KIND", "")})
    for i, t in enumerate(out):
        t["id"] = "p%03d" % i
        t["ranks"] = t["nprocs"]
    return out


def build(ts, bindir):
    os.makedirs(bindir, exist_ok=True)
    for t in ts:
        exe = os.path.join(bindir, t["id"])
        t["exe"] = exe
        if os.path.exists(exe) and os.path.getmtime(exe) >= os.path.getmtime(t["path"]):
            t["built"] = True
            continue
        flags = ["-fopenmp"] if t["folder"] == "hybrid" else []
        r = subprocess.run(["mpicc", "-g", "-O0", "-w", *flags, "-o", exe, t["path"]],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        t["built"] = r.returncode == 0
        t["build_log"] = r.stdout[-400:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scalefuzz")
    ap.add_argument("work")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--suite", default=os.path.join(here, "..", "..", "..", "shared", "external", "rmaracebench", "MPIRMA"))
    ap.add_argument("--only", default="")
    ap.add_argument("--skip-hybrid", action="store_true")
    ap.add_argument("--timeout", type=int, default=30)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json")
    ap.add_argument("--min-precision", type=float)
    ap.add_argument("--min-recall", type=float)
    a = ap.parse_args()
    if not os.path.isdir(a.suite):
        print(f"skipped: {a.suite} not found")
        return 77
    ts = tests(a.suite, a.only)
    if a.skip_hybrid:
        ts = [t for t in ts if t["folder"] != "hybrid"]
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    build(ts, os.path.join(work, "bin"))
    findings = run_campaigns(a.scalefuzz, ts, work, a.jobs, a.timeout, "rma, usage", guard_windows=True,
                             name_prefix="rmaracebench")
    rows, details = {}, []
    for t in ts:
        fs = findings.get(t["id"], [])
        races = [f for f in fs if f["detector"] == "rma" and f["kind"] in RACE_KINDS]
        said = bool(races)
        r = rows.setdefault(t["folder"], {"n": 0, "built": 0, "tp": 0, "fp": 0, "tn": 0, "fn": 0, "line": 0})
        r["n"] += 1
        r["built"] += t["built"]
        key = ("tp" if said else "fn") if t["race"] else ("fp" if said else "tn")
        r[key] += 1
        named = set().union(*[lines_named(f, t["path"]) for f in races]) if races else set()
        r["line"] += bool(t["race"] and said and named & t["lines"])
        details.append({"test": f"{t['folder']}/{t['name']}", "race": t["race"], "reported": said, "built": t["built"],
                        "kinds": sorted({f["kind"] for f in fs}), "lines": sorted(named),
                        "expected_lines": sorted(t["lines"]), "titles": [f["title"] for f in races][:2]})
    total = {k: sum(r[k] for r in rows.values()) for k in ("n", "built", "tp", "fp", "tn", "fn", "line")}

    def ratio(x, y):
        return x / y if y else float("nan")

    print(f"{'folder':10} {'tests':>5} {'built':>5} {'TP':>3} {'FP':>3} {'TN':>3} {'FN':>3} {'precision':>9} {'recall':>6} {'line':>4}")
    for name, r in sorted(rows.items()) + [("all", total)]:
        print(f"{name:10} {r['n']:5} {r['built']:5} {r['tp']:3} {r['fp']:3} {r['tn']:3} {r['fn']:3} "
              f"{ratio(r['tp'], r['tp'] + r['fp']):9.3f} {ratio(r['tp'], r['tp'] + r['fn']):6.3f} {r['line']:4}")
    for d in details:
        if d["race"] != d["reported"]:
            print(f"  {'missed' if d['race'] else 'false alarm'}: {d['test']} (kinds {d['kinds']}) {'; '.join(d['titles'])}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows, "total": total, "details": details}, f, indent=1)
    precision = ratio(total["tp"], total["tp"] + total["fp"])
    recall = ratio(total["tp"], total["tp"] + total["fn"])
    if (a.min_precision is not None and not precision >= a.min_precision) or (
            a.min_recall is not None and not recall >= a.min_recall):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
