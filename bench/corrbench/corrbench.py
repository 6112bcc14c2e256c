#!/usr/bin/env python3
"""MPI-CorrBench level-0 through scalefuzz (issue 21).

Compiles every program of ../shared/external/mpi-corrbench (282 erroneous in
coll/, conflo/, pt2pt/, usertypes/; 130 correct in correct/), runs them in
batched `scalefuzz run` campaigns (one per rank count, the program as a
parameter), and prints per error class (ArgError, ArgMismatch, MisplacedCall,
MissingCall, from the file name) how many programs got any error/warning
finding, how many a finding of the right kind, how many a finding naming the
stated line (+-1, the README says it is sometimes one off), and the false
alarms on the correct programs. Programs of conflo/rma (one-sided,
detectors/rma since issue 33) are listed separately. The erroneous programs run with 2 ranks;
the correct ones (from MPICH's test suite) with the process count MPICH's own
test lists give them (mpich_nprocs.txt, source named there; 4 where those
lists do not name the program); programs marked "skip" there are reported as
not run.

usage: corrbench.py SCALEFUZZ WORK_DIR [--corrbench DIR] [--subset N] [--only REGEX]
       [--min-recall X] [--no-false-alarms] [--json FILE] [--timeout S] [--jobs N]
       [--detectors 'usage, rma, mpipd, pdg'] [--max-ranks N] [--zero-buffer] [--guard-receives] [--guard-windows]
       [--explore BUDGET] [--mpi mpich|openmpi|both] [--same-verdicts]
Exit: 0 ok, 1 below --min-recall or a false alarm (with --min-recall or
--no-false-alarms), 2 usage,
77 when the corrbench folder is absent (ctest SKIP_RETURN_CODE).
"""
import argparse
import copy
import json
import os
import re
import shutil
import subprocess
import sys

CLASSES = ["ArgError", "ArgMismatch", "MisplacedCall", "MissingCall"]
# Finding kinds that name the error class (usage, MPI-PD/PDG, outcome).
RIGHT_KINDS = {
    "ArgError": {"mpi-error", "aliased-buffers", "overlapping-buffers", "type-mismatch", "collective-type-mismatch",
                 "collective-root-mismatch", "collective-op-mismatch", "invalid-argument", "buffer-overflow",
                 "buffer-type-mismatch"},
    "ArgMismatch": {"type-mismatch", "collective-type-mismatch", "collective-root-mismatch", "collective-op-mismatch",
                    "overlapping-buffers", "mpi-error", "unmatched-send", "deadlock", "pending-request",
                    "buffer-overflow", "buffer-type-mismatch"},
    "MisplacedCall": {"mpi-error", "deadlock", "potential-deadlock", "collective-order-mismatch", "collective-missing", "pending-request",
                      "buffer-modified", "receive-buffer-written", "missing-finalize", "waits-for-finalized"},
    "MissingCall": {"pending-request", "potential-deadlock", "unmatched-send", "missing-finalize", "leaked-handle", "leaked-request",
                    "collective-missing", "deadlock", "mpi-error", "waits-for-finalized"},
}
# One-sided kinds (detectors/rma, issue 33) by the class they diagnose.
RIGHT_KINDS["ArgError"] |= {"rma-out-of-window", "rma-type-mismatch", "rma-sync-misuse", "leaked-window",
                            "rma-overlapping-windows"}
RIGHT_KINDS["ArgMismatch"] |= {"rma-type-mismatch", "rma-out-of-window"}
RIGHT_KINDS["MisplacedCall"] |= {"rma-outside-epoch", "rma-unmatched-sync", "rma-origin-buffer", "rma-free-in-epoch",
                                 "rma-conflict", "rma-sync-misuse", "rma-window-memory-freed"}
RIGHT_KINDS["MissingCall"] |= {"rma-outside-epoch", "rma-unmatched-sync", "rma-free-in-epoch", "leaked-window"}
STATED_LINE = re.compile(r"line[s]?\s*:?\s*(\d+)", re.I)


