// Matrix expansion: one RunSpec per (scale, parameter combination, noise
// profile, repetition), with a readable, filesystem-safe, stable run id.
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "hashing.hpp"
#include "input_limits.hpp"
#include "noise_schema.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "template.hpp"
#include "values.hpp"

namespace scalefuzz::harness {

using namespace detail;

namespace {

constexpr std::size_t kMaxReadableId = 100;
constexpr std::size_t kTruncatedId = 88;

bool is_id_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '+' || c == '-';
}

// Replaces characters that are unsafe in a file name; reports whether it had to.
std::string id_safe(const std::string& text, bool& changed) {
  if (text.empty()) {
    changed = true;
    return "_";
  }
  std::string out = text;
  for (char& c : out)
    if (!is_id_char(c)) c = '_', changed = true;
  return out;
}

std::string hash_suffix(const std::string& canonical) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%08x", static_cast<unsigned>(fnv1a64(canonical) & 0xffffffffU));
  return std::string("-h") + buffer;
}

struct Point {
  int nprocs;
  const char* role;
};

// A run before its id is final: its matrix coordinates (indices) and its
// readable id. Kept small: a campaign may expand to a million runs.
struct Draft {
  std::string readable;
  std::uint32_t point = 0, combo = 0, noise = 0;
  int rep = 0;
  bool needs_hash = false;
};

unsigned long long count_runs(const Campaign& c, std::size_t scales) {
  unsigned long long total = scales * c.noise.size() * static_cast<unsigned long long>(c.repetitions);
  for (const auto& p : c.parameters) {
    total *= p.values.size();
    if (total > kMaxRuns) break;
  }
  return total;
}

std::vector<std::map<std::string, std::string>> parameter_combinations(const Campaign& c) {
  std::vector<std::map<std::string, std::string>> combos = {{}};
  for (const auto& parameter : c.parameters) {  // earlier parameters vary slowest
    std::vector<std::map<std::string, std::string>> next;
    for (const auto& combo : combos)
      for (const auto& value : parameter.values) {
        auto extended = combo;
        extended[parameter.name] = value;
        next.push_back(std::move(extended));
      }
    combos = std::move(next);
  }
  return combos;
}

}  // namespace

std::uint64_t derive_run_seed(std::uint64_t campaign_seed, const std::string& run_id) {
  return splitmix64(campaign_seed ^ fnv1a64(run_id));
}

