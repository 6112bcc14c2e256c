#!/usr/bin/env bash
# Every technique under MPICH and Open MPI side by side (issue 31); figures
# in bench/openmpi/README.md.
#   1. the usage corpus (scenarios/usage) built against Open MPI;
#   2. MPI-CorrBench level 0 compiled by mpicc and mpicc.openmpi (side by side);
#   3. the scenario campaigns of each technique, MPICH then Open MPI
#      (tests/openmpi/same_findings.sh): NINJA's three cases, MPI-PD/PDG's
#      deadlock, crash, abort and early-exit scenarios, KCCA's allgather
#      overflow, DMTracker's three scenarios.
# usage: bench/openmpi/run.sh BUILD_DIR OUT_DIR [corpus|corrbench|campaigns]...
# (default: all three; each part's output in OUT_DIR/<part>.txt;
# CORRBENCH_MPI=openmpi runs CorrBench's Open MPI half only)
set -u
build=$(cd "$1" && pwd) out=$2
shift 2
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(corpus corrbench campaigns)
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
for part in "${parts[@]}"; do
  echo "== $part: $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
  case $part in
    corpus) python3 "$src/tests/usage/usage_corpus.py" "$build/scalefuzz" "$src" "$build" "$out/corpus" --mpi openmpi ;;
    corrbench) python3 "$src/bench/corrbench/corrbench.py" "$build/scalefuzz" "$out/corrbench" --mpi "${CORRBENCH_MPI:-both}" --timeout 30 \
                 --json "$out/corrbench.json" ;;
    campaigns) bash "$src/tests/openmpi/same_findings.sh" "$build/scalefuzz" "$src" "$out/campaigns" \
                 deadlock_cycle crash_in_compute mpipd_early_exit mpipd_task_farm_abort mpipd_invalid_source_irecv \
                 mpipd_truncated_recv mpipd_bcast_extra_send mpipd_writer_nomination \
                 dmtracker_pipeline_relay dmtracker_stuck_retry dmtracker_ghost_forward dmtracker_pipeline_relay_clean \
                 dmtracker_stuck_retry_clean dmtracker_ghost_forward_clean \
                 ninja_case1 ninja_case2 ninja_case3 vrisha_allgather_overflow ;;
    *) echo "unknown part $part (corpus, corrbench, campaigns)"; exit 2 ;;
  esac 2>&1 | tee "$out/$part.txt"
  echo "== $part done: $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
done