def mpich_nprocs():
    """folder/program -> nprocs (int) or a reason string for programs not run."""
    table = {}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mpich_nprocs.txt")
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            words = line.split(None, 2)
            if len(words) < 2:
                sys.exit(f"{path}:{number}: expected '<folder/program> <nprocs | skip> [reason]'")
            table[words[0]] = (" ".join(words[2:]).strip() or "skip") if words[1] == "skip" else int(words[1])
    return table


def programs(root):
    nprocs = mpich_nprocs()
    base = os.path.join(root, "micro-benches", "0-level")
    out = []
    for dirpath, _, files in os.walk(base):
        rel = os.path.relpath(dirpath, base)
        if rel.startswith("correct/include"):
            continue
        for f in sorted(files):
            if not f.endswith(".c"):
                continue
            path = os.path.join(dirpath, f)
            cls = next((c for c in CLASSES if f.startswith(c)), None)
            correct = rel.startswith("correct")
            if not correct and cls is None:
                continue
            with open(path, errors="replace") as fh:
                text = fh.read()
            m = re.search(r"/\*(.*?)\*/", text, re.S)
            line = None
            if m and not correct:
                lm = STATED_LINE.search(m.group(1))
                line = int(lm.group(1)) if lm else None
            ranks = 2
            skip = None
            if correct:
                n = nprocs.get(os.path.join(rel[len("correct/"):], f[:-2]), 4)
                ranks, skip = (n, None) if isinstance(n, int) else (0, n)
            out.append({"path": path, "rel": os.path.join(rel, f), "class": "correct" if correct else cls,
                        "rma": rel.startswith("conflo/rma"), "line": line, "ranks": ranks, "skip": skip,
                        "include": os.path.join(base, "correct", "include")})
    out.sort(key=lambda p: p["rel"])
    for i, p in enumerate(out):
        p["id"] = "p%03d" % i
    return out


# The compiler and campaign key of each MPI (issue 31): Debian's mpicc is
# MPICH's (the alternatives pinned by ci/setup.sh), mpicc.openmpi Open MPI's.
COMPILERS = {"mpich": "mpicc", "openmpi": "mpicc.openmpi"}


