#include "dmtracker_detector.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <sstream>

#include "dmtracker_section.hpp"
#include "movements.hpp"
#include "scalefuzz/detectors/dmtracker_details.hpp"
#include "scalefuzz/detectors/dmtracker/settings.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace scalefuzz::detectors::dmtracker {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string fixed(double v, int digits = 2) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Names of a run's call sites and allocation sites, for the findings.
class Names {
 public:
  Names(const analysis::RunView& run, const RunMovements& rm, trace::Symbolizer* symbols)
      : run_(run), rm_(rm), symbols_(symbols) {}

  // {"location": "func (file:line)", ...} of the record behind a ref.
  json site(std::uint64_t ref) const {
    int rank = ref_rank(ref);
    std::size_t index = ref_index(ref);
    const auto& ranks = run_.trace().ranks;
    if (rank < 0 || static_cast<std::size_t>(rank) >= ranks.size() || index >= ranks[rank].events.size())
      return nullptr;
    const trace::Event& e = ranks[rank].events[index];
    json loc = run_.code_location(rank, e.callsite);
    json out = json::object();
    out["call"] = trace::op_name(e.op);
    out["rank"] = rank;
    if (loc.is_object()) out.update(loc);
    return out;
  }
  std::string site_text(std::uint64_t ref) const {
    json s = site(ref);
    if (!s.is_object()) return "?";
    std::string where = s.contains("location") && s["location"].is_string() ? s["location"].get<std::string>() : "";
    return s["call"].get<std::string>() + (where.empty() ? "" : " at " + where);
  }
  // "malloc at alloc_panel (pipeline_relay.c:23)", "stack or global" for 0.
  std::string alloc(std::uint64_t key) {
    if (key == 0) return "stack, global or unrecorded memory";
    auto cached = alloc_names_.find(key);
    if (cached != alloc_names_.end()) return cached->second;
    std::string name = "heap block";
    for (const auto& [k, where] : rm_.alloc_sites) {
      if (k != key) continue;
      try {
        fs::path mods = run_.dir() / "ranks" / (std::to_string(where.rank) + ".modules");
        auto segments = trace::read_modules(mods);
        auto frames = symbols_ != nullptr ? symbols_->symbolize_addresses({where.address}, segments)
                                          : trace::symbolize_addresses({where.address}, segments);
        if (!frames.empty()) name = "heap block allocated at " + trace::format_frame(frames[0]);
      } catch (const std::exception&) {
      }
      break;
    }
    return alloc_names_[key] = name;
  }

 private:
  const analysis::RunView& run_;
  const RunMovements& rm_;
  trace::Symbolizer* symbols_;
  std::map<std::uint64_t, std::string> alloc_names_;
};

json describe_move(const Movement& m, std::uint64_t recv_ref, Names& names) {
  json j;
  j["kind"] = to_string(m.kind);
  j["from"] = names.site(m.ref);
  if (recv_ref != SIZE_MAX) j["to"] = names.site(recv_ref);
  if (m.src.rank >= 0) j["source_buffer"] = names.alloc(m.src.alloc_site);
  if (m.dst.rank >= 0) j["destination_buffer"] = names.alloc(m.dst.alloc_site);
  return j;
}

