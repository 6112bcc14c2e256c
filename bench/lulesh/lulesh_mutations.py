#!/usr/bin/env python3
"""LULESH mutations: is each injected MPI error found at its line, at -O3 and -O0?

Copies unmodified LULESH (default ../shared/external/lulesh, relative to the
repository), applies each patch of bench/lulesh/mutations/ to its own copy in
OUT, builds it as LULESH's users do (mpicxx -DUSE_MPI=1 -g -O3, OpenMP off),
runs `scalefuzz run` on it (8 ranks, noise none, default detectors) and
prints mutation x optimization: the kinds of the Error/Warning bugs at the
mutated call's lines, and whether the expected kind is among them. The
unmodified program ("none") is right when it has no Error or Warning bug.

usage: lulesh_mutations.py SCALEFUZZ OUT [--lulesh DIR] [--opt 3,0] [--only NAME,...] [--lock FILE] [--reuse]
Exit: 0 every cell right, 1 some cell wrong, 2 usage error; LULESH absent:
a message and exit 0 (CI has no ../shared).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SOURCES = ["lulesh.cc", "lulesh-comm.cc", "lulesh-viz.cc", "lulesh-util.cc", "lulesh-init.cc"]

# name -> (expected kind, file, first and last line of the mutated call)
MUTATIONS = {
    "allreduce_count": ("buffer-overflow", "lulesh.cc", 186, 188),
    "irecv_count": ("buffer-overflow", "lulesh-comm.cc", 110, 112),
    "isend_count": ("buffer-overflow", "lulesh-comm.cc", 420, 422),
    "reduce_type": ("buffer-type-mismatch", "lulesh.cc", 2770, 2771),
    "isend_type": ("buffer-type-mismatch", "lulesh-comm.cc", 420, 422),
    "member_type": ("buffer-type-mismatch", "lulesh-init.cc", 349, 349),
    "wrong_tag": ("unmatched-send", "lulesh-comm.cc", 420, 422),
}

# -s 7: (7+1)^2 = 64 nodes per plane, a multiple of LULESH's 16-double cache
# padding, so a plane's message fills its slot of the halo buffers exactly
# (at other sizes a count one larger stays inside the padding: not an error
# MPI or anyone can see). 20 iterations keep a run to ~2 s on 2 cores.
CAMPAIGN = """campaign: lulesh_{name}_O{opt}
app:
  command: [{exe}, "-s", "7", "-i", "20"]
  check: exit-code
scales: [8]
noise:
  - {{ mode: none }}
repetitions: 1
timeout: 30s
"""


def build(src, work, name, opt):
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    for f in os.listdir(src):
        if f.endswith((".cc", ".h")):
            shutil.copy(os.path.join(src, f), work)
            os.chmod(os.path.join(work, f), 0o644)
    if name != "none":
        with open(os.path.join(HERE, "mutations", name + ".patch")) as patch:
            subprocess.run(["patch", "-s", "-p1"], stdin=patch, cwd=work, check=True)
    cmd = ["mpicxx", "-DUSE_MPI=1", "-g", "-O" + opt, "-I.", "-w", "-o", "lulesh2.0"] + SOURCES + ["-lm"]
    subprocess.run(cmd, cwd=work, check=True)
    return os.path.join(work, "lulesh2.0")


def location(loc):
    m = re.search(r"([^ /]+):(\d+)$", loc)
    return (m.group(1), int(m.group(2))) if m else (None, None)


def judge(findings_file, name):
    """(kinds at the mutated call, its lines, right?, the other Error/Warning bugs' kinds)."""
    with open(findings_file) as f:
        bugs = [b for b in json.load(f)["bugs"] if b["severity"] in ("error", "warning")]
    if name == "none":
        kinds = sorted({b["kind"] for b in bugs})
        return ("-" if not kinds else ",".join(kinds)), "-", not bugs, "-"
    kind, file, first, last = MUTATIONS[name]
    at_line, lines, elsewhere = set(), set(), set()
    for b in bugs:
        here = False
        for loc in b["locations"]:
            f, line = location(loc)
            if f == file and line is not None and first <= line <= last:
                here = True
                lines.add(line)
        (at_line if here else elsewhere).add(b["detector"] + "/" + b["kind"] if not here else b["kind"])
    found = ",".join(sorted(at_line)) or "(none at the line)"
    return found, ",".join(str(x) for x in sorted(lines)) or "-", kind in at_line, ",".join(sorted(elsewhere)) or "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scalefuzz")
    ap.add_argument("out")
    ap.add_argument("--lulesh", default=os.path.join(REPO, "..", "shared", "external", "lulesh"))
    ap.add_argument("--opt", default="3,0")
    ap.add_argument("--only", default="")
    ap.add_argument("--reuse", action="store_true",
                    help="keep the programs built and the runs finished in OUT: `scalefuzz run` resumes the "
                         "campaign, so only the analysis runs again (with this scalefuzz)")
    ap.add_argument("--lock", default="", help="run each scalefuzz run under flock(1) on this file (builds stay outside)")
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.lulesh, "lulesh-comm.cc")):
        print(f"LULESH not found at {a.lulesh} (pass --lulesh DIR): bench skipped")
        return 0
    names = ["none"] + list(MUTATIONS)
    if a.only:
        names = [n for n in names if n in a.only.split(",")]
    opts = a.opt.split(",")
    rows, all_right = [], True
    for name in names:
        for opt in opts:
            work = os.path.join(os.path.abspath(a.out), f"{name}-O{opt}")
            exe = os.path.join(work, "src", "lulesh2.0")
            if not (a.reuse and os.path.exists(exe)):
                exe = build(a.lulesh, os.path.join(work, "src"), name, opt)
            campaign = os.path.join(work, "campaign.yaml")
            with open(campaign, "w") as f:
                f.write(CAMPAIGN.format(name=name, opt=opt, exe=json.dumps(exe)))
            lock = ["flock", a.lock] if a.lock else []
            run = subprocess.run(lock + [a.scalefuzz, "run", campaign, "--out", os.path.join(work, "out")],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if run.returncode not in (0, 1):
                print(run.stdout[-2000:], file=sys.stderr)
                rows.append((name, opt, f"scalefuzz exit {run.returncode}", "-", False, "-"))
                all_right = False
                continue
            found, lines, right, others = judge(os.path.join(work, "out", "findings.json"), name)
            all_right = all_right and right
            rows.append((name, opt, found, lines, right, others))
            print(f"{name} -O{opt}: {found} line {lines} {'right' if right else 'WRONG'}", file=sys.stderr, flush=True)
    print("| mutation | expected | opt | kinds found at the mutated call | line | right | other Error/Warning bugs |")
    print("|---|---|---|---|---|---|---|")
    for name, opt, found, lines, right, others in rows:
        exp = "no Error/Warning" if name == "none" else f"{MUTATIONS[name][0]} {MUTATIONS[name][1]}:{MUTATIONS[name][2]}"
        print(f"| {name} | {exp} | -O{opt} | {found} | {lines} | {'yes' if right else 'NO'} | {others} |")
    right = sum(1 for r in rows if r[4])
    print(f"\n{right}/{len(rows)} right")
    return 0 if all_right else 1


if __name__ == "__main__":
    sys.exit(main())
