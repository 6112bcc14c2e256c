// Collects the errors of a campaign file so one run reports all of them
// (up to a limit), each with its own FILE:LINE:COLUMN, instead of stopping
// at the first. Sections are independent: an error in one does not hide the
// errors of the others.
#pragma once

#include <algorithm>
#include <cstddef>
#include <regex>
#include <utility>
#include <string>
#include <vector>

#include "scalefuzz/harness/campaign.hpp"

namespace scalefuzz::harness::detail {

class ErrorList {
 public:
  static constexpr std::size_t kLimit = 20;  // more would bury the first ones

  // Runs `step`; a CampaignError it throws is recorded. Returns whether it succeeded.
  template <class Step>
  bool attempt(Step&& step) {
    try {
      step();
      return true;
    } catch (const CampaignError& e) {
      messages_.emplace_back(e.what());
      return false;
    }
  }
  bool empty() const { return messages_.empty(); }

  // Throws one CampaignError: one error per line, first line as a single
  // error would read; "N errors" last when there are several.
  void throw_if_any() const {
    if (messages_.empty()) return;
    // In file order, as an editor walks them.
    std::vector<std::string> sorted = messages_;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const std::string& a, const std::string& b) { return position(a) < position(b); });
    std::string text;
    for (std::size_t i = 0; i < sorted.size() && i < kLimit; ++i) text += (i ? "\n" : "") + sorted[i];
    if (messages_.size() > kLimit) text += "\n... and " + std::to_string(messages_.size() - kLimit) + " more";
    if (messages_.size() > 1) text += "\n(" + std::to_string(messages_.size()) + " errors)";
    throw CampaignError(text);
  }

 private:
  // (line, column) of "FILE:LINE:COLUMN: message"; messages without one first.
  static std::pair<long, long> position(const std::string& message) {
    static const std::regex kPosition(R"(:(\d+):(\d+): )");
    std::smatch m;
    if (!std::regex_search(message, m, kPosition)) return {0, 0};
    return {std::stol(m[1]), std::stol(m[2])};
  }
  std::vector<std::string> messages_;
};

}  // namespace scalefuzz::harness::detail
