// The stack prefix tree: eu-stack text parsed to the application's frames
// (tool frames and helper threads gone), stacks merged with rank sets per
// node, equivalence classes.
#include <gtest/gtest.h>

#include "scalefuzz/detectors/stacktree.hpp"

namespace scalefuzz::detectors::stacktree {
namespace {

// What eu-stack -i -s prints for a rank of the ring blocked in MPI_Recv under
// the injector: the main thread with the wrapper and MPICH below the call, and
// the injector's send thread.
std::string rank_stack(int pid, const std::string& app_fn, int app_line, const std::string& call) {
  const std::string p = std::to_string(pid);
  return "PID " + p + " - process\n"
         "TID " + std::to_string(pid + 1) + ":\n"
         "#0  0x00007f0000000001 __GI___futex_wait\n"
         "#1  0x00007f0000000002 scalefuzz::noise::SendThread::run\n"
         "    /src/injectors/noise/send_thread.cpp:88:5\n"
         "TID " + p + ":\n"
         "#0  0x00007f0000000010 __GI___poll\n"
         "    ../sysdeps/unix/sysv/linux/poll.c:29:10\n"
         "#1  0x00007f0000000011 MPIDI_progress_test\n"
         "#2  0x00007f0000000012 PMPI_" + call.substr(4) + "\n"
         "#3  0x00007f0000000013 scalefuzz::handle_send\n"
         "    /src/injectors/wrappers/wrappers.cpp:311:12\n"
         "#4  0x00007f0000000014 " + call + "\n"
         "    /src/build/injectors/wrappers/wrappers.cpp:1020:3\n"
         "#5  0x0000555500000020 " + app_fn + "\n"
         "    /src/scenarios/ring.c:" + std::to_string(app_line) + ":7\n"
         "#6  0x0000555500000030 main\n"
         "    /src/scenarios/ring.c:90:3\n"
         "#7  0x00007f0000000040 __libc_start_call_main\n"
         "    ../sysdeps/nptl/libc_start_call_main.h:58:16\n"
         "#8  0x00007f0000000041 __libc_start_main_impl\n"
         "#9  0x0000555500000001 _start\n";
}

TEST(ParseEuStack, KeepsTheMainThreadsApplicationFramesEndingInTheMpiCall) {
  const auto frames = parse_eu_stack(rank_stack(100, "ring_step", 42, "MPI_Recv"));
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].label(), "main ring.c:90");
  EXPECT_EQ(frames[1].label(), "ring_step ring.c:42");
  EXPECT_EQ(frames[2].label(), "MPI_Recv");  // the wrapper's own source is not shown
  for (const auto& f : frames) {
    EXPECT_EQ(f.function.find("scalefuzz"), std::string::npos) << f.function;
    EXPECT_NE(f.function, "__GI___futex_wait");  // helper thread
    EXPECT_NE(f.function, "__GI___poll");        // below the MPI call
  }
}

TEST(ParseEuStack, ToolFramesAreRemovedOutsideMpiCallsToo) {
  const std::string text =
      "PID 7 - process\nTID 7:\n"
      "#0  0x1 scalefuzz::stall::wait_forever\n    /src/injectors/stall/stall.cpp:30:3\n"
      "#1  0x2 compute\n    /src/app.c:12:1\n"
      "#2  0x3 main\n    /src/app.c:40:1\n";
  const auto frames = parse_eu_stack(text);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[1].label(), "compute app.c:12");
}

TEST(Merge, RankSetsPerNodeAndEquivalenceClasses) {
  std::map<int, std::vector<Frame>> stacks;
  for (int r = 0; r < 4; ++r) stacks[r] = parse_eu_stack(rank_stack(100 + 10 * r, "ring_step", 42, "MPI_Recv"));
  stacks[2] = parse_eu_stack(rank_stack(200, "ring_step", 47, "MPI_Send"));  // the odd one out
  const Node root = merge(stacks);
  EXPECT_EQ(root.ranks, (std::set<int>{0, 1, 2, 3}));
  ASSERT_EQ(root.children.size(), 1u);
  const Node& main = root.children[0];
  EXPECT_EQ(main.label, "main ring.c:90");
  EXPECT_EQ(main.ranks, (std::set<int>{0, 1, 2, 3}));
  ASSERT_EQ(main.children.size(), 2u);
  EXPECT_EQ(main.children[0].label, "ring_step ring.c:42");
  EXPECT_EQ(main.children[0].ranks, (std::set<int>{0, 1, 3}));
  EXPECT_EQ(main.children[1].label, "ring_step ring.c:47");
  EXPECT_EQ(main.children[1].ranks, (std::set<int>{2}));
  ASSERT_EQ(main.children[1].children.size(), 1u);
  EXPECT_EQ(main.children[1].children[0].label, "MPI_Send");

  const auto classes = equivalence_classes(stacks);
  ASSERT_EQ(classes.size(), 2u);
  EXPECT_EQ(classes[0].ranks, (std::set<int>{0, 1, 3}));
  EXPECT_EQ(classes[1].ranks, (std::set<int>{2}));
  EXPECT_EQ(classes[1].frames.back(), "MPI_Send");

  const std::string dot = to_dot(root, "hang");
  EXPECT_NE(dot.find("ring_step ring.c:47"), std::string::npos);
  EXPECT_NE(dot.find("1: 2 "), std::string::npos);    // the edge to the odd rank names it
  EXPECT_NE(dot.find("3: 0-1,3 "), std::string::npos);
  EXPECT_EQ(dot.find("wrappers.cpp"), std::string::npos);
}

TEST(RankSetText, Ranges) { EXPECT_EQ(rank_set_text({0, 1, 2, 3, 7, 9, 10}), "0-3,7,9-10"); }

}  // namespace
}  // namespace scalefuzz::detectors::stacktree
