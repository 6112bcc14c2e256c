// What a call throws, as text, for tests that check error messages.
#pragma once

#include <string>

namespace scalefuzz::testing {

// The what() of the `Error` that `call()` throws, or "" when it returns.
template <typename Error, typename Call>
std::string error_of(Call&& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace scalefuzz::testing
