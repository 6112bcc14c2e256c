// KCCA model files: JSON with a format tag and version, so the next night's
// run can reuse the model trained by this one.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "kcca_internal.hpp"
#include "scalefuzz/detectors/kcca/kcca.hpp"

namespace scalefuzz::detectors::kcca {

namespace {

using nlohmann::json;
constexpr const char* kFormat = "scalefuzz-kcca-model";
constexpr int kVersion = 1;

json mat(const Eigen::MatrixXd& m) {
  json j;
  j["rows"] = m.rows();
  j["cols"] = m.cols();
  std::vector<double> v(static_cast<std::size_t>(m.size()));
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) v[static_cast<std::size_t>(r * m.cols() + c)] = m(r, c);
  j["data"] = std::move(v);
  return j;
}

Eigen::MatrixXd mat(const json& j) {
  const auto rows = j.at("rows").get<Eigen::Index>();
  const auto cols = j.at("cols").get<Eigen::Index>();
  const auto v = j.at("data").get<std::vector<double>>();
  if (rows < 0 || cols < 0 || static_cast<std::size_t>(rows * cols) != v.size())
    throw std::runtime_error("matrix of " + std::to_string(rows) + "x" + std::to_string(cols) + " holds " +
                             std::to_string(v.size()) + " values");
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) m(r, c) = v[static_cast<std::size_t>(r * cols + c)];
  return m;
}

json row(const Eigen::RowVectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); }
Eigen::RowVectorXd row(const json& j) {
  const auto v = j.get<std::vector<double>>();
  return Eigen::Map<const Eigen::RowVectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

json projection(const KernelProjection& p) {
  return {{"basis", mat(p.basis)}, {"tau", p.tau}, {"Z", mat(p.Z)}, {"z1", row(p.z1)},
          {"offset", row(p.offset)}, {"scale", row(p.scale)}};
}
KernelProjection projection(const json& j) {
  KernelProjection p;
  p.basis = mat(j.at("basis"));
  p.tau = j.at("tau").get<double>();
  p.Z = mat(j.at("Z"));
  p.z1 = row(j.at("z1"));
  p.offset = row(j.at("offset"));
  p.scale = row(j.at("scale"));
  const auto c = p.Z.cols();
  if (p.Z.rows() != p.basis.rows() || p.z1.size() != c || p.offset.size() != c || p.scale.size() != c || !(p.tau > 0))
    throw std::runtime_error("inconsistent projection dimensions");
  return p;
}

json frames(const std::vector<trace::Frame>& fs) {
  json a = json::array();
  for (const auto& f : fs)
    a.push_back({{"address", f.address}, {"module", f.module}, {"offset", f.offset}, {"function", f.function},
                 {"file", f.file}, {"line", f.line}});
  return a;
}
std::vector<trace::Frame> frames(const json& a) {
  std::vector<trace::Frame> out;
  for (const auto& j : a) {
    trace::Frame f;
    f.address = j.at("address").get<std::uint64_t>();
    f.module = j.at("module").get<std::string>();
    f.offset = j.at("offset").get<std::uint64_t>();
    f.function = j.at("function").get<std::string>();
    f.file = j.at("file").get<std::string>();
    f.line = j.at("line").get<int>();
    out.push_back(std::move(f));
  }
  return out;
}

SolverKind solver_from(const std::string& s) {
  if (const auto solver = value_named(detail::kSolverNames, s)) return *solver;
  throw std::runtime_error("unknown solver '" + s + "'");
}

}  // namespace

// The model file's "options" object: each field named once for writing and
// reading (every key required on reading).
void to_json(json& j, SolverKind s) { j = to_string(s); }
void from_json(const json& j, SolverKind& s) { s = solver_from(j.get<std::string>()); }
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(KccaOptions, components, gamma, control_width_factor, observation_width_factor,
                                   standardize_control, score_anchor, solver, exact_max_samples, low_rank_max_rank,
                                   low_rank_tolerance, threshold_z, threshold_folds, min_threshold, seed,
                                   max_kept_training_scores)

