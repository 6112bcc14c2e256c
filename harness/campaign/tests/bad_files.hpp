// The malformed campaign files in data/bad/ and where each must fail:
// shared by the loader tests and the CLI tests (tests/cli_test.cpp).
#pragma once

#include <ostream>

namespace scalefuzz::harness::testing {

struct BadFile {
  const char* file;
  int line;
  int column;
  const char* message;  // must appear right after "file:line:column: "
};

inline const BadFile kBadFiles[] = {
    {"unknown_top_key.yaml", 7, 1, "unknown key 'timout' in the campaign file (did you mean 'timeout'?)"},
    {"unknown_app_key.yaml", 3, 3, "unknown key 'comand' in app (did you mean 'command'?)"},
    {"wrong_type_repetitions.yaml", 5, 14, "expected an integer for repetitions, got 'three'"},
    {"wrong_type_scales.yaml", 4, 9, "expected a list of process counts or {train: [...], test: [...]}"},
    {"command_is_string.yaml", 3, 12, "app.command must be a list of arguments"},
    {"scale_zero.yaml", 5, 14, "a scale in scales.train must be between 1 and 1000000, got 0"},
    {"duplicate_scale.yaml", 6, 13, "duplicate scale 4 in scales.test (already listed at line 5)"},
    {"timeout_abc.yaml", 5, 10, "expected a duration for timeout, got 'abc'"},
    {"timeout_without_unit.yaml", 5, 10, "expected a duration for timeout, got '60' (add a unit"},
    {"missing_command.yaml", 3, 3, "app has no 'command'"},
    {"missing_scales.yaml", 1, 1, "missing required key 'scales'"},
    {"empty_command_string.yaml", 3, 13, "the program (app.command[0]) must not be empty"},
    {"empty_parameter_list.yaml", 6, 10, "parameters.count must not be an empty list"},
    {"unknown_noise_mode.yaml", 7, 13, "unknown noise mode 'sytem' (did you mean 'system'?)"},
    {"bad_knob.yaml", 8, 5, "unknown key 'scale' in noise[0] (mode random)"},
    {"negative_knob.yaml", 6, 28, "noise[0].scale must be > 0, got -1.5"},
    {"probability_above_one.yaml", 6, 34, "noise[0].probability is a probability and must be in (0, 1]"},
    {"bad_duration_knob.yaml", 7, 12, "expected a duration for noise[0].delay, got '5 parsecs'"},
    {"negative_repetitions.yaml", 5, 14, "repetitions must be between 1 and 1000000, got -1"},
    {"bad_regex.yaml", 5, 19, "invalid regular expression 'checksum: ([0-9]+' for app.check.stdout-regex"},
    {"yaml_syntax_error.yaml", 4, 1, "YAML syntax error: end of sequence flow not found"},
    {"unknown_placeholder.yaml", 6, 7, "unknown placeholder {cont} in app.command[2] (did you mean {count}?)"},
    {"unterminated_placeholder.yaml", 3, 34, "unterminated placeholder"},
    {"unknown_detector.yaml", 5, 20, "unknown detector 'kca' (did you mean 'kcca'?)"},
    {"bad_campaign_name.yaml", 1, 11, "campaign name 'my campaign' may only use"},
    {"duplicate_key.yaml", 6, 1, "duplicate key 'timeout' in the campaign file (first at line 4)"},
    {"slurm_bad_time.yaml", 5, 51, "scheduler.time must be a SLURM time limit"},
    {"reserved_parameter.yaml", 6, 3, "parameter name 'np' is reserved"},
    {"empty_file.yaml", 1, 1, "the campaign file is empty"},
    {"empty_value.yaml", 5, 1, "'timeout' in the campaign file has no value"},
    {"kcca_bad_volume.yaml", 7, 11, "kcca.volume must be total, sent or sent-and-received, got 'recieved'"},
    {"kcca_model_is_directory.yaml", 5, 15, "kcca.model is not a file: "},
};

inline void PrintTo(const BadFile& bad, std::ostream* os) { *os << bad.file; }

}  // namespace scalefuzz::harness::testing
