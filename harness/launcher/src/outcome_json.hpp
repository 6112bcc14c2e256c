// outcome.json: the persisted Outcome of one run, plus optional extra fields
// (run id, timings, survivors) that readers may ignore.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::harness {

inline constexpr int kOutcomeFormatVersion = 1;

nlohmann::json outcome_to_json(const Outcome& outcome);
// Throws std::runtime_error describing the first problem.
Outcome outcome_from_json(const nlohmann::json& j);

// Writes run_dir/outcome.json atomically; `extra` keys are merged in.
void write_outcome_file(const std::filesystem::path& run_dir, const Outcome& outcome,
                        const nlohmann::json& extra);

}  // namespace scalefuzz::harness
