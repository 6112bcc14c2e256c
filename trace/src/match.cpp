// Message matching reconstruction (model.hpp: match_messages).
//
// Per rank, one pass in record order collects the sends in issue order and
// the receives in posting order, joining nonblocking/persistent requests to
// their RequestDone completions by request id. Then, per (source, destination,
// communicator, tag), the k-th completed receive in posting order is paired
// with the k-th send in issue order (MPI's non-overtaking rule). A wildcard
// receive joins the bucket named by its completion status.
//
// Known limit: a receive that matched a message but whose completion was
// never observed (request never waited on, or rank killed) is not in its
// bucket, so later receives of that bucket shift by one.
#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::trace {

namespace {

struct SendItem {
  EventRef ref;
  std::size_t ordinal = 0;  // position among this rank's send posts (order hash identity)
  int dst = 0;
  std::uint32_t comm = 0;
  std::int32_t tag = 0;
  std::int64_t bytes = 0;
  bool cancelled = false;
};

struct RecvItem {
  EventRef post;
  EventRef done;
  bool completed = false;  // completed with a message (status_source >= 0)
  bool dropped = false;    // cancelled, or freed before completion: neither matched nor unmatched
  int src = -1;            // resolved from the status when completed
  std::int32_t tag = 0;
  std::uint32_t comm = 0;
};

enum class Dir { Send, Recv };

// One active instance of a request: which send/recv item it completes.
struct Open {
  Dir dir;
  std::size_t item;
  bool free_called = false;  // MPI_Request_free / MPI_Cancel seen while active
};

struct RankItems {
  std::vector<SendItem> sends;
  std::vector<RecvItem> recvs;
};

bool completed_with_error(const Event& e) { return e.t_exit_ns != 0 && e.error != 0; }

RankItems collect(const RankTrace& rt) {
  RankItems out;
  std::unordered_map<std::uint64_t, Open> open;           // request id -> active instance
  std::unordered_map<std::uint64_t, Dir> persistent_dir;  // request id -> direction from its init record

  auto add_send = [&](std::size_t i, const Event& e) -> std::size_t {
    SendItem s;
    s.ref = {rt.rank, i};
    s.ordinal = out.sends.size();
    s.dst = e.peer;
    s.comm = e.comm;
    s.tag = e.tag;
    s.bytes = e.bytes;
    out.sends.push_back(s);
    return out.sends.size() - 1;
  };
  auto add_recv = [&](std::size_t i, const Event& e) -> std::size_t {
    RecvItem r;
    r.post = {rt.rank, i};
    r.comm = e.comm;
    r.src = e.peer;
    r.tag = e.tag;
    out.recvs.push_back(r);
    return out.recvs.size() - 1;
  };
  auto open_request = [&](const Event& e, Dir dir, std::size_t item) {
    if (e.request != 0) open[e.request] = Open{dir, item};
  };

  for (std::size_t i = 0; i < rt.events.size(); ++i) {
    const Event& e = rt.events[i];
    switch (static_cast<OpClass>(e.op_class)) {
      case OpClass::Send:
      case OpClass::Sendrecv:
        if (e.peer < 0) break;  // PROC_NULL: no message
        if (static_cast<OpClass>(e.op_class) == OpClass::Send && completed_with_error(e)) break;
        add_send(i, e);
        break;
      case OpClass::Isend:
        if (e.peer < 0 || completed_with_error(e)) break;
        open_request(e, Dir::Send, add_send(i, e));
        break;
      case OpClass::Recv: {  // blocking, Mrecv, or the receive half of Sendrecv
        if (e.peer == kProcNull) break;
        std::size_t k = add_recv(i, e);
        if (e.t_exit_ns != 0 && e.status_source >= 0) {
          RecvItem& r = out.recvs[k];
          r.completed = true;
          r.done = r.post;
          r.src = e.status_source;
          r.tag = e.status_tag;
        }
        break;
      }
      case OpClass::Irecv:
        if (e.peer == kProcNull || completed_with_error(e)) break;
        open_request(e, Dir::Recv, add_recv(i, e));
        break;
      case OpClass::SendInit:
      case OpClass::RecvInit:
        if (e.request != 0)
          persistent_dir[e.request] = static_cast<OpClass>(e.op_class) == OpClass::SendInit ? Dir::Send : Dir::Recv;
        break;
      case OpClass::Start: {
        auto it = persistent_dir.find(e.request);
        if (it == persistent_dir.end()) break;  // init record lost: direction unknown
        if (e.peer == kProcNull) {
          open.erase(e.request);
          break;
        }
        if (it->second == Dir::Send)
          open_request(e, Dir::Send, add_send(i, e));
        else
          open_request(e, Dir::Recv, add_recv(i, e));
        break;
      }
      case OpClass::RequestDone: {
        if ((e.flags & kFlagTestFailed) != 0) break;
        auto it = open.find(e.request);
        if (it == open.end()) break;  // collective, PROC_NULL or unknown request
        const Open o = it->second;
        open.erase(it);
        bool cancelled = (e.flags & kFlagCancelled) != 0;
        if (o.dir == Dir::Send) {
          out.sends[o.item].cancelled = cancelled;
        } else {
          RecvItem& r = out.recvs[o.item];
          if (cancelled) {
            r.dropped = true;
          } else if (e.status_source >= 0) {
            r.completed = true;
            r.done = {rt.rank, i};
            r.src = e.status_source;
            r.tag = e.status_tag;
          }
        }
        break;
      }
      case OpClass::RequestFree: {
        auto it = open.find(e.request);
        if (it != open.end()) it->second.free_called = true;
        break;
      }
      default:
        break;
    }
  }
  // Receives freed or cancelled while active and never completed: whether a
  // message went there is unknowable, so they are neither matched nor unmatched.
  for (const auto& [id, o] : open)
    if (o.dir == Dir::Recv && o.free_called) out.recvs[o.item].dropped = true;
  return out;
}

std::uint64_t fnv1a(std::uint64_t h, std::int64_t value) {
  for (int b = 0; b < 8; ++b) {
    h ^= static_cast<std::uint64_t>(value >> (8 * b)) & 0xffu;
    h *= 0x100000001b3ull;
  }
  return h;
}

bool ref_less(const EventRef& a, const EventRef& b) {
  return std::tie(a.rank, a.index) < std::tie(b.rank, b.index);
}

}  // namespace

