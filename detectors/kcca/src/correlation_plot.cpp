// Per-rank correlation plot of one test scale (Vrisha Fig. 5) as plain SVG.
#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/detectors/kcca/findings.hpp"

namespace scalefuzz::detectors::kcca {

namespace {
std::string num(double v, int prec = 3) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", prec, v);
  return buf;
}
}  // namespace

std::string correlation_plot_svg(const KccaModel& model, int nprocs, const std::vector<Score>& test_scores) {
  const double W = 640, H = 360, left = 56, right = 16, top = 36, bottom = 44;
  int max_rank = std::max(1, nprocs - 1);
  for (const auto& t : model.training_scores) max_rank = std::max(max_rank, t.rank);
  for (const auto& s : test_scores) max_rank = std::max(max_rank, s.rank);
  const auto x = [&](double rank) { return left + (W - left - right) * rank / max_rank; };
  const auto y = [&](double corr) { return top + (H - top - bottom) * (1.0 - std::clamp(corr, -1.0, 1.0)) / 2.0; };
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H << "\" viewBox=\"0 0 " << W
    << ' ' << H << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  std::vector<int> scales = model.training_scales;
  std::string trained = scales.empty() ? "?" : rank_ranges(scales);
  s << "<text x=\"" << left << "\" y=\"20\" font-size=\"13\">KCCA correlation per rank at " << nprocs
    << " ranks (trained at " << trained << " ranks)</text>\n";
  // Axes and grid.
  for (double c = -1.0; c <= 1.0001; c += 0.5) {
    s << "<line x1=\"" << left << "\" x2=\"" << W - right << "\" y1=\"" << y(c) << "\" y2=\"" << y(c)
      << "\" stroke=\"#e4e4e4\"/>\n";
    s << "<text x=\"" << left - 6 << "\" y=\"" << y(c) + 4 << "\" text-anchor=\"end\">" << num(c, 1) << "</text>\n";
  }
  const int step = std::max(1, max_rank / 8);
  for (int r = 0; r <= max_rank; r += step)
    s << "<text x=\"" << x(r) << "\" y=\"" << H - bottom + 16 << "\" text-anchor=\"middle\">" << r << "</text>\n";
  s << "<text x=\"" << (left + W - right) / 2 << "\" y=\"" << H - 8 << "\" text-anchor=\"middle\">rank</text>\n";
  s << "<text x=\"14\" y=\"" << (top + H - bottom) / 2 << "\" transform=\"rotate(-90 14 " << (top + H - bottom) / 2
    << ")\" text-anchor=\"middle\">correlation</text>\n";
  s << "<line x1=\"" << left << "\" x2=\"" << left << "\" y1=\"" << top << "\" y2=\"" << H - bottom
    << "\" stroke=\"#444\"/>\n";
  // Training ranks (light), test ranks (dark, red when flagged).
  s << "<g fill=\"#9ecae1\" fill-opacity=\"0.6\">\n";
  for (const auto& t : model.training_scores)
    s << "<circle cx=\"" << num(x(t.rank), 1) << "\" cy=\"" << num(y(t.correlation), 1) << "\" r=\"2.5\"/>\n";
  s << "</g>\n<g>\n";
  for (const auto& t : test_scores)
    s << "<circle cx=\"" << num(x(t.rank), 1) << "\" cy=\"" << num(y(t.correlation), 1) << "\" r=\"3.5\" fill=\""
      << (t.flagged ? "#b30000" : "#08306b") << "\"><title>run " << t.run_id << " rank " << t.rank
      << ": correlation " << num(t.correlation) << "</title></circle>\n";
  s << "</g>\n";
  const double cut = 1.0 - model.threshold;
  s << "<line x1=\"" << left << "\" x2=\"" << W - right << "\" y1=\"" << y(cut) << "\" y2=\"" << y(cut)
    << "\" stroke=\"#d62728\" stroke-dasharray=\"6 4\"/>\n";
  s << "<text x=\"" << W - right << "\" y=\"" << y(cut) - 4 << "\" text-anchor=\"end\" fill=\"#d62728\">threshold "
    << num(cut) << "</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace scalefuzz::detectors::kcca