std::vector<RunSpec> expand_campaign(const Campaign& c) {
  std::vector<Point> points;
  for (int n : c.scales.train) points.push_back({n, "train"});
  for (int n : c.scales.test) points.push_back({n, "test"});
  unsigned long long total = count_runs(c, points.size());
  if (total > kMaxRuns)
    throw CampaignError(c.file.string() + ": the campaign expands to more than " +
                        std::to_string(kMaxRuns) + " runs; narrow scales, parameters or repetitions");

  const auto combos = parameter_combinations(c);
  std::vector<std::string> noise_labels;
  for (const auto& noise : c.noise) noise_labels.push_back(noise.label());
  // Every coordinate, unambiguous: the hash input (built only when a hash is needed).
  auto canonical = [&](const Draft& d) {
    std::string text = std::string("np=") + std::to_string(points[d.point].nprocs) + '\n';
    for (const auto& parameter : c.parameters) text += parameter.name + "=" + combos[d.combo].at(parameter.name) + '\n';
    return text + "noise=" + noise_labels[d.noise] + "\nrep=" + std::to_string(d.rep) + '\n';
  };
  std::vector<Draft> drafts;
  drafts.reserve(total);
  for (std::uint32_t p = 0; p < points.size(); ++p)
    for (std::uint32_t k = 0; k < combos.size(); ++k)
      for (std::uint32_t n = 0; n < c.noise.size(); ++n)
        for (int rep = 0; rep < c.repetitions; ++rep) {
          Draft d{"np" + std::to_string(points[p].nprocs), p, k, n, rep, false};
          for (const auto& parameter : c.parameters)  // file order, not map order
            d.readable += "-" + parameter.name + id_safe(combos[k].at(parameter.name), d.needs_hash);
          d.readable += "-" + id_safe(noise_labels[n], d.needs_hash) + "-r" + std::to_string(rep);
          if (d.readable.size() > kMaxReadableId) {
            d.readable.resize(kTruncatedId);
            while (!d.readable.empty() && d.readable.back() == '-') d.readable.pop_back();
            d.needs_hash = true;
          }
          drafts.push_back(std::move(d));
        }

  // A hash suffix keeps lossy (sanitised or truncated) ids apart; ids that
  // still coincide after that get the suffix as well.
  for (auto& d : drafts)
    if (d.needs_hash) d.readable += hash_suffix(canonical(d));
  std::unordered_map<std::string_view, int> id_count;  // views into drafts: no copy of a million ids
  id_count.reserve(drafts.size());
  for (const auto& d : drafts) ++id_count[d.readable];
  std::vector<std::uint8_t> collides(drafts.size());
  for (std::size_t i = 0; i < drafts.size(); ++i)
    collides[i] = !drafts[i].needs_hash && id_count[drafts[i].readable] > 1;
  id_count = {};

  const std::string stream = c.check.stream == ResultCheck::Stream::Stdout   ? "stdout"
                             : c.check.stream == ResultCheck::Stream::Stderr ? "stderr"
                                                                              : "output";
  std::vector<RunSpec> runs;
  runs.reserve(drafts.size());
  for (std::size_t i = 0; i < drafts.size(); ++i) {
    Draft& d = drafts[i];
    RunSpec r;
    r.run_id = collides[i] ? d.readable + hash_suffix(canonical(d)) : std::move(d.readable);
    std::string().swap(d.readable);
    r.campaign = c.name;
    r.nprocs = points[d.point].nprocs;
    r.scale_role = points[d.point].role;
    r.params = combos[d.combo];
    r.noise = c.noise[d.noise];
    r.repetition = d.rep;
    r.seed = derive_run_seed(c.seed, r.run_id);
    r.timeout = c.timeout;
    switch (c.check.kind) {
      case ResultCheck::Kind::ExitCode: r.check = "exit-code"; break;
      case ResultCheck::Kind::StdoutRegex:
        r.check = stream + "-regex";
        r.wrong_result_regex = c.check.pattern;
        break;
      case ResultCheck::Kind::StdoutMustMatch:
        r.check = stream + "-must-match";
        r.expected_stdout_regex = c.check.pattern;
        break;
    }
    std::map<std::string, std::string> values = r.params;
    values["build"] = c.build_dir.string();
    values["campaign_dir"] = c.campaign_dir.string();
    values["nprocs"] = std::to_string(r.nprocs);
    values["rep"] = std::to_string(r.repetition);
    values["seed"] = std::to_string(r.seed);
    for (const auto& arg : c.command) r.argv.push_back(expand_template(arg, values));
    for (const auto& [name, value] : c.env) r.env[name] = expand_template(value, values);
    if (c.stall.enabled) r.stall = stall_point(r.seed, r.nprocs, c.stall.calls);  // the launcher passes it on
    runs.push_back(std::move(r));
  }
  drafts = {};
  std::unordered_set<std::string_view> final_ids;
  final_ids.reserve(runs.size());
  for (const auto& r : runs)
    if (!final_ids.insert(r.run_id).second) throw std::logic_error("run id collision: " + r.run_id);
  return runs;
}

StallPoint stall_point(std::uint64_t run_seed, int nprocs, int calls) {
  const std::uint64_t a = splitmix64(run_seed ^ 0x57a11ULL);
  const std::uint64_t b = splitmix64(a);
  StallPoint p;
  p.rank = nprocs > 0 ? static_cast<int>(a % static_cast<std::uint64_t>(nprocs)) : 0;
  p.call = 1 + static_cast<long>(b % static_cast<std::uint64_t>(calls > 0 ? calls : 1));
  return p;
}

}  // namespace scalefuzz::harness
