#include "scalefuzz/harness/bugs.hpp"

#include <gtest/gtest.h>

namespace scalefuzz::harness::bugs {
namespace {

using detectors::Finding;
using detectors::Severity;

// The roles the registrations declare (analysis::bug_roles(); the registry
// test checks that they still do).
const Roles kRoles{{"mpipd", "pdg"},
                   {{"races", "unintended-match"}},
                   {{"races", "unintended-match"}},
                   {{"races", "potential-race"}}};

Finding finding(std::string detector, std::string kind, std::string run_id, std::string location,
                Severity severity = Severity::Error, std::string title = "something") {
  Finding f;
  f.detector = std::move(detector);
  f.kind = std::move(kind);
  f.run_id = std::move(run_id);
  f.location = std::move(location);
  f.severity = severity;
  f.title = std::move(title);
  return f;
}

// normalize_location(location) is `normalized` for every pair.
void expect_normalized(std::initializer_list<std::pair<const char*, const char*>> cases) {
  for (const auto& [location, normalized] : cases) EXPECT_EQ(normalize_location(location), normalized) << location;
}

TEST(NormalizeLocation, KeepsFunctionAndFileBasenameLine) {
  expect_normalized({{"send_then_receive (/home/ci/build-7/scenarios/spine/deadlock_cycle.c:42)",
                      "send_then_receive deadlock_cycle.c:42"},
                     {"send_then_receive (deadlock_cycle.c:42)", "send_then_receive deadlock_cycle.c:42"},
                     {"  main (/x/y/ring.c:7) ", "main ring.c:7"}});
}

TEST(NormalizeLocation, DropsAddressesOffsetsAndCloneSuffixes) {
  expect_normalized({{"0x7f12ab34", ""},
                     {"/usr/lib/x86_64-linux-gnu/libmpich.so.12+0x1f3a0", "libmpich.so.12+0x1f3a0"},
                     {"MPIR_Wait (/usr/lib/libmpich.so.12+0x1f3a0)", "MPIR_Wait libmpich.so.12"},
                     {"exchange.constprop.0 (/a/b/halo.c:88)", "exchange halo.c:88"},
                     {"exchange.isra.0.cold (/a/b/halo.c:88)", "exchange halo.c:88"},
                     {"?? (/a/b/halo.c:88)", "halo.c:88"}});
}

// Issue 37: a stripped binary's frames have no function and no line; the
// module-relative offset is what tells its bugs apart (dropping it merged
// every finding of nwchem.mpich into one bug).
TEST(NormalizeLocation, StrippedFramesKeepTheirOffset) {
  expect_normalized({{"/usr/bin/nwchem.mpich+0x4f1a0", "nwchem.mpich+0x4f1a0"},
                     {"?? (/usr/bin/nwchem.mpich+0x4f1a0)", "nwchem.mpich+0x4f1a0"},
                     {"pdsytd2_ (/usr/lib/libscalapack-mpich.so.2.1+0x8c0)", "pdsytd2_ libscalapack-mpich.so.2.1"}});
  const auto a = fingerprint(finding_key(finding("usage", "leaked-handle", "r", "/usr/bin/nwchem.mpich+0x4f1a0")));
  const auto b = fingerprint(finding_key(finding("usage", "leaked-handle", "r", "/usr/bin/nwchem.mpich+0x51000")));
  EXPECT_NE(a, b);
}

TEST(NormalizeLocation, CppSignaturesKeepTheirParentheses) {
  expect_normalized({{"Solver::step(int, double) (/src/solver.cpp:120)", "Solver::step(int, double) solver.cpp:120"}});
}

TEST(NormalizeLocation, FreeTextLosesAddressesAndDirectories) {
  expect_normalized({{"MPI_Recv at /tmp/b1/app.c:9 0xdeadbeef", "MPI_Recv at app.c:9"}});
}

TEST(Fingerprint, IsStableAcrossBuildDirectoriesAndTitles) {
  auto a = finding("mpipd", "deadlock", "np2-r0", "f (/build-a/src/x.c:10)", Severity::Error, "3 ranks, seed 1");
  auto b = finding("mpipd", "deadlock", "np8-r4", "f (/other/machine/src/x.c:10)", Severity::Error, "8 ranks, seed 2");
  b.ranks = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(fingerprint(finding_key(a)), fingerprint(finding_key(b)));
}

TEST(Fingerprint, TellsDetectorKindAndLineApart) {
  const auto base = fingerprint(finding_key(finding("mpipd", "deadlock", "r", "f (x.c:10)")));
  EXPECT_NE(base, fingerprint(finding_key(finding("pdg", "deadlock", "r", "f (x.c:10)"))));
  EXPECT_NE(base, fingerprint(finding_key(finding("mpipd", "non-occurred-event", "r", "f (x.c:10)"))));
  EXPECT_NE(base, fingerprint(finding_key(finding("mpipd", "deadlock", "r", "f (x.c:11)"))));
  EXPECT_NE(base, fingerprint(finding_key(finding("mpipd", "deadlock", "r", "g (x.c:10)"))));
}

TEST(Fingerprint, IsAFixedFunctionOfTheKey) {
  // Nights compare fingerprints computed by different builds: the value
  // itself must never change for the same key (value computed independently
  // with FNV-1a 64 in Python over the canonical text).
  BugKey key{"outcome", "crashed", {"send_then_receive deadlock_cycle.c:42"}, ""};
  EXPECT_EQ(fingerprint(key).size(), 16u);
  EXPECT_EQ(fingerprint(key), "896fe1659c2bca4d");
  EXPECT_EQ(signature(key), "outcome/crashed at send_then_receive deadlock_cycle.c:42");
  // A hang is identified by its file (issue 34 item 2): the canonical text
  // is "scalefuzz-bug-v1 US outcome US hang US @deadlock_cycle.c".
  BugKey hang{"outcome", "hang", {"send_then_receive deadlock_cycle.c:42"}, ""};
  EXPECT_EQ(fingerprint(hang), "cc493f794186f68d");
  EXPECT_EQ(signature(hang), "outcome/hang at send_then_receive deadlock_cycle.c:42");
}

TEST(FindingKey, RacesUseBothRoutinesAndPointsTellCampaignWideFindingsApart) {
  auto race = finding("races", "unintended-match", "r1", "recv_loop (/a/app.c:30)");
  race.details["send_routine"] = "late_sender (/a/app.c:55)";
  EXPECT_EQ(finding_key(race).locations, (std::vector<std::string>{"recv_loop app.c:30", "late_sender app.c:55"}));
  auto point = finding("races", "nondeterministic-matching", "", "", Severity::Info);
  point.details["campaign_point"] = "np4 count=512";
  EXPECT_EQ(finding_key(point).context, "np4 count=512");
}

std::vector<RunInfo> three_runs() {
  return {{"np2-warmup3-none-r0", 2, "none", "10688990830136140372", "2026-11-23T01:00:00Z"},
          {"np3-warmup3-none-r0", 3, "none", "42", "2026-11-23T01:00:05Z"},
          {"np4-warmup3-none-r0", 4, "none", "7", "2026-11-23T01:00:10Z"}};
}

TEST(GroupFindings, ThreeHangsOfOneDeadlockAreOneBugWithThreeOccurrences) {
  std::vector<Finding> findings;
  for (const auto& r : three_runs()) {
    findings.push_back(finding("outcome", "hang", r.run_id, "", Severity::Error, r.run_id + ": hang"));
    findings.push_back(finding("mpipd", "deadlock", r.run_id, "send_then_receive (/b" + r.run_id + "/deadlock_cycle.c:42)"));
    findings.push_back(finding("pdg", "lp-task", r.run_id, "send_then_receive (/b/deadlock_cycle.c:42)"));
  }
  const auto bugs = group_findings(findings, three_runs(), kRoles);
  ASSERT_EQ(bugs.size(), 1u);
  const Bug& bug = bugs[0];
  EXPECT_EQ(bug.signature, "outcome/hang at send_then_receive deadlock_cycle.c:42");
  ASSERT_EQ(bug.occurrences.size(), 3u);
  EXPECT_EQ(bug.runs().size(), 3u);
  EXPECT_EQ(bug.related, (std::vector<std::size_t>{1, 2, 4, 5, 7, 8}));
  EXPECT_EQ(bug.occurrences[0].seed, "10688990830136140372");
  EXPECT_EQ(bug.occurrences[2].nprocs, 4);
  EXPECT_EQ(bug.first_seen, "2026-11-23T01:00:00Z");
  EXPECT_EQ(bug.last_seen, "2026-11-23T01:00:10Z");
}

// Issue 32, "one bug, not three": a message race, the potential race seen
// at the same receive, and the hang it causes in the same run (blocked in
// the receive that quiet runs deliver the taken message to) are one bug: the
// race's, with the others as its evidence. A hang of another run, blocked
// elsewhere, stays a bug of its own.
TEST(GroupFindings, AHangBlockedWhereARaceTookItsMessageIsThatRacesBug) {
  auto race = finding("races", "unintended-match", "r1", "routine_a (/b/case3.c:55)");
  race.details = {{"campaign_point", "np4"},
                  {"send_routine", "routine_b (/b/case3.c:76)"},
                  {"quiet_runs_deliver_it_to", {{{"receive_rank", 0}, {"receive_site", "routine_b (/b/case3.c:78)"}}}}};
  auto potential = finding("races", "potential-race", "r0", "routine_a (/b/case3.c:55)", Severity::Warning);
  potential.details = {{"campaign_point", "np4"}};
  std::vector<Finding> findings = {finding("outcome", "hang", "r1", ""),
                                   finding("mpipd", "deadlock", "r1", "iteration (/b/case3.c:91)"),
                                   finding("pdg", "lp-task", "r1", "routine_b (/b/case3.c:78)"),
                                   race,
                                   potential,
                                   finding("outcome", "hang", "r2", ""),
                                   finding("mpipd", "deadlock", "r2", "other (/b/elsewhere.c:7)")};
  const auto bugs = group_findings(findings, {}, kRoles);
  ASSERT_EQ(bugs.size(), 2u);
  EXPECT_EQ(bugs[0].key.detector, "races");
  EXPECT_EQ(bugs[0].occurrences.size(), 1u);
  EXPECT_EQ(bugs[0].related, (std::vector<std::size_t>{4, 0, 1, 2}));
  EXPECT_EQ(bugs[1].key.detector, "outcome");  // r2's hang: no race of its run names where it waits
  EXPECT_EQ(bugs[1].runs(), (std::vector<std::string>{"r2"}));
  // Without the race's intended receive the hang is a bug of its own, as before.
  findings[3].details.erase("quiet_runs_deliver_it_to");
  EXPECT_EQ(group_findings(findings, {}, kRoles).size(), 3u);
}

TEST(GroupFindings, OutcomeTakesTheMpipdLocationBeforePdg) {
  std::vector<Finding> findings = {finding("outcome", "crashed", "r", ""),
                                   finding("pdg", "lp-task", "r", "wait_all (a.c:5)"),
                                   finding("mpipd", "calculation-fault", "r", "compute (a.c:9)")};
  const auto bugs = group_findings(findings, {}, kRoles);
  ASSERT_EQ(bugs.size(), 1u);
  EXPECT_EQ(bugs[0].key.locations, (std::vector<std::string>{"compute a.c:9"}));
}

// harness/bugs names no technique: which detectors localize is what the roles say.
TEST(GroupFindings, TheRolesDecideWhichDetectorsLocalize) {
  const std::vector<Finding> findings = {finding("outcome", "crashed", "r", ""),
                                         finding("x", "stop", "r", "wait_all (/a/a.c:5)")};
  EXPECT_EQ(group_findings(findings, {}, kRoles).size(), 2u);
  Roles roles;
  roles.localizing = {"x"};
  const auto bugs = group_findings(findings, {}, roles);
  ASSERT_EQ(bugs.size(), 1u);
  EXPECT_EQ(bugs[0].key.locations, (std::vector<std::string>{"wait_all a.c:5"}));
  EXPECT_EQ(bugs[0].related, (std::vector<std::size_t>{1}));
}

TEST(GroupFindings, DifferentPlacesAreDifferentBugsAndSeriousOnesComeFirst) {
  std::vector<Finding> findings = {
      finding("kcca", "scale-model", "", "", Severity::Info),
      finding("kcca", "scale-anomaly", "np16-r0", "sf_allgather (/x/allgather_overflow.c:106)"),
      finding("kcca", "scale-anomaly", "np24-r0", "sf_allgather (/y/allgather_overflow.c:106)"),
      finding("races", "unintended-match", "np4-r1", "recv (/x/r.c:3)", Severity::Warning)};
  const auto bugs = group_findings(findings, {}, kRoles, "2026-11-23T02:00:00Z");
  ASSERT_EQ(bugs.size(), 3u);
  EXPECT_EQ(bugs[0].key.kind, "scale-anomaly");
  EXPECT_EQ(bugs[0].occurrences.size(), 2u);
  EXPECT_EQ(bugs[1].key.kind, "unintended-match");
  EXPECT_EQ(bugs[2].key.kind, "scale-model");
  EXPECT_EQ(bugs[2].first_seen, "2026-11-23T02:00:00Z");  // campaign-wide: dated by the campaign
  EXPECT_TRUE(bugs[2].runs().empty());
}

TEST(GroupFindings, ARaceComesBeforeTheHangItCausesAndMpipdWithPdgAreOneBug) {
  // As the analysis lists them: the hung run's outcome and its localizers
  // first, the race (seen in another run) after them.
  auto race = finding("races", "unintended-match", "np4-app-r1", "recv_loop (/a/case3.c:30)");
  race.details["send_routine"] = "late_sender (/a/case3.c:55)";
  std::vector<Finding> findings = {finding("outcome", "hang", "np4-app-r0", ""),
                                   finding("mpipd", "deadlock", "np4-app-r0", "wait_all (/a/case3.c:90)"),
                                   finding("pdg", "lp-task", "np4-app-r0", "wait_all (/b/case3.c:90)"),
                                   finding("usage", "pending-request", "np4-app-r0", "leak (/a/case3.c:12)"),
                                   finding("outcome", "crashed", "np8-app-r0", ""),
                                   race};
  const auto bugs = group_findings(findings, {}, kRoles);
  ASSERT_EQ(bugs.size(), 4u);
  EXPECT_EQ(bugs[0].key.detector, "races");
  EXPECT_EQ(bugs[1].signature, "outcome/hang at wait_all case3.c:90");
  EXPECT_EQ(bugs[1].related, (std::vector<std::size_t>{1, 2})) << "MPI-PD and PDG at the same code: one bug";
  EXPECT_EQ(bugs[2].key.detector, "usage");
  EXPECT_EQ(bugs[3].signature, "outcome/crashed") << "a failure nothing localized comes last";
}

// Issue 34 item 2: NINJA case 3 on five nights. MPI-PD lands on the blocked
// MPI_Recv in routine_b one night and on its caller's frame the next; the
// race's sender is routine_b's or routine_a's message. Same bugs each time.
TEST(GroupFindings, AHangIsOneBugWhicheverFrameTheLocalizersLandOn) {
  std::vector<Finding> night1 = {finding("outcome", "hang", "np4-app-r0", ""),
                                 finding("mpipd", "deadlock", "np4-app-r0", "routine_b (/n1/case3_separated_hang.c:78)")};
  std::vector<Finding> night2 = {finding("outcome", "hang", "np4-app-r2", ""),
                                 finding("pdg", "lp-task", "np4-app-r2", "iteration (/n2/case3_separated_hang.c:91)")};
  const auto a = group_findings(night1, {}, kRoles);
  const auto b = group_findings(night2, {}, kRoles);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0].fingerprint, b[0].fingerprint) << a[0].signature << " vs " << b[0].signature;
  EXPECT_EQ(a[0].signature, "outcome/hang at routine_b case3_separated_hang.c:78") << "the signature shows the frame";
  // In one campaign both runs are occurrences of one bug.
  night1.insert(night1.end(), night2.begin(), night2.end());
  const auto both = group_findings(night1, {}, kRoles);
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(both[0].runs().size(), 2u);
  // A hang in another program is another bug.
  const auto other = group_findings({finding("outcome", "hang", "x", ""),
                                     finding("mpipd", "deadlock", "x", "routine_b (/n1/case1_random_dest.c:78)")},
                                    {}, kRoles);
  EXPECT_NE(other[0].fingerprint, a[0].fingerprint);
}

