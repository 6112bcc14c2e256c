#!/usr/bin/env bash
# Configures and builds scalefuzz into ./build (or $SCALEFUZZ_BUILD_DIR).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SCALEFUZZ_BUILD_DIR:-$root/build}"
jobs="${SCALEFUZZ_JOBS:-$(nproc)}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$build" -j "$jobs"
