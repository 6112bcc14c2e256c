# Sourced by the nightly shell tests after their own header:
#   source "$(dirname "$0")/test_lib.sh" NAME BUILD_DIR SOURCE_DIR PYTHON
# sets build, src, python and a scratch $work (removed on exit), and defines
# fail() and check_outputs().
build="$(cd "$2" && pwd)"
src="$(cd "$3" && pwd)"
python="$4"
work="$(mktemp -d "${TMPDIR:-/tmp}/scalefuzz-$1.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# check_outputs DIR: DIR's findings.json validates against the schema, its seeds
# round-trip through jq, its junit.xml parses with junitparser.
check_outputs() { "$python" "$src/tests/nightly/check_outputs.py" "$1" "$src/docs/findings.schema.json"; }
