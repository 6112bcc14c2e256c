#!/usr/bin/env python3
"""Writes campaign files with long flow lists and huge repetition counts into
OUT_DIR (issue 34 item 8): run_fuzzer.sh replays them through the campaign
fuzzer under its time (-timeout) and memory (-rss_limit_mb) bounds before
fuzzing. Each ends in an error after its long part, so the whole list is
read before the loader answers; the repetition counts are refused or load.
usage: long_inputs.py OUT_DIR"""
import os
import sys

N = 100_000
HEAD = 'campaign: long\napp: { command: ["/bin/true", "{x}"] }\n'


def write(out, name, text):
    with open(os.path.join(out, name), "w") as f:
        f.write(text)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    values = ", ".join(str(i) for i in range(N))
    write(out, "flow-parameters-100000.yaml", HEAD + f"scales: [2]\nparameters: {{ x: [{values}, 7] }}\n")
    write(out, "block-parameters-100000.yaml",
          HEAD + "scales: [2]\nparameters:\n  x:\n" + "".join(f"    - v{i}\n" for i in range(N)) + "    - v7\n")
    write(out, "flow-scales-100000.yaml", HEAD + f"scales: [{', '.join(str(2 + i % 4000) for i in range(N))}]\n")
    write(out, "flow-env-100000.yaml",
          'campaign: long\napp:\n  command: ["/bin/true"]\n  env: {' +
          ", ".join(f"V{i}: x" for i in range(N)) + ", V7: y}\nscales: [2]\n")
    write(out, "flow-dmtracker-ranks-100000.yaml",
          HEAD + f"scales: [2]\nparameters: {{ x: [1] }}\ndmtracker: {{ ranks: [{values}, 7] }}\n")
    for reps in ("1000000", "1000001", "999999999999", "18446744073709551616"):
        write(out, f"repetitions-{reps}.yaml", HEAD + f"scales: [2]\nparameters: {{ x: [1] }}\nrepetitions: {reps}\n")
    write(out, "repetitions-1000000-times-params.yaml",
          HEAD + f"scales: [2, 3]\nparameters: {{ x: [{values}] }}\nrepetitions: 1000000\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
