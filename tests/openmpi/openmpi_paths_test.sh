#!/usr/bin/env bash
# Open MPI through the paths that choose an MPI or a launcher (issue 31):
#   mpi key: an application behind a wrapper script (no DT_NEEDED to read)
#     runs under Open MPI with `mpi: openmpi` alone (mpirun.openmpi, the Open
#     MPI injector: every rank recorded; the replay line carries --mpi);
#     `mpi: openmpi` with MPICH's mpiexec and `mpi: mpich` for an Open MPI
#     binary are refused before the first run (exit 2, both MPIs named);
#     `exec --mpi openmpi` the same for one command;
#   explore: `scalefuzz explore` of an Open MPI run forces its wildcard
#     receives with the run's own launcher (mpirun.openmpi) and injector, and
#     a forced run replays (`scalefuzz replay`);
#   replay: a run under a launcher wrapper (`launcher: openmpi`) of a wrapped
#     application (`mpi: openmpi`) replays from its directory (launch.json);
#   reproduce: `scalefuzz reproduce --until race` on the Open MPI twin of
#     configs/scenarios/explore_task_pool.yaml reproduces the race.
# Usage: openmpi_paths_test.sh SCALEFUZZ SOURCE_TREE WORK_DIR
set -u
scalefuzz=$1 src=$2 work=$3
build=$(dirname "$scalefuzz")
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../check.sh"  # check FILE WHAT EXPR, $fail
unset OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM  # the launcher's --allow-run-as-root must do it

expect() {  # WHAT WANT_RC LOG COMMAND...: runs COMMAND into LOG, checks its exit code
  local what=$1 want=$2 log=$3; shift 3
  "$@" >"$log" 2>&1
  local rc=$?
  if [ "$rc" = "$want" ]; then echo "ok:   $what (exit $rc)"; else echo "FAIL: $what: exit $rc, expected $want"; tail -15 "$log"; fail=1; fi
}
names_both() {  # WHAT LOG
  if grep -q 'Open MPI' "$2" && grep -q 'MPICH' "$2"; then echo "ok:   $1 names both MPIs"; else echo "FAIL: $1 does not name both MPIs"; cat "$2"; fail=1; fi
}

# --- the mpi: key on a wrapper script
wrapper=$work/ring-wrapper.sh
printf '#!/bin/sh\n# a site wrapper: the MPI is not in this file'"'"'s DT_NEEDED\nexec %q "$@"\n' \
  "$build/scenarios/openmpi/ring" >"$wrapper"
chmod +x "$wrapper"
campaign() {  # FILE EXTRA_LINES...
  local file=$1; shift
  { printf 'campaign: wrapped\napp:\n  command: ["%s", "--iterations", "20"]\nscales: [2]\ntimeout: 60s\ndetectors: []\n' "$wrapper"
    printf '%s\n' "$@"; } >"$file"
}
campaign "$work/wrapped.yaml" "mpi: openmpi"
expect "mpi: openmpi on a wrapper script runs" 0 "$work/wrapped.log" "$scalefuzz" run "$work/wrapped.yaml" --out "$work/wrapped"
run_dir=$(ls -d "$work"/wrapped/runs/*/ 2>/dev/null | head -1)
if [ -n "$run_dir" ] && [ -s "$run_dir/ranks/0.events" ] && [ -s "$run_dir/ranks/1.events" ] &&
   grep -q '"mpirun.openmpi"' "$run_dir/launch.json"; then
  echo "ok:   both ranks recorded by the Open MPI injector under mpirun.openmpi"
else
  echo "FAIL: the wrapped run was not recorded under mpirun.openmpi"; ls -R "$work/wrapped" | head -30; fail=1
fi
if grep -q -- '--mpi openmpi' "$run_dir/replay.txt"; then echo "ok:   its replay line carries --mpi openmpi"
else echo "FAIL: replay.txt lacks --mpi openmpi"; cat "$run_dir/replay.txt"; fail=1; fi
campaign "$work/hydra.yaml" "mpi: openmpi" "mpiexec: [mpiexec]"
expect "mpi: openmpi under MPICH's mpiexec is refused" 2 "$work/hydra.log" "$scalefuzz" run "$work/hydra.yaml" --out "$work/hydra"
names_both "the refusal" "$work/hydra.log"
[ -d "$work/hydra/runs" ] && { echo "FAIL: a refused campaign ran"; fail=1; }
printf 'campaign: wrongkey\napp:\n  command: ["%s"]\nscales: [2]\nmpi: mpich\n' "$build/scenarios/openmpi/ring" >"$work/wrongkey.yaml"
expect "mpi: mpich for an Open MPI binary is refused" 2 "$work/wrongkey.log" "$scalefuzz" run "$work/wrongkey.yaml" --out "$work/wrongkey"
names_both "the refusal" "$work/wrongkey.log"
expect "exec --mpi openmpi on the wrapper" 0 "$work/exec_wrapped.log" \
  "$scalefuzz" exec --mpi openmpi --out "$work/exec_wrapped" -- mpirun.openmpi -n 2 "$wrapper" --iterations 20
[ "$(grep -c '^  rank [01]: [1-9][0-9]* events' "$work/exec_wrapped.log")" = 2 ] &&
  echo "ok:   exec --mpi openmpi: both ranks recorded" || { echo "FAIL: exec --mpi openmpi recorded no events"; fail=1; }
expect "exec --mpi mpich under mpirun.openmpi is refused" 2 "$work/exec_mm.log" \
  "$scalefuzz" exec --mpi mpich --out "$work/exec_mm" -- mpirun.openmpi -n 2 "$wrapper"
names_both "the refusal" "$work/exec_mm.log"

# --- replay from the run directory alone: a site's launcher wrapper named
# `launcher: openmpi` and an application wrapper named `mpi: openmpi`;
# neither word says Open MPI, so replay needs launch.json's launcher and mpi
# (before they were recorded: Hydra's arguments and the MPICH injector).
site_mpirun=$work/site-mpirun
printf '#!/bin/sh\nexec mpirun.openmpi "$@"\n' >"$site_mpirun"
chmod +x "$site_mpirun"
campaign "$work/site.yaml" "mpi: openmpi" "launcher: openmpi" "mpiexec: [$site_mpirun]"
expect "a campaign under a site's launcher wrapper runs" 0 "$work/site.log" "$scalefuzz" run "$work/site.yaml" --out "$work/site"
site_run=$(ls -d "$work"/site/runs/*/ 2>/dev/null | head -1)
check "${site_run}launch.json" "launch.json records the launcher plug-in and the MPI" \
  '.launcher == "openmpi" and .mpi == "openmpi" and (.mpiexec[0] | endswith("site-mpirun"))'
