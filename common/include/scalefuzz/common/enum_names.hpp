#pragma once
// One table of names per enum serves both directions (to_string and parse),
// so the spelling written to a file and the spelling read back cannot drift.

#include <cstddef>
#include <optional>
#include <string_view>

namespace scalefuzz {

template <class Enum>
struct EnumName {
  Enum value;
  const char* name;
};

// "?" for a value the table does not list (an enumerator added without a name).
template <class Enum, std::size_t N>
constexpr const char* name_of(const EnumName<Enum> (&names)[N], Enum value) {
  for (const auto& entry : names)
    if (entry.value == value) return entry.name;
  return "?";
}

template <class Enum, std::size_t N>
constexpr std::optional<Enum> value_named(const EnumName<Enum> (&names)[N], std::string_view text) {
  for (const auto& entry : names)
    if (text == entry.name) return entry.value;
  return std::nullopt;
}

}  // namespace scalefuzz
