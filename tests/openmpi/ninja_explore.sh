#!/usr/bin/env bash
# NINJA cases 2 and 3 under MPICH and Open MPI with schedule exploration
# (issue 31: "the NINJA cases give the same findings"). Each case's quiet
# point (--races, no noise) with `explore:`, as configs/scenarios/ninja_caseN
# has it, under both MPIs (programs of {build}/scenarios and of
# {build}/scenarios/openmpi, `mpi: openmpi`). Compared:
# - the potential races: (receive site, send it took, competing send), equal;
# - MPICH: its quiet run ends ok and exploration finds a harmful race at every
#   racing receive site, forcing the other routine's send (not weakened);
# - Open MPI: when its quiet run ends ok too, the same harmful races (receive,
#   send taken, send forced). When it already failed, which it does here
#   without scalefuzz too (case 2: 640-874 of 3,200 receives match the wrong
#   routine's message, first_iteration=0; case 3 hangs within a few
#   iterations), no ok schedule exists to force from and an alternative forced
#   alone leaves the other wrong matches: exploration says undecided-race; then
#   a verdict (harmful- or undecided-race) at the same receive sites is what
#   is compared (bench/openmpi/README.md, "NINJA cases");
# - case 3: the hang (Open MPI's quiet run, MPICH's forced run of the harmful
#   race) analysed by `scalefuzz analyze`: the same MPI-PD kind and PDG
#   least-progressed site.
# Usage: ninja_explore.sh SCALEFUZZ SOURCE_TREE WORK_DIR
set -u
scalefuzz=$1 work=$3
mkdir -p "$work"
source "$(dirname "$0")/../check.sh"  # check FILE WHAT EXPR, $fail, campaign_findings
unset OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM

