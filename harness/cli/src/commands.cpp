// The command table: every option of every command is declared here once,
// with its help text and its type/range check, bound into the typed options
// of the command's workflow. To add an option: the field in the workflow's
// options struct and one `app.add_option(...)` / `add_switch(...)` line in
// the command's declare function below; its entry point checks what CLI11
// cannot (positionals given, options that go together) and calls the workflow.
#include "commands.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <memory>

#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/workflows/workflows.hpp"

namespace scalefuzz::cli {

namespace fs = std::filesystem;
namespace wf = workflows;

namespace {

// A switch (no value): `into` becomes `when_given` once it is given, whatever
// value is attached ("--dry-run=0" is still a dry run, as it always was).
void add_switch(CLI::App& app, const std::string& name, bool& into, const std::string& help, bool when_given = true) {
  app.add_flag(name, help)->each([&into, when_given](const std::string&) { into = when_given; });
}

// An option given once per value ("--seen-in A --seen-in B"), all kept in order.
template <class Value>
CLI::Option* add_repeatable(CLI::App& app, const std::string& name, std::vector<Value>& into, const std::string& help) {
  return app.add_option(name, into, help)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);  // CLI11 would let one take the arguments after it too
}

// A positional the entry point needs: UsageError "expected WHAT" when absent.
void require(const CLI::Option* positional, const std::string& what) {
  if (positional->count() == 0) throw UsageError("expected " + what);
}

// The entry point of a command whose workflow takes only its bound options:
// it needs `positional` given ("expected WHAT").
template <class Options>
EntryPoint calling(int (*workflow)(const Options&), std::shared_ptr<Options> options, const CLI::Option* positional,
                   const char* what) {
  return [=](const Invocation&) {
    require(positional, what);
    return workflow(*options);
  };
}

std::chrono::milliseconds duration_value(const std::string& text, const char* flag) {
  try {
    return std::chrono::ceil<std::chrono::milliseconds>(harness::parse_duration(text, flag));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

// --fail-on, --suppressions, --seen-in as given (`diff` and `run --baseline`).
struct BaselineFlags {
  std::optional<std::string> fail_on;
  std::optional<std::string> suppressions;
  std::vector<fs::path> seen_in;

  void declare(CLI::App& app) {
    app.add_option("--fail-on", fail_on,
                   "new (default): exit 1 when a new bug is a warning or an error; any: also when\n"
                   "such a bug is still there; never: always exit 0")
        ->type_name("WHEN")
        ->check(CLI::IsMember({"new", "any", "never"}));
    app.add_option("--suppressions", suppressions,
                   "YAML list of known bugs that never fail the job:\n"
                   "  suppressions:\n"
                   "    - {fingerprint: 3f0c9a1b2d4e5f60, reason: \"ticket 12\", expires: 2026-12-31}\n"
                   "expires (optional) is the last day it applies; an expired one fails with exit 2")
        ->type_name("FILE");
    add_repeatable(app, "--seen-in", seen_in,
                   "an earlier night's output directory, repeatable: a bug found there too is\n"
                   "'still there', not new (a bug that shows on some nights only does not\n"
                   "fail the job each time it comes back); 'gone' stays against OLD")
        ->type_name("EARLIER_OUT");
  }

  wf::BaselineOptions options() const {
    wf::BaselineOptions o;
    if (fail_on) {
      const auto f = harness::bugs::parse_fail_on(*fail_on);
      if (!f) throw UsageError("--fail-on: expected new, any or never, got '" + *fail_on + "'");  // CLI11 checked
      o.fail_on = *f;
    }
    if (suppressions) {
      o.suppressions = *suppressions;
      if (!fs::is_regular_file(o.suppressions)) throw UsageError("--suppressions: no such file " + *suppressions);
    }
    o.seen_in = seen_in;
    return o;
  }
};

// The declare functions: each declares its command's options bound into the
// typed options of its workflow (harness/workflows), held by the entry point
// it returns.
EntryPoint declare_run(CLI::App& app) {
  auto o = std::make_shared<wf::LocalRunOptions>();
  auto baseline = std::make_shared<BaselineFlags>();
  const auto* campaign = app.add_option("CAMPAIGN.yaml", o->campaign_file, "the campaign file");
  app.add_option("--out", o->out, "output directory (default: out/<campaign name>)")->type_name("DIR");
  add_switch(app, "--dry-run", o->dry_run, "print every command that would run, run nothing");
  app.add_option("--filter", o->filter,
                 "only runs matching EXPR, e.g. 'np>=8,noise=system|none,count=512'\n"
                 "(keys: np, role, noise, rep, seed, id, any parameter; ops = != < <= > >= ~ !~)")
      ->type_name("EXPR");
  app.add_option("--jobs", o->jobs, "runs launched at once (default: scheduler.jobs of the campaign, else 1)")
      ->type_name("N")
      ->check(CLI::Range(1, 256));
  app.add_option("--build", o->build_dir, "directory substituted for {build} (default: this scalefuzz's build tree)")
      ->type_name("DIR");
  app.add_option("--baseline", o->baseline,
                 "compare the bugs with those of the output directory OLD as 'scalefuzz diff' does\n"
                 "(with --fail-on and --suppressions); the exit code is then the diff's")
      ->type_name("OLD");
  baseline->declare(app);
  return [o, baseline, campaign](const Invocation& call) {
    require(campaign, "exactly one CAMPAIGN.yaml");
    o->baseline_options = baseline->options();
    if (!o->baseline && (baseline->fail_on || baseline->suppressions))
      throw UsageError("--fail-on and --suppressions need --baseline OLD_OUT");
    o->command_line = call.command_line;
    return wf::run_campaign(*o);
  };
}

EntryPoint declare_diff(CLI::App& app) {
  auto old_out = std::make_shared<fs::path>(), new_out = std::make_shared<fs::path>();
  auto baseline = std::make_shared<BaselineFlags>();
  app.add_option("OLD_OUT", *old_out, "last night's campaign output directory");
  const auto* new_given = app.add_option("NEW_OUT", *new_out, "tonight's campaign output directory");
  baseline->declare(app);
  return [old_out, new_out, baseline, new_given](const Invocation&) {
    require(new_given, "OLD_OUT and NEW_OUT");
    return wf::compare_outputs(*old_out, *new_out, baseline->options());
  };
}

// `analyze` and `report`: one directory, one workflow.
template <int (*workflow)(const fs::path&)>
EntryPoint declare_dir_only(CLI::App& app) {
  auto dir = std::make_shared<fs::path>();
  const auto* given = app.add_option("DIR", *dir, "a campaign output directory or a run directory");
  return [dir, given](const Invocation&) {
    require(given, "exactly one DIR");
    return workflow(*dir);
  };
}

EntryPoint declare_exec(CLI::App& app) {
  struct Given {
    wf::ExecOptions o;
    std::optional<std::string> seed, timeout;
  };
  auto g = std::make_shared<Given>();
  app.add_option("--out", g->o.out, "run directory (default: out/exec; its previous recording is replaced)")
      ->type_name("DIR");
  app.add_option("--noise", g->o.noise, "none|random|system|application|local (default none)")
      ->type_name("MODE")
      ->check(CLI::IsMember(harness::known_noise_modes()));
  add_repeatable(app, "--noise-set", g->o.noise_settings,
                 "a noise setting, repeatable (e.g. --noise-set scale=1.2); knobs per mode in\n"
                 "docs/campaign-file.md. application needs analysis=DIR: the --out of an earlier\n"
                 "--noise system run of the same command (its ninja/ analysis is read)")
      ->type_name("KEY=VAL");
  app.add_option("--check", g->o.check,
                 "the result check, KIND=REGEX: stdout-regex, stderr-regex or output-regex (both\n"
                 "streams): a matching line is a wrong result; stdout-must-match, stderr-must-match,\n"
                 "output-must-match: no matching line is; or exit-code (default)")
      ->type_name("KIND=REGEX");
  // Read as text: CLI11's conversion would take 2^64 silently as 2^64-1.
  app.add_option("--seed", g->seed, "seed for the noise decisions, 0..2^64-1 (default: a fresh one, printed)")
      ->type_name("N")
      ->check(CLI::TypeValidator<unsigned long long>("an unsigned integer") &
              CLI::Validator(
                  [](std::string& s) {
                    return s.find('-') == std::string::npos ? std::string() : "expected 0..2^64-1, got '" + s + "'";
                  },
                  "", "unsigned"));
  app.add_option("--timeout", g->timeout, "a duration with its unit, e.g. 30s, 2m, 500ms (default 300s)")
      ->type_name("DUR");
  std::string launchers;
  for (const auto* launcher : harness::mpi_launchers())
    launchers += "\n  " + std::string(launcher->name()) + ": " + std::string(launcher->description());
  app.add_option("--launcher", g->o.launcher)
      ->description("how the command after -- starts the ranks: auto (default: from its program's name)" + launchers)
      ->type_name("NAME")
      ->check(CLI::IsMember(harness::mpi_launcher_choices()));
  app.add_option("--mpi", g->o.mpi,
                 "auto|mpich|openmpi: the MPI the application is built against, which picks the\n"
                 "injector (default auto: the binary's DT_NEEDED, else the launcher's MPI); for a\n"
                 "wrapper script. Refused when it differs from the binary's or the launcher's")
      ->type_name("MPI")
      ->check(CLI::IsMember({"auto", "mpich", "openmpi"}));
  app.add_option("--oversubscribe", g->o.oversubscribe,
                 "auto|on|off: complete blocking calls by test-and-sleep (default auto)")
      ->type_name("MODE")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  app.add_option("--stall", g->o.stall,
                 "rank RANK stops progressing at the entry of its CALL-th MPI call (stall\n"
                 "fault injection; the run hangs until --timeout)")
      ->type_name("RANK:CALL");
  add_switch(app, "--no-record", g->o.record, "run without the injector", false);
  return [g](const Invocation& call) {
    g->o.command = call.tail;
    if (g->seed) {
      try {
        g->o.seed = std::stoull(*g->seed);
      } catch (const std::exception&) {
        throw UsageError("--seed: expected an unsigned integer, got '" + *g->seed + "'");
      }
    }
    if (g->timeout) g->o.timeout = duration_value(*g->timeout, "--timeout");
    return wf::exec_command(g->o);
  };
}

EntryPoint declare_reproduce(CLI::App& app) {
  auto o = std::make_shared<wf::ReproduceOptions>();
  auto until = std::make_shared<std::optional<std::string>>();
  const auto* campaign = app.add_option("CAMPAIGN.yaml", o->campaign_file, "the campaign file");
  app.add_option("--until", *until,
                 "race: a wrong result (the campaign's check) or an unintended match found by\n"
                 "the races detector against the quiet first run; hang: a timeout; crash: a\n"
                 "crash, MPI abort or failing exit code; any: any of these")
      ->type_name("T")
      ->check(CLI::IsMember({"race", "hang", "crash", "any"}));
  app.add_option("--max-runs", o->max_runs, "runs at most (default 12)")->type_name("N")->check(CLI::Range(1, 10000));
  app.add_option("--out", o->out,
                 "output directory (default: out/<campaign name>-reproduce); runs already\n"
                 "finished there by the same command are reused, not rerun")
      ->type_name("DIR");
  app.add_option("--filter", o->filter, "picks the point, as for 'scalefuzz run' (e.g. 'np=4,variant=--races')")
      ->type_name("EXPR");
  app.add_option("--build", o->build_dir, "directory substituted for {build} (default: this scalefuzz's build tree)")
      ->type_name("DIR");
  return [o, until, campaign](const Invocation& call) {
    require(campaign, "exactly one CAMPAIGN.yaml");
    if (!*until) throw UsageError("--until is required: race, hang, crash or any");
    const auto target = wf::parse_reproduce_target(**until);
    if (!target) throw UsageError("--until: expected race, hang, crash or any, got '" + **until + "'");
    o->target = *target;
    o->command_line = call.command_line;
    return wf::reproduce(*o);
  };
}

EntryPoint declare_explore(CLI::App& app) {
  auto o = std::make_shared<wf::ExploreOptions>();
  const auto* run_dir = app.add_option(
      "RUN_DIR", o->run_dir, "a recorded run directory (OUT/runs/<id> or an exec --out) with decision logs");
  app.add_option("--depth", o->depth, "alternatives forced together (default 1)")
      ->type_name("N")
      ->check(CLI::Range(1, 4));
  app.add_option("--budget", o->budget, "forced runs at most, shrinking included (default 100)")
      ->type_name("N")
      ->check(CLI::Range(1, 100000));
  app.add_option("--out", o->out, "output directory (default: out/<run id>-explore)")->type_name("DIR");
  return calling(wf::explore_recorded_run, o, run_dir, "exactly one RUN_DIR");
}

EntryPoint declare_kcca_eval(CLI::App& app) {
  auto o = std::make_shared<wf::ModelEvaluationRequest>();
  o->command = "kcca-eval";  // the technique whose evaluation this is, in the registry
  const auto* dir = app.add_option("DIR", o->dir, "a campaign output directory with train runs");
  app.add_option("--folds", o->folds, "folds of the cross-validation (default 5)")
      ->type_name("K")
      ->check(CLI::Range(2, 100));
  add_switch(app, "--sensitivity", o->sensitivity,
             "also the false-positive rate as N_comps (1-10), gamma (2^-20..2^0) and each\n"
             "kernel width factor (x 2^-20..2^20) vary, one at a time (the paper's Table 1)");
  return calling(wf::evaluate_model, o, dir, "exactly one campaign output DIR");
}

EntryPoint declare_trace(CLI::App& app) {
  auto o = std::make_shared<wf::TraceOptions>();
  const auto* run_dir = app.add_option("RUN_DIR", o->run_dir, "a run directory (OUT/runs/<id> or an exec --out)");
  app.add_option("--rank", o->rank, "only rank N")->type_name("N")->check(CLI::Range(0, 1 << 24));
  add_switch(app, "--no-symbols", o->symbols, "skip addr2line", false);
  return calling(wf::print_trace, o, run_dir, "exactly one RUN_DIR");
}

EntryPoint declare_replay(CLI::App& app) {
  auto o = std::make_shared<wf::ReplayOptions>();
  const auto* run_dir = app.add_option(
      "RUN_DIR", o->run_dir, "a recorded run directory (OUT/runs/<id>, an exec --out, nights/<date>/runs/<id>)");
  app.add_option("--times", o->times, "replays to run (default 1)")->type_name("N")->check(CLI::Range(1, 1000));
  add_switch(app, "--with-noise", o->with_noise,
             "keep the recorded run's noise (default: none; the log decides the matches)");
  add_switch(app, "--submit", o->submit,
             "run the replays as one SLURM batch job (as `submit` does: libslurm, SLURM_CONF) instead of here;\n"
             "the job runs `scalefuzz replay RUN_DIR --times N` in its allocation and writes its verdict to\n"
             "RUN_DIR/replays/slurm-<job id>.out; exit 0 once SLURM accepted the job");
  return calling(wf::replay, o, run_dir, "exactly one RUN_DIR");
}

EntryPoint declare_submit(CLI::App& app) {
  auto o = std::make_shared<wf::SubmitOptions>();
  auto resume = std::make_shared<std::optional<fs::path>>();
  const auto* campaign =
      app.add_option("CAMPAIGN.yaml", o->campaign_file, "the campaign file (scheduler: {type: slurm, ...})");
  app.add_option("--out", o->out, "output directory (default: out/<campaign name>)")->type_name("DIR");
  add_switch(app, "--dry-run", o->dry_run, "write DIR/slurm/ (runs.json, batch scripts), submit nothing");
  app.add_option("--filter", o->filter, "only runs matching EXPR, as for 'scalefuzz run'")->type_name("EXPR");
  app.add_option("--build", o->build_dir, "directory substituted for {build} (default: this scalefuzz's build tree)")
      ->type_name("DIR");
  app.add_option("--resume", *resume,
                 "resubmit DIR's runs that have no result or were cancelled or lost to the\n"
                 "infrastructure (node failure, preemption) and are not queued or running")
      ->type_name("DIR");
  return [o, resume, campaign](const Invocation&) {
    if (*resume) {
      if (campaign->count() > 0 || o->out || o->filter)
        throw UsageError("--resume DIR takes no CAMPAIGN, --out or --filter: it resubmits DIR's own runs");
      return wf::resubmit_campaign(**resume, o->dry_run);
    }
    require(campaign, "exactly one CAMPAIGN.yaml (or --resume DIR)");
    return wf::submit_campaign(*o);
  };
}

EntryPoint declare_status(CLI::App& app) {
  auto dir = std::make_shared<fs::path>();
  const auto* given = app.add_option("DIR", *dir, "the output directory of 'scalefuzz submit'");
  return [dir, given](const Invocation&) {
    require(given, "the output directory of 'scalefuzz submit'");
    return wf::show_status(*dir);
  };
}

EntryPoint declare_collect(CLI::App& app) {
  auto o = std::make_shared<wf::CollectOptions>();
  auto poll = std::make_shared<std::optional<std::string>>();
  const auto* dir = app.add_option("DIR", o->out, "the output directory of 'scalefuzz submit'");
  add_switch(app, "--wait", o->wait, "show progress and return once every task ended");
  app.add_option("--poll", *poll, "how often --wait asks SLURM, a duration from 100ms to 10m (default 2s)")
      ->type_name("DUR");
  return [o, poll, dir](const Invocation& call) {
    require(dir, "the output directory of 'scalefuzz submit'");
    if (*poll) {
      o->poll = duration_value(**poll, "--poll");
      if (o->poll < std::chrono::milliseconds(100) || o->poll > std::chrono::minutes(10))
        throw UsageError("--poll must be from 100ms to 10m, got '" + **poll + "'");
    }
    o->command_line = call.command_line;
    return wf::collect(*o);
  };
}

EntryPoint declare_task(CLI::App& app) {
  auto dir = std::make_shared<fs::path>();
  auto index = std::make_shared<std::string>();
  app.add_option("DIR", *dir, "the output directory of 'scalefuzz submit'");
  const auto* index_given = app.add_option("INDEX", *index, "the run's index in DIR/slurm/runs.json");
  return [dir, index, index_given](const Invocation&) {
    require(index_given, "OUT_DIR and RUN_INDEX");
    return wf::run_task(*dir, *index);
  };
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
       false, declare_run},
      {"diff", "compare the bugs of two campaign outputs (last night's and tonight's)", "OLD_OUT NEW_OUT [OPTIONS]",
       "Compares the bugs (findings grouped by fingerprint) of two campaign output directories,\n"
       "read from their findings.json: new in NEW_OUT, still there, gone (warnings and errors;\n"
       "informational ones are counted). Writes NEW_OUT/diff.json.\n",
       "0 pass, 1 fail (per --fail-on), 2 usage error, missing or older findings.json, bad or\n"
       "expired suppression, 3 diff.json not writable",
       false, declare_diff},
      {"analyze", "rerun the detectors on stored results (a campaign DIR or one run directory)", "DIR",
       "DIR is a campaign output directory: reruns its detectors, stores the findings and rewrites\n"
       "the reports. DIR is a single run directory (from 'scalefuzz exec' or OUT/runs/<id>):\n"
       "localizes its hang or crash and prints the findings.\n",
       "0 nothing found, 1 findings, 2 not a result directory or unreadable results,\n"
       "3 infrastructure failure",
       false, declare_dir_only<wf::analyze_results>},
      {"report", "rebuild findings.json, junit.xml and report.html from stored results", "DIR",
       "Rewrites the reports of the campaign output directory DIR from its store, without\n"
       "rerunning anything.\n",
       "0 nothing found, 1 findings, 2 not a campaign directory, 3 reports not writable", false,
       declare_dir_only<wf::report_results>},
      {"exec", "run one mpiexec command under the injector and record it", "[OPTIONS] -- mpiexec -n N ./app [args]",
       "Runs the command once with the recording injector preloaded into every rank, with the\n"
       "same timeout handling (freeze, stacks, kill) and outcome classes as a campaign run.\n",
       "0 the run ended ok, 1 it did not, 2 usage error, 3 launcher or injector missing,\n"
       "130 interrupted",
       true, declare_exec},
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
       false, declare_reproduce},
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
       false, declare_replay},
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
       false, declare_explore},
      {"kcca-eval", "cross-validate the Vrisha scale model of a campaign's train runs", "DIR [OPTIONS]",
       "DIR is a campaign output directory with runs of scale role 'train' (scales.train). Trains the\n"
       "KCCA model with the campaign's kcca: settings on its clean train runs, prints the k-fold\n"
       "cross-validated false-positive rate (folds hold whole scales when there are at least K of\n"
       "them, else whole runs, else single ranks) and how many ranks of each test run the model\n"
       "flags. Nothing is written.\n",
       "0 evaluated, 2 not a campaign directory or no clean train runs", false, declare_kcca_eval},
      {"submit", "submit a campaign to SLURM as job arrays (one array task per run)",
       "CAMPAIGN.yaml [OPTIONS] | --resume DIR [--dry-run]",
       "The campaign needs scheduler: {type: slurm, ...} (docs/campaign-file.md). Its runs become job\n"
       "arrays through libslurm, one array per phase and process count, split at SLURM's MaxArraySize;\n"
       "each task runs 'scalefuzz task DIR INDEX', which launches one run exactly like 'scalefuzz run'\n"
       "(watchdog, stacks at a timeout, injector) and writes only DIR/runs/<run id>/. Application-centric\n"
       "runs wait for the other arrays (--dependency=afterany). Nothing is written to the store: that\n"
       "is 'scalefuzz collect'. SLURM is found through SLURM_CONF (or /etc/slurm/slurm.conf).\n",
       "0 submitted, 2 campaign or usage error, 3 SLURM unreachable or refusing the job", false, declare_submit},
      {"status", "show a submitted campaign's SLURM task states next to its runs' outcomes", "DIR",
       "One line per run: its SLURM task (array_task), the task's state from the controller (PENDING\n"
       "with the reason, RUNNING, COMPLETED, FAILED, TIMEOUT, CANCELLED, NODE_FAIL, PREEMPTED,\n"
       "OUT_OF_MEMORY...) and the run's outcome once its task ended. Writes nothing.\n",
       "0 nothing wrong so far, 1 a run hung, crashed or failed, 2 not a submitted directory,\n"
       "3 SLURM unreachable, or (when no run failed) runs cancelled or lost to the infrastructure\n"
       "(submit --resume DIR)",
       false, declare_status},
      {"collect", "store the finished runs of a submitted campaign, analyse and report", "DIR [--wait] [--poll DUR]",
       "Stores every run whose task ended in DIR/scalefuzz.db (the only command that writes it), then\n"
       "runs the detectors and writes the reports as 'scalefuzz run' does. A task that ended without\n"
       "a result is classified from its SLURM state: TIMEOUT is a hang (SLURM's time limit came before\n"
       "the harness watchdog), CANCELLED is cancelled, NODE_FAIL/PREEMPTED/BOOT_FAIL are\n"
       "infrastructure; the last two classes are rerun by 'scalefuzz submit --resume DIR'.\n"
       "Collecting again changes nothing unless a task was resubmitted and ended since.\n",
       "0 nothing found, 1 findings, 2 not a submitted directory, 3 SLURM unreachable with\n"
       "--wait, or (without findings) runs cancelled or lost to the infrastructure",
       false, declare_collect},
      {"task", "(internal) run one run of a submitted campaign inside its SLURM array task", "DIR INDEX",
       "Started by the batch scripts of 'scalefuzz submit': launches run INDEX of DIR/slurm/runs.json\n"
       "like 'scalefuzz run' does and writes only DIR/runs/<run id>/.\n",
       "0 the run's outcome is written (whatever it is), 2 bad arguments, 3 the run directory cannot be\n"
       "written",
       false, declare_task},
      {"trace", "print a run's recorded events and call sites, symbolized", "RUN_DIR [OPTIONS]",
       "Lists every rank's recorded MPI calls (or only rank N) and its call sites with\n"
       "function and file:line.\n",
       "0 printed, 2 not a run directory or unreadable trace", false, declare_trace},
  };
  return table;
}

}  // namespace scalefuzz::cli