// Distance^k per rank with the K x average line, as an SVG bar chart.
std::string distance_chart(const CdResult& cd, const Parameters& p) {
  const double w = 640, h = 220, left = 48, bottom = 28, top = 16;
  double limit = p.outlier_factor * cd.average;
  double ymax = limit;
  for (double d : cd.distance_k) ymax = std::max(ymax, d);
  if (ymax <= 0) ymax = 1;
  std::ostringstream s;
  s << "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 " << w << ' ' << h
    << "' role='img' aria-label='Distance to the k-th nearest rank per rank'>";
  double plot_w = w - left - 8, plot_h = h - top - bottom;
  double bw = plot_w / std::max<std::size_t>(1, cd.ranks.size());
  std::map<int, bool> outlier;
  for (const Outlier& o : cd.outliers) outlier[o.rank] = true;
  for (std::size_t i = 0; i < cd.ranks.size(); ++i) {
    double bh = plot_h * cd.distance_k[i] / ymax;
    double x = left + i * bw + bw * 0.1;
    s << "<rect x='" << x << "' y='" << (top + plot_h - bh) << "' width='" << bw * 0.8 << "' height='" << bh
      << "' fill='" << (outlier[cd.ranks[i]] ? "#c0392b" : "#5b8def") << "'><title>rank " << cd.ranks[i]
      << ": " << fixed(cd.distance_k[i], 3) << "</title></rect>";
    if (cd.ranks.size() <= 32)
      s << "<text x='" << x + bw * 0.4 << "' y='" << h - 10 << "' font-size='10' text-anchor='middle'>"
        << cd.ranks[i] << "</text>";
  }
  double ly = top + plot_h - plot_h * limit / ymax;
  s << "<line x1='" << left << "' x2='" << w - 8 << "' y1='" << ly << "' y2='" << ly
    << "' stroke='#c0392b' stroke-dasharray='4 3'/><text x='" << left + 4 << "' y='" << ly - 3
    << "' font-size='10' fill='#c0392b'>K x average = " << fixed(limit, 3) << "</text>";
  s << "<text x='4' y='" << top + 8 << "' font-size='10'>Distance^k</text><text x='" << w / 2 << "' y='" << h
    << "' font-size='10' text-anchor='middle'>rank</text></svg>";
  return s.str();
}

class DmtrackerDetector : public analysis::Detector {
 public:
  explicit DmtrackerDetector(const analysis::AnalysisContext& context)
      : context_(context), settings_(analysis::settings_of<Settings>(context.settings, "dmtracker")) {}

  std::vector<Finding> observe(const analysis::RunView& run) override {
    const Settings& spec = settings_;
    if (!spec.reference.empty() && !known_good_) {
      if (!reference_error_.empty()) throw std::runtime_error(reference_error_);
      try {
        learn_reference(spec.reference);
      } catch (const std::exception& e) {
        reference_error_ = e.what();  // said once per run, learnt once
        throw;
      }
    }
    RunMovements rm = run_movements(run.trace(), run.dir());
    Parameters p;
    if (run.failed()) p.halving_rounds = 4;  // §4.5: a hang's last phase tells the stuck process
    auto chains = build_chains(rm.moves);
    auto groups = group_chains(rm.moves, chains, p);
    std::vector<std::size_t> fc;
    std::vector<bool> normal;
    std::vector<double> good_dk;
    if (known_good_) {  // the invariants of the program's known-good runs
      fc = known_good_->invariants_in(groups);
      normal = known_good_->normal_in(groups);
      good_dk = known_good_->distance_k_at(run.info().nprocs);
      if (fc.empty() && !known_good_->invariant_types.empty() && context_.log)
        *context_.log << "analysis: dmtracker: run " << run.id()
                      << " has none of the reference's FC-invariant chain types (another build of the program?)\n";
    } else {
      fc = select_fc_invariants(groups, p);
    }
    auto violations = fc_violations(rm.moves, chains, groups, fc, p, normal);
    auto cd = cd_outliers(chains, groups, spec.ranks, p, good_dk);
    ++runs_;
    chains_ += chains.size();
    invariants_ += fc.size();
    moves_ += rm.moves.size();
    heap_blocks_ += rm.heap_blocks;

    std::vector<Finding> out;
    Names names(run, rm, context_.symbols);
    const std::string& run_id = run.id();
    for (const Violation& v : violations) out.push_back(violation_finding(run_id, rm, chains, groups, v, names));
    for (const Outlier& o : cd.outliers) out.push_back(outlier_finding(run_id, rm, chains, groups, cd, o, p, names));
    violations_ += violations.size();
    outliers_ += cd.outliers.size();
    return out;
  }

  std::vector<Finding> finish() override {
    if (runs_ == 0) return {};
    if (context_.log)
      *context_.log << "analysis: dmtracker: " << runs_ << " runs, " << moves_ << " data movements, " << chains_
                    << " chains, " << invariants_ << " FC-invariants, " << violations_ << " violations, "
                    << outliers_ << " outlier processes\n";
    Finding f;
    f.detector = "dmtracker";
    f.kind = "summary";
    f.severity = Severity::Info;
    f.title = "DMTracker: " + std::to_string(chains_) + " data-movement chains in " + std::to_string(runs_) +
              " runs, " + std::to_string(violations_) + " FC-invariant violations, " + std::to_string(outliers_) +
              " outlier processes";
    f.details = {{"invariants_from", settings_.reference.empty() ? std::string("each run")
                                                                        : settings_.reference.string()},
                 {"runs", runs_},           {"movements", moves_},        {"chains", chains_},
                 {"fc_invariants", invariants_}, {"violations", violations_}, {"outliers", outliers_},
                 {"heap_blocks", heap_blocks_}};
    return {f};
  }

