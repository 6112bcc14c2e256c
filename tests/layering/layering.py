"""What the layering tests read from the tree: the project headers a source
includes and the scalefuzz:: targets a CMake text links, each with its line."""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]', re.M)
LINK = re.compile(r'scalefuzz::(\w+)')


def line_of(text, offset):
    return text.count('\n', 0, offset) + 1


def includes(text, quoted_only=False):
    """(line, header) of every #include in a source text (`quoted_only`: "..." ones, not <...>)."""
    return [(line_of(text, m.start()), m.group(2)) for m in INCLUDE.finditer(text)
            if not quoted_only or m.group(1) == '"']


def links(text):
    """(line, target without 'scalefuzz::') of every scalefuzz:: target a CMake text names."""
    return [(line_of(text, m.start()), m.group(1)) for m in LINK.finditer(text)]


def run(self_test, check):
    """The command line of a layering test: ROOT checks the tree there
    (check(root) prints and returns the exit code), --self-test runs self_test()."""
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    return check(pathlib.Path(sys.argv[1]))


def plant(root, files):
    """A self-test's tree: each relative path of `files` written with its text."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
