#!/usr/bin/env bash
# The nightly sweep: tonight's campaign into OUT_ROOT/<date>, compared with
# the last night by bug fingerprint, the last N nights kept, a trend of bugs
# per night written for the report.
#
# usage: ci/nightly.sh OUT_ROOT [--campaign FILE] [--keep N] [--window N] [--date YYYY-MM-DD]
#                      [--fail-on new|any|never] [--suppressions FILE] [--build DIR]
#                      [-- extra 'scalefuzz run' arguments, e.g. --filter rep=0]
#
#   --campaign FILE  the campaign (default configs/nightly-sweep.yaml). It is
#                    copied to OUT_ROOT/campaign.yaml and run from there, so
#                    a relative kcca.model (the sweep's: kcca-model.json)
#                    lives in OUT_ROOT and is reused night after night.
#   --keep N         nights kept (default 7); older night directories are removed
#   --window N       a bug found on any of the last N nights is "still there", not
#                    new (default 3): a bug that shows on some nights only does not
#                    fail the job each time it comes back; "gone" is against last night
#   --date D         tonight's name (default: today, UTC); reruns of one night resume it
#   --fail-on, --suppressions: as for 'scalefuzz diff' (default --fail-on new)
#
# Writes OUT_ROOT/<date>/{report.html,junit.xml,findings.json,diff.json,trend.json},
# OUT_ROOT/trend.json, and copies of tonight's reports in OUT_ROOT/latest/
# (a fixed path for CI artefacts). Exit: that of 'scalefuzz run --baseline' (0 pass,
# 1 the job fails per --fail-on, 2 usage or campaign error or an expired
# suppression, 3 infrastructure, 130 interrupted); the first night, without a
# baseline, exits 1 when it finds anything.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() { sed -n '5,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

[[ $# -ge 1 ]] || usage
out_root="$1"; shift
campaign="$here/configs/nightly-sweep.yaml"
keep=7
window=3
tonight="$(date -u +%Y-%m-%d)"
build="${SCALEFUZZ_BUILD_DIR:-$here/build}"
diff_args=()
run_extra=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --campaign) campaign="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --window) window="$2"; shift 2 ;;
    --date) tonight="$2"; shift 2 ;;
    --fail-on|--suppressions) diff_args+=("$1" "$2"); shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --) shift; run_extra=("$@"); break ;;
    *) echo "ci/nightly.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$window" =~ ^[1-9][0-9]*$ ]] || { echo "ci/nightly.sh: --window must be a positive number, got '$window'" >&2; exit 2; }
[[ "$keep" =~ ^[1-9][0-9]*$ ]] || { echo "ci/nightly.sh: --keep must be a positive number, got '$keep'" >&2; exit 2; }
[[ "$tonight" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] || { echo "ci/nightly.sh: --date must be YYYY-MM-DD, got '$tonight'" >&2; exit 2; }
[[ -f "$campaign" ]] || { echo "ci/nightly.sh: no campaign file $campaign" >&2; exit 2; }
scalefuzz="$build/scalefuzz"
[[ -x "$scalefuzz" ]] || { echo "ci/nightly.sh: $scalefuzz not built (run ci/build.sh)" >&2; exit 3; }
command -v jq >/dev/null || { echo "ci/nightly.sh: jq missing (ci/setup.sh installs it)" >&2; exit 3; }

mkdir -p "$out_root"
out_root="$(cd "$out_root" && pwd)"
cp "$campaign" "$out_root/campaign.yaml"
tonight_dir="$out_root/$tonight"

# Night directories are named by date; the last one before tonight with a
# findings.json is the baseline.
nights() { find "$out_root" -mindepth 1 -maxdepth 1 -type d -regextype posix-extended \
             -regex '.*/[0-9]{4}-[0-9]{2}-[0-9]{2}' -printf '%f\n' | sort; }
earlier=()  # nights before tonight with a findings.json, oldest first
while read -r night; do
  if [[ "$night" < "$tonight" && -f "$out_root/$night/findings.json" ]]; then earlier+=("$out_root/$night"); fi
done < <(nights)
baseline=""
if ((${#earlier[@]})); then
  baseline="${earlier[-1]}"
  # The window: a bug of one of the last N nights is still there, not new.
  for ((i = ${#earlier[@]} - 2; i >= 0 && i > ${#earlier[@]} - 1 - window; i--)); do
    diff_args+=(--seen-in "${earlier[i]}")
  done
fi

run_args=(run "$out_root/campaign.yaml" --out "$tonight_dir" --build "$build")
if [[ -n "$baseline" ]]; then
  echo "ci/nightly.sh: tonight $tonight_dir, compared with $baseline (window of $window nights)"
  run_args+=(--baseline "$baseline" "${diff_args[@]}")
else
  echo "ci/nightly.sh: tonight $tonight_dir, the first night (no earlier night in $out_root)"
fi
status=0
"$scalefuzz" "${run_args[@]}" "${run_extra[@]}" || status=$?
if [[ $status -ne 0 && $status -ne 1 && ! -f "$tonight_dir/findings.json" ]]; then
  echo "ci/nightly.sh: the campaign did not finish (exit $status); no night was pruned" >&2
  exit "$status"
fi

# Keep the last N nights (tonight included); only date-named directories
# holding a campaign store are ever removed.
mapfile -t all < <(nights)
if (( ${#all[@]} > keep )); then
  for night in "${all[@]:0:${#all[@]}-keep}"; do
    [[ -f "$out_root/$night/scalefuzz.db" ]] || continue
    echo "ci/nightly.sh: removing the night $night (keeping the last $keep)"
    rm -rf -- "${out_root:?}/$night"
  done
fi

# The trend: bugs per night, and what was new and gone against the night before.
trend_tmp="$out_root/.trend.json.tmp"
{
  for night in $(nights); do
    f="$out_root/$night/findings.json"
    [[ -f "$f" ]] || continue
    d="$out_root/$night/diff.json"
    if [[ -f "$d" ]]; then diff_doc="$d"; else diff_doc=/dev/null; fi
    jq -c --arg night "$night" --slurpfile diff "$diff_doc" '{
        night: $night, verdict: .verdict, bugs: (.bugs | length),
        serious_bugs: ([.bugs[] | select(.severity != "info")] | length),
        fingerprints: [.bugs[] | select(.severity != "info") | .fingerprint],
        new: (if ($diff | length) > 0 then $diff[0].counts.new else null end),
        gone: (if ($diff | length) > 0 then $diff[0].counts.gone else null end),
        still_there: (if ($diff | length) > 0 then $diff[0].counts.still_there else null end)}' "$f"
  done
} | jq -s '{format: "scalefuzz-trend", format_version: 1, nights: .}' > "$trend_tmp"
mv "$trend_tmp" "$out_root/trend.json"
if [[ -f "$tonight_dir/findings.json" ]]; then
  cp "$out_root/trend.json" "$tonight_dir/trend.json"
  "$scalefuzz" report "$tonight_dir" >/dev/null || true   # the report picks up trend.json
  # A fixed place for CI artefacts: copies of tonight's reports.
  rm -rf "$out_root/latest.tmp"
  mkdir -p "$out_root/latest.tmp"
  for f in report.html junit.xml findings.json diff.json trend.json; do
    if [[ -f "$tonight_dir/$f" ]]; then cp "$tonight_dir/$f" "$out_root/latest.tmp/"; fi
  done
  rm -rf "$out_root/latest"
  mv "$out_root/latest.tmp" "$out_root/latest"
fi
echo "ci/nightly.sh: trend of $(jq '.nights | length' "$out_root/trend.json") nights in $out_root/trend.json"
exit "$status"
