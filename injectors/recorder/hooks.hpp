// Extension point for noise injection (injectors/noise/). The recorder calls
// these around sends and completions; with no hooks installed each call costs
// one predictable branch.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace scalefuzz::inject {

struct SendIssue {
  std::uint16_t op;      // generated op id (Send, Isend, Ssend, ...)
  bool blocking;         // Send/Ssend/Rsend/Bsend (the hook must complete it before returning)
  const void* buf;
  int count;
  MPI_Datatype type;
  int dest;              // rank in comm
  int tag;
  MPI_Comm comm;
};

struct NoiseHooks {
  void* ctx = nullptr;
  // A send is about to be issued. Return true when the hook issued it itself
  // (e.g. deferred through PMPI_Send_init + PMPI_Start from its send thread):
  // *rc is then the call's result and, for a nonblocking send, *req the
  // request handed to the application. The record gets kFlagDelayed.
  // Sendrecv/Sendrecv_replace are offered too (op tells): the hook must
  // return false for them (it may wait first, e.g. to keep message order).
  bool (*issue_send)(void* ctx, const SendIssue& send, MPI_Request* req, int* rc) = nullptr;
  // Before every completion call (Wait*/Test*/Request_free/Cancel) with the
  // application's request handles: deferred sends must be started (or
  // resolved) here, since completing an unstarted persistent request returns
  // at once.
  void (*before_completion)(void* ctx, MPI_Request* reqs, int n) = nullptr;
  // Entry to a blocking or nonblocking collective: global synchronization
  // points (NINJA's epoch boundaries).
  void (*before_collective)(void* ctx, std::uint16_t op, MPI_Comm comm) = nullptr;
  // After every intercepted call but Init/Finalize/Abort returns (local
  // noise: a tool's overhead). `op_class` is the call's trace::OpClass.
  void (*after_call)(void* ctx, std::uint16_t op, std::uint8_t op_class) = nullptr;
  // A receive completed with a message (epoch detection counts them). Called
  // only while recording (SCALEFUZZ_RUN_DIR set).
  void (*on_receive)(void* ctx) = nullptr;
  // Before a one-sided operation (Put, Get, accumulates) or synchronization
  // call (fence, unlock, flush, complete, wait ...) is issued: its delay
  // moves the operation, or the completion, later against the target's own
  // accesses and the other origins' operations (issue 33).
  void (*before_rma)(void* ctx, std::uint16_t op, std::uint8_t op_class) = nullptr;
};

// Installs `hooks` (copied; nullptr removes them). Call from the MPI_Init
// path, before the application's first send.
void install_noise_hooks(const NoiseHooks* hooks);

// Currently installed hooks, or nullptr (inline: asked 1-3 times per call).
namespace hooks_detail {
extern constinit NoiseHooks g_hooks;
extern constinit bool g_hooks_set;
}  // namespace hooks_detail
inline const NoiseHooks* noise_hooks() { return hooks_detail::g_hooks_set ? &hooks_detail::g_hooks : nullptr; }

inline void noise_after_call(std::uint16_t op, std::uint8_t op_class) {
  const NoiseHooks* h = noise_hooks();
  if (h != nullptr && h->after_call != nullptr) h->after_call(h->ctx, op, op_class);
}
inline void noise_before_rma(std::uint16_t op, std::uint8_t op_class) {
  const NoiseHooks* h = noise_hooks();
  if (h != nullptr && h->before_rma != nullptr) h->before_rma(h->ctx, op, op_class);
}
inline void noise_on_receive() {
  const NoiseHooks* h = noise_hooks();
  if (h != nullptr && h->on_receive != nullptr) h->on_receive(h->ctx);
}

// Implemented by injectors/noise (runtime.cpp), called by the Init and
// Finalize handlers. The thread level MPI must be initialized with for the
// configured mode (MPI_THREAD_MULTIPLE for a send thread), or -1 for any.
int noise_required_thread_level();
// After MPI and the recorder are set up: installs the hooks of the mode.
void noise_start();
// At MPI_Finalize, before PMPI_Finalize: starts what is left, stops the send
// thread, writes the analysis file.
void noise_stop();

}  // namespace scalefuzz::inject
