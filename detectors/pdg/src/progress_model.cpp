#include "scalefuzz/detectors/pdg/progress_model.hpp"

#include <algorithm>
#include <stdexcept>

#include "scalefuzz/detectors/finding.hpp"

namespace scalefuzz::detectors::pdg {
namespace {

using trace::OpClass;

constexpr std::size_t kMaxWarnings = 50;  // a corrupt run must not flood the report

bool is(std::uint8_t op_class, OpClass c) { return op_class == static_cast<std::uint8_t>(c); }

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

std::uint64_t hash_transitions(const std::vector<Transition>& ts) {
  std::uint64_t h = ts.size();
  for (const Transition& t : ts) {
    h = mix(h, (std::uint64_t{t.from} << 32) | t.to);
    h = mix(h, t.count);
  }
  return h;
}

// The last call record (not a child record of it).
const trace::Event* last_call(const trace::RankTrace& rank) {
  for (auto it = rank.events.rbegin(); it != rank.events.rend(); ++it) {
    if (!(it->flags & trace::kFlagChild)) return &*it;
  }
  return nullptr;
}

// Whether the rank's last call was a Test/Iprobe that found nothing: the rank
// is spinning on a request (§2.1.1), not computing.
bool last_test_failed(const trace::RankTrace& rank) {
  for (auto it = rank.events.rbegin(); it != rank.events.rend(); ++it) {
    if (it->flags & trace::kFlagTestFailed) return true;
    if (!(it->flags & trace::kFlagChild)) return false;
  }
  return false;
}

}  // namespace

ProgressModelBuilder::ProgressModelBuilder() {
  ProgramState start;
  start.is_start = true;
  model_.states.push_back(start);
}

void ProgressModelBuilder::warn(std::string message) {
  if (model_.warnings.size() < kMaxWarnings) {
    model_.warnings.push_back(std::move(message));
  } else {
    ++warnings_dropped_;
  }
}

std::uint32_t ProgressModelBuilder::state_of(const trace::RankTrace& rank, std::uint32_t site_id) {
  if (site_id >= site_state_.size()) {
    warn("rank " + std::to_string(rank.rank) + ": call-site id " + std::to_string(site_id) +
         " is not in its call-site table (" + std::to_string(site_state_.size()) + " sites)");
    return kNoSite;
  }
  return site_state_[site_id];
}

std::uint32_t ProgressModelBuilder::map_sites_and_model(const trace::RankTrace& rank) {
  constexpr std::size_t kMaxKnown = 4096;  // bounds the cache when every rank differs
  auto same_as = [&rank](const Known& known) {
    return known.site_hashes.size() == rank.sites.size() && known.edges.size() == rank.markov.edges.size() &&
           std::equal(known.site_hashes.begin(), known.site_hashes.end(), rank.sites.begin(),
                      [](std::uint64_t h, const trace::CallSiteInfo& s) { return h == s.stable_hash; }) &&
           std::equal(known.edges.begin(), known.edges.end(), rank.markov.edges.begin(), [](const auto& x, const auto& y) {
             return x.from == y.from && x.to == y.to && x.count == y.count;
           });
  };
  // Most recently matched entries first: comparing fails fast on a
  // different rank class, and skips hashing the whole rank.
  for (std::size_t i = 0; i < recent_.size(); ++i) {
    if (same_as(known_[recent_[i]])) {
      const std::uint32_t k = recent_[i];
      std::rotate(recent_.begin(), recent_.begin() + static_cast<std::ptrdiff_t>(i), recent_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      site_state_ = known_[k].site_state;
      return known_[k].model;
    }
  }
  auto remember = [this](std::uint32_t k) {
    constexpr std::size_t kRecent = 8;
    if (recent_.size() < kRecent) recent_.push_back(k);
    else recent_.back() = k;
    std::rotate(recent_.begin(), recent_.end() - 1, recent_.end());
  };
  std::uint64_t key = rank.sites.size() * 0x9e3779b97f4a7c15ull;
  auto fold = [&key](std::uint64_t v) { key = (key ^ v) * 0x100000001b3ull; };
  for (const trace::CallSiteInfo& site : rank.sites) fold(site.stable_hash);
  for (const trace::MarkovModel::Edge& e : rank.markov.edges) {
    fold((std::uint64_t{e.from} << 32) | e.to);
    fold(e.count);
  }
  const auto hit = known_by_hash_.find(key);
  for (std::uint32_t k : hit != known_by_hash_.end() ? hit->second : std::vector<std::uint32_t>{}) {
    if (same_as(known_[k])) {
      remember(k);
      site_state_ = known_[k].site_state;
      return known_[k].model;
    }
  }
  const std::size_t warnings_before = model_.warnings.size() + warnings_dropped_;

  // Local call-site ids -> global states, unified by stable hash.
  site_state_.resize(rank.sites.size());
  for (std::size_t id = 0; id < rank.sites.size(); ++id) {
    const trace::CallSiteInfo& site = rank.sites[id];
    auto [it, inserted] = state_by_hash_.try_emplace(site.stable_hash, static_cast<std::uint32_t>(model_.states.size()));
    if (inserted) {
      ProgramState s;
      s.stable_hash = site.stable_hash;
      s.op = site.op;
      s.site_rank = rank.rank;
      s.site_id = static_cast<std::uint32_t>(id);
      model_.states.push_back(s);
    }
    site_state_[id] = it->second;
  }

  // The task's Markov model in global states.
  scratch_.clear();
  for (const trace::MarkovModel::Edge& e : rank.markov.edges) {
    if (e.count == 0) continue;
    const std::uint32_t from = e.from == trace::kMarkovStart ? kStartState : state_of(rank, e.from);
    const std::uint32_t to = state_of(rank, e.to);
    if (from == kNoSite || to == kNoSite) continue;
    scratch_.push_back({from, to, e.count});
  }
  merge_transitions(scratch_);  // two local sites with one stable hash merge into one state
  std::uint32_t model_index = kNoSite;
  std::vector<std::uint32_t>& same_hash = models_by_hash_[hash_transitions(scratch_)];
  for (std::uint32_t m : same_hash) {
    if (model_.models[m].transitions == scratch_) {
      model_index = m;
      break;
    }
  }
  if (model_index == kNoSite) {
    model_index = static_cast<std::uint32_t>(model_.models.size());
    model_.models.push_back({scratch_, 0});
    same_hash.push_back(model_index);
  }

  // Ranks with bad records are not cached, so each gets its own warning.
  if (known_.size() < kMaxKnown && model_.warnings.size() + warnings_dropped_ == warnings_before) {
    Known known;
    for (const trace::CallSiteInfo& site : rank.sites) known.site_hashes.push_back(site.stable_hash);
    known.edges = rank.markov.edges;
    known.site_state = site_state_;
    known.model = model_index;
    known_by_hash_[key].push_back(static_cast<std::uint32_t>(known_.size()));
    remember(static_cast<std::uint32_t>(known_.size()));
    known_.push_back(std::move(known));
  }
  return model_index;
}

void ProgressModelBuilder::add_rank(const trace::RankTrace& rank) {
  if (rank.rank < 0) throw std::invalid_argument("ProgressModelBuilder: rank without a trace (rank -1)");
  if (!model_.tasks.empty() && model_.tasks.back().rank >= rank.rank) {
    // Ranks arrive in order from read_run; accept any order but no repeats.
    for (const TaskInfo& t : model_.tasks) {
      if (t.rank == rank.rank) {
        throw std::invalid_argument("ProgressModelBuilder: rank " + std::to_string(rank.rank) + " added twice");
      }
    }
  }

  const std::uint32_t model_index = map_sites_and_model(rank);
  ++model_.models[model_index].tasks;

  // Current state: the live state's call (current, or last if computing),
  // else the last recorded call; the start state before any call.
  TaskInfo task;
  task.rank = rank.rank;
  task.model = model_index;
  std::uint32_t site = kNoSite;
  if (rank.live) {
    if (rank.live->calls > 0 || rank.live->current_seq > 0) {
      site = rank.live->callsite;
      if (site == kNoSite) warn("rank " + std::to_string(rank.rank) + ": current call site beyond the recorder's site table; shown as the start state");
    }
    task.in_call = rank.live->in_call != 0;
    task.finalized = rank.live->finalized != 0;
  } else if (const trace::Event* ev = last_call(rank)) {
    site = ev->callsite;
    task.in_call = rank.last_event_in_progress;
  }
  if (site != kNoSite) {
    const std::uint32_t s = state_of(rank, site);
    if (s != kNoSite) {
      task.state = s;
      task.site_id = site;
    }
  }
  task.aborted = std::any_of(rank.events.begin(), rank.events.end(), [](const trace::Event& e) {
    return static_cast<trace::OpClass>(e.op_class) == trace::OpClass::Abort;
  });
  model_.tasks.push_back(task);

  // Point-to-point dependencies (Definition 2) from the live state.
  peers_.clear();
  auto depend_on = [&](std::int32_t peer) {
    if (peer == trace::kAnySource) {
      ++model_.any_source_waits;  // §3.2: no dependence can be inferred
    } else if (peer >= 0 && peer != rank.rank) {
      if (rank.world_size > 0 && peer >= rank.world_size) {
        warn("rank " + std::to_string(rank.rank) + ": peer " + std::to_string(peer) + " outside the world of " + std::to_string(rank.world_size));
      } else {
        peers_.push_back(peer);
      }
    }
  };
  if (rank.live) {
    const trace::LiveState& live = *rank.live;
    const bool blocked = live.in_call != 0;
    const bool spinning = !blocked && last_test_failed(rank);
    if (blocked && (is(live.op_class, OpClass::Send) || is(live.op_class, OpClass::Recv) ||
                    is(live.op_class, OpClass::Sendrecv) || is(live.op_class, OpClass::Probe))) {
      depend_on(live.peer);
    }
    if (spinning && is(live.op_class, OpClass::Probe)) depend_on(live.peer);  // Iprobe loop
    if (blocked && is(live.op_class, OpClass::Sendrecv) && !rank.events.empty()) {
      const trace::Event& child = rank.events.back();  // the receive half, if already entered
      if ((child.flags & trace::kFlagChild) && is(child.op_class, OpClass::Recv) && child.t_exit_ns == 0) {
        depend_on(child.peer);
      }
    }
    if ((blocked || spinning) && is(live.op_class, OpClass::Completion)) {
      const std::size_t n = std::min<std::size_t>(live.npending, trace::kMaxPendingRequests);
      for (std::size_t i = 0; i < n; ++i) {
        const trace::PendingRequest& p = live.pending[i];
        if (is(p.op_class, OpClass::Isend) || is(p.op_class, OpClass::Irecv) || is(p.op_class, OpClass::Start)) {
          depend_on(p.peer);
        }
      }
    }
  } else {
    // No live state: the calls that never returned are what the rank waits in.
    for (auto it = rank.events.rbegin(); it != rank.events.rend() && it->t_exit_ns == 0; ++it) {
      if (is(it->op_class, OpClass::Send) || is(it->op_class, OpClass::Recv) ||
          is(it->op_class, OpClass::Sendrecv) || is(it->op_class, OpClass::Probe)) {
        depend_on(it->peer);
      }
    }
  }
  std::sort(peers_.begin(), peers_.end());
  peers_.erase(std::unique(peers_.begin(), peers_.end()), peers_.end());
  for (int p : peers_) model_.p2p.push_back({rank.rank, p});
}

ProgressModel ProgressModelBuilder::finish() {
  if (warnings_dropped_ > 0) {
    model_.warnings.push_back(std::to_string(warnings_dropped_) + " more warnings not shown");
  }
  if (!std::is_sorted(model_.tasks.begin(), model_.tasks.end(),
                      [](const TaskInfo& a, const TaskInfo& b) { return a.rank < b.rank; })) {
    std::sort(model_.tasks.begin(), model_.tasks.end(),
              [](const TaskInfo& a, const TaskInfo& b) { return a.rank < b.rank; });
    std::sort(model_.p2p.begin(), model_.p2p.end(), [](const P2pDependence& a, const P2pDependence& b) {
      return a.task != b.task ? a.task < b.task : a.peer < b.peer;
    });
  }
  ProgressModel out = std::move(model_);
  *this = ProgressModelBuilder();
  return out;
}

ProgressModel build_progress_model(const trace::RunTrace& run) {
  ProgressModelBuilder builder;
  builder.reserve(run.ranks.size());
  std::vector<int> missing;
  for (std::size_t i = 0; i < run.ranks.size(); ++i) {
    if (run.ranks[i].rank < 0) {
      missing.push_back(static_cast<int>(i));
    } else {
      builder.add_rank(run.ranks[i]);
    }
  }
  ProgressModel model = builder.finish();
  if (!missing.empty()) {
    model.warnings.push_back("ranks without a trace, left out of the analysis: " + rank_ranges(missing));
  }
  return model;
}

}  // namespace scalefuzz::detectors::pdg
