// PDG construction (§3.2, §4.2) and LP-task determination (§4.3).
#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "render.hpp"
#include "scalefuzz/common/enum_names.hpp"
#include "scalefuzz/detectors/pdg.hpp"
#include "scc.hpp"

namespace scalefuzz::detectors::pdg {
namespace {

// Tasks sharing a Markov model and a current state see the same local PDG.
struct Group {
  std::uint32_t model = 0;
  std::uint32_t state = 0;
  std::size_t node = 0;
  std::size_t tasks = 0;
};

// In-counts of a model's states (how often the task entered each state).
class Visits {
 public:
  explicit Visits(const ProgressModel& m) : model_(m), cache_(m.models.size()), built_(m.models.size(), 0) {}
  std::uint64_t of(std::uint32_t model, std::uint32_t state) {
    auto& in = cache_[model];
    if (!built_[model]) {
      for (const Transition& t : model_.models[model].transitions) in.emplace_back(t.to, t.count);
      std::sort(in.begin(), in.end());
      std::size_t w = 0;
      for (std::size_t r = 0; r < in.size(); ++r) {
        if (w > 0 && in[w - 1].first == in[r].first) in[w - 1].second += in[r].second;
        else in[w++] = in[r];
      }
      in.resize(w);
      built_[model] = 1;
    }
    auto it = std::lower_bound(in.begin(), in.end(), std::make_pair(state, std::uint64_t{0}));
    return it != in.end() && it->first == state ? it->second : 0;
  }

 private:
  const ProgressModel& model_;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>> cache_;
  std::vector<char> built_;
};

class DependenceMatrix {
 public:
  explicit DependenceMatrix(std::size_t k) : k_(k), d_(k * k, Dependence::None) {}
  Dependence get(std::size_t a, std::size_t b) const { return d_[a * k_ + b]; }
  void set(std::size_t a, std::size_t b, Dependence d) {
    d_[a * k_ + b] = d;
    d_[b * k_ + a] = reversed(d);
  }
  void unite(std::size_t a, std::size_t b, Dependence d) { set(a, b, dependence_union(get(a, b), d)); }

