// Interface between the generated wrappers (wrappers/generate.py) and the
// recorder: the Call a wrapper fills from its argument roles, the thread-local
// re-entry guard, and one handler per function family.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "scalefuzz/trace/format.hpp"

namespace scalefuzz::inject {

// Non-owning reference to a callable (cheaper than std::function: no
// allocation, one indirect call).
template <class Sig>
class FnRef;
template <class R, class... A>
class FnRef<R(A...)> {
 public:
  FnRef(std::nullptr_t) {}
  template <class F>
    requires(!std::is_same_v<std::decay_t<F>, FnRef>)
  FnRef(F&& f)
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* o, A... a) -> R { return (*static_cast<std::remove_reference_t<F>*>(o))(a...); }) {}
  explicit operator bool() const { return call_ != nullptr; }
  R operator()(A... a) const { return call_(obj_, a...); }

 private:
  void* obj_ = nullptr;
  R (*call_)(void*, A...) = nullptr;
};

using Invoke = FnRef<int()>;                  // the PMPI call itself
using NbInvoke = FnRef<int(MPI_Request*)>;    // its nonblocking twin (oversubscription)

// Collectives whose send (Scatter) or receive (Gather, Reduce) arguments are
// significant only at the root.
enum class RootSide : std::uint8_t { None, Send, Recv, Bcast };

// One intercepted call, described by argument role (see mpi_table.py).
struct Call {
  std::uint16_t op = 0;
  trace::OpClass cls = trace::OpClass::Other;
  std::uint8_t flags = 0;
  RootSide root_side = RootSide::None;
  bool rcounts_mine = false;
  bool shared_count = false;   // one count/datatype for both sides (reductions, Bcast)
  bool per_rank_send = false;  // scount is per destination rank
  bool per_rank_recv = false;  // rcount is per source rank
  const void* sbuf = nullptr;
  void* rbuf = nullptr;
  int scount = 0, rcount = 0;
  MPI_Datatype stype = MPI_DATATYPE_NULL, rtype = MPI_DATATYPE_NULL;
  const int* scounts = nullptr;
  const int* rcounts = nullptr;
  const MPI_Datatype* stypes = nullptr;
  const MPI_Datatype* rtypes = nullptr;
  int dest = MPI_PROC_NULL, source = MPI_PROC_NULL;
  int tag = 0, rtag = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm* newcomm = nullptr;
  // Communicator constructors (roles color, ndims, dims): MPI_Comm_split's
  // color, MPI_Cart_create's dims.
  int color = 0;
  bool has_color = false;
  int ndims = 0;
  const int* dims = nullptr;
  int root = -1;
  MPI_Request* req = nullptr;
  MPI_Request* reqs = nullptr;
  int nreq = 0;
  int* index = nullptr;
  int* indices = nullptr;
  int* outcount = nullptr;
  int* flag = nullptr;
  MPI_Status* status = nullptr;
  MPI_Status* statuses = nullptr;
  MPI_Message* message = nullptr;
  int* provided = nullptr;
  MPI_Op rop = MPI_OP_NULL;      // reduction op (role rop)
  bool has_rop = false;
  void* hout = nullptr;          // MPI_Group*/MPI_Datatype*/MPI_Op* created (role hout)
  void* hin = nullptr;           // the handle freed or committed (role hin)
  std::int32_t hkind = 0;        // trace::HandleKind
  int* position = nullptr;       // MPI_Pack/MPI_Unpack's packed-buffer position (role position)
  std::uint32_t site = kNoSite;  // call site, found by the wrapper (site_here)
  // The wrapper's frame address: its CFA (frame + 16) is the application
  // caller's stack pointer at the call, *frame its saved frame pointer
  // (x86-64), written to ranks/N.frames for buffers on the stack.
  void* frame = nullptr;
  static constexpr std::uint32_t kNoSite = 0xFFFFFFFEu;
};

