// Every environment variable the preloaded injector reads, besides the noise
// knobs (scalefuzz/noise/spec.hpp holds those): name, type, default, who
// sets it, one-line doc -- one row each in env.def, which gives both the Env
// enumerators and the table. The injector reads each by its row
// (env_value), the harness names the ones it sets from the same rows, and
// the environment table of injectors/README.md is rendered from this one
// (checked by injectors/tests/env_spec_test.cpp).
// Header-only and allocation-free: the preloaded injector includes it too.
#pragma once

#include <cstdlib>
#include <string_view>

#include "scalefuzz/noise/spec.hpp"

namespace scalefuzz::injector {

enum class Env {
#define SCALEFUZZ_ENV(id, name, type, set_by, default_value, doc) id,
#include "scalefuzz/injector/env.def"
#undef SCALEFUZZ_ENV
};

enum class EnvType {
  Path,         // a directory
  Text,         // copied as is
  Choice,       // one of the words the doc names
  Count,        // a non-negative decimal integer
  OnUnlessZero, // on by default; "0" turns it off (measurement and debugging)
};

enum class SetBy {
  Harness,  // per run by the launcher (injector_environment); the harness's own SCALEFUZZ_* never leak in
  Direct,   // tuning and measurement when the injector runs without the harness (benches, injector tests)
};

struct EnvSpec {
  Env id;
  std::string_view name;  // a string literal: .data() is NUL-terminated, for getenv
  EnvType type;
  SetBy set_by;
  std::string_view default_value;  // as the doc shows it; "" = unset
  std::string_view doc;            // one line, the README's
};

// The rows of env.def, in its order.
inline constexpr EnvSpec kEnv[] = {
#define SCALEFUZZ_ENV(id, name, type, set_by, default_value, doc) \
  {Env::id, name, EnvType::type, SetBy::set_by, default_value, doc},
#include "scalefuzz/injector/env.def"
#undef SCALEFUZZ_ENV
};

constexpr const EnvSpec& env_spec(Env id) {
  for (const auto& e : kEnv)
    if (e.id == id) return e;
  return kEnv[0];  // unreachable: every Env has a row (env_spec_test)
}

// The variable's name, NUL-terminated.
constexpr const char* env_name(Env id) { return env_spec(id).name.data(); }

// Its value in this process, or nullptr.
inline const char* env_value(Env id) { return std::getenv(env_name(id)); }

// An OnUnlessZero switch: off only when set to exactly "0".
inline bool env_on_unless_zero(Env id) {
  const char* v = env_value(id);
  return v == nullptr || !(v[0] == '0' && v[1] == '\0');
}

}  // namespace scalefuzz::injector