 private:
  std::size_t k_;
  std::vector<Dependence> d_;
};

void validate(const ProgressModel& m) {
  if (m.states.empty() || !m.states[kStartState].is_start) {
    throw std::invalid_argument("analyze_progress: the model has no start state");
  }
  for (const TaskInfo& t : m.tasks) {
    if (t.state >= m.states.size() || t.model >= m.models.size()) {
      throw std::invalid_argument("analyze_progress: task of rank " + std::to_string(t.rank) +
                                  " names an unknown state or model");
    }
  }
  for (const LocalModel& lm : m.models) {
    for (const Transition& t : lm.transitions) {
      if (t.from >= m.states.size() || t.to >= m.states.size()) {
        throw std::invalid_argument("analyze_progress: a model transition names an unknown state");
      }
    }
  }
}

// SEMI-DIST (Algorithm 3): one global model, Algorithm 1 on it.
void semi_dist(const ProgressModel& m, const std::vector<PdgNode>& nodes, DependenceMatrix& dep,
               std::vector<std::optional<double>>& prob) {
  // Merge all tasks' transitions (the reduction of Algorithm 3, line 2).
  std::unordered_map<std::uint64_t, std::uint64_t> merged;
  for (const LocalModel& lm : m.models) {
    for (const Transition& t : lm.transitions) merged[(std::uint64_t{t.from} << 32) | t.to] += t.count * lm.tasks;
  }
  std::vector<Transition> all;
  all.reserve(merged.size());
  for (const auto& [key, count] : merged) {
    all.push_back({static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key & 0xFFFFFFFFu), count});
  }
  const MarkovChain global(m.states.size(), all);
  std::map<std::uint32_t, Hitting> hit;  // per destination state
  for (const PdgNode& n : nodes) {
    if (!hit.count(n.state)) hit.emplace(n.state, global.hitting(n.state));
  }
  const std::size_t k = nodes.size();
  for (std::size_t a = 0; a < k; ++a) {
    for (std::size_t b = a + 1; b < k; ++b) {
      const std::uint32_t sa = nodes[a].state, sb = nodes[b].state;
      if (sa == sb) continue;
      const Hitting& to_b = hit.at(sb);
      const Hitting& to_a = hit.at(sa);
      dep.set(a, b, table1(to_b.cls[sa], to_a.cls[sb]));
      prob[a * k + b] = to_b.probability[sa];
      prob[b * k + a] = to_a.probability[sb];
    }
  }
}

// DIST (Algorithm 2): every task's local PDG from its own model, merged by
// the Table 2 union. Tasks with the same model and state compute the same
// local PDG, so each such group is evaluated once (the union is idempotent).
void dist(const ProgressModel& m, const std::vector<PdgNode>& nodes, const std::vector<Group>& groups,
          DependenceMatrix& dep) {
  std::vector<std::vector<std::size_t>> groups_of_model(m.models.size());
  for (std::size_t g = 0; g < groups.size(); ++g) groups_of_model[groups[g].model].push_back(g);
  const std::size_t k = nodes.size();
  for (std::uint32_t mi = 0; mi < m.models.size(); ++mi) {
    if (groups_of_model[mi].empty()) continue;
    const LocalModel& lm = m.models[mi];
    // Compact indices for the states this task has seen.
    std::vector<std::uint32_t> seen;
    for (const Transition& t : lm.transitions) {
      seen.push_back(t.from);
      seen.push_back(t.to);
    }
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    auto local = [&](std::uint32_t s) -> std::int64_t {
      auto it = std::lower_bound(seen.begin(), seen.end(), s);
      return it != seen.end() && *it == s ? it - seen.begin() : -1;
    };
    std::vector<Transition> ts = lm.transitions;
    for (Transition& t : ts) {
      t.from = static_cast<std::uint32_t>(local(t.from));
      t.to = static_cast<std::uint32_t>(local(t.to));
    }
    const MarkovChain chain(seen.size(), ts);
    std::map<std::int64_t, Hitting> hit;
    auto hitting = [&](std::int64_t dest) -> const Hitting& {
      auto it = hit.find(dest);
      if (it == hit.end()) it = hit.emplace(dest, chain.hitting(static_cast<std::uint32_t>(dest))).first;
      return it->second;
    };
    for (std::size_t g : groups_of_model[mi]) {
      const std::size_t a = groups[g].node;
      const std::int64_t la = local(nodes[a].state);
      for (std::size_t b = 0; b < k; ++b) {
        if (nodes[b].state == nodes[a].state) continue;
        const std::int64_t lb = local(nodes[b].state);
        Dependence d = Dependence::None;  // a state this task never saw: both probabilities are 0
        if (la >= 0 && lb >= 0) {
          d = table1(hitting(lb).cls[static_cast<std::size_t>(la)], hitting(la).cls[static_cast<std::size_t>(lb)]);
        }
        dep.unite(a, b, d);
      }
    }
  }
}

struct Span2 {
  std::uint64_t x = 0, y = 0;
};
bool dominates(Span2 hi, Span2 lo) {
  return hi.x >= lo.x && hi.y >= lo.y && (hi.x > lo.x || hi.y > lo.y);
}

// Extension (PdgOptions::resolve_with_visit_counts): the group whose every
// task entered both states at least as often as every task of the other
// group, and not equally, progressed further.
void resolve_with_visits(const ProgressModel& m, const std::vector<PdgNode>& nodes,
                         const std::vector<Group>& groups, DependenceMatrix& dep, std::vector<char>& by_visits) {
  Visits visits(m);
  const std::size_t k = nodes.size();
  std::vector<std::vector<std::size_t>> groups_of_node(k);
  for (std::size_t g = 0; g < groups.size(); ++g) groups_of_node[groups[g].node].push_back(g);
  auto range = [&](std::size_t node, std::uint32_t s1, std::uint32_t s2, Span2& lo, Span2& hi) {
    lo = {~0ull, ~0ull};
    hi = {0, 0};
    for (std::size_t g : groups_of_node[node]) {
      const Span2 v{visits.of(groups[g].model, s1), visits.of(groups[g].model, s2)};
      lo = {std::min(lo.x, v.x), std::min(lo.y, v.y)};
      hi = {std::max(hi.x, v.x), std::max(hi.y, v.y)};
    }
  };
  for (std::size_t a = 0; a < k; ++a) {
    for (std::size_t b = a + 1; b < k; ++b) {
      const std::uint32_t sa = nodes[a].state, sb = nodes[b].state;
      if (dep.get(a, b) != Dependence::Undefined && sa != sb) continue;
      Span2 lo_a, hi_a, lo_b, hi_b;
      range(a, sa, sb, lo_a, hi_a);
      range(b, sa, sb, lo_b, hi_b);
      if (dominates(lo_b, hi_a)) {
        dep.set(a, b, Dependence::Backward);  // b is ahead: b waits for a
      } else if (dominates(lo_a, hi_b)) {
        dep.set(a, b, Dependence::Forward);
      } else {
        continue;
      }
      by_visits[a * k + b] = by_visits[b * k + a] = 1;
    }
  }
}

// For every task: whether all its point-to-point waits lead, without a cycle,
// to tasks computing outside MPI (and not finished), which therefore wait for
// nobody. A task blocked without a known peer may wait for anyone: false.
std::vector<char> ends_in_computation(const ProgressModel& m,
                                      const std::vector<std::pair<std::uint32_t, std::uint32_t>>& p2p) {
  const std::size_t n = m.tasks.size();
  std::vector<char> ends(n, 0);
  for (std::size_t t = 0; t < n; ++t) ends[t] = !m.tasks[t].in_call && !m.tasks[t].finalized;
  // Only tasks on point-to-point edges need the graph: compact their indices.
  constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::vector<std::uint32_t> compact(n, kNone);
  std::vector<std::uint32_t> task_of;
  auto id = [&](std::uint32_t t) {
    if (compact[t] == kNone) {
      compact[t] = static_cast<std::uint32_t>(task_of.size());
      task_of.push_back(t);
    }
    return compact[t];
  };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (const auto& [t, p] : p2p) edges.emplace_back(id(t), id(p));
  const std::size_t k = task_of.size();
  const detail::Csr g = detail::make_csr(k, edges);
  std::uint32_t ncomp = 0;
  const std::vector<std::uint32_t> comp = detail::strong_components(g, ncomp);
  std::vector<std::uint32_t> comp_size(ncomp, 0);
  for (std::uint32_t c : comp) ++comp_size[c];
  // Tarjan numbers components in reverse topological order: targets first.
  std::vector<std::uint32_t> first(ncomp + 1, 0);  // counting sort by component
  for (std::uint32_t c : comp) ++first[c + 1];
  for (std::uint32_t c = 0; c < ncomp; ++c) first[c + 1] += first[c];
  std::vector<std::uint32_t> order(k);
  for (std::uint32_t v = 0; v < k; ++v) order[first[comp[v]]++] = v;
  for (std::uint32_t v : order) {
    const std::uint32_t t = task_of[v];
    const bool has_peers = g.offset[v + 1] > g.offset[v];
    if (comp_size[comp[v]] > 1) {
      ends[t] = 0;  // a cycle of waits (deadlock)
    } else if (has_peers) {
      bool all = true;
      for (std::uint32_t e = g.offset[v]; e < g.offset[v + 1]; ++e) all = all && ends[task_of[g.target[e]]];
      ends[t] = all;
    } else if (m.tasks[t].in_call) {
      ends[t] = 0;  // blocked without a known peer
    }
  }
  return ends;
}

}  // namespace

