#include "commands.hpp"

namespace scalefuzz::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"run", "expand a campaign, launch every run locally, analyse and report",
       "usage: scalefuzz run CAMPAIGN.yaml [--out DIR] [--dry-run] [--filter EXPR] [--jobs N] [--build DIR]\n\n"
       "Expands the campaign (scales x parameters x noise x repetitions), launches each run with\n"
       "mpiexec and the recording injector, stores it as soon as it ends, then runs the campaign's\n"
       "detectors and writes findings.json, junit.xml and report.html into DIR.\n"
       "Running the same campaign into the same DIR again resumes: finished runs are kept.\n\n"
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
       "  --noise-set KEY=VAL   a noise setting, repeatable (e.g. --noise-set scale=1.2)\n"
       "  --seed N              seed for the noise decisions (default: fixed)\n"
       "  --timeout DUR         e.g. 30s, 2m (default 300s)\n"
       "  --oversubscribe MODE  auto|on|off: complete blocking calls by test-and-sleep (default auto)\n"
       "  --no-record           run without the injector\n"
       "Exit: 0 the run ended ok, 1 it did not, 2 usage error, 3 launcher or injector missing.\n",
       cmd_exec},
      {"trace", "print a run's recorded events and call sites, symbolized",
       "usage: scalefuzz trace RUN_DIR [--rank N] [--no-symbols]\n\n"
       "Lists every rank's recorded MPI calls (or only rank N) and its call sites with\n"
       "function and file:line. --no-symbols skips addr2line.\n",
       cmd_trace},
  };
  return table;
}

}  // namespace scalefuzz::cli
