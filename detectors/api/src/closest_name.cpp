#include "scalefuzz/detectors/api/closest_name.hpp"

#include <algorithm>

namespace scalefuzz::settings {

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string closest_name(std::string_view word, const std::vector<std::string>& known) {
  std::string best;
  std::size_t best_distance = std::string_view::npos;
  for (const auto& name : known) {
    std::size_t d = edit_distance(word, name);
    if (d < best_distance) best_distance = d, best = name;
  }
  // A typo, not a different word: at most a third of the letters changed.
  std::size_t allowed = std::max<std::size_t>(1, std::max(word.size(), best.size()) / 3);
  return best_distance <= allowed ? best : std::string();
}

}  // namespace scalefuzz::settings
