// The generated op table: ids are dense, names match, unknown ids are safe.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "scalefuzz/trace/ops.hpp"

namespace scalefuzz::trace {
const char* op_name(std::uint16_t op);
}

using namespace scalefuzz::trace;

TEST(Ops, NamesMatchIds) {
  EXPECT_STREQ(op_name(ops::Send), "MPI_Send");
  EXPECT_STREQ(op_name(ops::Isend), "MPI_Isend");
  EXPECT_STREQ(op_name(ops::Waitall), "MPI_Waitall");
  EXPECT_STREQ(op_name(ops::Ialltoallw), "MPI_Ialltoallw");
  EXPECT_STREQ(op_name(ops::Comm_split_type), "MPI_Comm_split_type");
  EXPECT_STREQ(op_name(ops::kUnknown), "MPI_?");
  EXPECT_STREQ(op_name(ops::kCount), "MPI_?");
  EXPECT_STREQ(op_name(0xFFFF), "MPI_?");
}

TEST(Ops, EveryIdHasADistinctName) {
  std::set<std::string> names;
  for (std::uint16_t op = 1; op < ops::kCount; ++op) {
    std::string n = op_name(op);
    EXPECT_EQ(n.rfind("MPI_", 0), 0u) << op;
    EXPECT_NE(n, "MPI_?") << op;
    names.insert(n);
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(ops::kCount - 1));
  // The families the issue asks for are all there.
  for (const char* want : {"MPI_Init_thread", "MPI_Abort", "MPI_Sendrecv_replace", "MPI_Improbe", "MPI_Imrecv",
                           "MPI_Testsome", "MPI_Startall", "MPI_Cancel", "MPI_Reduce_scatter_block", "MPI_Iexscan",
                           "MPI_Cart_create", "MPI_Comm_free"})
    EXPECT_TRUE(names.count(want)) << want;
}
