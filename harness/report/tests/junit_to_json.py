"""Parses a JUnit XML file strictly (expat) and prints its testcases as JSON.

Used by the report tests to prove junit.xml is well-formed and to read back
the unescaped text of every failure.
"""
import json
import sys
import xml.dom.minidom


def text_of(node):
    return "".join(c.data for c in node.childNodes if c.nodeType in (c.TEXT_NODE, c.CDATA_SECTION_NODE))


def main(path):
    doc = xml.dom.minidom.parse(path)
    root = doc.documentElement
    out = {"root": root.tagName, "attrs": dict(root.attributes.items()), "suites": []}
    for suite in root.getElementsByTagName("testsuite"):
        cases = []
        for case in suite.getElementsByTagName("testcase"):
            entry = {"name": case.getAttribute("name"), "classname": case.getAttribute("classname"),
                     "time": case.getAttribute("time")}
            props = case.getElementsByTagName("property")
            entry["properties"] = {p.getAttribute("name"): p.getAttribute("value") for p in props}
            for tag in ("failure", "error", "skipped", "system-out", "system-err"):
                nodes = case.getElementsByTagName(tag)
                if nodes:
                    entry[tag] = {"message": nodes[0].getAttribute("message"),
                                  "type": nodes[0].getAttribute("type"), "text": text_of(nodes[0])}
            cases.append(entry)
        out["suites"].append({"attrs": dict(suite.attributes.items()), "cases": cases})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
