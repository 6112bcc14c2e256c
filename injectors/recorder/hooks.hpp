// Extension point for noise injection (injectors/noise/, next issue). The
// recorder calls these around sends and completions; with no hooks installed
// each call costs one predictable branch. Not implemented by the recorder.
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
  bool (*issue_send)(void* ctx, const SendIssue& send, MPI_Request* req, int* rc) = nullptr;
  // Before every completion call (Wait*/Test*/Request_free/Cancel) with the
  // application's request handles: deferred sends must be started (or
  // resolved) here, since completing an unstarted persistent request returns
  // at once.
  void (*before_completion)(void* ctx, MPI_Request* reqs, int n) = nullptr;
  // Entry to a blocking or nonblocking collective: global synchronization
  // points (NINJA's epoch boundaries).
  void (*before_collective)(void* ctx, std::uint16_t op, MPI_Comm comm) = nullptr;
};

// Installs `hooks` (copied; nullptr removes them). Call from the MPI_Init
// path, before the application's first send.
void install_noise_hooks(const NoiseHooks* hooks);

// Currently installed hooks, or nullptr.
const NoiseHooks* noise_hooks();

}  // namespace scalefuzz::inject
