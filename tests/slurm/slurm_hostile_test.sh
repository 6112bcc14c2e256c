#!/usr/bin/env bash
# Hostile parameter strings and a hostile output directory go through submit,
# the batch scripts and the tasks without ever being executed: no marker file
# appears, and the application receives each string byte for byte.
source "$(dirname "$0")/slurm_test_lib.sh"

m="$WORK/pwned"
cat >hostile.yaml <<YAML
campaign: hostile
app:
  command: ["/bin/echo", "payload=[{payload}]"]
scales: { test: [1] }
parameters:
  payload:
    - "\$(touch $m-1)"
    - "\`touch $m-2\`"
    - "x; touch $m-3"
    - "it's \"quoted\" ' && touch $m-4 && '"
    - "line1\ntouch $m-5"
    - "%j \\\\ \$SLURM_JOB_ID \${HOME}"
timeout: 30s
detectors: [mpipd]
scheduler: { type: slurm, time: "5", comment: x }
YAML
# scheduler.comment is not a key: refused with its position.
"$SF" submit hostile.yaml --out out >bad.txt 2>&1
expect_eq "an unknown scheduler key is a campaign error" "$?" 2
expect_grep "named with file:line:column" 'hostile.yaml:[0-9]+:[0-9]+: unknown key .comment. in scheduler' bad.txt
sed -i 's/, comment: x//' hostile.yaml

out="$WORK/out \$(touch $m-6) \`touch $m-7\` 'q\" ;x"
"$SF" submit hostile.yaml --out "$out" >submit.txt 2>&1
expect_eq "submit exits 0" "$?" 0
"$SF" collect "$out" --wait --poll 500ms >collect.txt 2>&1
expect_eq "collect exits 0" "$?" 0
expect_eq "6 runs, all ok" "$(sqlite3 "$out/scalefuzz.db" "SELECT count(*) FROM runs WHERE outcome = 'ok'")" 6
markers="$(ls "$WORK" | grep -c '^pwned' || true)"
expect_eq "no marker file was created" "$markers" 0
if grep -lE 'pwned-[1-5]|line1' "$out"/slurm/scripts/*.sh >/dev/null; then bad "a batch script holds a parameter"; else ok "the batch scripts hold no parameter"; fi
python3 - "$out" <<'PY' >payloads.txt
import json, sys, os
out = sys.argv[1]
good = 0
for r in json.load(open(out + "/slurm/runs.json")):
    want = "payload=[" + r["params"]["payload"] + "]\n"
    got = open(os.path.join(out, "runs", r["run_id"], "stdout.txt")).read()
    good += got == want
    if got != want: print("mismatch", repr(want), repr(got))
print(good)
PY
expect_eq "every payload reached the application verbatim" "$(tail -n 1 payloads.txt)" 6
grep mismatch payloads.txt | head -3
finish
