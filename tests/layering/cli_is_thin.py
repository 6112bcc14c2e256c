#!/usr/bin/env python3
"""The CLI parses and dispatches; the workflows live in harness/workflows
(issue 28). Fails when a source of harness/cli/src includes a header of
another room than harness/workflows and the few the command table needs, when
the scalefuzz_cli target links another scalefuzz library than
scalefuzz::workflows, or when harness/cli/src grows past MAX_LINES.
`--self-test` plants a workflow include and expects it caught.

usage: cli_is_thin.py SOURCE_ROOT | --self-test
"""
import pathlib
import re
import sys
import tempfile

from layering import includes, links

# What the command table itself needs: the noise modes and launchers it offers
# as choices and the campaign error it maps to exit 2 (campaign.hpp), the
# "did you mean" distance, the terminal-safe printing of error texts.
ALLOWED = {
    "scalefuzz/harness/campaign.hpp",
    "scalefuzz/harness/closest_name.hpp",
    "scalefuzz/harness/terminal_text.hpp",
}

# Issue 28's bound: parsing and dispatch of every command fit in this; a CLI
# that grows past it is growing a workflow.
MAX_LINES = 800


def problems(root: pathlib.Path):
    src = root / "harness/cli/src"
    local = {p.name for p in src.iterdir()}
    found = []
    for path in sorted(src.iterdir()):
        for _, header in includes(path.read_text(), quoted_only=True):
            if header in local or header in ALLOWED or header.startswith("scalefuzz/workflows/"):
                continue
            found.append(f"{path.relative_to(root)}: includes {header} (workflow code belongs in harness/workflows)")
    cmake = (root / "harness/cli/CMakeLists.txt").read_text()
    library = re.search(r"scalefuzz_library\(cli\b(.*?)\)", cmake, re.S)
    if not library:
        found.append("harness/cli/CMakeLists.txt: no scalefuzz_library(cli ...)")
    else:
        for _, target in links(library.group(1)):
            if target != "workflows":
                found.append(f"harness/cli/CMakeLists.txt: scalefuzz_cli links scalefuzz::{target} (only scalefuzz::workflows)")
    lines = sum(len(p.read_text().splitlines()) for p in src.iterdir())
    if lines > MAX_LINES:
        found.append(f"harness/cli/src: {lines} lines, more than {MAX_LINES} (workflow code belongs in harness/workflows)")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "harness/cli/src").mkdir(parents=True)
        (root / "harness/cli/CMakeLists.txt").write_text(
            "scalefuzz_library(cli\n  SOURCES src/a.cpp\n  PUBLIC scalefuzz::workflows\n  PRIVATE CLI11::CLI11)\n")
        good = '#include "a.hpp"\n#include <CLI/CLI.hpp>\n#include "scalefuzz/workflows/workflows.hpp"\n'
        (root / "harness/cli/src/a.hpp").write_text("#pragma once\n")
        (root / "harness/cli/src/a.cpp").write_text(good)
        assert problems(root) == [], problems(root)
        (root / "harness/cli/src/a.cpp").write_text(good + '#include "scalefuzz/engine/campaign_engine.hpp"\n')
        assert len(problems(root)) == 1, problems(root)
        (root / "harness/cli/src/a.cpp").write_text(good)
        (root / "harness/cli/CMakeLists.txt").write_text(
            "scalefuzz_library(cli\n  SOURCES src/a.cpp\n  PUBLIC scalefuzz::workflows scalefuzz::slurm)\n")
        assert len(problems(root)) == 1, problems(root)
        (root / "harness/cli/CMakeLists.txt").write_text(
            "scalefuzz_library(cli\n  SOURCES src/a.cpp\n  PUBLIC scalefuzz::workflows)\n")
        (root / "harness/cli/src/b.cpp").write_text("int x;\n" * MAX_LINES)
        assert len(problems(root)) == 1, problems(root)
    print("self-test: a workflow include, a workflow library and a CLI too long are caught")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = pathlib.Path(sys.argv[1])
    found = problems(root)
    for line in found:
        print(line)
    lines = sum(len(p.read_text().splitlines()) for p in (root / "harness/cli/src").iterdir())
    print(f"harness/cli/src: {lines} lines (at most {MAX_LINES}); {'no' if not found else len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