def compile_all(progs, bindir, cc="mpicc"):
    os.makedirs(bindir, exist_ok=True)
    for p in progs:
        if p["skip"]:
            p["built"] = False
            continue
        exe = os.path.join(bindir, p["id"])
        p["exe"] = exe
        if os.path.exists(exe) and os.path.getmtime(exe) >= os.path.getmtime(p["path"]):
            p["built"] = True
            continue
        r = subprocess.run([cc, "-g", "-O0", "-w", "-I", p["include"], "-o", exe, p["path"], "-lm"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        p["built"] = r.returncode == 0
        p["build_log"] = r.stdout[-400:]


def run_campaigns(scalefuzz, progs, work, jobs, timeout, detectors, zero_buffer=False, guard_receives=False,
                  guard_windows=False, name_prefix="corrbench", explore_budget=0, mpi="mpich", bin_name="bin"):
    """One `scalefuzz run` per rank count (programs: dicts with id "p123",
    ranks, built); returns id -> findings. bench/rma/rmaracebench.py uses it too."""
    findings = {}
    groups = {}
    for p in progs:
        if p["built"]:
            groups.setdefault(p["ranks"], []).append(p)
    for ranks, group in sorted(groups.items()):
        name = f"{name_prefix}-np{ranks}"
        yaml = os.path.join(work, name + ".yaml")
        with open(yaml, "w") as f:
            f.write("\n".join([
                f"campaign: {name}",
                "app:",
                f'  command: ["{work}/{bin_name}/{{prog}}"]',
                "  check: exit-code",
                *([f"mpi: {mpi}"] if mpi != "mpich" else []),
                f"scales: {{ test: [{ranks}] }}",
                "parameters: { prog: [" + ", ".join(p["id"] for p in group) + "] }",
                "noise:", "  - { mode: none" + (", guard_receives: true" if guard_receives else "") +
                (", guard_windows: true" if guard_windows else "") + " }",
                *(["  - { mode: none, zero_buffer: true }"] if zero_buffer else []),
                "repetitions: 1",
                # oversubscribed: startup and collectives slow down with the rank count
                f"timeout: {max(timeout, timeout * ranks // 4)}s",
                f"detectors: [{detectors}]",
                f"scheduler: {{ type: local, jobs: {jobs} }}",
                *([f"explore: {{ budget: {explore_budget} }}"] if explore_budget else []), ""]))
        out = os.path.join(work, name)
        # The bench's own scratch store: a store of another program list or
        # build would be refused as a changed campaign (no resume here).
        shutil.rmtree(out, ignore_errors=True)
        with open(os.path.join(work, name + ".log"), "w") as log:
            rc = subprocess.run([scalefuzz, "run", yaml, "--out", out], stdout=log, stderr=subprocess.STDOUT).returncode
        if rc not in (0, 1):
            print(f"scalefuzz run {yaml} exited {rc} (see {log.name})", file=sys.stderr)
            sys.exit(3)
        with open(os.path.join(out, "findings.json")) as f:
            for fnd in json.load(f)["findings"]:
                m = re.search(r"prog(p\d{3})", fnd.get("run_id", ""))
                if m:
                    findings.setdefault(m.group(1), []).append(fnd)
    return findings


def lines_named(f, path):
    name = os.path.basename(path)
    locs = []
    d = f.get("details", {})
    for s in d.get("sides", []):
        locs.append(s.get("code", {}))
    if isinstance(d.get("code"), dict):
        locs.append(d["code"])
    return {c.get("line") for c in locs if isinstance(c, dict) and str(c.get("file", "")).endswith(name)}


def score(progs, findings):
    rows = {}
    details = []
    for p in progs:
        if p["skip"]:
            details.append({"program": p["rel"], "class": p["class"], "not_run": p["skip"]})
            continue
        fs = findings.get(p["id"], []) if p["built"] else []
        serious = [f for f in fs if f["severity"] in ("error", "warning")]
        kinds = sorted({f["kind"] for f in serious})
        key = "rma" if p["rma"] else p["class"]
        r = rows.setdefault(key, {"n": 0, "built": 0, "any": 0, "right": 0, "line": 0, "with_line": 0})
        r["n"] += 1
        r["built"] += p["built"]
        rec = {"program": p["rel"], "class": p["class"], "ranks": p["ranks"], "built": p["built"], "kinds": kinds}
        if p["class"] == "correct":
            usage_alarm = [f for f in serious if f["detector"] != "outcome"]
            alarm = bool(serious)
            r["any"] += alarm
            rec["false_alarm"] = alarm
            rec["titles"] = [f["title"] for f in serious][:3]
            if alarm:
                r["usage_alarms"] = r.get("usage_alarms", 0) + bool(usage_alarm)
            by = r.setdefault("alarms_by_detector", {})
            for d in sorted({f["detector"] for f in serious}):
                by[d] = by.get(d, 0) + 1
        else:
            right = [f for f in serious if f["kind"] in RIGHT_KINDS[p["class"]]]
            r["any"] += bool(serious)
            r["right"] += bool(right)
            if p["line"]:
                r["with_line"] += 1
                named = set()
                for f in serious:
                    named |= lines_named(f, p["path"])
                hit = any(l is not None and abs(l - p["line"]) <= 1 for l in named)
                r["line"] += hit
                rec["stated_line"] = p["line"]
                rec["lines"] = sorted(l for l in named if l is not None)
            rec["right_kind"] = bool(right)
        details.append(rec)
    return rows, details


def print_table(rows, details):
    """The per-class table; returns the totals over the non-RMA classes."""
    print(f"{'class':<14}{'programs':>9}{'built':>7}{'any finding':>13}{'right kind':>12}{'stated line':>13}")
    tot = {"n": 0, "any": 0, "right": 0, "line": 0, "with_line": 0}
    for key in CLASSES + ["rma", "correct"]:
        r = rows.get(key)
        if not r:
            continue
        if key == "correct":
            print(f"{'correct':<14}{r['n']:>9}{r['built']:>7}   false alarms: {r['any']} "
                  f"(usage detector: {r.get('usage_alarms', 0)}; programs per detector: "
                  f"{r.get('alarms_by_detector', {})})")
            for d in details:
                if d.get("false_alarm"):
                    print(f"  false alarm: {d['program']} ({d['ranks']} ranks): {'; '.join(d['titles'])[:300]}")
                if d.get("not_run"):
                    print(f"  not run: {d['program']}: {d['not_run']}")
            continue
        line = f"{r['line']}/{r['with_line']}"
        print(f"{key:<14}{r['n']:>9}{r['built']:>7}{r['any'] / r['n']:>13.2f}{r['right'] / r['n']:>12.2f}{line:>13}")
        if key != "rma":
            for k in tot:
                tot[k] += r[k]
    if tot["n"]:
        print(f"{'all (no rma)':<14}{tot['n']:>9}{'':>7}{tot['any'] / tot['n']:>13.2f}{tot['right'] / tot['n']:>12.2f}"
              f"{str(tot['line']) + '/' + str(tot['with_line']):>13}")
    return tot


def print_side_by_side(per_mpi):
    """MPICH and Open MPI per class (right kind, false alarms), then every
    program whose verdict differs between them."""
    (rm, dm, tm), (ro, do, to) = per_mpi["mpich"], per_mpi["openmpi"]
    print("== side by side: right kind (erroneous) / false alarms (correct)")
    print(f"{'class':<14}{'programs':>9}{'MPICH':>9}{'Open MPI':>10}")
    for key in CLASSES + ["rma", "correct"]:
        a, b = rm.get(key), ro.get(key)
        if not a or not b:
            continue
        field = "any" if key == "correct" else "right"
        print(f"{key:<14}{a['n']:>9}{a[field]:>9}{b[field]:>10}")
    if tm["n"] and to["n"]:
        print(f"{'all (no rma)':<14}{tm['n']:>9}{tm['right'] / tm['n']:>9.2f}{to['right'] / to['n']:>10.2f}")
    verdict = lambda d: (d.get("right_kind"), d.get("false_alarm"), d.get("built"))
    other = {d["program"]: d for d in do}
    differ = [(d, other[d["program"]]) for d in dm if d["program"] in other and verdict(d) != verdict(other[d["program"]])]
    print(f"programs whose verdict differs: {len(differ)}")
    for d, o in differ:
        print(f"  {d['program']}: MPICH {d.get('kinds')} / Open MPI {o.get('kinds')}"
              + ("" if o.get("built") else " (not built with mpicc.openmpi)"))
    return len(differ)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scalefuzz")
    ap.add_argument("work")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--corrbench", default=os.path.join(here, "..", "..", "..", "shared", "external", "mpi-corrbench"))
    ap.add_argument("--subset", type=int, default=0, help="every k-th program only (bounded run)")
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--min-recall", type=float, default=None)
    ap.add_argument("--json", default="")
    ap.add_argument("--detectors", default="usage, rma, mpipd, pdg",
                    help="the campaigns' detectors: list (e.g. 'dmtracker' for its false alarms on correct/)")
    ap.add_argument("--max-ranks", type=int, default=0,
                    help="do not run programs that need more ranks (reported as not run)")
    ap.add_argument("--zero-buffer", action="store_true",
                    help="also run every program under {mode: none, zero_buffer: true} (findings of both count)")
    ap.add_argument("--guard-receives", action="store_true",
                    help="run every program under {mode: none, guard_receives: true} instead of {mode: none} "
                         "(pending receive buffers page-protected)")
    ap.add_argument("--guard-windows", action="store_true",
                    help="run every program with guard_windows: true (window memory and Get buffers page-protected)")
    ap.add_argument("--explore", type=int, default=0, metavar="BUDGET",
                    help="schedule exploration after each point's run (explore: {budget: BUDGET}; adds the races "
                         "detector): its race verdicts count as findings like the others")
    ap.add_argument("--mpi", default="mpich", choices=["mpich", "openmpi", "both"],
                    help="compile with mpicc (MPICH) or mpicc.openmpi and run under that MPI (campaign key mpi:); "
                         "both: each, then the two side by side")
    ap.add_argument("--same-verdicts", action="store_true",
                    help="with --mpi both: exit 1 when a program's verdict differs between the two MPIs")
    ap.add_argument("--no-false-alarms", action="store_true",
                    help="exit 1 when any correct program got an error or warning finding")
    a = ap.parse_args()
    if not os.path.isdir(a.corrbench):
        print(f"SKIP: {a.corrbench} is absent (MPI-CorrBench is read from ../shared/external)")
        return 77
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    progs = [p for p in programs(a.corrbench) if re.search(a.only, p["rel"])]
    if a.subset > 1:
        progs = progs[::a.subset]
    for p in progs:
        if a.max_ranks and p["ranks"] > a.max_ranks:
            p["skip"] = f"needs {p['ranks']} ranks (> --max-ranks {a.max_ranks})"
    detectors = a.detectors
    if a.explore and "races" not in [d.strip() for d in detectors.split(",")]:
        detectors += ", races"
    per_mpi = {}  # mpi -> (rows, details, tot)
    for mpi in (["mpich", "openmpi"] if a.mpi == "both" else [a.mpi]):
        mine = copy.deepcopy(progs)
        bin_name = "bin" if mpi == "mpich" else "bin-" + mpi
        compile_all(mine, os.path.join(work, bin_name), COMPILERS[mpi])
        findings = run_campaigns(a.scalefuzz, mine, work, a.jobs, a.timeout, detectors, a.zero_buffer,
                                 a.guard_receives, a.guard_windows,
                                 name_prefix="corrbench" if mpi == "mpich" else "corrbench-" + mpi,
                                 explore_budget=a.explore, mpi=mpi, bin_name=bin_name)
        rows, details = score(mine, findings)
        print(f"== {mpi} ({COMPILERS[mpi]})")
        per_mpi[mpi] = (rows, details, print_table(rows, details))
    differ = print_side_by_side(per_mpi) if len(per_mpi) == 2 else 0
    if a.json:
        with open(a.json, "w") as f:
            if a.mpi == "both":
                json.dump({m: {"rows": r, "programs": d} for m, (r, d, _) in per_mpi.items()}, f, indent=1)
            else:
                rows, details, _ = per_mpi[a.mpi]
                json.dump({"rows": rows, "programs": details}, f, indent=1)
    failed = False
    if a.same_verdicts and differ:
        print(f"FAIL: {differ} programs differ between MPICH and Open MPI")
        failed = True
    for mpi, (rows, _, tot) in per_mpi.items():
        alarms = rows.get("correct", {}).get("any", 0)
        if a.no_false_alarms and alarms:
            print(f"FAIL: {alarms} false alarms on the correct programs ({mpi})")
            failed = True
        if a.min_recall is not None:
            recall = tot["right"] / tot["n"] if tot["n"] else 1.0
            if recall < a.min_recall or alarms:
                print(f"FAIL: right-kind recall {recall:.2f} < {a.min_recall} or {alarms} false alarms ({mpi})")
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
