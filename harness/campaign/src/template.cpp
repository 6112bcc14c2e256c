#include "template.hpp"

#include <cctype>

namespace scalefuzz::harness::detail {

bool is_identifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

namespace {

// Walks `text` once; calls on_literal(string) and on_placeholder(name).
template <typename Literal, typename Placeholder>
void walk(const std::string& text, Literal on_literal, Placeholder on_placeholder) {
  std::string literal;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '{' && i + 1 < text.size() && text[i + 1] == '{') {
      literal += '{', ++i;
    } else if (c == '}' && i + 1 < text.size() && text[i + 1] == '}') {
      literal += '}', ++i;
    } else if (c == '{') {
      std::size_t close = text.find('}', i + 1);
      if (close == std::string::npos)
        throw TemplateError("unterminated placeholder at character " + std::to_string(i + 1) +
                            " of '" + text + "' (write {{ for a literal brace)");
      std::string name = text.substr(i + 1, close - i - 1);
      if (!is_identifier(name))
        throw TemplateError("bad placeholder '{" + name + "}' in '" + text +
                            "' (a name of letters, digits and _; write {{ for a literal brace)");
      on_literal(literal);
      literal.clear();
      on_placeholder(name);
      i = close;
    } else {
      literal += c;
    }
  }
  on_literal(literal);
}

}  // namespace

std::vector<std::string> template_placeholders(const std::string& text) {
  std::vector<std::string> names;
  walk(text, [](const std::string&) {}, [&](const std::string& name) { names.push_back(name); });
  return names;
}

std::string expand_template(const std::string& text, const std::map<std::string, std::string>& values) {
  std::string out;
  walk(
      text, [&](const std::string& literal) { out += literal; },
      [&](const std::string& name) {
        auto it = values.find(name);
        if (it == values.end()) throw TemplateError("no value for placeholder {" + name + "}");
        out += it->second;
      });
  return out;
}

}  // namespace scalefuzz::harness::detail
