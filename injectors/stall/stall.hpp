// Stall fault injection (AutomaDeD §5.2): one chosen rank stops progressing
// at the entry of its K-th intercepted MPI call (Init/Finalize/Abort not
// counted), before the recorder sees the call, so its live state and Markov
// model show it in the computation after call K-1, the way a rank hung in
// application code looks. The harness picks the rank and K from the run's
// seed and keeps them as ground truth.
#pragma once

namespace scalefuzz::inject {

// True only in the rank that is to stall, until it stalls.
extern constinit bool g_stall_armed;

// From MPI_Init: arms this rank when SCALEFUZZ_STALL_RANK is its world rank
// and SCALEFUZZ_STALL_CALL is a call number >= 1.
void stall_start(int world_rank);

// Counts the call; at the K-th, writes RUN_DIR/stall (what stalled, when) and
// sleeps until the process is killed.
void stall_count_call();

inline void stall_check() {
  if (__builtin_expect(g_stall_armed, false)) stall_count_call();
}

}  // namespace scalefuzz::inject
