#!/usr/bin/env python3
"""Issue 37: Ctrl-C while `scalefuzz analyze` analyses exits 130
(interrupted) with a line on stderr, instead of dying by SIGINT, and the
stored run stays analysable. The campaign is a synthetic 2-rank run of 4
million calls (bench/analysis_scaling/synth_campaign), whose analysis takes
seconds.

usage: analysis_sigint_test.py SCALEFUZZ SYNTH_CAMPAIGN WORK_DIR
"""
import os
import signal
import subprocess
import sys
import time

from cli_script import arguments_with_fresh_work_dir


def main():
    scalefuzz, synth, work = arguments_with_fresh_work_dir()
    out = os.path.join(work, "out")
    subprocess.run([synth, out, "4000000", "1000"], check=True, stdout=subprocess.DEVNULL)
    p = subprocess.Popen([scalefuzz, "analyze", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    if p.poll() is not None:
        print(f"FAIL: the analysis ended (exit {p.returncode}) before it could be interrupted")
        return 1
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=120)
    ok = p.returncode == 130 and "interrupted during the analysis" in stderr
    print(("ok:   " if ok else "FAIL: ") + f"SIGINT during the analysis: exit {p.returncode} (130 expected; "
          f"negative = killed by the signal)")
    if not ok:
        print(stderr[-2000:])
    runs = os.listdir(os.path.join(out, "runs"))
    ok2 = len(runs) == 1 and os.path.isdir(os.path.join(out, "runs", runs[0], "ranks"))
    print(("ok:   " if ok2 else "FAIL: ") + "the stored run is still there")
    return 0 if ok and ok2 else 1


if __name__ == "__main__":
    sys.exit(main())
