// Top level of the campaign loader: reads the YAML, dispatches the sections
// and cross-checks what spans sections (placeholders, required keys).
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "error_list.hpp"
#include "scalefuzz/common/enum_names.hpp"
#include "scalefuzz/harness/run_store.hpp"
#include "input_limits.hpp"
#include "noise_schema.hpp"
#include "sections.hpp"
#include "template.hpp"
#include "values.hpp"

namespace scalefuzz::harness {

constexpr EnumName<Oversubscribe> kOversubscribeNames[] = {
    {Oversubscribe::Auto, "auto"}, {Oversubscribe::On, "on"}, {Oversubscribe::Off, "off"}};

using namespace detail;

namespace {

// The harness's keys and, after `stall`, the techniques' sections' keys.
const std::vector<std::string>& top_level_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> keys = {
        "campaign", "app",      "scales",    "parameters", "noise",        "repetitions", "timeout",
        "seed",     "detectors", "scheduler", "oversubscribe", "mpiexec", "launcher", "stall"};
    for (const auto& section : settings_sections()) keys.push_back(section.key);
    keys.insert(keys.end(), {"explore", "mpi"});
    return keys;
  }();
  return keys;
}

const settings::SettingsSection* settings_section(const std::string& key) {
  for (const auto& section : settings_sections())
    if (key == section.key) return &section;
  return nullptr;
}

YAML::Node parse_yaml(const YamlReader& reader, const std::string& text) {
  check_yaml_is_bounded(reader, text);  // yaml-cpp 0.7.0 may loop or recurse without end
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    reader.fail(e.mark, "YAML syntax error: " + e.msg);
  }
  if (documents.empty() || documents.front().IsNull())
    reader.fail(YAML::Mark(), "the campaign file is empty");
  if (documents.size() > 1)
    reader.fail(documents[1].Mark(), "expected one YAML document, found " +
                                         std::to_string(documents.size()));
  return documents.front();
}

std::vector<std::string> read_detectors(const YamlReader& reader, const YAML::Node& node,
                                        const std::vector<std::string>& known) {
  if (!node.IsSequence())
    reader.fail(node, "expected a list for detectors, got " + describe(node));
  std::vector<std::string> detectors;  // an explicit [] runs no detector
  for (const auto& item : node) {
    std::string name = reader.non_empty_string(item, "a detector");
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string hint = closest_name(name, known);
      reader.fail(item, "unknown detector '" + name + "'" +
                            (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                            "; registered in this build: " + (known.empty() ? "none" : join(known, ", ")));
    }
    if (std::find(detectors.begin(), detectors.end(), name) != detectors.end())
      reader.fail(item, "detector '" + name + "' is listed twice");
    detectors.push_back(name);
  }
  return detectors;
}

// `launcher:` -- a registered launcher plug-in's name; nullptr for auto.
const MpiLauncher* read_launcher(const YamlReader& reader, const YAML::Node& node) {
  const std::string name = reader.non_empty_string(node, "launcher");
  if (name == "auto") return nullptr;
  if (const MpiLauncher* launcher = find_mpi_launcher(name)) return launcher;
  reader.fail(node, unknown_launcher_message(name));
}

// `mpi:` -- auto (nullopt), mpich or openmpi.
std::optional<MpiImplementation> read_mpi(const YamlReader& reader, const YAML::Node& node) {
  const std::string word = reader.non_empty_string(node, "mpi");
  if (word == "auto") return std::nullopt;
  if (const auto mpi = mpi_named(word)) return mpi;
  const std::string hint = closest_name(word, {"auto", "mpich", "openmpi"});
  reader.fail(node, "unknown MPI '" + word + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                        "; known: auto, mpich, openmpi");
}

Oversubscribe read_oversubscribe(const YamlReader& reader, const YAML::Node& node) {
  std::string text = reader.scalar(node, "oversubscribe");
  if (text == "true") return Oversubscribe::On;
  if (text == "false") return Oversubscribe::Off;
  if (const auto mode = value_named(kOversubscribeNames, text)) return *mode;
  reader.fail(node, "oversubscribe must be auto, on or off, got '" + text + "'");
}

std::vector<NoiseSpec> read_noise(const YamlReader& reader, const YAML::Node& node) {
  std::vector<NoiseSpec> profiles;
  auto items = reader.list(node, "noise");
  for (std::size_t i = 0; i < items.size(); ++i) {
    NoiseSpec spec = read_noise_entry(reader, items[i], "noise[" + std::to_string(i) + "]");
    for (std::size_t j = 0; j < profiles.size(); ++j)
      if (profiles[j].mode == spec.mode && profiles[j].settings == spec.settings)
        reader.fail(items[i], "noise[" + std::to_string(i) + "] repeats noise[" + std::to_string(j) +
                                  "] (" + spec.label() + ")");
    profiles.push_back(std::move(spec));
  }
  return profiles;
}

std::filesystem::path absolute_dir(const std::filesystem::path& path) {
  return std::filesystem::absolute(path).lexically_normal();
}

}  // namespace

