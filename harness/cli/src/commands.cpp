// The command table: every option of every command is declared here once,
// with its help text and its type/range check. To add an option: one
// `o.add_option(...)` / `add_switch(o, ...)` line in the command's declare
// function below, then read it with args.value()/has()/integer() in its cmd_*
// below, which fills the typed options of the command's workflow.
#include "commands.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>

#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/workflows/workflows.hpp"

namespace scalefuzz::cli {

namespace fs = std::filesystem;
namespace wf = workflows;

namespace {

// CLI11 checks shared by several commands.
const CLI::Range kJobs(1, 256);

// A switch (no value) with its help.
void add_switch(CLI::App& o, const std::string& name, const std::string& help) { o.add_flag(name, help); }

// `diff` and `run --baseline` (cmd_diff.cpp).
void declare_baseline_options(CLI::App& o) {
  o.add_option("--fail-on",
               "new (default): exit 1 when a new bug is a warning or an error; any: also when\n"
               "such a bug is still there; never: always exit 0")
      ->type_name("WHEN")
      ->check(CLI::IsMember({"new", "any", "never"}));
  o.add_option("--suppressions",
               "YAML list of known bugs that never fail the job:\n"
               "  suppressions:\n"
               "    - {fingerprint: 3f0c9a1b2d4e5f60, reason: \"ticket 12\", expires: 2026-12-31}\n"
               "expires (optional) is the last day it applies; an expired one fails with exit 2")
      ->type_name("FILE");
  o.add_option("--seen-in",
               "an earlier night's output directory, repeatable: a bug found there too is\n"
               "'still there', not new (a bug that shows on some nights only does not\n"
               "fail the job each time it comes back); 'gone' stays against OLD")
      ->type_name("EARLIER_OUT")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void declare_run(CLI::App& o) {
  o.add_option("CAMPAIGN.yaml", "the campaign file");
  o.add_option("--out", "output directory (default: out/<campaign name>)")->type_name("DIR");
  add_switch(o, "--dry-run", "print every command that would run, run nothing");
  o.add_option("--filter",
               "only runs matching EXPR, e.g. 'np>=8,noise=system|none,count=512'\n"
               "(keys: np, role, noise, rep, seed, id, any parameter; ops = != < <= > >= ~ !~)")
      ->type_name("EXPR");
  o.add_option("--jobs", "runs launched at once (default: scheduler.jobs of the campaign, else 1)")
      ->type_name("N")
      ->check(kJobs);
  o.add_option("--build", "directory substituted for {build} (default: this scalefuzz's build tree)")
      ->type_name("DIR");
  o.add_option("--baseline",
               "compare the bugs with those of the output directory OLD as 'scalefuzz diff' does\n"
               "(with --fail-on and --suppressions); the exit code is then the diff's")
      ->type_name("OLD");
  declare_baseline_options(o);
}

void declare_diff(CLI::App& o) {
  o.add_option("OLD_OUT", "last night's campaign output directory");
  o.add_option("NEW_OUT", "tonight's campaign output directory");
  declare_baseline_options(o);
}

void declare_dir_only(CLI::App& o) { o.add_option("DIR", "a campaign output directory or a run directory"); }

void declare_exec(CLI::App& o) {
  o.add_option("--out", "run directory (default: out/exec; its previous recording is replaced)")->type_name("DIR");
  o.add_option("--noise", "none|random|system|application|local (default none)")
      ->type_name("MODE")
      ->check(CLI::IsMember(harness::known_noise_modes()));
  o.add_option("--noise-set",
               "a noise setting, repeatable (e.g. --noise-set scale=1.2); knobs per mode in\n"
               "docs/campaign-file.md. application needs analysis=DIR: the --out of an earlier\n"
               "--noise system run of the same command (its ninja/ analysis is read)")
      ->type_name("KEY=VAL")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  o.add_option("--check",
               "the result check, KIND=REGEX: stdout-regex, stderr-regex or output-regex (both\n"
               "streams): a matching line is a wrong result; stdout-must-match, stderr-must-match,\n"
               "output-must-match: no matching line is; or exit-code (default)")
      ->type_name("KIND=REGEX");
  o.add_option("--seed", "seed for the noise decisions, 0..2^64-1 (default: a fresh one, printed)")
      ->type_name("N")
      ->check(CLI::TypeValidator<unsigned long long>("an unsigned integer") &
              CLI::Validator(
                  [](std::string& s) {
                    return s.find('-') == std::string::npos ? std::string() : "expected 0..2^64-1, got '" + s + "'";
                  },
                  "", "unsigned"));
  o.add_option("--timeout", "a duration with its unit, e.g. 30s, 2m, 500ms (default 300s)")->type_name("DUR");
  std::string launchers;
  for (const auto* launcher : harness::mpi_launchers())
    launchers += "\n  " + std::string(launcher->name()) + ": " + std::string(launcher->description());
  o.add_option("--launcher")
      ->description("how the command after -- starts the ranks: auto (default: from its program's name)" + launchers)
      ->type_name("NAME")
      ->check(CLI::IsMember(harness::mpi_launcher_choices()));
  o.add_option("--mpi",
               "auto|mpich|openmpi: the MPI the application is built against, which picks the\n"
               "injector (default auto: the binary's DT_NEEDED, else the launcher's MPI); for a\n"
               "wrapper script. Refused when it differs from the binary's or the launcher's")
      ->type_name("MPI")
      ->check(CLI::IsMember({"auto", "mpich", "openmpi"}));
  o.add_option("--oversubscribe", "auto|on|off: complete blocking calls by test-and-sleep (default auto)")
      ->type_name("MODE")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  o.add_option("--stall",
               "rank RANK stops progressing at the entry of its CALL-th MPI call (stall\n"
               "fault injection; the run hangs until --timeout)")
      ->type_name("RANK:CALL");
  add_switch(o, "--no-record", "run without the injector");
}

void declare_reproduce(CLI::App& o) {
  o.add_option("CAMPAIGN.yaml", "the campaign file");
  o.add_option("--until",
               "race: a wrong result (the campaign's check) or an unintended match found by\n"
               "the races detector against the quiet first run; hang: a timeout; crash: a\n"
               "crash, MPI abort or failing exit code; any: any of these")
      ->type_name("T")
      ->check(CLI::IsMember({"race", "hang", "crash", "any"}));
  o.add_option("--max-runs", "runs at most (default 12)")->type_name("N")->check(CLI::Range(1, 10000));
  o.add_option("--out",
               "output directory (default: out/<campaign name>-reproduce); runs already\n"
               "finished there by the same command are reused, not rerun")
      ->type_name("DIR");
  o.add_option("--filter", "picks the point, as for 'scalefuzz run' (e.g. 'np=4,variant=--races')")
      ->type_name("EXPR");
  o.add_option("--build", "directory substituted for {build} (default: this scalefuzz's build tree)")
      ->type_name("DIR");
}

void declare_explore(CLI::App& o) {
  o.add_option("RUN_DIR", "a recorded run directory (OUT/runs/<id> or an exec --out) with decision logs");
  o.add_option("--depth", "alternatives forced together (default 1)")->type_name("N")->check(CLI::Range(1, 4));
  o.add_option("--budget", "forced runs at most, shrinking included (default 100)")
      ->type_name("N")
      ->check(CLI::Range(1, 100000));
  o.add_option("--out", "output directory (default: out/<run id>-explore)")->type_name("DIR");
}

void declare_kcca_eval(CLI::App& o) {
  o.add_option("DIR", "a campaign output directory with train runs");
  o.add_option("--folds", "folds of the cross-validation (default 5)")->type_name("K")->check(CLI::Range(2, 100));
  add_switch(o, "--sensitivity",
             "also the false-positive rate as N_comps (1-10), gamma (2^-20..2^0) and each\n"
             "kernel width factor (x 2^-20..2^20) vary, one at a time (the paper's Table 1)");
}

void declare_trace(CLI::App& o) {
  o.add_option("RUN_DIR", "a run directory (OUT/runs/<id> or an exec --out)");
  o.add_option("--rank", "only rank N")->type_name("N")->check(CLI::Range(0, 1 << 24));
  add_switch(o, "--no-symbols", "skip addr2line");
}

void declare_replay(CLI::App& o) {
  o.add_option("RUN_DIR", "a recorded run directory (OUT/runs/<id>, an exec --out, nights/<date>/runs/<id>)");
  o.add_option("--times", "replays to run (default 1)")->type_name("N")->check(CLI::Range(1, 1000));
  add_switch(o, "--with-noise", "keep the recorded run's noise (default: none; the log decides the matches)");
  add_switch(o, "--submit",
             "run the replays as one SLURM batch job (as `submit` does: libslurm, SLURM_CONF) instead of here;\n"
             "the job runs `scalefuzz replay RUN_DIR --times N` in its allocation and writes its verdict to\n"
             "RUN_DIR/replays/slurm-<job id>.out; exit 0 once SLURM accepted the job");
}

void declare_submit(CLI::App& o) {
  o.add_option("CAMPAIGN.yaml", "the campaign file (scheduler: {type: slurm, ...})");
  o.add_option("--out", "output directory (default: out/<campaign name>)")->type_name("DIR");
  add_switch(o, "--dry-run", "write DIR/slurm/ (runs.json, batch scripts), submit nothing");
  o.add_option("--filter", "only runs matching EXPR, as for 'scalefuzz run'")->type_name("EXPR");
  o.add_option("--build", "directory substituted for {build} (default: this scalefuzz's build tree)")
      ->type_name("DIR");
  o.add_option("--resume",
               "resubmit DIR's runs that have no result or were cancelled or lost to the\n"
               "infrastructure (node failure, preemption) and are not queued or running")
      ->type_name("DIR");
}

void declare_status(CLI::App& o) { o.add_option("DIR", "the output directory of 'scalefuzz submit'"); }

void declare_collect(CLI::App& o) {
  o.add_option("DIR", "the output directory of 'scalefuzz submit'");
  add_switch(o, "--wait", "show progress and return once every task ended");
  o.add_option("--poll", "how often --wait asks SLURM, a duration from 100ms to 10m (default 2s)")
      ->type_name("DUR");
}

void declare_task(CLI::App& o) {
  o.add_option("DIR", "the output directory of 'scalefuzz submit'");
  o.add_option("INDEX", "the run's index in DIR/slurm/runs.json");
}

std::optional<fs::path> path_value(const ParsedArgs& args, const std::string& flag) {
  if (auto v = args.value(flag)) return fs::path(*v);
  return std::nullopt;
}

// The command as typed, stored with a campaign's results.
std::string command_line(const char* name, const ParsedArgs& args) {
  std::string line = std::string("scalefuzz ") + name;
  for (const auto& a : args.raw) line += " " + a;
  return line;
}

const std::string& one_positional(const ParsedArgs& args, const char* what) {
  if (args.positionals.size() != 1) throw UsageError(std::string("expected ") + what);
  return args.positionals[0];
}

// --fail-on new|any|never, --suppressions FILE, --seen-in DIR (declared above).
wf::BaselineOptions baseline_options(const ParsedArgs& args) {
  wf::BaselineOptions o;
  if (auto v = args.value("--fail-on")) {
    const auto f = harness::bugs::parse_fail_on(*v);
    if (!f) throw UsageError("--fail-on: expected new, any or never, got '" + *v + "'");  // CLI11 checks it first
    o.fail_on = *f;
  }
  if (auto v = args.value("--suppressions")) {
    o.suppressions = *v;
    if (!fs::is_regular_file(o.suppressions)) throw UsageError("--suppressions: no such file " + *v);
  }
  for (const auto& dir : args.values("--seen-in")) o.seen_in.emplace_back(dir);
  return o;
}

std::chrono::milliseconds duration_value(const std::string& text, const char* flag) {
  try {
    return std::chrono::ceil<std::chrono::milliseconds>(harness::parse_duration(text, flag));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

// The entry points of the table: each turns its parsed arguments into the
// typed options of its workflow (harness/workflows) and calls it.
int cmd_run(const ParsedArgs& args) {
  wf::LocalRunOptions o;
  o.campaign_file = one_positional(args, "exactly one CAMPAIGN.yaml");
  o.out = path_value(args, "--out");
  o.build_dir = path_value(args, "--build");
  o.filter = args.value("--filter");
  if (auto j = args.integer("--jobs")) o.jobs = static_cast<int>(*j);
  o.dry_run = args.has("--dry-run");
  o.baseline = path_value(args, "--baseline");
  o.baseline_options = baseline_options(args);
  if (!o.baseline && (args.value("--fail-on") || args.value("--suppressions")))
    throw UsageError("--fail-on and --suppressions need --baseline OLD_OUT");
  o.command_line = command_line("run", args);
  return wf::run_campaign(o);
}

int cmd_diff(const ParsedArgs& args) {
  if (args.positionals.size() != 2) throw UsageError("expected OLD_OUT and NEW_OUT");
  return wf::compare_outputs(args.positionals[0], args.positionals[1], baseline_options(args));
}

int cmd_analyze(const ParsedArgs& args) { return wf::analyze_results(one_positional(args, "exactly one DIR")); }
int cmd_report(const ParsedArgs& args) { return wf::report_results(one_positional(args, "exactly one DIR")); }

int cmd_exec(const ParsedArgs& args) {
  if (!args.positionals.empty()) throw UsageError("unexpected '" + args.positionals[0] + "' (put the command after --)");
  wf::ExecOptions o;
  o.command = args.tail;
  o.launcher = args.value("--launcher").value_or("auto");
  o.noise = args.value("--noise").value_or("none");
  o.noise_settings = args.values("--noise-set");
  o.check = args.value("--check");
  if (auto seed = args.value("--seed")) {
    try {
      o.seed = std::stoull(*seed);
    } catch (const std::exception&) {
      throw UsageError("--seed: expected an unsigned integer, got '" + *seed + "'");
    }
  }
  o.stall = args.value("--stall");
  o.timeout = duration_value(args.value("--timeout").value_or("300s"), "--timeout");
  o.oversubscribe = args.value("--oversubscribe").value_or("auto");
  o.mpi = args.value("--mpi").value_or("auto");
  o.record = !args.has("--no-record");
  o.out = args.value("--out").value_or("out/exec");
  return wf::exec_command(o);
}

int cmd_trace(const ParsedArgs& args) {
  const auto rank = args.integer("--rank");
  return wf::print_trace(one_positional(args, "exactly one RUN_DIR"),
                         rank ? std::optional<int>(static_cast<int>(*rank)) : std::nullopt, !args.has("--no-symbols"));
}

int cmd_reproduce(const ParsedArgs& args) {
  wf::ReproduceOptions o;
  o.campaign_file = one_positional(args, "exactly one CAMPAIGN.yaml");
  const auto until = args.value("--until");
  if (!until) throw UsageError("--until is required: race, hang, crash or any");
  const auto target = wf::parse_reproduce_target(*until);
  if (!target) throw UsageError("--until: expected race, hang, crash or any, got '" + *until + "'");
  o.target = *target;
  o.max_runs = static_cast<int>(args.integer("--max-runs").value_or(12));
  o.out = path_value(args, "--out");
  o.build_dir = path_value(args, "--build");
  o.filter = args.value("--filter");
  o.command_line = command_line("reproduce", args);
  return wf::reproduce(o);
}

int cmd_kcca_eval(const ParsedArgs& args) {
  return wf::evaluate_kcca(one_positional(args, "exactly one campaign output DIR"),
                           static_cast<int>(args.integer("--folds").value_or(5)), args.has("--sensitivity"));
}

int cmd_replay(const ParsedArgs& args) {
  const fs::path run_dir = one_positional(args, "exactly one RUN_DIR");
  const int times = static_cast<int>(args.integer("--times").value_or(1));
  return args.has("--submit") ? wf::submit_replay(run_dir, times, args.has("--with-noise"))
                              : wf::replay_recorded_run(run_dir, times, args.has("--with-noise"));
}

int cmd_explore(const ParsedArgs& args) {
  wf::ExploreOptions o;
  o.run_dir = one_positional(args, "exactly one RUN_DIR");
  o.depth = static_cast<int>(args.integer("--depth").value_or(1));
  o.budget = static_cast<std::size_t>(args.integer("--budget").value_or(100));
  o.out = path_value(args, "--out");
  return wf::explore_recorded_run(o);
}

int cmd_submit(const ParsedArgs& args) {
  if (auto resume = args.value("--resume")) {
    if (!args.positionals.empty() || args.value("--out") || args.value("--filter"))
      throw UsageError("--resume DIR takes no CAMPAIGN, --out or --filter: it resubmits DIR's own runs");
    return wf::resubmit_campaign(*resume, args.has("--dry-run"));
  }
  wf::SubmitOptions o;
  o.campaign_file = one_positional(args, "exactly one CAMPAIGN.yaml (or --resume DIR)");
  o.out = path_value(args, "--out");
  o.build_dir = path_value(args, "--build");
  o.filter = args.value("--filter");
  o.dry_run = args.has("--dry-run");
  return wf::submit_campaign(o);
}

int cmd_task(const ParsedArgs& args) {
  if (args.positionals.size() != 2) throw UsageError("expected OUT_DIR and RUN_INDEX");
  return wf::run_task(args.positionals[0], args.positionals[1]);
}

int cmd_status(const ParsedArgs& args) {
  return wf::show_status(one_positional(args, "the output directory of 'scalefuzz submit'"));
}

int cmd_collect(const ParsedArgs& args) {
  wf::CollectOptions o;
  o.out = one_positional(args, "the output directory of 'scalefuzz submit'");
  o.wait = args.has("--wait");
  if (auto text = args.value("--poll")) {
    o.poll = duration_value(*text, "--poll");
    if (o.poll < std::chrono::milliseconds(100) || o.poll > std::chrono::minutes(10))
      throw UsageError("--poll must be from 100ms to 10m, got '" + *text + "'");
  }
  o.command_line = command_line("collect", args);
  return wf::collect(o);
}

}  // namespace

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"run", "expand a campaign, launch every run locally, analyse and report", "CAMPAIGN.yaml [OPTIONS]",
       "Expands the campaign (scales x parameters x noise x repetitions), launches each run with\n"
       "mpiexec and the recording injector, stores it as soon as it ends, then runs the campaign's\n"
       "detectors and writes findings.json, junit.xml and report.html into DIR.\n"
       "Running the same campaign into the same DIR again resumes: finished runs are kept.\n"
       "Runs with noise mode application start after all others: each reads the analysis of a\n"
       "finished system-mode run of its point (same np and parameters); without one it fails\n"
       "with a launch error naming it.\n",
       "0 nothing found, 1 findings, 2 campaign or usage error, 3 infrastructure failure,\n"
       "130 interrupted (run again to resume)",
       false, declare_run, cmd_run},
      {"diff", "compare the bugs of two campaign outputs (last night's and tonight's)", "OLD_OUT NEW_OUT [OPTIONS]",
       "Compares the bugs (findings grouped by fingerprint) of two campaign output directories,\n"
       "read from their findings.json: new in NEW_OUT, still there, gone (warnings and errors;\n"
       "informational ones are counted). Writes NEW_OUT/diff.json.\n",
       "0 pass, 1 fail (per --fail-on), 2 usage error, missing or older findings.json, bad or\n"
       "expired suppression, 3 diff.json not writable",
       false, declare_diff, cmd_diff},
      {"analyze", "rerun the detectors on stored results (a campaign DIR or one run directory)", "DIR",
       "DIR is a campaign output directory: reruns its detectors, stores the findings and rewrites\n"
       "the reports. DIR is a single run directory (from 'scalefuzz exec' or OUT/runs/<id>):\n"
       "localizes its hang or crash and prints the findings.\n",
       "0 nothing found, 1 findings, 2 not a result directory or unreadable results,\n"
       "3 infrastructure failure",
       false, declare_dir_only, cmd_analyze},
      {"report", "rebuild findings.json, junit.xml and report.html from stored results", "DIR",
       "Rewrites the reports of the campaign output directory DIR from its store, without\n"
       "rerunning anything.\n",
       "0 nothing found, 1 findings, 2 not a campaign directory, 3 reports not writable", false, declare_dir_only,
       cmd_report},
      {"exec", "run one mpiexec command under the injector and record it", "[OPTIONS] -- mpiexec -n N ./app [args]",
       "Runs the command once with the recording injector preloaded into every rank, with the\n"
       "same timeout handling (freeze, stacks, kill) and outcome classes as a campaign run.\n",
       "0 the run ended ok, 1 it did not, 2 usage error, 3 launcher or injector missing,\n"
       "130 interrupted",
       true, declare_exec, cmd_exec},
      {"reproduce", "rerun one campaign point under escalating noise until a race, hang or crash shows",
       "CAMPAIGN.yaml --until race|hang|crash|any [OPTIONS]",
       "Takes the first run of the campaign (after --filter) as the point to reproduce (its process\n"
       "count and parameters) and reruns it, one run at a time, each with a fresh seed, under\n"
       "escalating NINJA noise: none, then system-centric (scale 1) and application-centric (scale\n"
       "1.2, reading the last system run's ninja/ analysis), then both again with the scales doubled\n"
       "(2 / 2.4, 4 / 4.8, ...). Other knobs come from the campaign's profile of that mode. It stops\n"
       "at the first noisy run where the target shows (a run without noise that shows it is kept as\n"
       "the fallback: its replay depends on timing alone), runs the campaign's detectors, writes the reports\n"
       "into DIR and prints the run directory and the 'scalefuzz exec' command (seed, noise settings,\n"
       "analysis directory) that replays it.\n",
       "1 the target manifested (replay command printed), 0 not within --max-runs,\n"
       "2 campaign or usage error, 3 infrastructure failure, 130 interrupted",
       false, declare_reproduce, cmd_reproduce},
      {"replay", "rerun a recorded run with its wildcard matches and polls forced from its decision log",
       "RUN_DIR [--times N]",
       "Reruns the run's command with every rank's decision log (ranks/N.decisions) enforced: each\n"
       "wildcard receive takes the recorded sender, each Test/Iprobe the recorded outcome, each\n"
       "Waitany/Waitsome the recorded indices. Each replay goes to a new directory RUN_DIR/replays/<k>/\n"
       "and is compared with the original: outcome, bug fingerprints, match order. A rank that does\n"
       "what its log does not expect (a timing-dependent branch) is reported as diverged, with the\n"
       "call and its source line, and goes on unforced. Prints 'reproduced K/N'.\n",
       "0 every replay reproduced the run, 1 some did not, 2 no decision log, logs of another binary\n"
       "or rank count, or not a run directory, 3 infrastructure failure, 130 interrupted",
       false, declare_replay, cmd_replay},
      {"explore", "force each wildcard receive of a run to its other possible senders, judge by outcome",
       "RUN_DIR [--depth N] [--budget N] [--out DIR]",
       "Finds, from the run's trace, every send another rank made that each wildcard receive could\n"
       "have taken instead, and reruns the program once per alternative: the run's decisions in the\n"
       "receive's causal past replayed from its decision log, the receive forced to the other sender,\n"
       "everything after free (recorded). Alternatives whose match tuple (receive site, sender, send\n"
       "site, tag) no run produced go first. An alternative that changes the outcome (hang, crash,\n"
       "abort, wrong result by the run's check) is an Error race; its schedule is shrunk by delta\n"
       "debugging to the forced decisions the failure needs. A receive whose every alternative\n"
       "leaves the outcome unchanged is benign (Info). Writes DIR/explore/ (the record, the forced\n"
       "runs) and DIR/findings.json.\n",
       "0 no race changed the outcome, 1 a harmful race (replay printed), 2 usage error or not a run\n"
       "with decision logs, 3 launcher or injector missing, 130 interrupted",
       false, declare_explore, cmd_explore},
      {"kcca-eval", "cross-validate the Vrisha scale model of a campaign's train runs", "DIR [OPTIONS]",
       "DIR is a campaign output directory with runs of scale role 'train' (scales.train). Trains the\n"
       "KCCA model with the campaign's kcca: settings on its clean train runs, prints the k-fold\n"
       "cross-validated false-positive rate (folds hold whole scales when there are at least K of\n"
       "them, else whole runs, else single ranks) and how many ranks of each test run the model\n"
       "flags. Nothing is written.\n",
       "0 evaluated, 2 not a campaign directory or no clean train runs", false, declare_kcca_eval,
       cmd_kcca_eval},
      {"submit", "submit a campaign to SLURM as job arrays (one array task per run)",
       "CAMPAIGN.yaml [OPTIONS] | --resume DIR [--dry-run]",
       "The campaign needs scheduler: {type: slurm, ...} (docs/campaign-file.md). Its runs become job\n"
       "arrays through libslurm, one array per phase and process count, split at SLURM's MaxArraySize;\n"
       "each task runs 'scalefuzz task DIR INDEX', which launches one run exactly like 'scalefuzz run'\n"
       "(watchdog, stacks at a timeout, injector) and writes only DIR/runs/<run id>/. Application-centric\n"
       "runs wait for the other arrays (--dependency=afterany). Nothing is written to the store: that\n"
       "is 'scalefuzz collect'. SLURM is found through SLURM_CONF (or /etc/slurm/slurm.conf).\n",
       "0 submitted, 2 campaign or usage error, 3 SLURM unreachable or refusing the job", false, declare_submit,
       cmd_submit},
      {"status", "show a submitted campaign's SLURM task states next to its runs' outcomes", "DIR",
       "One line per run: its SLURM task (array_task), the task's state from the controller (PENDING\n"
       "with the reason, RUNNING, COMPLETED, FAILED, TIMEOUT, CANCELLED, NODE_FAIL, PREEMPTED,\n"
       "OUT_OF_MEMORY...) and the run's outcome once its task ended. Writes nothing.\n",
       "0 nothing wrong so far, 1 a run hung, crashed or failed, 2 not a submitted directory,\n"
       "3 SLURM unreachable, or (when no run failed) runs cancelled or lost to the infrastructure\n"
       "(submit --resume DIR)",
       false, declare_status, cmd_status},
      {"collect", "store the finished runs of a submitted campaign, analyse and report", "DIR [--wait] [--poll DUR]",
       "Stores every run whose task ended in DIR/scalefuzz.db (the only command that writes it), then\n"
       "runs the detectors and writes the reports as 'scalefuzz run' does. A task that ended without\n"
       "a result is classified from its SLURM state: TIMEOUT is a hang (SLURM's time limit came before\n"
       "the harness watchdog), CANCELLED is cancelled, NODE_FAIL/PREEMPTED/BOOT_FAIL are\n"
       "infrastructure; the last two classes are rerun by 'scalefuzz submit --resume DIR'.\n"
       "Collecting again changes nothing unless a task was resubmitted and ended since.\n",
       "0 nothing found, 1 findings, 2 not a submitted directory, 3 SLURM unreachable with\n"
       "--wait, or (without findings) runs cancelled or lost to the infrastructure",
       false, declare_collect, cmd_collect},
      {"task", "(internal) run one run of a submitted campaign inside its SLURM array task", "DIR INDEX",
       "Started by the batch scripts of 'scalefuzz submit': launches run INDEX of DIR/slurm/runs.json\n"
       "like 'scalefuzz run' does and writes only DIR/runs/<run id>/.\n",
       "0 the run's outcome is written (whatever it is), 2 bad arguments, 3 the run directory cannot be\n"
       "written",
       false, declare_task, cmd_task},
      {"trace", "print a run's recorded events and call sites, symbolized", "RUN_DIR [OPTIONS]",
       "Lists every rank's recorded MPI calls (or only rank N) and its call sites with\n"
       "function and file:line.\n",
       "0 printed, 2 not a run directory or unreadable trace", false, declare_trace, cmd_trace},
  };
  return table;
}

}  // namespace scalefuzz::cli
