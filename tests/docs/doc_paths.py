"""Fails when a Markdown document of the repository names a path that does not exist.

What counts as a path (prose is never read):
  - a Markdown link target, [text](target), resolved from the document's folder
    (web addresses and #anchors skipped);
  - a word inside `code` or a ``` block whose first component is a top-level
    folder of the repository (harness/..., docs/...) or an entry of the
    document's own folder (src/... in a room README), with a '/' in it.
    Line suffixes (file.c:42), trailing punctuation and quotes are cut;
    words with placeholders (<run id>, {build}, $VAR, ...) and paths out of
    the repository (../shared) are skipped; a word with '*' must match at
    least one file.
Generated and local folders (build*, out*) are not the repository's.

Usage: doc_paths.py ROOT            check every *.md under ROOT (exit 1 on a missing path)
       doc_paths.py --self-test     plant a bad path in a scratch tree and expect it caught
"""
import glob
import os
import re
import sys
import tempfile

SKIP_DIRS = re.compile(r"^(build.*|out.*|\.git|Testing|__pycache__)$")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# Placeholders (<run id>, {build}, $VAR, ...), options, ranges (case1..3) and
# shorthands (model.hpp/.cpp) are not paths.
PLACEHOLDER = re.compile(r"[<>{}$…]|\.\.\.|^-|\w\.\.\w|/\.")
SPLIT = re.compile(r"[\s\"'(),;=\[\]|]+")


def markdown_files(root):
    for top, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not SKIP_DIRS.match(d))
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(top, name)


def top_level_dirs(root):
    return {d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)) and not SKIP_DIRS.match(d)}


def markdown_lines(text):
    """(line number, line, inside a ``` block) of every line but the fences."""
    in_block = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_block = not in_block
        else:
            yield number, line, in_block


def code_words(text):
    """(line number, word) of every word inside code spans and fenced blocks."""
    for number, line, in_block in markdown_lines(text):
        chunks = [line] if in_block else [m.group(2) for m in CODE_SPAN.finditer(line)]
        for chunk in chunks:
            for word in SPLIT.split(chunk):
                if word:
                    yield number, word


def links(text):
    for number, line, in_block in markdown_lines(text):
        if not in_block:
            for m in LINK.finditer(CODE_SPAN.sub("", line)):
                yield number, m.group(1)


def clean(word):
    word = re.sub(r":\d[\d,-]*.*$", "", word)  # file.c:42, file.c:10-20
    word = word.rstrip(".,:;!?")
    word = re.sub(r"#.*$", "", word)  # an anchor
    return word


def exists(path):
    if "*" in path or "?" in path:
        return bool(glob.glob(path))
    return os.path.lexists(path)


def check_file(root, doc, tops):
    problems = []
    folder = os.path.dirname(doc)
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    for number, target in links(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a web address or an anchor in the same page
        path = clean(target)
        if path and not exists(os.path.normpath(os.path.join(folder, path))):
            problems.append((number, target))
    for number, word in code_words(text):
        if "/" not in word or "://" in word or PLACEHOLDER.search(word) or "::" in word:
            continue
        path = clean(word)
        first = path.split("/", 1)[0]
        candidates = []
        if first in tops:
            candidates.append(os.path.join(root, path))
        if (first and not first.startswith(".") and not SKIP_DIRS.match(first)
                and os.path.lexists(os.path.join(folder, first))):
            candidates.append(os.path.join(folder, path))
        if candidates and not any(exists(c) for c in candidates):
            problems.append((number, word))
    return problems


def check(root):
    root = os.path.abspath(root)
    tops = top_level_dirs(root)
    failures = 0
    checked = 0
    for doc in markdown_files(root):
        checked += 1
        for number, path in check_file(root, doc, tops):
            print("%s:%d: names %s, which does not exist" % (os.path.relpath(doc, root), number, path))
            failures += 1
    print("%d Markdown files checked, %d missing paths" % (checked, failures))
    return 1 if failures else 0


def self_test():
    """The checker must catch a planted missing path and pass the same tree without it."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "harness", "cli", "src"))
        os.makedirs(os.path.join(root, "docs"))
        open(os.path.join(root, "harness", "cli", "src", "main.cpp"), "w").close()
        good = ("# room\n\nSee `harness/cli/src/main.cpp:12`, `src/main.cpp`, [the docs](../../docs/guide.md),\n"
                "`harness/cli/src/*.cpp`, `OUT/runs/<run id>/`, `ranks/N.events`, and/or prose.\n"
                "```sh\nbuild/scalefuzz run {build}/x harness/cli/src/main.cpp\n```\n")
        with open(os.path.join(root, "docs", "guide.md"), "w") as f:
            f.write("# guide\n[back](../harness/cli/README.md#tests)\n")
        with open(os.path.join(root, "harness", "cli", "README.md"), "w") as f:
            f.write(good)
        if check(root) != 0:
            print("self-test: a tree without missing paths failed")
            return 1
        planted = [
            "Glue: `harness/cli/src/analysis_usage.cpp` (runs on every run).\n",
            "Its test, `src/gone_test.cpp`.\n",
            "[the guide](../../docs/missing.md)\n",
            "```sh\nbash harness/cli/src/gone.sh\n```\n",
            "`harness/cli/src/*.py`\n",
        ]
        for bad in planted:
            with open(os.path.join(root, "harness", "cli", "README.md"), "w") as f:
                f.write(good + bad)
            if check(root) != 1:
                print("self-test: the planted path was not caught: " + bad)
                return 1
    print("self-test: every planted missing path caught")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(check(sys.argv[1]))
