#!/bin/sh
# NINJA race exposure bench: iterations until the first wrong match per
# scenario and noise mode, and each mode's time per iteration relative to
# none on the safe twins. Usage: bench/race_exposure/run.sh [BUILD_DIR] [--trials N] [--np N]
# Needs: cmake --build BUILD_DIR --target scalefuzz scalefuzz_inject ninja_case1 ninja_case2 ninja_case3
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-"$here/../../build"}
[ $# -gt 0 ] && shift
exec python3 "$here/race_exposure.py" "$build" "$@"
