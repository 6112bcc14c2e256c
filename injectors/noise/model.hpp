// NINJA's math as pure functions (no MPI), after Sato et al. PPoPP'17
// sections 4.1-4.2. Times are nanoseconds.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace scalefuzz::noise {

// Defaults from the reference implementation (PRUNERS/NINJA src/ninj_fc.cpp,
// which produced the paper's results): B = 314.3 bytes/us, C = 0.25 us,
// threshold 1, packets of 2048 bytes (NINJ_FC_MTU). The paper's text says
// B = 3.14 GB/s; the code's 314.3 bytes/us is ten times slower (its comment
// converts 3.2 GB/s to 312.5 bytes/us). README.md names each origin.
struct VbqParams {
  double bandwidth = 314.3e6;       // B, bytes/s
  double latency_ns = 250;          // C
  double scale = 1.0;               // S_p
  std::uint64_t threshold = 1;      // N_s, packets
  std::uint64_t packet_size = 2048; // bytes per packet (the reference's MTU)
};

// Packets of a message: ceil(bytes / packet_size), at least one (the header).
std::vector<std::uint64_t> packetize(std::uint64_t bytes, std::uint64_t packet_size);

// Formula 1: D = (sum_{i=1..N} P_s[i]/B + C) * S_p over the first N packets.
double formula1(const std::vector<std::uint64_t>& packet_sizes, std::size_t n, const VbqParams& p);

// Virtual buffer queue (4.1.1), as the reference implementation keeps it: a
// FIFO of packet departure times. A message sent at t puts its packets in
// the queue leaving at t + the running sum of (P/B + C) * S_p over its own
// packets, the first one charged a full packet whatever the message's size
// (the reference's model: a 8-byte message occupies the link for one MTU).
// Packets leave from the head once their time has passed. When the queue,
// this message included, holds more than N_s packets, the send waits until
// the (N_l + N_m - N_s)-th packet from the head has left: Formula 1 over
// N = N_m + (N_l - N_s) packets (Figure 6).
class VirtualBufferQueue {
 public:
  explicit VirtualBufferQueue(VbqParams p) : p_(p) {}
  // A message of `bytes` is sent at `now`: enqueues its packets and returns
  // the delay before it may be issued (0 while the queue stays within N_s).
  std::uint64_t offer(std::uint64_t now, std::uint64_t bytes);
  std::size_t length(std::uint64_t now);  // N_l at `now`

 private:
  void drain(std::uint64_t now);
  double tx_ns(std::uint64_t size) const { return (static_cast<double>(size) / p_.bandwidth * 1e9 + p_.latency_ns) * p_.scale; }
  VbqParams p_;
  std::deque<std::uint64_t> q_;  // departure times, in enqueue order
};

// The VBQ seen from one sending thread that waits out its nonblocking sends'
// short delays itself (runtime.cpp) where the reference's MPI_Isend hands
// them to its send thread and returns at once (PRUNERS/NINJA src/ninj.cpp):
// the queue runs on the clock without those holds, and a send's delay is
// what the reference's would be less what this thread was already held since
// the queue was last empty. A burst of small sends is then out one packet
// time after it began, as in the reference; the held caller would otherwise
// show the queue each next send one hold later and chain the delays.
class HeldVbqClock {
 public:
  // The delay of a message of `bytes` sent at real time `now`.
  std::uint64_t offer(VirtualBufferQueue& q, std::uint64_t now, std::uint64_t bytes);
  // The caller was held `ns` for a nonblocking send's delay.
  void held(std::uint64_t ns) { held_ += ns; }

 private:
  std::uint64_t held_ = 0, held_at_empty_ = 0;
};

// A message id: tag + communicator (the recorder's comm id).
using MsgId = std::pair<std::int32_t, std::uint32_t>;

// Send sets of one message id (4.2.1): a new set starts where the interval
// to the previous send exceeds D_m. Returns the index of each set's first send.
std::vector<std::size_t> split_send_sets(const std::vector<std::uint64_t>& send_times, std::uint64_t min_noise);

// Formula 2: V_i = (sum_{k=m_i}^{m_{i+1}-1} D_k) * S_a with D_k = t[k+1]-t[k];
// one value per set but the last (no noise on the last set of an epoch).
std::vector<double> formula2(const std::vector<std::uint64_t>& send_times, const std::vector<std::size_t>& set_starts,
                             double scale);

// Epoch detection (4.2.1): at a global synchronization the epoch ends when
// the global send and receive counts are equal (no message in flight).
inline bool epoch_ends(std::uint64_t global_sends, std::uint64_t global_recvs) { return global_sends == global_recvs; }

// What a system-centric run learns, per rank.
struct Analysis {
  int rank = 0, size = 0;
  std::uint64_t min_noise = 0;  // D_m: smallest injected delay (0: none injected)
  std::uint64_t epochs = 0;
  // 0-based indices of the global collectives that ended an epoch: the
  // application-centric run starts its epochs there without communicating.
  std::vector<std::uint64_t> epoch_ends_at;
  std::map<MsgId, std::vector<double>> noise;  // V_i per send set, max over epochs
  std::vector<MsgId> unsafe;                   // violate both C_msgid and C_sync
  // Per message id: number of send sets in an epoch -> epochs with that many.
  std::map<MsgId, std::map<std::size_t, std::uint64_t>> sets_per_epoch;
};