void save_model(const KccaModel& m, const std::string& path) {
  json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["options"] = m.options;
  j["solver_used"] = to_string(m.solver_used);
  j["n_train"] = m.n_train;
  j["control_names"] = m.control_names;
  j["control_mean"] = row(m.control_mean);
  j["control_std"] = row(m.control_std);
  j["feature_keys"] = m.feature_keys;
  j["control_map"] = projection(m.control_map);
  j["observation_map"] = projection(m.observation_map);
  j["canonical_correlations"] = row(Eigen::RowVectorXd(m.canonical_correlations.transpose()));
  j["threshold"] = m.threshold;
  j["train_mean"] = m.train_mean;
  j["train_std"] = m.train_std;
  json ts = json::array();
  for (const auto& t : m.training_scores) ts.push_back({t.nprocs, t.rank, t.correlation});
  j["training_scores"] = std::move(ts);
  j["training_scales"] = m.training_scales;
  json prof = json::array();
  for (const auto& s : m.reference_profile.sites)
    prof.push_back({{"stable_hash", s.stable_hash}, {"op", s.op}, {"site_id", s.site_id}, {"rank", s.rank},
                    {"frames", frames(s.frames)}, {"volume", s.volume}, {"share", s.share}});
  j["reference_profile"] = {{"runs", m.reference_profile.runs}, {"sites", std::move(prof)}};
  j["provenance"] = m.provenance;

  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) throw std::runtime_error("kcca: cannot write model file " + tmp);
    out << j.dump();
    if (!out.flush()) throw std::runtime_error("kcca: write failed for model file " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw std::runtime_error("kcca: cannot move " + tmp + " to " + path);
}

KccaModel load_model(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("kcca: cannot read model file " + path);
  try {
    const json j = json::parse(in);
    if (j.value("format", "") != kFormat) throw std::runtime_error("not a KCCA model file");
    if (j.at("version").get<int>() != kVersion)
      throw std::runtime_error("model version " + std::to_string(j.at("version").get<int>()) + ", expected " +
                               std::to_string(kVersion));
    KccaModel m;
    m.options = j.at("options").get<KccaOptions>();
    m.solver_used = solver_from(j.at("solver_used").get<std::string>());
    m.n_train = j.at("n_train").get<std::size_t>();
    m.control_names = j.at("control_names").get<std::vector<std::string>>();
    m.control_mean = row(j.at("control_mean"));
    m.control_std = row(j.at("control_std"));
    m.feature_keys = j.at("feature_keys").get<std::vector<std::uint64_t>>();
    m.control_map = projection(j.at("control_map"));
    m.observation_map = projection(j.at("observation_map"));
    m.canonical_correlations = row(j.at("canonical_correlations")).transpose();
    m.threshold = j.at("threshold").get<double>();
    m.train_mean = j.at("train_mean").get<double>();
    m.train_std = j.at("train_std").get<double>();
    for (const auto& t : j.at("training_scores"))
      m.training_scores.push_back({t.at(0).get<int>(), t.at(1).get<int>(), t.at(2).get<double>()});
    m.training_scales = j.at("training_scales").get<std::vector<int>>();
    m.provenance = j.value("provenance", json::object());  // absent in models saved before it existed
    m.reference_profile.runs = j.at("reference_profile").at("runs").get<int>();
    for (const auto& s : j.at("reference_profile").at("sites")) {
      SiteProfile p;
      p.stable_hash = s.at("stable_hash").get<std::uint64_t>();
      p.op = s.at("op").get<std::uint16_t>();
      p.site_id = s.at("site_id").get<std::uint32_t>();
      p.rank = s.at("rank").get<int>();
      p.frames = frames(s.at("frames"));
      p.volume = s.at("volume").get<double>();
      p.share = s.at("share").get<double>();
      m.reference_profile.sites.push_back(std::move(p));
    }
    if (m.control_mean.size() != m.control_map.basis.cols() || m.control_std.size() != m.control_mean.size() ||
        m.observation_map.basis.cols() != std::max<Eigen::Index>(1, static_cast<Eigen::Index>(m.feature_keys.size())) ||
        m.control_map.Z.cols() != m.observation_map.Z.cols())
      throw std::runtime_error("inconsistent model dimensions");
    return m;
  } catch (const std::exception& e) {
    throw std::runtime_error("kcca: bad model file " + path + ": " + e.what());
  }
}

}  // namespace scalefuzz::detectors::kcca
