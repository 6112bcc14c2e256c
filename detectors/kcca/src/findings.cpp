#include "scalefuzz/detectors/kcca/findings.hpp"
#include "scalefuzz/detectors/kcca/details.hpp"

#include <cmath>

#include <algorithm>
#include <cstdio>
#include <map>

namespace scalefuzz::detectors::kcca {

namespace {

using detectors::hex64;

std::optional<FrameDetails> frame_details(const std::optional<trace::Frame>& f) {
  if (!f) return std::nullopt;
  return FrameDetails{hex64(f->address), f->module, hex64(f->offset), f->function, f->file, f->line};
}

std::string location_of(const trace::Frame& f) {
  if (f.function.empty() && f.file.empty()) return f.module.empty() ? hex64(f.address) : f.module + "+" + hex64(f.offset);
  std::string out = f.function.empty() ? "??" : f.function;
  if (!f.file.empty()) out += " (" + f.file + ":" + std::to_string(f.line) + ")";
  return out;
}

DivergenceDetails divergence_details(const Divergence& d) {
  return DivergenceDetails{.test_site = {hex64(d.test_hash), d.test_site_id, d.test_rank, d.test_share},
                           .train_site = {hex64(d.train_hash), d.train_site_id, d.train_rank, d.train_share},
                           .op = d.op,
                           .differing_frames = d.differing_frames,
                           .divergence_frame = d.divergence_frame,
                           .where = d.where,
                           .from_crash = d.from_crash,
                           .reason = d.reason,
                           .test_frame = frame_details(d.test_frame),
                           .train_frame = frame_details(d.train_frame)};
}

}  // namespace

TestRun test_run_from_trace(const trace::RunTrace& run, const RunParams& params, bool crashed, VolumeFeature volume,
                            const SiteKeying& keying) {
  TestRun t;
  t.run_id = params.run_id.empty() ? run.run_id : params.run_id;
  t.samples = samples_from_run(run, params, volume, keying);
  for (const auto& s : t.samples) t.nprocs = std::max(t.nprocs, s.nprocs);
  t.profile = volume_profile(run, {}, volume);
  if (crashed) {
    // The rank stopped inside an MPI call, else the one that got least far.
    const trace::RankTrace* pick = nullptr;
    for (const auto& r : run.ranks) {
      if (r.rank < 0) continue;
      const bool inside = r.last_event_in_progress || (r.live && r.live->in_call);
      const bool pick_inside = pick && (pick->last_event_in_progress || (pick->live && pick->live->in_call));
      if (!pick || (inside && !pick_inside) || (inside == pick_inside && r.events.size() < pick->events.size())) pick = &r;
    }
    if (pick) t.crash_site_hash = crash_site(*pick);
  }
  return t;
}

// [rank, correlation] of every training rank, for the report's chart.
std::vector<std::pair<int, double>> training_correlations(const KccaModel& model) {
  std::vector<std::pair<int, double>> out;
  for (const auto& t : model.training_scores) out.emplace_back(t.rank, std::round(t.correlation * 1e4) / 1e4);
  return out;
}

std::vector<detectors::Finding> kcca_findings(const KccaModel& model, const std::vector<TestRun>& runs,
                                              const FindingOptions& options) {
  std::vector<detectors::Finding> out;
  std::map<int, std::vector<Score>> by_scale;
  std::map<int, std::size_t> first_finding;  // scale -> index in out
  const std::string trained = model.training_scales.empty() ? "?" : rank_ranges(model.training_scales);
  for (const auto& run : runs) {
    const std::vector<Score> scores = score(model, run.samples);
    by_scale[run.nprocs].insert(by_scale[run.nprocs].end(), scores.begin(), scores.end());
    std::vector<int> flagged;
    double worst = 1.0;
    for (const auto& s : scores)
      if (s.flagged) {
        flagged.push_back(s.rank);
        worst = std::min(worst, s.correlation);
      }
    if (flagged.empty() && !run.crash_site_hash) continue;
    detectors::Finding f;
    f.detector = "kcca";
    f.kind = "scale-anomaly";
    f.severity = detectors::Severity::Error;
    f.run_id = run.run_id;
    f.ranks = flagged;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%zu of %zu ranks at %d ranks break the scale trend learned at %s ranks (correlation %.3f < %.3f)",
                  flagged.size(), scores.size(), run.nprocs, trained.c_str(), worst, 1.0 - model.threshold);
    f.title = flagged.empty() ? "crashed run localized against the scale model" : buf;
    const auto divergences = localize(model.reference_profile, run.profile, options.localize, run.crash_site_hash);
    ScaleAnomalyDetails details;
    details.nprocs = run.nprocs;
    details.training_scales = model.training_scales;
    details.threshold = model.threshold;
    details.correlation_threshold = 1.0 - model.threshold;
    for (const auto& s : scores) details.scores.push_back({s.rank, s.correlation, s.flagged, s.unseen_volume});
    details.training_correlations = training_correlations(model);
    for (const auto& d : divergences) details.divergences.push_back(divergence_details(d));
    if (model.reference_profile.sites.empty()) details.localization = "no reference profile in the model";
    f.details = details;
    if (!divergences.empty() && divergences.front().test_frame) {
      const auto& d = divergences.front();
      f.location = location_of(*d.test_frame);
      const std::string where = d.test_frame->function.empty() ? f.location : d.test_frame->function;
      f.title += "; diverges in " + where + " (" + d.where + ")";
    }
    if (!first_finding.count(run.nprocs)) first_finding[run.nprocs] = out.size();
    out.push_back(std::move(f));
  }
  for (const auto& [nprocs, scores] : by_scale) {
    detectors::Artifact a{"correlation-scale-" + std::to_string(nprocs), "image/svg+xml",
                          correlation_plot_svg(model, nprocs, scores)};
    if (const auto it = first_finding.find(nprocs); it != first_finding.end()) {
      out[it->second].artifacts.push_back(std::move(a));
    } else if (options.plot_clean_scales) {
      detectors::Finding f;
      f.detector = "kcca";
      f.kind = "scale-plot";
      f.severity = detectors::Severity::Info;
      f.title = "all ranks at " + std::to_string(nprocs) + " ranks follow the scale trend learned at " + trained + " ranks";
      f.details = ScalePlotDetails{nprocs, model.threshold, 1.0 - model.threshold};
      f.artifacts.push_back(std::move(a));
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace scalefuzz::detectors::kcca