TEST(GroupFindings, ARaceIsOneBugWhicheverSenderItsMessageCameFrom) {
  auto from_b = finding("races", "unintended-match", "r1", "routine_a (/a/case3_separated_hang.c:55)");
  from_b.details["send_routine"] = "routine_b (/a/case3_separated_hang.c:76)";
  auto from_a = finding("races", "unintended-match", "r2", "routine_a (/b/case3_separated_hang.c:55)");
  from_a.details["send_routine"] = "routine_a (/b/case3_separated_hang.c:51)";
  EXPECT_EQ(fingerprint(finding_key(from_b)), fingerprint(finding_key(from_a)));
  EXPECT_EQ(group_findings({from_b, from_a}, {}, kRoles).size(), 1u);
  auto elsewhere = finding("races", "unintended-match", "r3", "routine_c (/b/case3_separated_hang.c:99)");
  EXPECT_NE(fingerprint(finding_key(elsewhere)), fingerprint(finding_key(from_a)));
}

TEST(GroupFindings, SeverityIsTheWorstOccurrence) {
  std::vector<Finding> findings = {finding("pdg", "lp-task", "a", "f (x.c:1)", Severity::Info),
                                   finding("pdg", "lp-task", "b", "f (x.c:1)", Severity::Error)};
  const auto bugs = group_findings(findings, {}, kRoles);
  ASSERT_EQ(bugs.size(), 1u);
  EXPECT_EQ(bugs[0].severity, Severity::Error);
  EXPECT_EQ(bugs[0].title, "something");
}

TEST(BugJson, SummaryRoundTrips) {
  std::vector<Finding> findings = {finding("outcome", "hang", "np2-warmup3-none-r0", "")};
  const auto bugs = group_findings(findings, three_runs(), kRoles);
  const auto j = bug_to_json(bugs.at(0));
  EXPECT_TRUE(j["occurrences"][0]["seed"].is_string());
  const auto s = bug_summary_from_json(j);
  EXPECT_EQ(s.fingerprint, bugs[0].fingerprint);
  EXPECT_EQ(s.severity, Severity::Error);
  EXPECT_EQ(s.occurrences, 1u);
  EXPECT_EQ(s.runs, (std::vector<std::string>{"np2-warmup3-none-r0"}));
  EXPECT_THROW(bug_summary_from_json(nlohmann::json{{"fingerprint", 1}}), std::invalid_argument);
}

}  // namespace
}  // namespace scalefuzz::harness::bugs
