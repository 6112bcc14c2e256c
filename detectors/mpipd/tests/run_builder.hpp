// Builds RunTrace objects by hand for the MPI-PD tests: one call per MPI
// call of a rank, in a global time order. `done = false` leaves the record
// unfinished (the call never returned).
#pragma once

#include <cstdint>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::mpipd::testing {

using trace::Event;
using trace::OpClass;

class RunBuilder {
 public:
  explicit RunBuilder(int nranks) {
    run.run_id = "test-run";
    run.ranks.resize(static_cast<std::size_t>(nranks));
    for (int r = 0; r < nranks; ++r) {
      run.ranks[static_cast<std::size_t>(r)].rank = r;
      run.ranks[static_cast<std::size_t>(r)].world_size = nranks;
      add(r, OpClass::Init, trace::kNoPeer, trace::kNoTag, 0, true);
    }
  }

  std::size_t send(int r, int dst, int tag = 0, std::int64_t bytes = 8, bool done = true, std::uint32_t comm = 0) {
    return add(r, OpClass::Send, dst, tag, bytes, done, comm);
  }
  std::size_t ssend(int r, int dst, int tag = 0, bool done = true) {
    std::size_t i = add(r, OpClass::Send, dst, tag, 8, done);
    ev(r, i).flags |= trace::kFlagSynchronous;
    return i;
  }
  // A blocking receive; when done, the status names the source (or `status_src` for wildcards).
  std::size_t recv(int r, int src, int tag = 0, std::int64_t bytes = 8, bool done = true, int status_src = -1,
                   std::uint32_t comm = 0) {
    std::size_t i = add(r, OpClass::Recv, src, tag, bytes, done, comm);
    if (done) complete_status(ev(r, i), status_src >= 0 ? status_src : src, tag, bytes);
    return i;
  }
  std::size_t isend(int r, int dst, std::uint64_t req, int tag = 0, std::int64_t bytes = 8) {
    std::size_t i = add(r, OpClass::Isend, dst, tag, bytes, true);
    ev(r, i).request = req;
    return i;
  }
  std::size_t irecv(int r, int src, std::uint64_t req, int tag = 0, std::int64_t bytes = 8) {
    std::size_t i = add(r, OpClass::Irecv, src, tag, bytes, true);
    ev(r, i).request = req;
    return i;
  }
  // MPI_Wait on `req`: the call record, plus its RequestDone child when it returned.
  std::size_t wait(int r, std::uint64_t req, bool done = true, int status_src = -1, int tag = 0, std::int64_t bytes = 8) {
    std::size_t i = add(r, OpClass::Completion, trace::kNoPeer, trace::kNoTag, 0, done);
    if (done) {
      std::size_t c = add(r, OpClass::RequestDone, trace::kNoPeer, trace::kNoTag, 0, true);
      ev(r, c).flags |= trace::kFlagChild;
      ev(r, c).request = req;
      complete_status(ev(r, c), status_src, tag, bytes);
    }
    return i;
  }
  // MPI_Test on `req` that found it not complete.
  std::size_t test_failed(int r, std::uint64_t req) {
    std::size_t i = add(r, OpClass::Completion, trace::kNoPeer, trace::kNoTag, 0, true);
    std::size_t c = add(r, OpClass::RequestDone, trace::kNoPeer, trace::kNoTag, 0, true);
    ev(r, c).flags |= trace::kFlagChild | trace::kFlagTestFailed;
    ev(r, c).request = req;
    return i;
  }
  std::size_t collective(int r, std::uint32_t comm = 0, bool done = true, int root = trace::kNoPeer) {
    std::size_t i = add(r, OpClass::Collective, trace::kNoPeer, trace::kNoTag, 8, done, comm);
    ev(r, i).root = root;
    return i;
  }
  std::size_t comm_create(int r, std::uint32_t comm) {
    return add(r, OpClass::CommMgmt, trace::kNoPeer, trace::kNoTag, 0, true, comm);
  }
  std::size_t finalize(int r, bool done = true) { return add(r, OpClass::Finalize, trace::kNoPeer, trace::kNoTag, 0, done); }
  std::size_t abort(int r) { return add(r, OpClass::Abort, trace::kNoPeer, trace::kNoTag, 0, false); }

  Event& ev(int r, std::size_t i) { return run.ranks[static_cast<std::size_t>(r)].events[i]; }

  trace::RunTrace run;

 private:
  std::uint64_t clock_ = 1000;

  static void complete_status(Event& e, int src, int tag, std::int64_t bytes) {
    e.status_source = src;
    e.status_tag = tag;
    e.status_bytes = static_cast<std::int32_t>(bytes);
  }

  std::size_t add(int r, OpClass c, std::int32_t peer, std::int32_t tag, std::int64_t bytes, bool done,
                  std::uint32_t comm = 0) {
    auto& rt = run.ranks[static_cast<std::size_t>(r)];
    Event e{};
    e.seq = rt.events.size() + 1;
    e.t_enter_ns = clock_++;
    e.t_exit_ns = done ? clock_++ : 0;
    e.op = 0;
    e.op_class = static_cast<std::uint8_t>(c);
    e.peer = peer;
    e.tag = tag;
    e.comm = comm;
    e.root = trace::kNoPeer;
    e.count = bytes / 4;
    e.bytes = bytes;
    e.status_source = -1;
    rt.events.push_back(e);
    rt.last_event_in_progress = !done;
    return rt.events.size() - 1;
  }
};

}  // namespace scalefuzz::detectors::mpipd::testing
