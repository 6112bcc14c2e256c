#!/usr/bin/env bash
# End-to-end DMTracker: `scalefuzz run` on the two DMTracker scenarios and
# their clean twins (8 ranks, one run each), then checks of findings.json:
#   pipeline_relay: a broken-chain violation ranked first (Error) with a
#     context match, located at forward_panel's MPI_Send, the wrong buffer a
#     heap block allocated in alloc_lookahead;
#   stuck_retry: rank 5 the only outlier process, its top group the request
#     send of request_token;
#   ghost_forward (MPI_Pack/MPI_Unpack, 4 ranks): a broken chain ranked first
#     at exchange_y's MPI_Sendrecv, the invariant going through pack and
#     unpack; again with a short run of the same build that passed as the
#     known-good reference (dmtracker: {reference: ...});
#   clean twins: no violation, no outlier, exit 0;
#   kcca.chain_features: a KCCA model of the clean ghost exchange (train 4, 6;
#     test 8 ranks) has the chain types as features beyond the call sites,
#     and kcca-eval on that directory uses them too.
# Usage: dmtracker_campaign_test.sh SCALEFUZZ SOURCE_TREE WORK_DIR
set -u
scalefuzz=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../check.sh"  # check FILE WHAT EXPR, $fail
run() {  # name, campaign, expected exit code
  local name=$1 campaign=$2 want=$3
  "$scalefuzz" run "$campaign" --out "$work/$name" >"$work/$name.log" 2>&1
  local rc=$?
  if [ "$rc" = "$want" ]; then echo "ok:   $name exits $rc"; else echo "FAIL: $name exits $rc, expected $want"; tail -20 "$work/$name.log"; fail=1; fi
  [ -f "$work/$name/findings.json" ] || { echo "FAIL: no $work/$name/findings.json"; exit 1; }
}
cfg=$src/configs/scenarios
dm='[.findings[] | select(.detector=="dmtracker" and .severity!="info")]'

run pipeline "$cfg/dmtracker_pipeline_relay.yaml" 1
f=$work/pipeline/findings.json
check "$f" "pipeline: the first dmtracker finding is a broken chain (error) with a context match" \
  "$dm | .[0] | .kind == \"broken-chain\" and .severity == \"error\" and .details.context_matches > 0 and .details.abnormality > 0.7"
check "$f" "pipeline: located at forward_panel's MPI_Send in pipeline_relay.c" \
  "$dm | .[0] | (.location | test(\"^forward_panel \\\\(.*pipeline_relay\\\\.c:[0-9]+\\\\)\$\")) and .details.context_match.from.call == \"MPI_Send\""
check "$f" "pipeline: the wrong buffer is the look-ahead block, the expected one the panel" \
  "$dm | .[0] | (.details.context_match.source_buffer | test(\"alloc_lookahead\")) and (.details.expected_source_buffer | test(\"alloc_panel\"))"
check "$f" "pipeline: no outlier process" "$dm | map(select(.kind==\"outlier-process\")) | length == 0"

run pipeline_clean "$cfg/dmtracker_pipeline_relay_clean.yaml" 0
check "$work/pipeline_clean/findings.json" "pipeline clean twin: no dmtracker warning or error, chains analysed" \
  "($dm | length == 0) and ([.findings[] | select(.detector==\"dmtracker\" and .kind==\"summary\") | .details.fc_invariants >= 1] == [true])"

run stuck "$cfg/dmtracker_stuck_retry.yaml" 1
f=$work/stuck/findings.json
check "$f" "stuck: rank 5 is the only outlier process" \
  "$dm | map(select(.kind==\"outlier-process\")) | length == 1 and .[0].ranks == [5]"
check "$f" "stuck: its top group starts at request_token's MPI_Send" \
  "$dm | map(select(.kind==\"outlier-process\")) | .[0] | (.location | test(\"^request_token \\\\(.*stuck_retry\\\\.c:[0-9]+\\\\)\$\")) and .details.top_group.first_movement.call == \"MPI_Send\""
check "$f" "stuck: the distance chart is attached" \
  "$dm | map(select(.kind==\"outlier-process\")) | .[0].artifacts | map(.name) | index(\"dmtracker-distance-k\") != null"

run stuck_clean "$cfg/dmtracker_stuck_retry_clean.yaml" 0
check "$work/stuck_clean/findings.json" "stuck clean twin: no outlier, no violation" "$dm | length == 0"

