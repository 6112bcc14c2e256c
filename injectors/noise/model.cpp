#include "model.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace scalefuzz::noise {

std::vector<std::uint64_t> packetize(std::uint64_t bytes, std::uint64_t packet_size) {
  if (packet_size == 0) packet_size = 1;
  std::vector<std::uint64_t> out;
  if (bytes == 0) return {0};  // a header-only message still occupies a packet slot
  for (std::uint64_t left = bytes; left > 0; left -= std::min(left, packet_size)) out.push_back(std::min(left, packet_size));
  return out;
}

double formula1(const std::vector<std::uint64_t>& packet_sizes, std::size_t n, const VbqParams& p) {
  double d = 0;
  for (std::size_t i = 0; i < n && i < packet_sizes.size(); ++i)
    d += static_cast<double>(packet_sizes[i]) / p.bandwidth * 1e9 + p.latency_ns;
  return d * p.scale;
}

void VirtualBufferQueue::drain(std::uint64_t now) {
  while (!q_.empty() && q_.front() <= now) q_.pop_front();
}

std::size_t VirtualBufferQueue::length(std::uint64_t now) {
  drain(now);
  return q_.size();
}

std::uint64_t VirtualBufferQueue::offer(std::uint64_t now, std::uint64_t bytes) {
  drain(now);
  std::vector<std::uint64_t> msg = packetize(bytes, p_.packet_size);
  // Offsets from `now` in double, added to the integer clock: a double
  // holding CLOCK_REALTIME ns (~1.8e18) has a resolution of 256 ns, which
  // rounded every packet's 2128 ns down to 2048 (Formula 1 came out 4 % low).
  double after = 0;
  for (std::size_t i = 0; i < msg.size(); ++i) {
    after += tx_ns(i == 0 ? std::max(msg[i], p_.packet_size) : msg[i]);
    q_.push_back(now + static_cast<std::uint64_t>(std::llround(after)));
  }
  if (q_.size() <= p_.threshold) return 0;
  const std::uint64_t due = q_[q_.size() - p_.threshold - 1];
  return due > now ? due - now : 0;
}

std::uint64_t HeldVbqClock::offer(VirtualBufferQueue& q, std::uint64_t now, std::uint64_t bytes) {
  const std::uint64_t clock = now - held_;
  if (q.length(clock) == 0) held_at_empty_ = held_;
  const std::uint64_t due_in = q.offer(clock, bytes);
  const std::uint64_t already = held_ - held_at_empty_;
  return due_in > already ? due_in - already : 0;
}

std::vector<std::size_t> split_send_sets(const std::vector<std::uint64_t>& t, std::uint64_t min_noise) {
  std::vector<std::size_t> starts;
  for (std::size_t k = 0; k < t.size(); ++k)
    if (k == 0 || t[k] - t[k - 1] > min_noise) starts.push_back(k);
  return starts;
}

std::vector<double> formula2(const std::vector<std::uint64_t>& t, const std::vector<std::size_t>& starts, double scale) {
  std::vector<double> v;
  for (std::size_t i = 0; i + 1 < starts.size(); ++i) {
    double sum = 0;
    for (std::size_t k = starts[i]; k < starts[i + 1]; ++k) sum += static_cast<double>(t[k + 1] - t[k]);
    v.push_back(sum * scale);
  }
  return v;
}

void SendSetAnalyzer::end_epoch(std::uint64_t min_noise, double scale, Analysis& out) {
  ++out.epochs;
  for (auto& [id, times] : epoch_) {
    std::vector<std::size_t> starts = split_send_sets(times, min_noise);
    std::vector<double> v = formula2(times, starts, scale);
    // Two send sets of one message id inside one epoch: nothing (tag,
    // communicator or synchronization) isolates them: C_msgid and C_sync fail.
    if (starts.size() >= 2 && std::find(out.unsafe.begin(), out.unsafe.end(), id) == out.unsafe.end())
      out.unsafe.push_back(id);
    ++out.sets_per_epoch[id][starts.size()];
    std::vector<double>& best = out.noise[id];
    if (best.size() < v.size()) best.resize(v.size(), 0.0);
    for (std::size_t i = 0; i < v.size(); ++i) best[i] = std::max(best[i], v[i]);
    if (best.empty()) out.noise.erase(id);
  }
  epoch_.clear();
}

