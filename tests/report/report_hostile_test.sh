#!/usr/bin/env bash
# Issue 34 item 5: hostile strings in every place a user's string reaches
# report.html — parameter values (run table, chart data, replay lines), the
# environment, the command's arguments, the result-check regex (outcome
# details, findings), the program's output, the campaign file's and the
# output directory's paths — and the page still renders in real headless
# Chromium: every nav section present (a "<!--<script>" in the chart data
# once swallowed Findings and Runs), no console error (an injected
# <img onerror> or <script> would log one), no horizontal overflow.
# Usage: report_hostile_test.sh SCALEFUZZ SOURCE_DIR WORK_DIR
set -uo pipefail
scalefuzz="$1"; src="$2"; work="$3"
build="$(dirname "$scalefuzz")"
rm -rf "$work"
dir="$work/dir <!--<script>&'\"x</script>"
mkdir -p "$dir"
cat >"$dir/c.yaml" <<'YAML'
campaign: hostile
app:
  command: ["{build}/scenarios/ring", "--iterations", "2", "--count", "16"]
  env: { HOSTILE: "{label}", MORE: "</script><!--<script>" }
  check: { stdout-must-match: "<!--<script>never</script><img src=x onerror=console.error('regex')>" }
scales: [2]
parameters:
  label:
    - "<!--<script>"
    - "</script><script>console.error('param')</script>"
    - "<img src=x onerror=console.error('img')>"
    - "]]><![CDATA[ & &amp; \" ' \u2028 \u2029 <!-- -->"
timeout: 60s
detectors: [races]
YAML
"$scalefuzz" run "$dir/c.yaml" --out "$dir/out" >"$work/run.log" 2>&1
rc=$?
if [[ $rc -ne 1 ]]; then echo "FAIL: scalefuzz run exited $rc, expected 1 (every run a wrong result)"; tail -20 "$work/run.log"; exit 1; fi
grep -q '&lt;!--&lt;script&gt;' "$dir/out/report.html" || { echo "FAIL: the parameter value is not in the report as text"; exit 1; }
if ! python3 "$src/tests/report/browser_check.py" "$dir/out/report.html" --screenshot "$work/hostile.png" \
    --section runs >"$work/check.json" 2>"$work/check.err"; then
  echo "FAIL: the hostile report in Chromium:"; cat "$work/check.err"; exit 1
fi
echo "ok: report with hostile strings renders every section ($work/hostile.png)"
