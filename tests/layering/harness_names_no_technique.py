#!/usr/bin/env python3
"""The harness names no technique outside the registration list (issue 28):
no non-test source under harness/ spells a registered technique's name as a
string literal ("races") or includes a technique's header
(scalefuzz/detectors/<name>/..., or a header of detectors/<name>/).

    harness_names_no_technique.py ROOT          checks the tree at ROOT
    harness_names_no_technique.py --self-test   plants a violation and expects it caught

The techniques are read from the registrations
(scalefuzz_register_detector(<name>) in detectors/**/CMakeLists.txt); the
registry generated from them (harness/analysis/src/registered_detectors.cpp.in)
and the campaign loader's table of their settings sections
(harness/campaign/src/settings_sections.cpp.in) name them through CMake, not
in the source.
"""
import pathlib
import re
import sys
import tempfile

from layering import includes, line_of, plant, run

REGISTRATION = re.compile(r'scalefuzz_register_detector\(\s*([A-Za-z0-9_]+)\s*\)')
SOURCES = ('.c', '.cc', '.cpp', '.h', '.hpp', '.inc', '.in')
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')

# Files allowed to name a technique, each with why. None since issue 28: the
# harness reaches roles, settings, schedule analysis and model evaluation
# through the registry. A listed file that names no technique any more is
# printed as stale.
EXCEPTIONS = {}


def techniques(root):
    names = []
    for cmake in sorted((root / 'detectors').rglob('CMakeLists.txt')):
        names += REGISTRATION.findall(cmake.read_text(errors='replace'))
    return names


def technique_headers(root, names):
    """Include spelling -> technique of every header in a technique's folder
    (relative to its include directory: include/, settings/, analysis/, report/);
    a harness header of the same spelling wins (both have a classify.hpp)."""
    own = set()
    for include_dir in list(root.glob('harness/**/include')) + list(root.glob('harness/**/src')):
        own.update(h.relative_to(include_dir).as_posix() for h in include_dir.rglob('*.hpp'))
    out = {}
    for name in names:
        for sub in ('include', 'settings', 'analysis', 'report'):
            for header in (root / 'detectors' / name / sub).rglob('*.hpp'):
                spelling = header.relative_to(root / 'detectors' / name / sub).as_posix()
                if spelling not in own:
                    out.setdefault(spelling, name)
    return out


def is_test(rel):
    return '/tests/' in rel or rel.startswith('tests/')


def file_violations(rel, text, names, headers):
    found = []
    for line, header in includes(text):
        parts = header.split('/')
        if len(parts) >= 3 and parts[:2] == ['scalefuzz', 'detectors'] and parts[2] in names:
            found.append(f'{rel}:{line}: includes {header} (technique {parts[2]})')
        elif header in headers:
            found.append(f'{rel}:{line}: includes {header} (detectors/{headers[header]}/)')
    for m in LITERAL.finditer(text):
        if m.group(1) in names:
            found.append(f'{rel}:{line_of(text, m.start())}: names technique "{m.group(1)}"')
    return found


def violations(root, exceptions=EXCEPTIONS):
    names = set(techniques(root))
    headers = technique_headers(root, names)
    found, stale = [], []
    for path in sorted((root / 'harness').rglob('*')):
        if not path.is_file() or path.suffix not in SOURCES:
            continue
        rel = path.relative_to(root).as_posix()
        if is_test(rel):
            continue
        mine = file_violations(rel, path.read_text(errors='replace'), names, headers)
        if rel in exceptions:
            if not mine:
                stale.append(rel)
            continue
        found += mine
    return found, stale


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        plant(root, {
            'detectors/x/CMakeLists.txt': 'scalefuzz_register_detector(x)\n',
            'detectors/x/analysis/x_detector.hpp': '#pragma once\n',
            'detectors/x/include/scalefuzz/detectors/x.hpp': '#pragma once\n',
            'harness/bugs/src/bugs.cpp': ('#include <string>\n#include "x_detector.hpp"\n'
                                          '#include "scalefuzz/detectors/x/settings.hpp"\n'
                                          '#include "scalefuzz/detectors/x.hpp"\n'
                                          'bool root(const std::string& d) { return d == "x"; }\n'),
            'harness/bugs/tests/bugs_test.cpp': 'auto name = "x";\n',  # tests may name techniques
        })
        source = root / 'harness/bugs/src/bugs.cpp'
        found, _ = violations(root, {})
        expected = ['harness/bugs/src/bugs.cpp:2: includes x_detector.hpp (detectors/x/)',
                    'harness/bugs/src/bugs.cpp:3: includes scalefuzz/detectors/x/settings.hpp (technique x)',
                    'harness/bugs/src/bugs.cpp:4: includes scalefuzz/detectors/x.hpp (detectors/x/)',
                    'harness/bugs/src/bugs.cpp:5: names technique "x"']
        if found != expected:
            print('self-test: expected', expected, 'got', found)
            return 1
        found, stale = violations(root, {'harness/bugs/src/bugs.cpp': 'planted'})
        if found or stale:
            print('self-test: an excepted file was reported', found, stale)
            return 1
        source.write_text('#include "scalefuzz/detectors/api/detector.hpp"\nauto kind = "xy";\n')
        found, stale = violations(root, {'harness/bugs/src/bugs.cpp': 'planted'})
        if found or stale != ['harness/bugs/src/bugs.cpp']:
            print('self-test: a clean tree reported', found, 'stale', stale)
            return 1
    print('self-test: planted violations caught, exceptions honoured, clean tree passes')
    return 0


def check(root):
    found, stale = violations(root)
    for line in found:
        print(line)
    for rel in stale:
        print(f'note: {rel} names no technique any more: remove it from EXCEPTIONS')
    print(f'{len(techniques(root))} registered techniques, {len(EXCEPTIONS)} excepted files; '
          f'{len(found)} names under harness/')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(run(self_test, check))