void keep_usual_sets(Analysis& a) {
  for (auto it = a.noise.begin(); it != a.noise.end();) {
    auto counts = a.sets_per_epoch.find(it->first);
    if (counts != a.sets_per_epoch.end() && !counts->second.empty()) {
      std::size_t usual = 0;
      std::uint64_t most = 0;
      for (const auto& [sets, epochs] : counts->second)  // ascending: a tie keeps the larger
        if (epochs >= most) usual = sets, most = epochs;
      if (it->second.size() + 1 > usual) it->second.resize(usual > 0 ? usual - 1 : 0);
    }
    it = it->second.empty() ? a.noise.erase(it) : std::next(it);
  }
}

bool DeferredEpochs::mark(std::uint64_t local_sends, std::uint64_t local_recvs) {
  at_.push_back(sends_.size());
  counts_.push_back(local_sends);
  counts_.push_back(local_recvs);
  return at_.size() >= batch_;
}

void DeferredEpochs::resolve(const std::vector<unsigned long long>& global, SendSetAnalyzer& analyzer,
                             std::uint64_t min_noise, Analysis& out) {
  std::size_t next = 0;
  for (std::size_t k = 0; k < at_.size(); ++k) {
    for (; next < at_[k]; ++next) analyzer.send(sends_[next].id, sends_[next].t);
    const bool ends = global.size() < 2 * (k + 1) || epoch_ends(global[2 * k], global[2 * k + 1]);
    if (ends) {
      analyzer.end_epoch(min_noise, 1.0, out);
      out.epoch_ends_at.push_back(resolved_marks_ + k);
    }
  }
  for (; next < sends_.size(); ++next) analyzer.send(sends_[next].id, sends_[next].t);  // the open epoch
  resolved_marks_ += at_.size();
  sends_.clear();
  at_.clear();
  counts_.clear();
}

std::string format_analysis(const Analysis& a) {
  std::ostringstream o;
  o << "ninja-analysis 2\n";
  o << "rank " << a.rank << " size " << a.size << "\n";
  o << "min_noise_ns " << a.min_noise << "\n";
  o << "epochs " << a.epochs << "\n";
  o << "epoch_ends_at";
  for (std::uint64_t k : a.epoch_ends_at) o << " " << k;
  o << "\n";
  for (const auto& [id, v] : a.noise) {
    o << "msgid " << id.first << " " << id.second;
    for (double x : v) o << " " << static_cast<std::uint64_t>(std::llround(x));
    o << "\n";
  }
  for (const MsgId& id : a.unsafe) o << "unsafe " << id.first << " " << id.second << "\n";
  for (const auto& [id, counts] : a.sets_per_epoch) {
    o << "sets " << id.first << " " << id.second;
    for (const auto& [sets, epochs] : counts) o << " " << sets << ":" << epochs;
    o << "\n";
  }
  return o.str();
}