// V_i for the usual epoch only: each id's `noise` cut to its most common
// number of send sets per epoch minus one (the larger on a tie). V_i is
// kept per set index, max over epochs, so set i must mean the same routine
// in every epoch; a rank descheduled between two sends of one burst (an
// oversubscribed node) splits it, and one such epoch would give the usual
// last set, which goes undelayed, the noise of the set before it: both
// routines then move together and never overlap (README, "Usual epochs").
void keep_usual_sets(Analysis& a);

// Accumulates the sends of the current epoch and folds them into an Analysis
// at each epoch end (V_i = max over epochs).
class SendSetAnalyzer {
 public:
  void send(MsgId id, std::uint64_t t) { epoch_[id].push_back(t); }
  void end_epoch(std::uint64_t min_noise, double scale, Analysis& out);

 private:
  std::map<MsgId, std::vector<std::uint64_t>> epoch_;
};

// Epoch detection without a collective of its own at every global
// collective: the local send/receive counts at each one are kept with the
// sends between them, and summed across ranks in batches (one extra
// Allreduce per `batch` global collectives, and one at the end); then the
// sends are replayed into a SendSetAnalyzer with the epochs where they ended.
// Every rank enters the same global collectives in the same order, so the
// batches line up.
class DeferredEpochs {
 public:
  explicit DeferredEpochs(std::size_t batch = 256) : batch_(batch) {}
  void send(MsgId id, std::uint64_t t) { sends_.push_back({id, t}); }
  // Entering a global collective with these local counts. True when the
  // batch is full: sum pending_counts() across ranks and call resolve().
  bool mark(std::uint64_t local_sends, std::uint64_t local_recvs);
  // [sends_0, recvs_0, sends_1, recvs_1, ...] of the marks not yet resolved.
  const std::vector<unsigned long long>& pending_counts() const { return counts_; }
  std::size_t pending_marks() const { return counts_.size() / 2; }
  // `global` = element-wise sums of every rank's pending_counts() (or empty:
  // every pending mark ends an epoch, e.g. when receives are not counted).
  void resolve(const std::vector<unsigned long long>& global, SendSetAnalyzer& analyzer, std::uint64_t min_noise,
               Analysis& out);

 private:
  struct Send {
    MsgId id;
    std::uint64_t t;
  };
  std::size_t batch_;
  std::vector<Send> sends_;
  std::vector<std::size_t> at_;  // sends_ index at each pending mark
  std::vector<unsigned long long> counts_;
  std::uint64_t resolved_marks_ = 0;
};

std::string format_analysis(const Analysis& a);
// Parses format_analysis's text; nullopt (with `error` set) when malformed.
std::optional<Analysis> parse_analysis(const std::string& text, std::string& error);

// Application-centric decision at run time: which send set of its epoch a
// message id is in (same splitting rule as the analysis), and its V_i.
class SendSetTracker {
 public:
  // The send's noise in ns (0 for the last set, or an id that is safe).
  std::uint64_t on_send(const Analysis& a, MsgId id, std::uint64_t t);
  void new_epoch() { state_.clear(); }

 private:
  struct PerId {
    std::uint64_t last = 0;
    std::size_t set = 0;
    bool any = false;
  };
  std::map<MsgId, PerId> state_;
};

// Deterministic per-rank random stream (splitmix64) for the random mode.
class Rng {
 public:
  Rng(std::uint64_t seed, int rank) : s_(seed ^ (0x9E3779B97F4A7C15ull * (static_cast<std::uint64_t>(rank) + 1))) {}
  std::uint64_t next();
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)

 private:
  std::uint64_t s_;
};

// Application mode's victims (reference: PRUNERS/NINJA src/ninj_fc.cpp,
// ninj_fc_is_victim_dest): only sends *to* these ranks are delayed, so a
// victim's messages arrive late while its neighbours run ahead — delaying
// every rank's sends alike slows all ranks together and rarely reorders
// anything. max(1, floor(share * size)) distinct ranks drawn from the seed
// alone, so every rank of a run draws the same set. victims[r] says whether
// rank r is one.
std::vector<bool> victim_ranks(std::uint64_t seed, int size, double share);

// Random mode: with probability p a delay uniform in (0, max_delay], else 0.
std::uint64_t random_delay(Rng& rng, double p, std::uint64_t max_delay);

// Non-overtaking: a send to the same destination and communicator may not be
// due before the previous one. Returns the due time to use and remembers it.
class DueOrder {
 public:
  std::uint64_t due(int dest, std::uint64_t comm_key, std::uint64_t wanted);

 private:
  std::map<std::pair<int, std::uint64_t>, std::uint64_t> last_;
};

}  // namespace scalefuzz::noise
