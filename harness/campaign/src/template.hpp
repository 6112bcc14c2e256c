// Placeholder templates in argv and env values: "{name}" is replaced by a
// value, "{{" and "}}" are literal braces, a lone "}" is literal.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace scalefuzz::harness::detail {

struct TemplateError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A C identifier: letters, digits and '_', not starting with a digit. The
// form of placeholder, parameter and environment variable names.
bool is_identifier(const std::string& name);

// Names of the placeholders in `text`, in order. Throws TemplateError for an
// unterminated "{" or a name that is not an identifier.
std::vector<std::string> template_placeholders(const std::string& text);

// Substitutes every placeholder; a name missing from `values` is a TemplateError.
std::string expand_template(const std::string& text, const std::map<std::string, std::string>& values);

}  // namespace scalefuzz::harness::detail