std::optional<Analysis> parse_analysis(const std::string& text, std::string& error) {
  std::istringstream in(text);
  std::string line;
  Analysis a;
  int lineno = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++lineno;
    std::istringstream ls(line);
    std::string key;
    if (!(ls >> key)) continue;
    auto bad = [&](const char* what) {
      error = "line " + std::to_string(lineno) + ": " + what;
      return std::nullopt;
    };
    if (!header) {
      int version = 0;
      if (key != "ninja-analysis" || !(ls >> version)) return bad("not a ninja-analysis file");
      if (version != 2) return bad("ninja-analysis version is not 2 (written by an older scalefuzz: rerun the system-centric run)");
      header = true;
    } else if (key == "rank") {
      std::string s;
      if (!(ls >> a.rank >> s >> a.size) || s != "size") return bad("bad rank line");
    } else if (key == "min_noise_ns") {
      if (!(ls >> a.min_noise)) return bad("bad min_noise_ns");
    } else if (key == "epochs") {
      if (!(ls >> a.epochs)) return bad("bad epochs");
    } else if (key == "epoch_ends_at") {
      std::uint64_t k = 0;
      while (ls >> k) a.epoch_ends_at.push_back(k);
      if (!ls.eof()) return bad("bad epoch_ends_at");
    } else if (key == "sets") {
      MsgId id;
      if (!(ls >> id.first >> id.second)) return bad("bad message id");
      std::string pair;
      auto& counts = a.sets_per_epoch[id];
      while (ls >> pair) {
        // "SETS:EPOCHS", both whole numbers
        const char* begin = pair.data();
        const char* end = begin + pair.size();
        std::size_t sets = 0;
        std::uint64_t epochs = 0;
        auto [colon, e1] = std::from_chars(begin, end, sets);
        if (e1 != std::errc() || colon == end || *colon != ':') return bad("bad sets record");
        auto [stop, e2] = std::from_chars(colon + 1, end, epochs);
        if (e2 != std::errc() || stop != end) return bad("bad sets record");
        counts[sets] = epochs;
      }
    } else if (key == "msgid" || key == "unsafe") {
      MsgId id;
      if (!(ls >> id.first >> id.second)) return bad("bad message id");
      if (key == "unsafe") {
        a.unsafe.push_back(id);
        continue;
      }
      std::vector<double>& v = a.noise[id];
      std::uint64_t x = 0;
      while (ls >> x) v.push_back(static_cast<double>(x));
      if (!ls.eof()) return bad("bad noise value");
    }
  }
  if (!header) {
    error = "empty analysis file";
    return std::nullopt;
  }
  return a;
}

std::uint64_t SendSetTracker::on_send(const Analysis& a, MsgId id, std::uint64_t t) {
  PerId& s = state_[id];
  if (s.any && t - s.last > a.min_noise) ++s.set;
  s.any = true;
  s.last = t;
  if (std::find(a.unsafe.begin(), a.unsafe.end(), id) == a.unsafe.end()) return 0;
  auto it = a.noise.find(id);
  if (it == a.noise.end() || s.set >= it->second.size()) return 0;  // last set: no noise
  return static_cast<std::uint64_t>(std::llround(it->second[s.set]));
}

std::uint64_t Rng::next() {
  std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::vector<bool> victim_ranks(std::uint64_t seed, int size, double share) {
  std::vector<bool> victims(static_cast<std::size_t>(std::max(size, 0)), false);
  if (size <= 0) return victims;
  int want = std::max(1, static_cast<int>(share * size));
  want = std::min(want, size);
  Rng rng(seed, -1);  // one stream for the whole run, not per rank
  for (int drawn = 0; drawn < want;) {
    auto r = static_cast<std::size_t>(rng.next() % static_cast<std::uint64_t>(size));
    if (!victims[r]) {
      victims[r] = true;
      ++drawn;
    }
  }
  return victims;
}

std::uint64_t random_delay(Rng& rng, double p, std::uint64_t max_delay) {
  if (max_delay == 0 || rng.uniform() >= p) return 0;
  return 1 + static_cast<std::uint64_t>(rng.uniform() * static_cast<double>(max_delay - 1) + 0.5);
}

std::uint64_t DueOrder::due(int dest, std::uint64_t comm_key, std::uint64_t wanted) {
  std::uint64_t& last = last_[{dest, comm_key}];
  last = std::max(last, wanted);
  return last;
}

}  // namespace scalefuzz::noise
