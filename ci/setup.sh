#!/usr/bin/env bash
# Installs every Debian 12 package scalefuzz needs to build, test and report.
# Idempotent: packages already present are skipped by apt-get.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config python3
  mpich libmpich-dev
  libeigen3-dev
  libboost-dev libboost-filesystem-dev libboost-graph-dev
  libyaml-cpp-dev nlohmann-json3-dev
  libcli11-dev        # the scalefuzz command line
  libunwind-dev
  libsqlite3-dev sqlite3
  libgtest-dev libgmock-dev libbenchmark-dev
  elfutils            # eu-stack: stacks of frozen ranks at a timeout
  libdw-dev           # in-process symbolization of call sites (trace/src/dwarf_module.cpp)
  binutils            # addr2line: the baseline of bench/pdg_stall's symbolization figure
  graphviz            # dot: progress-dependence graphs in the report
  chromium            # headless browser test of report.html
  valgrind
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "ci/setup.sh: all ${#PACKAGES[@]} packages present"
