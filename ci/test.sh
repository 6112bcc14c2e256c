#!/usr/bin/env bash
# The README's test command: build, then run every test (unit, mpi, browser).
# Extra arguments go to ctest, e.g. `ci/test.sh -L unit`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SCALEFUZZ_BUILD_DIR:-$root/build}"
"$root/ci/build.sh"
cd "$build"
ctest --output-on-failure --timeout 600 "$@"
