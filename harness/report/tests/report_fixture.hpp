// A small campaign result with every outcome kind, findings with artifacts and
// text that needs escaping; shared by the reporter tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "scalefuzz/harness/report.hpp"
#include "scalefuzz/testing/files.hpp"

namespace scalefuzz::harness::testing {

using scalefuzz::testing::read_file;
using scalefuzz::testing::TempDir;

// Text a careless reporter would break: markup, entities, quotes.
inline const std::string kNasty = "<b>x & \"y\" 'z'</b>";
inline const std::string kHangStack0 = "#0  0x7f MPI_Ssend (<&> \"dst\")\n#1  0x40 ring_step (ring.c:42)\n#2  main";

inline RunRecord make_run(const std::filesystem::path& out, const std::string& id, int nprocs,
                          const std::string& noise, int rep, std::optional<OutcomeKind> kind, double wall = 1.25,
                          const std::string& detail = "") {
  RunRecord r;
  r.spec.run_id = id;
  r.spec.campaign = "ringdemo";
  r.spec.nprocs = nprocs;
  r.spec.scale_role = nprocs < 8 ? "train" : "test";
  r.spec.params = {{"count", "64"}};
  r.spec.noise.mode = scalefuzz::noise::mode_from_string(noise).value();
  if (noise != "none") r.spec.noise.settings = {{"s", "1.0"}};
  r.spec.repetition = rep;
  r.spec.argv = {"./ring"};
  r.dir = out / "runs" / id;
  r.started_at = "2026-11-22T05:00:00.000Z";
  std::filesystem::create_directories(r.dir);
  if (kind) {
    Outcome o;
    o.kind = *kind;
    o.wall_seconds = wall;
    o.detail = detail;
    r.outcome = o;
    r.finished_at = "2026-11-22T05:00:01.000Z";
  }
  return r;
}

// A report of campaign `name` in `out` holding `runs` and nothing else.
inline ReportData report_of(const std::filesystem::path& out, const std::string& name,
                            std::vector<RunRecord> runs = {}) {
  ReportData d;
  d.campaign = name;
  d.out_dir = out;
  d.runs = std::move(runs);
  return d;
}

// GCC before 14 warns of the members a designated initializer leaves to their defaults.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
inline ReportData make_report_data(const std::filesystem::path& out) {
  ReportData d;
  d.campaign = "ringdemo";
  d.out_dir = out;
  d.command_line = "scalefuzz run configs/ring.yaml --out " + out.string();
  d.started_at = "2026-11-22T05:00:00.000Z";
  d.finished_at = "2026-11-22T05:01:00.000Z";
  d.generated_at = "2026-11-22T05:01:01.000Z";
  d.runs.push_back(make_run(out, "np4-none-r0", 4, "none", 0, OutcomeKind::Ok, 1.2, "exit 0"));
  d.runs.push_back(make_run(out, "np4-none-r1", 4, "none", 1, OutcomeKind::Ok, 1.3, "exit 0"));
  auto hang = make_run(out, "np4-none-r2", 4, "none", 2, OutcomeKind::Hang, 10.0, "timeout after 10s " + kNasty);
  hang.outcome->signal = 9;
  hang.outcome->stacks = {{0, 4242, kHangStack0}, {1, 4243, "#0 MPI_Recv\n#1 main"}};
  std::ofstream(hang.dir / "stderr.txt") << "line 1\nwarning: <unexpected> & odd\n\x01\xff tail\n";
  d.runs.push_back(hang);
  d.runs.push_back(make_run(out, "np4-system-s1.0-r0", 4, "system", 0, OutcomeKind::Ok, 1.5, "exit 0"));
  auto crash = make_run(out, "np8-none-r0", 8, "none", 0, OutcomeKind::Crashed, 0.8, "rank 2 SIGSEGV");
  crash.outcome->signal = 11;
  crash.outcome->exit_code = 139;
  d.runs.push_back(crash);
  d.runs.push_back(make_run(out, "np8-none-r1", 8, "none", 1, OutcomeKind::MpiAbort, 0.5, "MPI_Abort(code 3)"));
  d.runs.push_back(make_run(out, "np8-system-s1.0-r0", 8, "system", 0, std::nullopt));
  d.runs.push_back(make_run(out, "np8-system-s1.0-r1", 8, "system", 1, OutcomeKind::WrongResult, 2.0,
                            "stdout matched 'ERROR'"));

  d.findings.push_back({.detector = "pdg", .kind = "lp-task", .run_id = "np4-none-r2",
                        .title = "rank 1 is the least-progressed task " + kNasty,
                        .location = "ring_step (ring.c:42)", .ranks = {1},
                        .details = {{"state", "MPI_Recv"}, {"probability", 0.97}},
                        .artifacts = {{"pdg", "text/vnd.graphviz",
                                       "digraph pdg { \"rank0_waits\" -> \"rank1_lp\" [label=\"progress <&>\"]; }"}}});
  d.findings.push_back(
      {.detector = "kcca", .kind = "scale-anomaly", .severity = detectors::Severity::Warning,
       .title = "ranks at scale 8 deviate from the trained trend", .ranks = {0, 1, 2, 3, 7},
       .details = {{"threshold", 0.8}, {"scores", {0.1, 0.2}}},
       .artifacts = {{"correlation", "image/svg+xml",
                      "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"kcca-plot\" width=\"60\" "
                      "height=\"20\"><circle cx=\"10\" cy=\"10\" r=\"8\" fill=\"#c00\"/></svg>"},
                     {"scores", "text/plain", "rank 7: 0.1 < 0.8"}}});
  d.findings.push_back({.detector = "races", .kind = "unintended-match", .severity = detectors::Severity::Info,
                        .run_id = "np8-system-s1.0-r1", .title = "recv in routine B matched a send of routine A",
                        .ranks = {2, 3}});
  d.findings.push_back({.detector = "races", .kind = "nondeterminism", .run_id = "not-a-run-of-this-campaign",
                        .title = "matching order differs between repetitions"});
  return d;
}
#pragma GCC diagnostic pop

}  // namespace scalefuzz::harness::testing
