// JSON form of RunSpec and Outcome, shared by spec.json / outcome.json in a
// run directory and the rows of the run store. Found by nlohmann's ADL:
// `nlohmann::json j = spec; auto s = j.get<RunSpec>();`.
// from_json throws nlohmann::json::exception for a missing or mistyped key and
// std::invalid_argument for an unknown outcome kind.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::harness {

// Serializes with invalid UTF-8 (stack text, program output) replaced by
// U+FFFD instead of throwing; indent < 0 gives one line.
std::string dump_json(const nlohmann::json& j, int indent = 2);

void to_json(nlohmann::json& j, const NoiseSpec& noise);
void from_json(const nlohmann::json& j, NoiseSpec& noise);

void to_json(nlohmann::json& j, const RunSpec& spec);
void from_json(const nlohmann::json& j, RunSpec& spec);

void to_json(nlohmann::json& j, const RankStack& stack);
void from_json(const nlohmann::json& j, RankStack& stack);

void to_json(nlohmann::json& j, const Outcome& outcome);
void from_json(const nlohmann::json& j, Outcome& outcome);

}  // namespace scalefuzz::harness
