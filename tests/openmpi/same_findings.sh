#!/usr/bin/env bash
# The same campaign under MPICH and under Open MPI gives the same findings
# (issue 31). For each CAMPAIGN (a file configs/scenarios/CAMPAIGN.yaml): the
# campaign as it is (MPICH: {build}/scenarios/X, Hydra's mpiexec), then its
# Open MPI twin, written here: the programs of {build}/scenarios/openmpi/X
# (built against Open MPI by scalefuzz_add_openmpi_scenario) and `mpi:
# openmpi` (started by mpirun.openmpi, recorded by
# libscalefuzz_inject_openmpi.so). Compared per run id (scale, parameters,
# noise, repetition are the same in both): every finding's detector, kind,
# severity, ranks and location (file paths cut to their names), and an
# outcome finding's signal. Details like pids, timings and scores are not
# compared. Where the runs differ (which worker of a task farm aborts
# first varies from run to run under either MPI), the campaign still
# passes when, per campaign point (the run id without its repetition), the
# errors and warnings are the same (detector, kind, location), ranks and
# repetitions aside; it says so. Prints both lists where they differ.
# Usage: same_findings.sh SCALEFUZZ SOURCE_TREE WORK_DIR CAMPAIGN...
# (tests/CMakeLists.txt runs a subset as OpenMpiSameFindings; every campaign
# of the issue: bench/openmpi/README.md)
set -u
scalefuzz=$1 src=$2 work=$3
shift 3
mkdir -p "$work"
source "$(dirname "$0")/../check.sh"  # check FILE WHAT EXPR, $fail
unset OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM  # the launcher's --allow-run-as-root must do it

# A rank that exits non-zero before MPI_Finalize is a SIGKILL in Hydra's
# report (crashed, signal 9, "Hydra also reports this when a rank exited
# early": harness/launcher/README.md, known limits) and its exit code in Open
# MPI's (failed): both are compared as "failed-or-killed".
summary() {  # FINDINGS.json -> the compared fields, sorted
  jq -S '[.findings[] | (.detector == "outcome" and (.kind == "failed" or
           (.kind == "crashed" and (.title | test("exited early without MPI_Finalize"))))) as $early
         | {run: .run_id, detector, kind: (if $early then "failed-or-killed" else .kind end), severity, ranks,
           location: ((.location // "") | gsub("/[^ ():]*/"; "")),
           signal: (if .detector == "outcome" and ($early | not) then (.details.signal // 0) else null end)}]
         | sort_by(.run, .detector, .kind, (.ranks | tostring), .location)' "$1"
}

points() {  # SUMMARY -> per campaign point, the errors' and warnings' (detector, kind, location)
  jq -S '[.[] | select(.severity == "error" or .severity == "warning")
          | {point: (.run | sub("-r[0-9]+$"; "")), detector, kind, location}] | unique' "$1"
}

for name in "$@"; do
  yaml=$src/configs/scenarios/$name.yaml
  if ! grep -q '{build}/scenarios/' "$yaml" || grep -q '^mpiexec:\|^launcher:\|^mpi:' "$yaml"; then
    echo "FAIL: $name: not a campaign this script can make an Open MPI twin of"; fail=1; continue
  fi
  twin=$work/openmpi_$name.yaml
  sed -e 's#{build}/scenarios/#{build}/scenarios/openmpi/#g' -e 's/^campaign: */campaign: openmpi_/' "$yaml" >"$twin"
  printf 'mpi: openmpi\n' >>"$twin"
  rm -rf "$work/mpich_$name" "$work/openmpi_$name"
  start=$(date +%s)
  campaign_findings "$scalefuzz" "$yaml" "$work/mpich_$name"
  mpich=$f
  middle=$(date +%s)
  campaign_findings "$scalefuzz" "$twin" "$work/openmpi_$name"
  end=$(date +%s)
  if ! grep -q 'runs finished' "$work/openmpi_$name.log"; then
    echo "FAIL: $name: the Open MPI campaign did not run"; tail -5 "$work/openmpi_$name.log"; fail=1; continue
  fi
  summary "$mpich" >"$work/mpich_$name.summary"
  summary "$f" >"$work/openmpi_$name.summary"
  what=$(jq -c '[.[] | "\(.detector)/\(.kind)"] | group_by(.) | map("\(.[0]) x\(length)") | join(", ")' \
         "$work/mpich_$name.summary")
  if [ "$(jq length "$work/mpich_$name.summary")" -gt 0 ] &&
     diff "$work/mpich_$name.summary" "$work/openmpi_$name.summary" >"$work/$name.diff"; then
    echo "ok:   $name: Open MPI findings equal MPICH's ($what; MPICH $((middle - start)) s, Open MPI $((end - middle)) s)"
  elif points "$work/mpich_$name.summary" >"$work/mpich_$name.points" &&
       points "$work/openmpi_$name.summary" >"$work/openmpi_$name.points" &&
       [ "$(jq length "$work/mpich_$name.points")" -gt 0 ] &&
       diff -q "$work/mpich_$name.points" "$work/openmpi_$name.points" >/dev/null; then
    echo "ok:   $name: per campaign point the same errors and warnings under both MPIs ($what); which rank or repetition showed them differs (MPICH $((middle - start)) s, Open MPI $((end - middle)) s)"
  else
    echo "FAIL: $name: Open MPI findings differ from MPICH's ($what)"
    jq -c '.[]' "$work/mpich_$name.summary" >"$work/mpich_$name.lines"
    jq -c '.[]' "$work/openmpi_$name.summary" >"$work/openmpi_$name.lines"
    diff "$work/mpich_$name.lines" "$work/openmpi_$name.lines" | head -40
    echo "  per campaign point (errors and warnings):"
    diff <(jq -c '.[]' "$work/mpich_$name.points") <(jq -c '.[]' "$work/openmpi_$name.points") | head -20
    fail=1
  fi
done
exit $fail
