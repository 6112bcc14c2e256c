#include "commands.hpp"

namespace scalefuzz::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"run", "expand a campaign, launch every run locally, analyse and report",
       "usage: scalefuzz run CAMPAIGN.yaml [--out DIR] [--dry-run] [--filter EXPR] [--jobs N] [--build DIR]\n\n"
       "Expands the campaign (scales x parameters x noise x repetitions), launches each run with\n"
       "mpiexec and the recording injector, stores it as soon as it ends, then runs the campaign's\n"
       "detectors and writes findings.json, junit.xml and report.html into DIR.\n"
       "Running the same campaign into the same DIR again resumes: finished runs are kept.\n"
       "Runs with noise mode application start after all others: each reads the analysis of a\n"
       "finished system-mode run of its point (same np and parameters); without one it fails\n"
       "with a launch error naming it.\n\n"
       "  --out DIR       output directory (default: out/<campaign name>)\n"
       "  --dry-run       print every command that would run, run nothing\n"
       "  --filter EXPR   only runs matching EXPR, e.g. 'np>=8,noise=system|none,count=512'\n"
       "                  (keys: np, role, noise, rep, seed, id, any parameter; ops = != < <= > >= ~ !~)\n"
       "  --jobs N        runs launched at once (default: scheduler.jobs of the campaign, else 1)\n"
       "  --build DIR     directory substituted for {build} (default: this scalefuzz's build tree)\n\n"
       "Exit: 0 nothing found, 1 findings, 2 campaign or usage error, 3 infrastructure failure,\n"
       "130 interrupted (run again to resume).\n",
       cmd_run},
      {"analyze", "rerun the detectors on stored results (a campaign DIR or one run directory)",
       "usage: scalefuzz analyze DIR\n\n"
       "DIR is a campaign output directory: reruns its detectors, stores the findings and rewrites\n"
       "the reports. DIR is a single run directory (from 'scalefuzz exec' or OUT/runs/<id>):\n"
       "localizes its hang or crash and prints the findings.\n"
       "Exit: 0 nothing found, 1 findings, 2 not a result directory.\n",
       cmd_analyze},
      {"report", "rebuild findings.json, junit.xml and report.html from stored results",
       "usage: scalefuzz report DIR\n\n"
       "Rewrites the reports of the campaign output directory DIR from its store, without\n"
       "rerunning anything. Exit: 0 nothing found, 1 findings, 2 not a campaign directory.\n",
       cmd_report},
      {"exec", "run one mpiexec command under the injector and record it",
       "usage: scalefuzz exec [OPTIONS] -- mpiexec -n N ./app [args]\n\n"
       "Runs the command once with the recording injector preloaded into every rank, with the\n"
       "same timeout handling (freeze, stacks, kill) and outcome classes as a campaign run.\n\n"
       "  --out DIR             run directory (default: out/exec; its previous recording is replaced)\n"
       "  --noise MODE          none|random|system|application|local (default none)\n"
       "  --noise-set KEY=VAL   a noise setting, repeatable (e.g. --noise-set scale=1.2); knobs per mode in\n"
       "                        docs/campaign-file.md. application needs analysis=DIR: the --out of an earlier\n"
       "                        --noise system run of the same command (its ninja/ analysis is read)\n"
       "  --seed N              seed for the noise decisions (default: a fresh one, printed)\n"
       "  --check KIND=REGEX    the result check: stdout-regex, stderr-regex or output-regex (both\n"
       "                        streams): a matching line is a wrong result; stdout-must-match,\n"
       "                        stderr-must-match, output-must-match: no matching line is; or exit-code\n"
       "  --timeout DUR         e.g. 30s, 2m (default 300s)\n"
       "  --oversubscribe MODE  auto|on|off: complete blocking calls by test-and-sleep (default auto)\n"
       "  --stall RANK:CALL     rank RANK stops progressing at the entry of its CALL-th MPI call (stall\n"
       "                        fault injection; the run hangs until --timeout)\n"
       "  --no-record           run without the injector\n"
       "Exit: 0 the run ended ok, 1 it did not, 2 usage error, 3 launcher or injector missing.\n",
       cmd_exec},
      {"reproduce", "rerun one campaign point under escalating noise until a race, hang or crash shows",
       "usage: scalefuzz reproduce CAMPAIGN.yaml --until race|hang|crash|any [--max-runs N] [--out DIR]\n"
       "                           [--filter EXPR] [--build DIR]\n\n"
       "Takes the first run of the campaign (after --filter) as the point to reproduce (its process\n"
       "count and parameters) and reruns it, one run at a time, each with a fresh seed, under\n"
       "escalating NINJA noise: none, then system-centric (scale 1) and application-centric (scale\n"
       "1.2, reading the last system run's ninja/ analysis), then both again with the scales doubled\n"
       "(2 / 2.4, 4 / 4.8, ...). Other knobs come from the campaign's profile of that mode. It stops\n"
       "at the first run where the target shows, runs the campaign's detectors, writes the reports\n"
       "into DIR and prints the run directory and the 'scalefuzz exec' command (seed, noise settings,\n"
       "analysis directory) that replays it.\n\n"
       "  --until T       race: a wrong result (the campaign's check) or an unintended match found by\n"
       "                  the races detector against the quiet first run; hang: a timeout; crash: a\n"
       "                  crash, MPI abort or failing exit code; any: any of these\n"
       "  --max-runs N    runs at most (default 12)\n"
       "  --out DIR       output directory (default: out/<campaign name>-reproduce); runs already\n"
       "                  finished there by the same command are reused, not rerun\n"
       "  --filter EXPR   picks the point, as for 'scalefuzz run' (e.g. 'np=4,variant=--races')\n"
       "  --build DIR     directory substituted for {build} (default: this scalefuzz's build tree)\n\n"
       "Exit: 1 the target manifested (replay command printed), 0 not within --max-runs,\n"
       "2 campaign or usage error, 3 infrastructure failure.\n",
       cmd_reproduce},
      {"kcca-eval", "cross-validate the Vrisha scale model of a campaign's train runs",
       "usage: scalefuzz kcca-eval DIR [--folds K] [--sensitivity]\n\n"
       "DIR is a campaign output directory with runs of scale role 'train' (scales.train). Trains the\n"
       "KCCA model with the campaign's kcca: settings on its clean train runs, prints the k-fold\n"
       "cross-validated false-positive rate (folds hold whole scales when there are at least K of\n"
       "them, else whole runs, else single ranks) and how many ranks of each test run the model\n"
       "flags. Nothing is written.\n\n"
       "  --folds K        folds of the cross-validation (default 5)\n"
       "  --sensitivity    also the false-positive rate as N_comps (1-10), gamma (2^-20..2^0) and each\n"
       "                   kernel width factor (x 2^-20..2^20) vary, one at a time (the paper's Table 1)\n\n"
       "Exit: 0 evaluated, 2 not a campaign directory or no clean train runs.\n",
       cmd_kcca_eval},
      {"trace", "print a run's recorded events and call sites, symbolized",
       "usage: scalefuzz trace RUN_DIR [--rank N] [--no-symbols]\n\n"
       "Lists every rank's recorded MPI calls (or only rank N) and its call sites with\n"
       "function and file:line. --no-symbols skips addr2line.\n",
       cmd_trace},
  };
  return table;
}

}  // namespace scalefuzz::cli
