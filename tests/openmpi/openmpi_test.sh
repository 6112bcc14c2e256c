#!/usr/bin/env bash
# Open MPI end to end (issue 31): programs built against Open MPI
# (build/scenarios/openmpi/), started by mpirun.openmpi, recorded by
# libscalefuzz_inject_openmpi.so, give the same outcomes and findings as their
# MPICH builds under mpiexec:
#   exec: `scalefuzz exec -- mpirun.openmpi -n 4 ring` is ok, every rank's
#     trace is read and its messages matched, `scalefuzz trace` reads it,
#     `scalefuzz replay` reproduces it (with the Open MPI injector);
#   mismatch: an Open MPI program under MPICH's mpiexec (and the reverse) is
#     refused with exit code 2 and a message naming both MPIs, nothing run;
#   campaigns ring / deadlock_cycle / crash_in_compute: per run (nprocs) the
#     outcome kind and signal, and the findings (detector, kind, ranks) of
#     the Open MPI campaign equal the MPICH campaign's.
# Usage: openmpi_test.sh SCALEFUZZ SOURCE_TREE WORK_DIR
set -u
scalefuzz=$1 src=$2 work=$3
build=$(dirname "$scalefuzz")
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../check.sh"  # check FILE WHAT EXPR, $fail
# As root (CI) the launcher's --allow-run-as-root is what lets mpirun start:
# Open MPI's OMPI_ALLOW_RUN_AS_ROOT* must not come from the environment here.
unset OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM

# --- exec on an Open MPI application
"$scalefuzz" exec --out "$work/exec" -- mpirun.openmpi -n 4 "$build/scenarios/openmpi/ring" --iterations 50 \
  >"$work/exec.log" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q '^outcome: ok' "$work/exec.log" && [ "$(grep -c '^  rank [0-3]: [1-9][0-9]* events' "$work/exec.log")" = 4 ] &&
   grep -Eq '^  [1-9][0-9]* messages matched, 0 sends and 0 receives unmatched' "$work/exec.log"; then
  echo "ok:   exec mpirun.openmpi -n 4 ring: ok, 4 ranks recorded, every message matched"
else
  echo "FAIL: exec mpirun.openmpi -n 4 ring (rc $rc)"; cat "$work/exec.log"; fail=1
fi
if grep -q 'libscalefuzz_inject_openmpi.so' "$work/exec.log"; then
  echo "ok:   exec's replay line preloads the Open MPI injector"
else
  echo "FAIL: exec's replay line does not name libscalefuzz_inject_openmpi.so"; fail=1
fi
"$scalefuzz" trace "$work/exec" >"$work/trace.log" 2>&1
if [ $? = 0 ] && grep -q 'MPI_Sendrecv\|MPI_Isend\|MPI_Send' "$work/trace.log"; then
  echo "ok:   scalefuzz trace reads the Open MPI run"
else
  echo "FAIL: scalefuzz trace on the Open MPI run"; head -20 "$work/trace.log"; fail=1
fi

"$scalefuzz" replay "$work/exec" >"$work/replay.log" 2>&1
if [ $? = 0 ] && grep -q '^reproduced 1/1 (outcome ok' "$work/replay.log" && [ -s "$work/exec/replays/1/ranks/0.events" ]; then
  echo "ok:   scalefuzz replay of the Open MPI run: reproduced 1/1, recorded again"
else
  echo "FAIL: scalefuzz replay of the Open MPI run"; cat "$work/replay.log"; fail=1
fi

# --- a launcher of the other MPI: refused before anything runs
mismatch() {  # WHAT LOG COMMAND...
  local what=$1 log=$2; shift 2
  "$scalefuzz" exec --out "$work/$log" -- "$@" >"$work/$log.log" 2>&1
  local rc=$?
  if [ $rc = 2 ] && grep -q 'Open MPI' "$work/$log.log" && grep -q 'MPICH' "$work/$log.log" && [ ! -d "$work/$log/ranks" ]; then
    echo "ok:   $what refused (exit 2, names both MPIs)"
  else
    echo "FAIL: $what (rc $rc)"; cat "$work/$log.log"; fail=1
  fi
}
mismatch "Open MPI app under mpiexec (Hydra)" mm1 mpiexec -n 2 "$build/scenarios/openmpi/ring"
mismatch "MPICH app under mpirun.openmpi" mm2 mpirun.openmpi -n 2 "$build/scenarios/ring"

# --- the same campaign under both MPIs
# summary FINDINGS: every finding as (run id, detector, kind, ranks, and an
# outcome's signal), sorted; run ids (scale, parameters, noise, repetition)
# are the same in both campaigns, details like pids or timings are not compared.
summary() {
  jq -S '[.findings[] | {run: .run_id, detector, kind, ranks,
           signal: (if .detector == "outcome" then (.details.signal // 0) else null end)}]
         | sort_by(.run, .detector, .kind, (.ranks | tostring))' "$1"
}
for name in ring deadlock_cycle crash_in_compute; do
  campaign_findings "$scalefuzz" "$src/configs/scenarios/$name.yaml" "$work/mpich_$name"
  mpich=$f
  campaign_findings "$scalefuzz" "$src/configs/scenarios/openmpi_$name.yaml" "$work/openmpi_$name"
  summary "$mpich" >"$work/mpich_$name.summary"
  summary "$f" >"$work/openmpi_$name.summary"
  if [ -s "$work/mpich_$name.summary" ] && diff "$work/mpich_$name.summary" "$work/openmpi_$name.summary" >"$work/$name.diff"; then
    echo "ok:   $name: Open MPI findings equal MPICH's ($(jq -c '[.[] | "\(.detector)/\(.kind)"] | group_by(.) | map("\(.[0]) x\(length)")' "$work/mpich_$name.summary"))"
  else
    echo "FAIL: $name: Open MPI differs from MPICH"; cat "$work/$name.diff"; tail -5 "$work/openmpi_$name.log"; fail=1
  fi
done
if grep -q '^campaign openmpi_ring: 24/24 runs finished' "$work/openmpi_ring.log"; then
  echo "ok:   Open MPI ring: 24/24 runs finished"
else
  echo "FAIL: Open MPI ring did not finish its 24 runs"; tail -5 "$work/openmpi_ring.log"; fail=1
fi
check "$work/openmpi_ring/findings.json" "Open MPI ring: no outcome finding (every run ok, 2 at a time)" \
  '[.findings[] | select(.detector=="outcome")] | length==0'
check "$work/openmpi_deadlock_cycle/findings.json" "Open MPI deadlock_cycle: every run a hang" \
  '[.findings[] | select(.detector=="outcome")] | length==3 and all(.kind=="hang")'
check "$work/openmpi_crash_in_compute/findings.json" "Open MPI crash_in_compute: every run crashed by signal 11" \
  '[.findings[] | select(.detector=="outcome")] | length==3 and all(.kind=="crashed")'
exit $fail