run ghost "$cfg/dmtracker_ghost_forward.yaml" 1
f=$work/ghost/findings.json
first_broken_at_exchange_y="$dm | .[0] | .kind == \"broken-chain\" and .severity == \"error\" and .details.context_matches > 0 and .details.abnormality > 0.7 and (.location | test(\"^exchange_y \\\\(.*ghost_forward\\\\.c:[0-9]+\\\\)\$\")) and .details.context_match.from.call == \"MPI_Sendrecv\""
check "$f" "ghost: the first dmtracker finding is a broken chain at exchange_y's MPI_Sendrecv" "$first_broken_at_exchange_y"
check "$f" "ghost: the violated invariant goes pack -> message -> unpack -> pack" \
  "$dm | .[0] | [.details.invariant.movements[].kind] | .[0:4] == [\"pack\", \"message\", \"unpack\", \"pack\"]"

run ghost_clean "$cfg/dmtracker_ghost_forward_clean.yaml" 0
check "$work/ghost_clean/findings.json" "ghost clean twin: no dmtracker warning or error, chains analysed" \
  "($dm | length == 0) and ([.findings[] | select(.detector==\"dmtracker\" and .kind==\"summary\") | .details.fc_invariants >= 1] == [true])"

# Known-good invariants: a short run of the same build that passed (its rare
# path first fires at step 1) is the reference; call-site and allocation-site
# keys are those of one build, so the clean twin's binary cannot be.
sed -e 's/^campaign: .*/campaign: dmtracker-ghost-forward-short/' -e 's/steps: \[60\]/steps: [1]/' \
  "$cfg/dmtracker_ghost_forward.yaml" >"$work/ghost_short.yaml"
run ghost_short "$work/ghost_short.yaml" 0
{ sed 's/^campaign: .*/campaign: dmtracker-ghost-forward-reference/' "$cfg/dmtracker_ghost_forward.yaml"
  echo "dmtracker: { reference: \"$work/ghost_short\", ranks: [0, 1, 2, 3] }"; } >"$work/ghost_reference.yaml"
run ghost_reference "$work/ghost_reference.yaml" 1
f=$work/ghost_reference/findings.json
check "$f" "ghost with the short run as reference: the first finding is still the broken chain at exchange_y" "$first_broken_at_exchange_y"
check "$f" "ghost with the short run as reference: the summary names the reference" \
  "[.findings[] | select(.detector==\"dmtracker\" and .kind==\"summary\") | .details.invariants_from] == [\"$work/ghost_short\"]"

# The chain distribution as KCCA observation features (kcca.chain_features):
# the clean ghost exchange trained at 4 and 6 ranks, scored at 8, with and
# without them: with them the model has the chain types as extra features.
for chains in false true; do
  { sed -e "s/^campaign: .*/campaign: dmtracker-ghost-kcca-$chains/" -e 's/^scales: .*/scales: { train: [4, 6], test: [8] }/' \
        -e 's/^detectors: .*/detectors: [kcca]/' "$cfg/dmtracker_ghost_forward_clean.yaml"
    echo "kcca: { chain_features: $chains }"; } >"$work/ghost_kcca_$chains.yaml"
  "$scalefuzz" run "$work/ghost_kcca_$chains.yaml" --out "$work/ghost_kcca_$chains" >"$work/ghost_kcca_$chains.log" 2>&1
  [ -f "$work/ghost_kcca_$chains/kcca-model.json" ] || { echo "FAIL: no model (see $work/ghost_kcca_$chains.log)"; fail=1; }
done
without=$(jq '.feature_keys | length' "$work/ghost_kcca_false/kcca-model.json" 2>/dev/null || echo 0)
check "$work/ghost_kcca_true/kcca-model.json" "kcca.chain_features: recorded in the model, more features than the $without call sites" \
  ".provenance.options.chain_features == true and (.feature_keys | length) > $without and $without > 0"
# kcca-eval retrains with the stored campaign's kcca: settings: the chain
# features too, as many as the run's model has.
with=$(jq '.feature_keys | length' "$work/ghost_kcca_true/kcca-model.json" 2>/dev/null || echo 0)
if "$scalefuzz" kcca-eval "$work/ghost_kcca_true" 2>&1 | grep -q "observation: $with call-site and chain-type features"; then
  echo "ok:   kcca-eval applies kcca.chain_features ($with features)"
else echo "FAIL: kcca-eval without the chain features:"; "$scalefuzz" kcca-eval "$work/ghost_kcca_true" 2>&1 | head -5; fail=1; fi
exit $fail
