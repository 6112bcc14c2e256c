#!/usr/bin/env bash
# The `slurm` ctest fixture: slurm_fixture.sh up|down SOURCE_DIR PREFIX.
# Skips (77) where a private SLURM cannot run: not root, packages missing.
set -uo pipefail
action="$1" src="$2" prefix="$3"
if [[ $(id -u) -ne 0 ]] || ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  echo "SKIP: a private SLURM needs root and the slurm-wlm and munge packages (ci/setup.sh)"
  exit 77
fi
if [[ "$action" == up ]]; then
  bash "$src/ci/slurm-local.sh" down "$prefix" >/dev/null 2>&1  # a previous run killed before its cleanup
  exec bash "$src/ci/slurm-local.sh" up "$prefix"
fi
exec bash "$src/ci/slurm-local.sh" down "$prefix"
