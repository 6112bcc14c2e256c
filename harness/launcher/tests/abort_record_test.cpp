// MPI_Abort as the injector recorded it (trace files written by the test
// writer) turns any outcome but a hang into mpi-abort with rank and code.
#include "abort_record.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include "scalefuzz/trace/writer.hpp"

namespace scalefuzz::harness {
namespace {

std::filesystem::path fresh_dir() {
  auto dir = std::filesystem::temp_directory_path() /
             ("sf-abort-" + std::to_string(getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

trace::RankTrace rank_with(int r, bool aborts, long long code) {
  trace::RankTrace t;
  t.rank = r;
  t.world_size = 2;
  trace::Event e{};
  e.seq = 1;
  e.t_enter_ns = 10;
  e.t_exit_ns = 11;
  e.op_class = static_cast<std::uint8_t>(trace::OpClass::Init);
  t.events.push_back(e);
  if (aborts) {
    e.seq = 2;
    e.t_exit_ns = 0;  // MPI_Abort never returns
    e.op_class = static_cast<std::uint8_t>(trace::OpClass::Abort);
    e.count = code;
    t.events.push_back(e);
  }
  return t;
}

TEST(AbortRecord, FoundWithRankAndCodeAndAppliedToAnExitZeroRun) {
  auto dir = fresh_dir();
  trace::write_rank(dir, rank_with(0, false, 0));
  trace::write_rank(dir, rank_with(1, true, 0));
  auto a = find_abort_record(dir, 2);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->rank, 1);
  EXPECT_EQ(a->error_code, 0);
  Outcome o;  // mpiexec exited 0: ok
  apply_abort_record(o, *a);
  EXPECT_EQ(o.kind, OutcomeKind::MpiAbort);
  EXPECT_NE(o.detail.find("rank 1 called MPI_Abort with error code 0"), std::string::npos) << o.detail;
  EXPECT_NE(o.detail.find("mpiexec alone said ok"), std::string::npos) << o.detail;
  Outcome hang;
  hang.kind = OutcomeKind::Hang;
  apply_abort_record(hang, *a);
  EXPECT_EQ(hang.kind, OutcomeKind::Hang);
  std::filesystem::remove_all(dir);
}

TEST(AbortRecord, NoneWithoutAnAbortOrWithoutTraces) {
  auto dir = fresh_dir();
  EXPECT_FALSE(find_abort_record(dir, 2));
  trace::write_rank(dir, rank_with(0, false, 0));
  EXPECT_FALSE(find_abort_record(dir, 2));  // rank 1 has no files: skipped
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace scalefuzz::harness