expect "replay of that run from its directory" 0 "$work/site-replay.log" "$scalefuzz" replay "$site_run"
grep -q '^reproduced 1/1' "$work/site-replay.log" && echo "ok:   reproduced 1/1 under the recorded launcher and MPI" ||
  { echo "FAIL: the site run was not reproduced"; tail -5 "$work/site-replay.log"; fail=1; }

# --- explore and replay on an Open MPI run
pool=$build/scenarios/openmpi/races_task_pool
"$scalefuzz" exec --out "$work/pool" --check 'stderr-regex=wrong match at loop' -- \
  mpirun.openmpi -n 3 "$pool" --iterations 4 --on-wrong count --races >"$work/pool.log" 2>&1
"$scalefuzz" explore "$work/pool" --budget 6 --out "$work/pool-explore" >"$work/explore.log" 2>&1
rc=$?
forced=$(sed -n 's/^\([0-9]*\) forced runs.*/\1/p' "$work/explore.log")
if [ "$rc" -le 1 ] && [ "${forced:-0}" -ge 1 ]; then
  echo "ok:   explore of the Open MPI run: $forced forced runs (exit $rc)"
else
  echo "FAIL: explore of the Open MPI run (exit $rc)"; cat "$work/explore.log"; fail=1
fi
# The race's verdict as under MPICH (scenarios/races/tests/explore_e2e_test.cpp):
# harmful, whether the base run was ok (a forced run changes the outcome) or
# went wrong itself (a forced run changes the failure: its wrong_matches line).
want=harmful-race
check "$work/pool-explore/findings.json" "explore: $want at rank 0's wildcard receive in task_pool.c" \
  "[.[] | select(.kind == \"$want\" and (.details.receive_routine // \"\" | test(\"task_pool.c\")))] | length == 1"
first=$(ls -d "$work"/pool-explore/explore/runs/*/ 2>/dev/null | head -1)
if [ -n "$first" ] && grep -q '"mpirun.openmpi"' "$first/launch.json" && [ -s "$first/ranks/0.events" ] &&
   ! grep -q '"launch-error"' "$first/outcome.json"; then
  echo "ok:   forced runs start under mpirun.openmpi with the Open MPI injector"
else
  echo "FAIL: the forced run $first"; cat "$first/outcome.json" "$first/launch.json" 2>/dev/null; fail=1
fi
expect "replay of a forced Open MPI run" 0 "$work/replay.log" "$scalefuzz" replay "$first"
grep -q '^reproduced 1/1' "$work/replay.log" && echo "ok:   reproduced 1/1" || { echo "FAIL: forced run not reproduced"; fail=1; }

# --- reproduce on an Open MPI campaign
sed -e 's#{build}/scenarios/#{build}/scenarios/openmpi/#g' -e 's/^campaign: */campaign: openmpi_/' \
  "$src/configs/scenarios/explore_task_pool.yaml" >"$work/pool.yaml"
printf 'mpi: openmpi\n' >>"$work/pool.yaml"
"$scalefuzz" reproduce "$work/pool.yaml" --until race --filter 'variant=--races' --max-runs 4 \
  --out "$work/reproduce" >"$work/reproduce.log" 2>&1
rc=$?
if grep -q '^reproduced race' "$work/reproduce.log"; then
  echo "ok:   reproduce --until race on the Open MPI task pool (exit $rc): $(grep '^reproduced race' "$work/reproduce.log")"
else
  echo "FAIL: reproduce on the Open MPI task pool (exit $rc)"; tail -20 "$work/reproduce.log"; fail=1
fi
exit $fail