const char* to_string(Oversubscribe mode) { return name_of(kOversubscribeNames, mode); }

std::chrono::nanoseconds parse_duration(const std::string& text, const std::string& what) {
  const auto duration = check_duration(text, what);
  if (!duration.problem.empty()) throw std::invalid_argument(duration.problem);
  return std::chrono::nanoseconds(duration.ns);
}

std::string unknown_launcher_message(const std::string& name) {
  const auto known = mpi_launcher_choices();
  const std::string hint = closest_name(name, known);
  return "unknown launcher '" + name + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
         "; known: " + join(known, ", ");
}


const std::vector<std::string>& supported_sbatch_options() {
  // Each one is set on the libslurm job request by harness/slurm (apply_sbatch_option).
  static const std::vector<std::string> options = {
      "--mem=",  "--mem-per-cpu=", "--constraint=", "--exclusive", "--reservation=", "--nodelist=",
      "--exclude=", "--overcommit", "--comment=", "--licenses=", "--wckey=", "--nice="};
  return options;
}

Campaign parse_campaign(const std::string& yaml_text, const std::filesystem::path& origin,
                        const LoadOptions& options) {
  YamlReader reader(origin.string());
  const YAML::Node root = parse_yaml(reader, yaml_text);
  ErrorList errors;  // every section is read; all their errors are reported at once
  std::vector<MapEntry> entries;
  for (auto& entry : reader.free_map(root, "the campaign file"))
    if (errors.attempt([&] { reader.check_known_key(entry, "the campaign file", top_level_keys()); }))
      entries.push_back(std::move(entry));

  Campaign campaign;
  campaign.file = origin;
  campaign.campaign_dir = absolute_dir(origin).parent_path();
  if (!options.build_dir.empty()) campaign.build_dir = absolute_dir(options.build_dir);
  campaign.detectors = options.detectors;
  campaign.noise = {NoiseSpec{}};

  AppSection app;
  std::vector<TemplateSite> mpiexec_sites;
  bool launcher_named = false;
  const settings::SectionContext section_context{campaign.campaign_dir, RunStore::kDbFileName};
  std::vector<settings::SectionCheck> section_checks;  // run once the scales are known
  std::vector<MatrixFactor> matrix;  // the keys that multiply the number of runs
  for (const std::string required : {"campaign", "app", "scales"})
    if (std::none_of(entries.begin(), entries.end(), [&](const MapEntry& e) { return e.key == required; }))
      errors.attempt([&] { reader.fail(root, "missing required key '" + required + "'"); });

  std::set<std::string> failed_sections;
  for (const auto& entry : entries) errors.attempt([&] {
    const std::string& key = entry.key;
    failed_sections.insert(key);  // until it is read through
    const YAML::Node& value = entry.value;
    if (key == "campaign") {
      campaign.name = reader.non_empty_string(value, "campaign");
      static const std::regex kName("[A-Za-z0-9_.-]+");
      if (!std::regex_match(campaign.name, kName) || campaign.name == "." || campaign.name == "..")
        reader.fail(value, "campaign name '" + campaign.name +
                               "' may only use letters, digits, '_', '.' and '-'");
    } else if (key == "app") {
      app = read_app(reader, value);
      campaign.command = app.command;
      campaign.env = app.env;
      campaign.check = app.check;
    } else if (key == "scales") {
      campaign.scales = read_scales(reader, value);
      matrix.push_back({"scales", campaign.scales.train.size() + campaign.scales.test.size(), entry.key_node.Mark()});
    } else if (key == "parameters") {
      campaign.parameters = read_parameters(reader, value);
      std::size_t i = 0;
      for (auto it = value.begin(); it != value.end() && i < campaign.parameters.size(); ++it, ++i)
        matrix.push_back({"parameters." + campaign.parameters[i].name, campaign.parameters[i].values.size(),
                          it->first.Mark()});
    } else if (key == "noise") {
      campaign.noise = read_noise(reader, value);
      matrix.push_back({"noise", campaign.noise.size(), entry.key_node.Mark()});
    } else if (key == "repetitions") {
      campaign.repetitions = static_cast<int>(reader.integer(value, "repetitions", 1, 1'000'000));
      matrix.push_back({"repetitions", static_cast<unsigned long long>(campaign.repetitions), entry.key_node.Mark()});
    } else if (key == "timeout") {
      std::int64_t ns = reader.duration_ns(value, "timeout");
      campaign.timeout = std::chrono::milliseconds((ns + 999'999) / 1'000'000);
    } else if (key == "seed") {
      campaign.seed = reader.uint64(value, "seed");
    } else if (key == "detectors") {
      campaign.detectors = read_detectors(reader, value, options.detectors);
    } else if (key == "scheduler") {
      campaign.scheduler = read_scheduler(reader, value);
    } else if (key == "oversubscribe") {
      campaign.oversubscribe = read_oversubscribe(reader, value);
    } else if (key == "mpiexec") {
      auto items = reader.list(value, "mpiexec");
      campaign.mpiexec.clear();
      for (std::size_t i = 0; i < items.size(); ++i) {
        std::string what = "mpiexec[" + std::to_string(i) + "]";
        campaign.mpiexec.push_back(reader.non_empty_string(items[i], what));
        mpiexec_sites.push_back({items[i], what});
      }
    } else if (key == "launcher") {
      campaign.launcher = read_launcher(reader, value);
      launcher_named = campaign.launcher != nullptr;
    } else if (key == "mpi") {
      campaign.mpi = read_mpi(reader, value);
    } else if (const auto* section = settings_section(key)) {
      settings::SectionRead read = section->read(reader, value, section_context);
      campaign.settings[key] = std::move(read.settings);
      for (auto& check : read.checks) section_checks.push_back(std::move(check));
    } else if (key == "explore") {
      campaign.explore.enabled = true;
      for (const auto& knob : reader.map(value, "explore", {"depth", "budget"})) {
        if (knob.key == "depth") campaign.explore.depth = static_cast<int>(reader.integer(knob.value, "explore.depth", 1, 4));
        else campaign.explore.budget = static_cast<std::size_t>(reader.integer(knob.value, "explore.budget", 1, 100000));
      }
    } else if (key == "stall") {
      for (const auto& knob : reader.map(value, "stall", {"enabled", "calls"})) {
        if (knob.key == "enabled") campaign.stall.enabled = reader.boolean(knob.value, "stall.enabled");
        else campaign.stall.calls = static_cast<int>(reader.integer(knob.value, "stall.calls", 1, 100000000));
      }
    }
    failed_sections.erase(key);
  });
  // Placeholders are checked against what the app and parameters sections
  // declared; if either failed, that check would only repeat its errors.
  if (failed_sections.count("app") || failed_sections.count("parameters") || failed_sections.count("mpiexec")) {
    errors.throw_if_any();
  }

  check_run_count(reader, matrix);

  // The techniques' sections against the scales (e.g. every rank a
  // technique compares exists at every scale).
  if (!failed_sections.count("scales")) {
    int smallest = 0;
    for (const auto* set : {&campaign.scales.train, &campaign.scales.test})
      for (int n : *set) smallest = smallest == 0 ? n : std::min(smallest, n);
    if (smallest > 0)
      for (const auto& check : section_checks) errors.attempt([&] { check(reader, {smallest}); });
  }

  // Placeholders can only be checked once every parameter is known.
  std::vector<std::string> allowed = builtin_placeholders();
  for (const auto& parameter : campaign.parameters) allowed.push_back(parameter.name);
  auto uses_build = [](const TemplateSite& site) {
    auto names = template_placeholders(site.node.Scalar());
    return std::find(names.begin(), names.end(), "build") != names.end();
  };
  for (const auto& site : app.templates) errors.attempt([&] {
    check_template(reader, site, allowed);
    if (campaign.build_dir.empty() && uses_build(site))
      reader.fail(site.node, site.what + " uses {build} but no build directory was given");
  });
  const std::vector<std::string> static_names = {"build", "campaign_dir"};
  std::map<std::string, std::string> static_values = {
      {"build", campaign.build_dir.string()}, {"campaign_dir", campaign.campaign_dir.string()}};
  for (std::size_t i = 0; i < mpiexec_sites.size(); ++i) errors.attempt([&] {
    check_template(reader, mpiexec_sites[i], static_names);
    if (campaign.build_dir.empty() && uses_build(mpiexec_sites[i]))
      reader.fail(mpiexec_sites[i].node, mpiexec_sites[i].what + " uses {build} but no build directory was given");
    campaign.mpiexec[i] = expand_template(campaign.mpiexec[i], static_values);
  });
  errors.throw_if_any();
  // A named launcher without `mpiexec:` starts the ranks with its own
  // command; `auto` reads the launcher off the command's program.
  if (launcher_named && mpiexec_sites.empty()) campaign.mpiexec = campaign.launcher->default_command();
  // `mpi:` alone (no launcher, no mpiexec) starts the ranks with that MPI's
  // own launcher (openmpi: mpirun.openmpi; mpich: Hydra's mpiexec).
  if (campaign.mpi && !launcher_named && mpiexec_sites.empty())
    for (const MpiLauncher* launcher : mpi_launchers())
      if (launcher->implementation() == campaign.mpi) {
        campaign.launcher = launcher;
        campaign.mpiexec = launcher->default_command();
        launcher_named = true;
        break;
      }
  if (!campaign.launcher) campaign.launcher = &detect_mpi_launcher(campaign.mpiexec);
  campaign.launcher_detected = !launcher_named;
  return campaign;
}

Campaign load_campaign(const std::filesystem::path& file, const LoadOptions& options) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw CampaignError(file.string() + ": is a directory, expected a campaign YAML file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw CampaignError(file.string() + ": cannot open: " + std::strerror(errno));
  // Bounded read: a campaign path naming /dev/zero or a huge file must not fill memory.
  std::string text(kMaxCampaignFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (in.bad()) throw CampaignError(file.string() + ": cannot read: " + std::strerror(errno));
  return parse_campaign(text, file, options);
}

}  // namespace scalefuzz::harness
