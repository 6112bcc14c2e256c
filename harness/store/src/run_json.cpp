#include "scalefuzz/harness/run_json.hpp"

#include <stdexcept>

namespace scalefuzz::harness {

using nlohmann::json;

std::string dump_json(const json& j, int indent) {
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

void to_json(json& j, const NoiseSpec& noise) {
  j = json{{"mode", noise::to_string(noise.mode)}, {"settings", noise.settings}};
}

void from_json(const json& j, NoiseSpec& noise) {
  const auto mode_name = j.at("mode").get<std::string>();
  const auto mode = noise::mode_from_string(mode_name);
  if (!mode) throw std::invalid_argument("unknown noise mode '" + mode_name + "'");
  noise.mode = *mode;
  noise.settings = j.value("settings", std::map<std::string, std::string>{});
}

void to_json(json& j, const RunSpec& spec) {
  j = json{{"run_id", spec.run_id},
           {"campaign", spec.campaign},
           {"nprocs", spec.nprocs},
           {"scale_role", spec.scale_role},
           {"params", spec.params},
           {"noise", spec.noise},
           {"repetition", spec.repetition},
           {"seed", std::to_string(spec.seed)},  // a string: jq and JavaScript round 64-bit numbers
           {"argv", spec.argv},
           {"env", spec.env},
           {"timeout_ms", spec.timeout.count()},
           {"check", spec.check},
           {"wrong_result_regex", nullptr},
           {"expected_stdout_regex", nullptr},
           {"stall", nullptr}};
  if (spec.stall) j["stall"] = json{{"rank", spec.stall->rank}, {"call", spec.stall->call}};
  if (spec.wrong_result_regex) j["wrong_result_regex"] = *spec.wrong_result_regex;
  if (spec.expected_stdout_regex) j["expected_stdout_regex"] = *spec.expected_stdout_regex;
}

void from_json(const json& j, RunSpec& spec) {
  j.at("run_id").get_to(spec.run_id);
  j.at("campaign").get_to(spec.campaign);
  j.at("nprocs").get_to(spec.nprocs);
  j.at("scale_role").get_to(spec.scale_role);
  j.at("params").get_to(spec.params);
  j.at("noise").get_to(spec.noise);
  j.at("repetition").get_to(spec.repetition);
  // Decimal text since findings format 2; stores written before hold a number.
  if (const auto& seed = j.at("seed"); seed.is_string()) {
    const std::string text = seed.get<std::string>();
    std::size_t used = 0;
    spec.seed = text.empty() || text[0] == '-' ? 0 : std::stoull(text, &used);
    if (used != text.size() || text.empty()) throw std::invalid_argument("run spec: seed '" + text + "' is not a decimal number");
  } else {
    seed.get_to(spec.seed);
  }
  j.at("argv").get_to(spec.argv);
  spec.env = j.value("env", std::map<std::string, std::string>{});
  spec.timeout = std::chrono::milliseconds(j.at("timeout_ms").get<std::int64_t>());
  spec.check = j.value("check", std::string("exit-code"));
  spec.stall.reset();
  if (auto it = j.find("stall"); it != j.end() && !it->is_null())
    spec.stall = StallPoint{it->at("rank").get<int>(), it->at("call").get<long>()};
  spec.wrong_result_regex.reset();
  if (auto it = j.find("wrong_result_regex"); it != j.end() && !it->is_null())
    spec.wrong_result_regex = it->get<std::string>();
  spec.expected_stdout_regex.reset();
  if (auto it = j.find("expected_stdout_regex"); it != j.end() && !it->is_null())
    spec.expected_stdout_regex = it->get<std::string>();
}

void to_json(json& j, const RankStack& stack) {
  j = json{{"rank", stack.rank}, {"pid", stack.pid}, {"text", stack.text}};
}

void from_json(const json& j, RankStack& stack) {
  j.at("rank").get_to(stack.rank);
  j.at("pid").get_to(stack.pid);
  j.at("text").get_to(stack.text);
}

void to_json(json& j, const Outcome& outcome) {
  // format/version match the launcher's outcome.json so either writer's file
  // reads back with either reader.
  j = json{{"format", "scalefuzz-outcome"},       {"version", 1},
           {"kind", to_string(outcome.kind)},   {"exit_code", outcome.exit_code},
           {"signal", outcome.signal},          {"detail", outcome.detail},
           {"crashed_rank", outcome.crashed_rank ? json(*outcome.crashed_rank) : json()},
           {"wall_seconds", outcome.wall_seconds}, {"stacks", outcome.stacks}};
}

void from_json(const json& j, Outcome& outcome) {
  const auto kind_text = j.at("kind").get<std::string>();
  const auto kind = outcome_from_string(kind_text);
  if (!kind) throw std::invalid_argument("unknown outcome kind '" + kind_text + "'");
  outcome.kind = *kind;
  j.at("exit_code").get_to(outcome.exit_code);
  j.at("signal").get_to(outcome.signal);
  outcome.crashed_rank.reset();
  if (auto it = j.find("crashed_rank"); it != j.end() && !it->is_null()) outcome.crashed_rank = it->get<int>();
  j.at("detail").get_to(outcome.detail);
  j.at("wall_seconds").get_to(outcome.wall_seconds);
  outcome.stacks = j.value("stacks", std::vector<RankStack>{});
}

}  // namespace scalefuzz::harness
