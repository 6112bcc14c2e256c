#!/usr/bin/env bash
# The README's first command on a fresh machine: install dependencies, build,
# and run the shipped quickstart campaign into ./out/quickstart.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/ci/setup.sh"
"$root/ci/build.sh"
set +e
"$root/build/scalefuzz" run "$root/configs/quickstart.yaml" --out "$root/out/quickstart"
rc=$?
set -e
echo "quickstart: exit code $rc (0 nothing found, 1 findings); report: $root/out/quickstart/report.html"
exit $rc
