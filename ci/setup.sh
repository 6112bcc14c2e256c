#!/usr/bin/env bash
# Installs every Debian 12 package scalefuzz needs to build, test and report.
# Idempotent: packages already present are skipped by apt-get.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config python3
  mpich libmpich-dev
  openmpi-bin libopenmpi-dev   # Open MPI next to MPICH: its injector and `openmpi` tests (issue 31)
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
  libjs-chart.js      # Chart.js, inlined into report.html for its charts
  valgrind
  clang libfuzzer-14-dev   # tests/fuzz: libFuzzer targets (built only when both are present)
  python3-junitparser # the nightly tests read junit.xml as CI tools do
  python3-jsonschema  # findings.json checked against docs/findings.schema.json
  jq                  # seeds in findings.json must round-trip through jq
  slurm-wlm munge libslurm-dev   # scalefuzz submit/status/collect (libslurm) and the private SLURM of the slurm tests
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
# Installing Open MPI may move the `mpi` and `mpirun` alternatives (mpicc,
# mpiexec) to it: scalefuzz's default MPI stays MPICH; Open MPI is reached
# by its Debian names (mpicc.openmpi, mpirun.openmpi).
if [[ -e /usr/bin/mpicc.mpich && -e /usr/bin/mpirun.mpich ]]; then
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO update-alternatives --set mpi /usr/bin/mpicc.mpich >/dev/null
  $SUDO update-alternatives --set mpirun /usr/bin/mpirun.mpich >/dev/null
fi
echo "ci/setup.sh: all ${#PACKAGES[@]} packages present"