const char* to_string(Variant v) { return v == Variant::SemiDist ? "semi-dist" : "dist"; }

constexpr EnumName<EdgeKind> kEdgeKindNames[] = {
    {EdgeKind::Progress, "progress"}, {EdgeKind::Undefined, "undefined"},
    {EdgeKind::PointToPoint, "point-to-point"}};

const char* to_string(EdgeKind k) { return name_of(kEdgeKindNames, k); }

PdgResult analyze_progress(const trace::RunTrace& run, const PdgOptions& options) {
  return analyze_progress(build_progress_model(run), options);
}

PdgResult analyze_progress(const ProgressModel& model, const PdgOptions& options) {
  validate(model);
  PdgResult res;
  res.variant = options.variant;
  res.notes = model.warnings;
  if (model.tasks.empty()) {
    res.notes.push_back("no traced tasks: nothing to analyse");
    res.dot = detail::render_dot(res, options);
    return res;
  }

  // Groups of tasks with one model and one state, then nodes (task groups of
  // one state, split by visit count with the extension).
  std::vector<Group> groups;
  std::vector<std::uint32_t> task_group(model.tasks.size());
  {
    // A flat table when models x states is small (the usual case), else a hash map.
    constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    const std::uint64_t cells = std::uint64_t{model.models.size()} * model.states.size();
    std::vector<std::uint32_t> table(cells <= (1u << 22) ? cells : 0, kNone);
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    for (std::size_t t = 0; t < model.tasks.size(); ++t) {
      const TaskInfo& ti = model.tasks[t];
      const std::uint64_t key = std::uint64_t{ti.model} * model.states.size() + ti.state;
      std::uint32_t& g = table.empty() ? index.try_emplace(key, kNone).first->second : table[key];
      if (g == kNone) {
        g = static_cast<std::uint32_t>(groups.size());
        groups.push_back({ti.model, ti.state, 0, 0});
      }
      ++groups[g].tasks;
      task_group[t] = g;
    }
  }
  Visits visits(model);
  std::vector<char> group_has_node(groups.size(), 0);
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::size_t> node_by_key;
  std::vector<std::uint32_t> task_node(model.tasks.size());
  for (std::size_t t = 0; t < model.tasks.size(); ++t) {
    Group& g = groups[task_group[t]];
    if (!group_has_node[task_group[t]]) {
      const std::uint64_t v = options.resolve_with_visit_counts ? visits.of(g.model, g.state) : 0;
      auto [it, inserted] = node_by_key.try_emplace({g.state, v}, res.nodes.size());
      if (inserted) {
        PdgNode n;
        n.state = g.state;
        n.where = model.states[g.state];
        n.visits = v;
        n.site_rank = model.tasks[t].rank;
        n.site_id = model.tasks[t].site_id;
        res.nodes.push_back(std::move(n));
      }
      g.node = it->second;
      group_has_node[task_group[t]] = 1;
    }
    task_node[t] = static_cast<std::uint32_t>(g.node);
    PdgNode& n = res.nodes[g.node];
    n.ranks.push_back(model.tasks[t].rank);
    if (model.tasks[t].in_call) ++n.in_call;
  }
  for (PdgNode& n : res.nodes) n.ranks_text = rank_ranges(n.ranks);
  const std::size_t k = res.nodes.size();
  constexpr std::size_t kMaxGroups = 8192;  // the pairwise matrix is k x k
  if (k > kMaxGroups) {
    throw std::length_error("analyze_progress: " + std::to_string(k) + " task groups (distinct current states" +
                            (options.resolve_with_visit_counts ? std::string(" and visit counts") : std::string()) +
                            "), more than " + std::to_string(kMaxGroups) + " supported");
  }

  // Progress dependencies between the nodes' states.
  DependenceMatrix dep(k);
  std::vector<std::optional<double>> prob(k * k);
  if (options.variant == Variant::SemiDist) {
    semi_dist(model, res.nodes, dep, prob);
  } else {
    dist(model, res.nodes, groups, dep);
  }
  std::vector<char> by_visits(k * k, 0);
  if (options.resolve_with_visit_counts) resolve_with_visits(model, res.nodes, groups, dep, by_visits);

  std::vector<std::pair<std::uint32_t, std::uint32_t>> progress_edges;
  std::size_t undefined = 0;
  for (std::size_t a = 0; a < k; ++a) {
    for (std::size_t b = a + 1; b < k; ++b) {
      const Dependence d = dep.get(a, b);
      if (d == Dependence::None) continue;
      PdgEdge e;
      e.from = d == Dependence::Backward ? b : a;
      e.to = d == Dependence::Backward ? a : b;
      e.kind = d == Dependence::Undefined ? EdgeKind::Undefined : EdgeKind::Progress;
      e.p_forward = prob[e.from * k + e.to];
      e.p_backward = prob[e.to * k + e.from];
      e.by_visit_counts = by_visits[a * k + b] != 0;
      if (e.kind == EdgeKind::Progress) {
        progress_edges.emplace_back(static_cast<std::uint32_t>(e.from), static_cast<std::uint32_t>(e.to));
      } else {
        ++undefined;
      }
      res.edges.push_back(e);
    }
  }

  // Point-to-point dependencies, per task and aggregated per node pair.
  int max_rank = 0;
  for (const TaskInfo& t : model.tasks) max_rank = std::max(max_rank, t.rank);
  std::vector<std::int32_t> task_of_rank(static_cast<std::size_t>(max_rank) + 1, -1);
  for (std::size_t t = 0; t < model.tasks.size(); ++t) task_of_rank[model.tasks[t].rank] = static_cast<std::int32_t>(t);
  auto task_of = [&](int rank) { return rank >= 0 && rank <= max_rank ? task_of_rank[rank] : -1; };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> p2p;  // task indices
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> p2p_nodes;
  std::size_t unknown_peers = 0;
  for (const P2pDependence& d : model.p2p) {
    const std::int32_t t = task_of(d.task), p = task_of(d.peer);
    if (t < 0) throw std::invalid_argument("analyze_progress: point-to-point dependence of an unknown task");
    if (p < 0) {
      ++unknown_peers;
      continue;
    }
    p2p.emplace_back(t, p);
    ++p2p_nodes[{task_node[t], task_node[p]}];
  }
  for (const auto& [ab, n] : p2p_nodes) {
    PdgEdge e;
    e.from = ab.first;
    e.to = ab.second;
    e.kind = EdgeKind::PointToPoint;
    e.tasks = n;
    res.edges.push_back(e);
  }

  // §4.3: LP candidates are the nodes without outgoing progress dependence.
  // A cycle of dependencies has no such node; its tasks wait on each other,
  // so a cycle that nothing leaves counts as one node (sink component).
  std::uint32_t ncomp = 0;
  const std::vector<std::uint32_t> comp = detail::strong_components(detail::make_csr(k, progress_edges), ncomp);
  std::vector<char> comp_leaves(ncomp, 0);
  for (const auto& [a, b] : progress_edges) {
    if (comp[a] != comp[b]) comp_leaves[comp[a]] = 1;
  }
  std::vector<char> candidate_node(k, 0);
  std::size_t candidate_nodes = 0;
  for (std::size_t n = 0; n < k; ++n) {
    if (!comp_leaves[comp[n]]) {
      candidate_node[n] = 1;
      ++candidate_nodes;
    }
  }
  std::vector<char> eliminated(model.tasks.size(), 0);
  auto is_candidate = [&](std::uint32_t t) { return candidate_node[task_node[t]] != 0; };
  if (candidate_nodes > 1) {
    for (const auto& [t, p] : p2p) {
      if (is_candidate(t) && !is_candidate(p)) eliminated[t] = 1;
    }
  }
  if (options.elimination == P2pElimination::Strict && !p2p.empty()) {
    const std::vector<char> ends = ends_in_computation(model, p2p);
    for (const auto& [t, p] : p2p) {
      if (is_candidate(t) && ends[p]) eliminated[t] = 1;
    }
  }
  bool any_left = false;
  for (std::size_t t = 0; t < model.tasks.size() && !any_left; ++t) {
    any_left = is_candidate(static_cast<std::uint32_t>(t)) && !eliminated[t];
  }
  if (!any_left) {
    res.notes.push_back("the point-to-point step would discard every LP candidate; all candidates kept");
    std::fill(eliminated.begin(), eliminated.end(), 0);
  }
  std::vector<char> lp_node(k, 0);
  for (std::size_t t = 0; t < model.tasks.size(); ++t) {
    if (!is_candidate(static_cast<std::uint32_t>(t))) continue;
    if (eliminated[t]) {
      res.eliminated_tasks.push_back(model.tasks[t].rank);
    } else {
      res.lp_tasks.push_back(model.tasks[t].rank);
      lp_node[task_node[t]] = 1;
    }
  }
  for (std::size_t n = 0; n < k; ++n) {
    if (lp_node[n]) {
      res.nodes[n].lp = true;
      res.lp_nodes.push_back(n);
    }
  }
  const TaskInfo& first = model.tasks[static_cast<std::size_t>(task_of(res.lp_tasks.front()))];
  res.lp_site_rank = first.rank;
  res.lp_site = first.site_id;
  res.lp_site_hash = model.states[first.state].stable_hash;

  if (undefined > 0) {
    res.notes.push_back(std::to_string(undefined) +
                        " undefined dependence(s) (Table 1 \"?\"): look for singleton groups among the LP nodes");
  }
  if (model.any_source_waits > 0) {
    res.notes.push_back(std::to_string(model.any_source_waits) +
                        " task(s) wait on MPI_ANY_SOURCE: no point-to-point dependence inferred for them");
  }
  if (unknown_peers > 0) {
    res.notes.push_back(std::to_string(unknown_peers) + " point-to-point dependence(s) on untraced ranks ignored");
  }
  for (std::size_t t = 0; t < model.tasks.size(); ++t) {
    if (!model.tasks[t].aborted) continue;
    res.aborted_tasks.push_back(model.tasks[t].rank);
    if (!res.nodes[task_node[t]].aborted) {
      res.nodes[task_node[t]].aborted = true;
      res.aborted_nodes.push_back(task_node[t]);
    }
  }
  std::sort(res.aborted_nodes.begin(), res.aborted_nodes.end());
  if (!res.aborted_tasks.empty())
    res.notes.push_back("task(s) " + rank_ranges(res.aborted_tasks) +
                        " called MPI_Abort: the run ended by their verdict; the other tasks' states are where the "
                        "abort stopped them, so the least-progressed tasks do not locate a hang");
  res.dot = detail::render_dot(res, options);
  return res;
}

}  // namespace scalefuzz::detectors::pdg