Matching match_messages(const RunTrace& run) {
  using Key = std::tuple<int, int, std::uint32_t, std::int32_t>;  // src, dst, comm, tag
  std::vector<RankItems> items(run.ranks.size());
  std::map<Key, std::vector<const SendItem*>> sends;
  std::map<Key, std::vector<const RecvItem*>> recvs;
  Matching m;

  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    if (run.ranks[r].rank < 0) continue;
    items[r] = collect(run.ranks[r]);
    for (const auto& s : items[r].sends)
      if (!s.cancelled) sends[{static_cast<int>(r), s.dst, s.comm, s.tag}].push_back(&s);
    for (const auto& rv : items[r].recvs) {
      if (rv.dropped) continue;
      if (rv.completed)
        recvs[{rv.src, static_cast<int>(r), rv.comm, rv.tag}].push_back(&rv);
      else
        m.unmatched_recvs.push_back(rv.post);
    }
  }

  struct Pair {
    const SendItem* send;
    const RecvItem* recv;
  };
  std::vector<Pair> pairs;
  for (auto& [key, rlist] : recvs) {
    auto sit = sends.find(key);
    std::size_t nsend = sit == sends.end() ? 0 : sit->second.size();
    for (std::size_t k = 0; k < rlist.size(); ++k) {
      if (k < nsend)
        pairs.push_back({sit->second[k], rlist[k]});
      else  // completed, but the sender's trace holds no such send
        m.unmatched_recvs.push_back(rlist[k]->post);
    }
  }
  for (auto& [key, slist] : sends) {
    auto rit = recvs.find(key);
    std::size_t nrecv = rit == recvs.end() ? 0 : rit->second.size();
    for (std::size_t k = nrecv; k < slist.size(); ++k) m.unmatched_sends.push_back(slist[k]->ref);
  }

  // Per destination, in receive-posting order.
  std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return ref_less(a.recv->post, b.recv->post); });
  // order_hash: FNV-1a over (destination, source, source's send ordinal) of
  // every matched message in that order. The send ordinal (k-th send post of
  // the source rank) is used rather than the record seq because the number of
  // Test/Iprobe records between sends varies with timing even when the
  // matching does not.
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const auto& p : pairs) {
    MatchedMessage msg;
    msg.send = p.send->ref;
    msg.recv_post = p.recv->post;
    msg.recv_done = p.recv->done;
    msg.comm = p.send->comm;
    msg.tag = p.send->tag;
    msg.bytes = p.send->bytes;
    m.messages.push_back(msg);
    h = fnv1a(h, p.recv->post.rank);
    h = fnv1a(h, p.send->ref.rank);
    h = fnv1a(h, static_cast<std::int64_t>(p.send->ordinal));
  }
  m.order_hash = h;
  std::sort(m.unmatched_sends.begin(), m.unmatched_sends.end(), ref_less);
  std::sort(m.unmatched_recvs.begin(), m.unmatched_recvs.end(), ref_less);
  return m;
}

}  // namespace scalefuzz::trace
