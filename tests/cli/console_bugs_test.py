#!/usr/bin/env python3
"""Issue 37: the console lists bugs, not findings. A program that leaks a
communicator per panel (scenarios/usage/leak_comm_split_loop.c, a warning)
run 3 times at 2 ranks gives 6 findings of one bug: `scalefuzz run` must
print one line for it, with the count, and `scalefuzz report` the same.

usage: console_bugs_test.py SCALEFUZZ BUILD_DIR WORK_DIR
"""
import os
import subprocess
import sys

from cli_script import arguments_with_fresh_work_dir


def main():
    scalefuzz, build, work = arguments_with_fresh_work_dir()
    campaign = os.path.join(work, "leak.yaml")
    with open(campaign, "w") as f:
        f.write("\n".join([
            "campaign: console-bugs",
            "app:",
            f'  command: ["{build}/scenarios/usage/leak_comm_split_loop"]',
            "  check: exit-code",
            "scales: [2]",
            "repetitions: 3",
            "timeout: 30s",
            "detectors: [usage]",
            "scheduler: { type: local, jobs: 1 }",
            ""]))
    out = os.path.join(work, "out")
    failed = False
    for what, argv in (("run", [scalefuzz, "run", campaign, "--out", out]), ("report", [scalefuzz, "report", out])):
        p = subprocess.run(argv, capture_output=True, text=True)
        lines = [l for l in p.stdout.splitlines() if l.startswith("  [usage]")]
        leak = [l for l in lines if "leaked-handle" in l]
        ok = p.returncode == 1 and len(leak) == 1 and "(6 findings in 3 runs)" in leak[0] and \
            "in 1 bugs (1 errors or warnings)" in p.stdout
        print(("ok:   " if ok else "FAIL: ") + f"{what}: one console line for the leak bug of 6 findings")
        if not ok:
            print(f"  exit {p.returncode}; stdout:\n{p.stdout}\n  stderr:\n{p.stderr[-2000:]}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
