"""Reads a campaign's findings.json and junit.xml the way CI tools do.

usage: check_outputs.py OUT_DIR SCHEMA

- findings.json validates against SCHEMA (docs/findings.schema.json) with
  Debian's python3-jsonschema;
- every seed round-trips exactly through jq (`jq -r`), compared with the
  seed each run's spec.json holds;
- junit.xml parses with Debian's python3-junitparser; classnames hold no
  dots from values (exactly "<campaign>.<np N|bugs>"); every point testcase
  has seed, noise and replay properties, every bug testcase is named by its
  fingerprint; failure messages are one short line.
Prints "ok: ..." and exits 0, or prints every problem and exits 1.
"""
import json
import os
import re
import subprocess
import sys

import jsonschema
import junitparser


def problems_in_findings(out, schema_path):
    problems = []
    with open(os.path.join(out, "findings.json")) as f:
        doc = json.load(f)
    with open(schema_path) as f:
        schema = json.load(f)
    validator = jsonschema.Draft7Validator(schema)
    for e in validator.iter_errors(doc):
        problems.append("findings.json does not match the schema at /%s: %s" %
                        ("/".join(str(p) for p in e.absolute_path), e.message))
    # jq reads numbers as doubles: a seed that is a number loses bits there.
    jq = subprocess.run(["jq", "-r", ".runs[] | .run_id + \" \" + .seed", os.path.join(out, "findings.json")],
                        capture_output=True, text=True, check=True)
    seeds = 0
    for line in jq.stdout.splitlines():
        run_id, seed = line.split(" ")
        with open(os.path.join(out, "runs", run_id, "spec.json")) as f:
            stored = json.load(f)["seed"]
        if str(stored) != seed:
            problems.append("run %s: jq reads seed %s, the run was launched with %s" % (run_id, seed, stored))
        seeds += 1
    return doc, seeds, problems


def problems_in_junit(out, doc):
    problems = []
    xml = junitparser.JUnitXml.fromfile(os.path.join(out, "junit.xml"))
    campaign = re.sub(r"[^A-Za-z0-9_-]", "_", doc["campaign"])
    fingerprints = {b["fingerprint"] for b in doc["bugs"]}
    cases = 0
    for suite in xml:
        for case in suite:
            cases += 1
            props = {}
            node = case._elem.find("properties")
            if node is not None:
                props = {p.get("name"): p.get("value") for p in node.findall("property")}
            cls = case.classname
            if not re.fullmatch(re.escape(campaign) + r"\.(np[0-9]+|bugs)", cls):
                problems.append("testcase %r: classname %r is not <campaign>.np<N> or <campaign>.bugs" % (case.name, cls))
            if cls.endswith(".bugs"):
                if case.name.split(" ")[0] not in fingerprints:
                    problems.append("bug testcase %r is not named by a fingerprint of findings.json" % case.name)
            else:
                for key in ("seed", "noise", "replay"):
                    if key not in props:
                        problems.append("point testcase %r has no %s property" % (case.name, key))
            for result in case.result:
                message = result.message or ""
                if "\n" in message or len(message) > 400:
                    problems.append("testcase %r: failure message is not one short line" % case.name)
    return cases, problems


def main(out, schema_path):
    doc, seeds, problems = problems_in_findings(out, schema_path)
    cases, junit_problems = problems_in_junit(out, doc)
    problems += junit_problems
    for p in problems:
        print("problem: " + p)
    if problems:
        return 1
    print("ok: findings.json matches the schema, %d seeds round-trip through jq, junit.xml (%d testcases) "
          "parses with junitparser" % (seeds, cases))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