// The arguments of a one-sided call besides a Call's (roles win ... group in
// mpi_table.py). Only the one-sided wrappers build one: the Call every other
// wrapper zeroes stays as it was.
struct RmaCall : Call {
  MPI_Win win = MPI_WIN_NULL;
  MPI_Win* winout = nullptr;     // created (Win_create ...) or freed (Win_free) window
  int target = MPI_PROC_NULL;    // rank in the window's group
  MPI_Aint tdisp = 0;
  int tcount = 0;
  MPI_Datatype ttype = MPI_DATATYPE_NULL;
  const void* base = nullptr;    // Win_create / Win_attach / Win_detach
  void* baseout = nullptr;       // Win_allocate*: really void** (MPI's prototype)
  MPI_Aint wsize = 0;
  int dispunit = 1;
  int locktype = 0;
  int assertion = 0;
  MPI_Group group = MPI_GROUP_NULL;
};

// True while the recorder writes files (SCALEFUZZ_RUN_DIR set, MPI running).
extern constinit bool g_recording;
// Call-site id of the current call stack; call directly from a wrapper with
// the wrapper's return address (used alone when the stack depth is 1) and
// frame address (keys the per-thread call-site cache, stack_cache.hpp).
std::uint32_t site_here(std::uint16_t op, void* return_address, void* frame_address);

// True between MPI_Init(_thread) returning and MPI_Finalize: the process is an
// MPI rank and the recorder is set up. Never set in mpiexec or the proxy.
extern constinit bool g_enabled;
extern thread_local constinit int tl_depth;
// Zero-buffer mode (SCALEFUZZ_NOISE_ZERO_BUFFER=1): MPI_Send/MPI_Isend run as
// MPI_Ssend/MPI_Issend (generated wrappers, option zero_buffer).
extern constinit bool g_zero_buffer;

// PnMPI-style guard: only the outermost intercepted call on a thread is
// recorded; MPI calls made from inside MPI (or by the recorder) pass through.
class ReentryGuard {
 public:
  ReentryGuard() { ++tl_depth; }
  ~ReentryGuard() { --tl_depth; }
  ReentryGuard(const ReentryGuard&) = delete;
  ReentryGuard& operator=(const ReentryGuard&) = delete;
  bool outermost() const { return tl_depth == 1; }
  bool enabled() const { return tl_depth == 1 && g_enabled; }
};

#define SCALEFUZZ_HANDLER(name) int handle_##name(Call& c, Invoke call, NbInvoke nb)
SCALEFUZZ_HANDLER(init);
SCALEFUZZ_HANDLER(finalize);
SCALEFUZZ_HANDLER(abort);
SCALEFUZZ_HANDLER(send);
SCALEFUZZ_HANDLER(recv);
SCALEFUZZ_HANDLER(sendrecv);
SCALEFUZZ_HANDLER(isend);
SCALEFUZZ_HANDLER(irecv);
SCALEFUZZ_HANDLER(send_init);
SCALEFUZZ_HANDLER(recv_init);
SCALEFUZZ_HANDLER(start);
SCALEFUZZ_HANDLER(startall);
SCALEFUZZ_HANDLER(probe);
SCALEFUZZ_HANDLER(iprobe);
SCALEFUZZ_HANDLER(mprobe);
SCALEFUZZ_HANDLER(improbe);
SCALEFUZZ_HANDLER(mrecv);
SCALEFUZZ_HANDLER(imrecv);
SCALEFUZZ_HANDLER(wait);
SCALEFUZZ_HANDLER(waitall);
SCALEFUZZ_HANDLER(waitany);
SCALEFUZZ_HANDLER(waitsome);
SCALEFUZZ_HANDLER(test);
SCALEFUZZ_HANDLER(testall);
SCALEFUZZ_HANDLER(testany);
SCALEFUZZ_HANDLER(testsome);
SCALEFUZZ_HANDLER(request_free);
SCALEFUZZ_HANDLER(cancel);
SCALEFUZZ_HANDLER(coll);
SCALEFUZZ_HANDLER(icoll);
SCALEFUZZ_HANDLER(comm_new);
SCALEFUZZ_HANDLER(comm_free);
SCALEFUZZ_HANDLER(handle_new);
SCALEFUZZ_HANDLER(handle_free);
SCALEFUZZ_HANDLER(type_commit);
SCALEFUZZ_HANDLER(pack);
// One-sided communication (handlers_rma.cpp); `c` is an RmaCall.
SCALEFUZZ_HANDLER(win_new);
SCALEFUZZ_HANDLER(win_free);
SCALEFUZZ_HANDLER(win_attach);
SCALEFUZZ_HANDLER(rma);
SCALEFUZZ_HANDLER(rma_sync);

}  // namespace scalefuzz::inject
