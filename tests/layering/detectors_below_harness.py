#!/usr/bin/env python3
"""The plug-in contract sits below its plug-ins (issue 28): nothing under
detectors/ includes a header of harness/ or links a harness target.

    detectors_below_harness.py ROOT    checks the tree at ROOT
    detectors_below_harness.py --self-test    plants a violation and expects it caught
"""
import pathlib
import re
import sys
import tempfile

from layering import includes, links

LIBRARY = re.compile(r'scalefuzz_library\(\s*([A-Za-z0-9_]+)')
SOURCES = ('.c', '.cc', '.cpp', '.h', '.hpp', '.inc', '.in')


def harness_headers(root):
    """Include spellings of every public harness header: scalefuzz/harness/campaign.hpp ..."""
    out = set()
    for include_dir in root.glob('harness/**/include'):
        for header in include_dir.rglob('*'):
            if header.is_file():
                out.add(header.relative_to(include_dir).as_posix())
    return out


def harness_targets(root):
    out = set()
    for cmake in root.glob('harness/**/CMakeLists.txt'):
        out.update(LIBRARY.findall(cmake.read_text(errors='replace')))
    return out


def violations(root):
    headers = harness_headers(root)
    targets = harness_targets(root)
    found = []
    for path in sorted((root / 'detectors').rglob('*')):
        if not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        text = path.read_text(errors='replace')
        if path.suffix in SOURCES:
            found += [f'{rel}:{line}: includes {name} (harness/)'
                      for line, name in includes(text) if name in headers or 'harness/' in name]
        elif path.name == 'CMakeLists.txt' or path.suffix == '.cmake':
            found += [f'{rel}:{line}: links scalefuzz::{target} (harness/)'
                      for line, target in links(text) if target in targets]
    return found


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / 'harness/model/include/scalefuzz/harness').mkdir(parents=True)
        (root / 'harness/model/include/scalefuzz/harness/run_spec.hpp').write_text('#pragma once\n')
        (root / 'harness/model/CMakeLists.txt').write_text('scalefuzz_library(run_model SOURCES a.cpp)\n')
        (root / 'detectors/x/analysis').mkdir(parents=True)
        (root / 'detectors/x/analysis/x.cpp').write_text('#include <vector>\n#include "scalefuzz/harness/run_spec.hpp"\n')
        (root / 'detectors/x/CMakeLists.txt').write_text('target_link_libraries(x PRIVATE scalefuzz::run_model)\n')
        found = violations(root)
        expected = ['detectors/x/CMakeLists.txt:1: links scalefuzz::run_model (harness/)',
                    'detectors/x/analysis/x.cpp:2: includes scalefuzz/harness/run_spec.hpp (harness/)']
        if found != expected:
            print('self-test: expected', expected, 'got', found)
            return 1
        (root / 'detectors/x/analysis/x.cpp').write_text('#include "scalefuzz/detectors/api/detector.hpp"\n')
        (root / 'detectors/x/CMakeLists.txt').write_text('target_link_libraries(x PRIVATE scalefuzz::detector_api)\n')
        if violations(root):
            print('self-test: a clean tree reported', violations(root))
            return 1
    print('self-test: planted violations caught, clean tree passes')
    return 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    root = pathlib.Path(argv[1])
    found = violations(root)
    for line in found:
        print(line)
    print(f'{len(harness_headers(root))} harness headers, {len(harness_targets(root))} harness targets; '
          f'{len(found)} uses under detectors/')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
