"""Reports of a campaign that did not end well (issue 28 part 2, issue 36 item 2).

  killed       SIGKILL `scalefuzz run` after some runs finished: findings.json
               (checked against docs/findings.schema.json) and junit.xml parse,
               and list the same finished runs, which the store holds too.
  all-or-none  junit.xml cannot be written (a directory stands in its place):
               `scalefuzz report` and `scalefuzz run` exit 3 and leave
               findings.json and report.html exactly as they were.

Usage: streaming_reports_test.py SCALEFUZZ SOURCE_TREE WORK_DIR {killed|all-or-none}
"""
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import xml.dom.minidom

try:
    import jsonschema  # Debian python3-jsonschema
except ImportError:
    jsonschema = None


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def write_campaign(path, iterations, repetitions):
    with open(path, "w") as f:
        f.write("campaign: streaming\n"
                "app:\n"
                "  command: [\"{build}/scenarios/ring\", \"--iterations\", \"{iterations}\", \"--count\", \"4096\"]\n"
                "  check: { stdout-must-match: \"^ring: OK ranks=\" }\n"
                "scales: [2]\n"
                "parameters: { iterations: [%s] }\n"
                "repetitions: %d\n"
                "timeout: 120s\n"
                "detectors: [races]\n" % (", ".join(str(i) for i in iterations), repetitions))


def json_finished_runs(out, source):
    with open(os.path.join(out, "findings.json")) as f:
        doc = json.load(f)  # raises on a truncated or half-written file
    if jsonschema is not None:
        with open(os.path.join(source, "docs", "findings.schema.json")) as f:
            jsonschema.validate(doc, json.load(f))
    return doc, {r["run_id"] for r in doc["runs"] if r["outcome"] != "unfinished"}


def junit_finished_runs(out):
    """Run ids of the point testcases that ran (not skipped) in junit.xml."""
    dom = xml.dom.minidom.parse(os.path.join(out, "junit.xml"))  # strict: raises on malformed XML
    finished = set()
    for case in dom.getElementsByTagName("testcase"):
        props = {p.getAttribute("name"): p.getAttribute("value") for p in case.getElementsByTagName("property")}
        if "fingerprint" in props:
            continue  # a bug, not a campaign point
        if not case.getElementsByTagName("skipped"):
            finished.add(props["run_id"])
    return finished


def store_finished_runs(out):
    db = sqlite3.connect("file:%s?mode=ro" % os.path.join(out, "scalefuzz.db"), uri=True)
    try:
        return {row[0] for row in db.execute("SELECT run_id FROM runs WHERE state = 'finished'")}
    finally:
        db.close()


def killed(scalefuzz, source, work):
    campaign = os.path.join(work, "c.yaml")
    # One run per point, so junit.xml's point testcases name every run; about a second each.
    points = list(range(3000, 3008))
    write_campaign(campaign, points, 1)
    out = os.path.join(work, "out")
    log = open(os.path.join(work, "run.log"), "w")
    proc = subprocess.Popen([scalefuzz, "run", campaign, "--out", out, "--jobs", "1"], stdout=log, stderr=log,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 300
    finished = set()
    while time.time() < deadline and proc.poll() is None:
        try:
            _, finished = json_finished_runs(out, source)
        except (OSError, ValueError):
            pass  # not written yet
        if len(finished) >= 2:
            break
        time.sleep(0.05)
    if proc.poll() is not None:
        fail("the campaign ended (exit %s) before it could be killed" % proc.returncode)
    if len(finished) < 2:
        fail("findings.json never listed 2 finished runs while the campaign ran")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    log.close()

    doc, in_json = json_finished_runs(out, source)
    in_junit = junit_finished_runs(out)
    in_store = store_finished_runs(out)
    print("finished runs: store %d, findings.json %d, junit.xml %d" % (len(in_store), len(in_json), len(in_junit)))
    if len(in_store) >= len(points):
        fail("every run finished before the kill: nothing was tested")
    if in_json != in_junit:
        fail("findings.json and junit.xml disagree: %s vs %s" % (sorted(in_json), sorted(in_junit)))
    if not in_json <= in_store:
        fail("reports list runs the store does not hold as finished: %s" % sorted(in_json - in_store))
    # A kill between a run's commit to the store and its report commit leaves
    # that one run out of the reports (one run at a time: --jobs 1).
    if len(in_store - in_json) > 1:
        fail("finished runs missing from the reports: %s" % sorted(in_store - in_json))
    if len(doc["runs"]) != len(points):
        fail("findings.json lists %d runs, the campaign has %d" % (len(doc["runs"]), len(points)))
    if doc["verdict"] != "incomplete" or doc["summary"]["unfinished"] != len(points) - len(in_json):
        fail("a killed campaign's findings.json must say incomplete with its unfinished runs: %s, %s"
             % (doc["verdict"], doc["summary"]))
    if os.path.exists(os.path.join(out, "report.html")):
        fail("report.html is written at the end only, not while the runs go")
    leftovers = [n for n in os.listdir(out) if ".tmp." in n or ".old." in n]
    if leftovers:
        print("note: the kill interrupted a write and left %s beside the reports (never read)" % leftovers)


def all_or_none(scalefuzz, source, work):
    campaign = os.path.join(work, "c.yaml")
    write_campaign(campaign, [20], 1)
    out = os.path.join(work, "out")
    r = subprocess.run([scalefuzz, "run", campaign, "--out", out], capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        fail("the campaign should pass: exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
    kept = {"findings.json": "findings of an earlier session\n", "report.html": "<p>earlier report</p>\n"}
    for name, text in kept.items():
        with open(os.path.join(out, name), "w") as f:
            f.write(text)
    os.remove(os.path.join(out, "junit.xml"))
    os.makedirs(os.path.join(out, "junit.xml", "in-the-way"))
    for command in (["report", out], ["run", campaign, "--out", out]):
        r = subprocess.run([scalefuzz] + command, capture_output=True, text=True, timeout=300)
        if r.returncode != 3:
            fail("scalefuzz %s: exit %d, expected 3\n%s%s" % (command[0], r.returncode, r.stdout, r.stderr))
        if "junit.xml" not in r.stderr:
            fail("scalefuzz %s does not name junit.xml: %s" % (command[0], r.stderr))
        for name, text in kept.items():
            with open(os.path.join(out, name)) as f:
                if f.read() != text:
                    fail("scalefuzz %s rewrote %s although junit.xml could not be written" % (command[0], name))
        leftovers = [n for n in os.listdir(out) if ".tmp." in n or ".old." in n]
        if leftovers:
            fail("scalefuzz %s left temporaries: %s" % (command[0], leftovers))
    shutil.rmtree(os.path.join(out, "junit.xml"))
    r = subprocess.run([scalefuzz, "report", out], capture_output=True, text=True, timeout=300)
    if r.returncode != 0 or "wrote" not in r.stdout:
        fail("with junit.xml writable again, report should pass: exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
    json_finished_runs(out, source)
    junit_finished_runs(out)


def main():
    scalefuzz, source, work, which = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    {"killed": killed, "all-or-none": all_or_none}[which](scalefuzz, source, work)
    print("PASS")


if __name__ == "__main__":
    main()
