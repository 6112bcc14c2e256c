// Readers for the matrix sections (scales, parameters) and the scheduler.
#include <algorithm>
#include <cctype>
#include <optional>
#include <regex>
#include <unordered_map>

#include "sections.hpp"
#include "template.hpp"

namespace scalefuzz::harness::detail {

namespace {

constexpr long long kMaxScale = 1'000'000;

// Names that would shadow a built-in placeholder or filter key.
const std::vector<std::string>& reserved_parameter_names() {
  static const std::vector<std::string> names = {"build", "nprocs", "rep", "seed", "campaign_dir",
                                                 "np", "role", "noise", "id"};
  return names;
}

using SeenScales = std::unordered_map<int, int>;  // nprocs -> the 1-based line it is listed at

void read_scale_list(const YamlReader& reader, const YAML::Node& node, const std::string& what,
                     std::vector<int>& out, SeenScales& seen) {
  for (const auto& item : reader.list(node, what)) {
    int nprocs = static_cast<int>(reader.integer(item, "a scale in " + what, 1, kMaxScale));
    if (const auto [it, fresh] = seen.emplace(nprocs, item.Mark().line + 1); !fresh)
      reader.fail(item, "duplicate scale " + std::to_string(nprocs) + " in " + what + " (already listed at line " +
                            std::to_string(it->second) + ")");
    out.push_back(nprocs);
  }
}

}  // namespace

ScaleSet read_scales(const YamlReader& reader, const YAML::Node& node) {
  ScaleSet scales;
  SeenScales seen;
  if (node.IsSequence()) {  // a plain list: test scales only
    read_scale_list(reader, node, "scales", scales.test, seen);
    return scales;
  }
  if (!node.IsMap())
    reader.fail(node, "expected a list of process counts or {train: [...], test: [...]} for "
                      "scales, got " + describe(node));
  auto entries = reader.map(node, "scales", {"train", "test"});
  if (entries.empty()) reader.fail(node, "scales needs train and/or test process counts");
  for (const auto& entry : entries)
    read_scale_list(reader, entry.value, "scales." + entry.key,
                    entry.key == "train" ? scales.train : scales.test, seen);
  return scales;
}

std::vector<Parameter> read_parameters(const YamlReader& reader, const YAML::Node& node) {
  std::vector<Parameter> parameters;
  for (const auto& entry : reader.free_map(node, "parameters")) {
    if (!is_identifier(entry.key))
      reader.fail(entry.key_node, "parameter name '" + entry.key +
                                      "' must be letters, digits and _ (it is used as {" +
                                      entry.key + "})");
    const auto& reserved = reserved_parameter_names();
    if (std::find(reserved.begin(), reserved.end(), entry.key) != reserved.end())
      reader.fail(entry.key_node, "parameter name '" + entry.key + "' is reserved (reserved: " +
                                      join(reserved, ", ") + ")");
    Parameter parameter{entry.key, {}};
    std::string what = "parameters." + entry.key;
    std::unordered_map<std::string, int> line_of;  // value -> its 1-based line (hashed: lists can be long)
    for (const auto& item : reader.list(entry.value, what)) {
      std::string value = reader.scalar(item, "a value of " + what);
      if (const auto [it, fresh] = line_of.emplace(value, item.Mark().line + 1); !fresh)
        reader.fail(item, "duplicate value '" + value + "' in " + what + " (already at line " +
                              std::to_string(it->second) + ")");
      parameter.values.push_back(std::move(value));
    }
    parameters.push_back(std::move(parameter));
  }
  return parameters;
}

namespace {

// Why `option` cannot be passed to SLURM, or nullopt when it can.
std::optional<std::string> sbatch_option_problem(const std::string& option) {
  const auto eq = option.find('=');
  const std::string name = option.substr(0, eq == std::string::npos ? option.size() : eq + 1);
  const auto& known = supported_sbatch_options();
  if (std::find(known.begin(), known.end(), name) != known.end()) {
    if (eq != std::string::npos && eq + 1 == option.size()) return "scheduler.extra_args: '" + option + "' needs a value";
    if (option.find_first_of("\n\r") != std::string::npos) return "scheduler.extra_args: '" + option + "' contains a line break";
    return std::nullopt;
  }
  const std::string other = eq == std::string::npos ? name + "=" : name.substr(0, name.size() - 1);
  if (std::find(known.begin(), known.end(), other) != known.end())
    return "scheduler.extra_args: '" + option + "' " + (eq == std::string::npos ? "needs a value (" + other + "VALUE)" : "takes no value");
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k + (k.back() == '=' ? "VALUE" : "");
  return "scheduler.extra_args: unsupported sbatch option '" + option + "' (supported: " + list +
         "; partition, time, account, qos and nodes have their own keys)";
}

}  // namespace

SchedulerSpec read_scheduler(const YamlReader& reader, const YAML::Node& node) {
  SchedulerSpec scheduler;
  if (!node.IsMap())
    reader.fail(node, "expected a map like {type: local, jobs: 2} for scheduler, got " + describe(node));
  // The allowed keys depend on the type, so find it first.
  std::optional<YAML::Node> type;
  for (const auto& entry : reader.free_map(node, "scheduler"))
    if (entry.key == "type") type = entry.value;
  if (type) scheduler.type = reader.non_empty_string(*type, "scheduler.type");
  const YAML::Mark where = type ? type->Mark() : node.Mark();
  scheduler.type_origin = reader.origin() + ":" + std::to_string(where.line + 1) + ":" + std::to_string(where.column + 1);
  if (scheduler.type == "local") {
    for (const auto& entry : reader.map(node, "scheduler (type local)", {"type", "jobs"}))
      if (entry.key == "jobs")
        scheduler.jobs = static_cast<int>(reader.integer(entry.value, "scheduler.jobs", 1, 1024));
  } else if (scheduler.type == "slurm") {
    auto entries = reader.map(node, "scheduler (type slurm)",
                              {"type", "partition", "time", "account", "qos", "max_parallel", "nodes",
                               "launcher", "extra_args"});
    // SLURM's --time forms: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S.
    static const std::regex kSlurmTime(R"(\d+|\d+:\d{1,2}|\d+:\d{1,2}:\d{1,2}|\d+-\d+(:\d{1,2}){0,2})");
    for (const auto& entry : entries) {
      std::string what = "scheduler." + entry.key;
      if (entry.key == "partition") scheduler.partition = reader.non_empty_string(entry.value, what);
      if (entry.key == "account") scheduler.account = reader.non_empty_string(entry.value, what);
      if (entry.key == "qos") scheduler.qos = reader.non_empty_string(entry.value, what);
      if (entry.key == "time") {
        scheduler.time = reader.non_empty_string(entry.value, what);
        if (!std::regex_match(scheduler.time, kSlurmTime))
          reader.fail(entry.value, "scheduler.time must be a SLURM time limit (MM, MM:SS, HH:MM:SS, "
                                   "D-HH, D-HH:MM or D-HH:MM:SS), got '" + scheduler.time + "'");
      }
      if (entry.key == "max_parallel")
        scheduler.max_parallel = static_cast<int>(reader.integer(entry.value, what, 1, 1000000));
      if (entry.key == "nodes") scheduler.nodes = static_cast<int>(reader.integer(entry.value, what, 1, 100000));
      if (entry.key == "launcher") {
        // Moved: the launcher is chosen for every scheduler by the top-level key.
        reader.fail(entry.key_node, "scheduler.launcher is now the top-level key 'launcher:' (e.g. launcher: srun)");
      }
      if (entry.key == "extra_args")
        for (const auto& arg : reader.list(entry.value, what)) {
          std::string option = reader.non_empty_string(arg, "an entry of " + what);
          if (auto problem = sbatch_option_problem(option)) reader.fail(arg, *problem);
          scheduler.extra_args.push_back(option);
        }
    }
  } else {
    reader.fail(*type, "unknown scheduler type '" + scheduler.type + "' (known: local, slurm)");
  }
  return scheduler;
}

}  // namespace scalefuzz::harness::detail