 private:
  // FC-invariants and Distance^k baselines from the runs of a stored campaign
  // that ended ok (dmtracker.reference). Unreadable runs are skipped, and
  // said in the log; no readable run at all is an error of every run.
  void learn_reference(const fs::path& dir) {
    KnownGood kg;
    std::size_t skipped = 0;
    if (!context_.stored_runs) throw std::runtime_error("dmtracker.reference: no stored campaign can be read here");
    for (const analysis::RunInfo& r : context_.stored_runs(dir)) {
      if (!r.finished() || r.end->kind != OutcomeKind::Ok) continue;
      try {
        trace::RunTrace trace = trace::read_run(r.dir);
        RunMovements rm = run_movements(trace, r.dir);
        Parameters p;
        auto chains = build_chains(rm.moves);
        auto groups = group_chains(rm.moves, chains, p);
        kg.learn(groups, select_fc_invariants(groups, p), cd_outliers(chains, groups, settings_.ranks, p),
                 r.nprocs);
      } catch (const std::exception& e) {
        ++skipped;
        if (context_.log) *context_.log << "analysis: dmtracker: reference run " << r.id << " skipped: " << e.what() << "\n";
      }
    }
    if (kg.runs == 0)
      throw std::runtime_error("dmtracker.reference " + dir.string() + " holds no readable run that ended ok");
    if (context_.log)
      *context_.log << "analysis: dmtracker: invariants from " << kg.runs << " known-good runs of " << dir.string()
                    << " (" << kg.invariant_types.size() << " FC-invariant chain types, " << kg.normal_types.size()
                    << " chain types" << (skipped ? ", " + std::to_string(skipped) + " runs unreadable" : "") << ")\n";
    known_good_ = std::move(kg);
  }