cut_paths='gsub("/[^ ():]*/"; "")'
campaign() {  # CASE ITERATIONS TIMEOUT BUDGET MPI -> the campaign file
  local dir=scenarios mpi_line=
  [ "$5" = openmpi ] && dir=scenarios/openmpi mpi_line='mpi: openmpi'
  cat >"$work/$5_case$1.yaml" <<EOF
campaign: ninja_case$1_$5
app:
  command: ["{build}/$dir/ninja_case$1", "--iterations", "$2", "--seed", "{seed}", "--races"]
  check: { stdout-must-match: "^case$1: OK ranks=" }
scales: [4]
noise: [{ mode: none }]
timeout: $3
detectors: [races, pdg, mpipd]
explore: { depth: 1, budget: $4 }
scheduler: { type: local, jobs: 1 }
$mpi_line
EOF
}
potential() {  # FINDINGS -> sorted (receive, taken, competitor) site triples
  jq -c "[.findings[] | select(.kind == \"potential-race\") | .details
          | [.taken.receive_site, .taken.send_site, .competitor.send_site] | map($cut_paths)] | unique" "$1"
}
harmful() {  # FINDINGS -> sorted (receive, send taken, send forced) of the harmful races
  jq -c "[.findings[] | select(.kind == \"harmful-race\") | .details
          | [.receive_routine, .base_send.send_site, .forced_send.send_site] | map($cut_paths)] | unique" "$1"
}
verdict_sites() {  # FINDINGS -> receive sites with an exploration verdict that it races
  jq -c "[.findings[] | select(.kind == \"harmful-race\" or .kind == \"undecided-race\")
          | .details.receive_routine | $cut_paths] | unique" "$1"
}
base_outcome() { jq -r '[.findings[] | select(.detector == "outcome") | .kind] | first // "ok"' "$1"; }
localization() {  # RUN_DIR -> MPI-PD's kind and PDG's least-progressed site of `scalefuzz analyze`
  "$scalefuzz" analyze "$1" >"$1.analyze" 2>&1
  sed -n -e 's/^\[mpipd\] MPI-PD: \([a-z-]*\).*/mpipd \1/p' \
         -e 's/^\[pdg\] least-progressed task .* blocked in \([^ ]*\) (.*\/\([^/]*:[0-9]*\)).*/pdg \1 (\2)/p' "$1.analyze" | sort -u
}
hang_run() {  # OUT FINDINGS -> the run directory that hung: the quiet run, else a harmful race's forced run
  local id
  id=$(jq -r '[.findings[] | select(.detector == "outcome" and .kind == "hang") | .run_id] | first // empty' "$2")
  [ -n "$id" ] && { echo "$1/runs/$id"; return; }
  id=$(jq -r '[.findings[] | select(.kind == "harmful-race" and (.details.outcome // "" | test("hang"))) | .run_id]
              | first // empty' "$2")
  [ -n "$id" ] && echo "$1/explore/runs/$id"
}

for c in "2 200 60s 20" "3 50 10s 6"; do
  set -- $c
  n=$1
  for mpi in mpich openmpi; do
    campaign "$1" "$2" "$3" "$4" $mpi
    rm -rf "$work/${mpi}_case$n"
    campaign_findings "$scalefuzz" "$work/${mpi}_case$n.yaml" "$work/${mpi}_case$n"
    cp "$f" "$work/${mpi}_case$n.json"
  done
  m=$work/mpich_case$n.json o=$work/openmpi_case$n.json
  check "$m" "case $n: MPICH's quiet run ends ok" "$(printf '%s' '[.findings[] | select(.detector == "outcome")] | length == 0')"
  check "$m" "case $n: MPICH: a potential race at routine_a's wildcard receive" \
    '[.findings[] | select(.kind == "potential-race" and (.location | test("routine_a")))] | length > 0'
  # Every receive site with a potential race has a harmful race forcing the other routine's send.
  check "$m" "case $n: MPICH: a harmful race at every racing receive, forcing the other routine's send" \
    "([.findings[] | select(.kind == \"potential-race\") | .location | $cut_paths] | unique) ==
     ([.findings[] | select(.kind == \"harmful-race\" and
        (.details.forced_send.send_site | split(\" \")[0]) != (.details.receive_routine | split(\" \")[0]))
       | .location | $cut_paths] | unique)"
  if [ "$(potential "$m")" = "$(potential "$o")" ]; then
    echo "ok:   case $n: the same potential races under both MPIs: $(potential "$m")"
  else
    echo "FAIL: case $n: potential races differ: MPICH $(potential "$m"), Open MPI $(potential "$o")"; fail=1
  fi
  outcome=$(base_outcome "$o")
  if [ "$outcome" = ok ]; then
    if [ "$(harmful "$m")" = "$(harmful "$o")" ]; then
      echo "ok:   case $n: both quiet runs ok, the same harmful races: $(harmful "$m")"
    else
      echo "FAIL: case $n: harmful races differ: MPICH $(harmful "$m"), Open MPI $(harmful "$o")"; fail=1
    fi
  elif [ "$(verdict_sites "$m")" = "$(verdict_sites "$o")" ]; then
    echo "ok:   case $n: Open MPI's quiet run already ended $outcome (its delivery order, without scalefuzz too);" \
         "a race verdict at the same receive sites: $(verdict_sites "$o")" \
         "(Open MPI: $(jq -r '[.findings[] | select(.kind | test("harmful-race|undecided-race")) | .kind] | unique | join(", ")' "$o"))"
  else
    echo "FAIL: case $n: race verdicts at other receive sites: MPICH $(verdict_sites "$m"), Open MPI $(verdict_sites "$o")"
    fail=1
  fi
  if [ "$n" = 3 ]; then
    mh=$(hang_run "$work/mpich_case3" "$m") oh=$(hang_run "$work/openmpi_case3" "$o")
    if [ -z "$mh" ] || [ -z "$oh" ]; then
      echo "FAIL: case 3: no hung run to localize (MPICH: '${mh}', Open MPI: '${oh}')"; fail=1
    else
      ml=$(localization "$mh") ol=$(localization "$oh")
      if [ "$(grep -c '^pdg routine_b' <<<"$ml")" -gt 0 ] && [ "$ml" = "$ol" ]; then
        echo "ok:   case 3: the hang localized the same under both MPIs:" $ml
      else
        echo "FAIL: case 3: hang localization differs: MPICH [$ml] ($mh), Open MPI [$ol] ($oh)"; fail=1
      fi
    fi
  fi
done
exit $fail
