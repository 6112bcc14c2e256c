"""What the layering tests read from the tree: the project headers a source
includes and the scalefuzz:: targets a CMake text links, each with its line."""
import re

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