  Finding violation_finding(const std::string& run_id, const RunMovements& rm, const std::vector<Chain>& chains,
                            const Grouping& g, const Violation& v, Names& names) {
    const ChainGroup& c = g.groups[v.group];
    const ChainGroup& inv = g.groups[v.invariant];
    const Chain& example = chains[v.example_chain];
    Finding f;
    f.detector = "dmtracker";
    f.run_id = run_id;
    bool broken = v.context_matches > 0;
    f.kind = broken ? "broken-chain" : "rare-chain";
    f.severity = broken ? Severity::Error : Severity::Warning;
    // Where the data went astray: the movement that did P's next step on
    // another buffer (context match), else the end of the rare chain.
    std::uint64_t where_ref = broken ? rm.moves[v.example_context_move].ref : rm.moves[example.moves.back()].ref;
    json where = names.site(where_ref);
    if (where.is_object() && where.contains("location") && where["location"].is_string())
      f.location = where["location"].get<std::string>();
    std::vector<int> ranks;
    for (std::size_t ci : c.chains) {
      const Movement& last = rm.moves[chains[ci].moves.back()];
      ranks.push_back(last.dst.rank >= 0 ? last.dst.rank : last.src.rank);
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    f.ranks = ranks;
    std::string rare = std::to_string(c.frequency()) + " of " + std::to_string(c.frequency() + inv.frequency());
    if (broken) {
      const Movement& astray = rm.moves[v.example_context_move];
      f.title = "Broken data-movement chain: in " + rare + " cases " + names.site_text(where_ref) + " moved " +
                names.alloc(astray.src.alloc_site) + " instead of continuing the chain (abnormality " +
                fixed(v.abnormality) + ")";
    } else {
      f.title = "Rare variant of a frequent data-movement chain: " + rare + " chains (abnormality " +
                fixed(v.abnormality) + ")";
    }
    json inv_ops = json::array(), c_ops = json::array();
    // One instance of the invariant for its operations.
    const Chain& pc = chains[inv.chains.front()];
    for (std::size_t m : pc.moves) inv_ops.push_back(describe_move(rm.moves[m], rm.recv_refs[m], names));
    for (std::size_t m : example.moves) c_ops.push_back(describe_move(rm.moves[m], rm.recv_refs[m], names));
    f.details = {{"abnormality", v.abnormality},
                 {"similarity", v.similarity},
                 {"rareness", v.rareness},
                 {"instances", v.instances},
                 {"context_matches", v.context_matches},
                 {"invariant", {{"frequency", inv.frequency()}, {"uniqueness", inv.uniqueness}, {"movements", inv_ops}}},
                 {"abnormal_chain", {{"frequency", c.frequency()}, {"uniqueness", c.uniqueness}, {"movements", c_ops}}},
                 {"common_part", {{"length", v.common.length}, {"in_invariant_at", v.common.b_pos}}}};
    if (broken) {
      const Movement& astray = rm.moves[v.example_context_move];
      f.details["context_match"] = describe_move(astray, rm.recv_refs[v.example_context_move], names);
      const Symbol& expected = inv.type[std::min(v.common.b_pos + v.common.length, inv.type.size() - 1)];
      f.details["expected_source_buffer"] = names.alloc(expected.src_alloc);
    }
    return f;
  }

  Finding outlier_finding(const std::string& run_id, const RunMovements& rm, const std::vector<Chain>& chains,
                          const Grouping& g, const CdResult& cd,
                          const Outlier& o, const Parameters& p, Names& names) {
    Finding f;
    f.detector = "dmtracker";
    f.run_id = run_id;
    f.kind = "outlier-process";
    f.severity = Severity::Warning;
    f.ranks = {o.rank};
    const ChainGroup& top = g.groups[o.top_group];
    // The top group's first movement, from a chain the outlier rank started.
    json top_site = nullptr;
    std::string what;
    for (std::size_t ci : top.chains) {
      if (chains[ci].start_rank != o.rank && &ci != &top.chains.back()) continue;
      std::uint64_t ref = rm.moves[chains[ci].moves.front()].ref;
      top_site = names.site(ref);
      what = names.site_text(ref);
      break;
    }
    if (top_site.is_object() && top_site.contains("location") && top_site["location"].is_string())
      f.location = top_site["location"].get<std::string>();
    double ratio = o.average > 0 ? o.distance_k / o.average : 0;
    f.title = "Rank " + std::to_string(o.rank) + " moves data unlike its peers: distance to its " +
              std::to_string(cd.k) + "-th nearest rank " + fixed(o.distance_k, 3) + ", " + fixed(ratio, 1) +
              "x the average" + (what.empty() ? "" : "; most of the difference: " + what) +
              (o.round > 0 ? " (last 1/" + std::to_string(1 << o.round) + " of the run)" : "");
    OutlierProcessDetails details{
        .distance_k = o.distance_k,
        .average = o.average,
        .k = cd.k,
        .factor = p.outlier_factor,
        .nearest_kth_rank = o.neighbour,
        .phase = o.round == 0 ? std::string("whole run") : "last 1/" + std::to_string(1 << o.round),
        .top_group = {{"uniqueness", top.uniqueness}, {"chains", top.frequency()}, {"first_movement", top_site}},
        .distance_k_per_rank = {}};
    for (std::size_t i = 0; i < cd.ranks.size(); ++i)
      details.distance_k_per_rank[std::to_string(cd.ranks[i])] = cd.distance_k[i];
    f.details = details;
    f.artifacts.push_back(detectors::Artifact{"dmtracker-distance-k", "image/svg+xml", distance_chart(cd, p)});
    return f;
  }

  const analysis::AnalysisContext& context_;
  Settings settings_;
  std::optional<KnownGood> known_good_;  // set when dmtracker.reference is
  std::string reference_error_;           // why the reference could not be learnt
  std::size_t runs_ = 0, chains_ = 0, invariants_ = 0, moves_ = 0, violations_ = 0, outliers_ = 0, heap_blocks_ = 0;
};

}  // namespace

std::unique_ptr<analysis::Detector> make_dmtracker_detector(const analysis::AnalysisContext& context) {
  return std::make_unique<DmtrackerDetector>(context);
}

const analysis::DetectorInfo kDetector{
    "dmtracker",
    "silent data-movement bugs: broken frequent chains and outlier processes by their chain distribution (DMTracker)",
    "dmtracker", {analysis::Needs::Runs::All, true}, make_dmtracker_detector, nullptr, &kReportSection};

}  // namespace scalefuzz::detectors::dmtracker
