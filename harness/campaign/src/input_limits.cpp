#include "input_limits.hpp"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <sstream>

namespace scalefuzz::harness::detail {

namespace {

struct Unbounded {
  YAML::Mark mark;
  std::string message;
};

// Counts events and nesting. yaml-cpp emits at least one event per token it
// consumes; a parser that does not consume anything (the ',' loop) emits
// empty documents forever, so more events than a generous multiple of the
// input size means it stopped progressing.
class BoundingHandler : public YAML::EventHandler {
 public:
  explicit BoundingHandler(std::size_t max_events) : max_events_(max_events) {}

  void OnDocumentStart(const YAML::Mark& mark) override { count(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { count(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { count(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override {
    count(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    enter(mark);
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    enter(mark);
  }
  void OnMapEnd() override { --depth_; }

 private:
  void count(const YAML::Mark& mark) {
    if (++events_ > max_events_)
      throw Unbounded{mark, "the YAML parser makes no progress here (a stray ',' outside [ ] or { }?)"};
  }
  void enter(const YAML::Mark& mark) {
    count(mark);
    if (++depth_ > kMaxYamlDepth)
      throw Unbounded{mark, "nested too deep: more than " + std::to_string(kMaxYamlDepth) +
                                " levels of lists and maps (a campaign file needs a handful)"};
  }

  std::size_t max_events_;
  std::size_t events_ = 0;
  int depth_ = 0;
};

}  // namespace

void check_yaml_is_bounded(const YamlReader& reader, const std::string& text) {
  if (text.size() > kMaxCampaignFileBytes)
    reader.fail(YAML::Mark(), "the file is " + std::to_string(text.size()) + " bytes, more than a campaign file's limit of " +
                                  std::to_string(kMaxCampaignFileBytes));
  std::istringstream in(text);
  YAML::Parser parser(in);
  BoundingHandler handler(8 * text.size() + 64);
  try {
    while (parser.HandleNextDocument(handler)) {
    }
  } catch (const Unbounded& e) {
    reader.fail(e.mark, e.message);
  } catch (const YAML::Exception& e) {
    reader.fail(e.mark, "YAML syntax error: " + e.msg);
  }
}

void check_run_count(const YamlReader& reader, const std::vector<MatrixFactor>& factors) {
  unsigned long long total = 1;
  bool saturated = false;
  std::string product;
  const unsigned long long cap = kMaxRuns * 1000ULL;  // beyond it, "far more than"
  for (const auto& f : factors) {
    if (!saturated && f.count != 0 && total > cap / f.count) saturated = true;
    if (!saturated) total *= f.count;
    product += (product.empty() ? "" : " x ") + f.what + " " + std::to_string(f.count);
  }
  if (!saturated && total <= kMaxRuns) return;
  auto largest = std::max_element(factors.begin(), factors.end(),
                                  [](const MatrixFactor& a, const MatrixFactor& b) { return a.count < b.count; });
  reader.fail(largest->mark, "the campaign expands to " + (saturated ? "far more than " + std::to_string(cap) : std::to_string(total)) +
                                 " runs (" + product + "), more than the limit of " + std::to_string(kMaxRuns) +
                                 "; narrow " + largest->what);
}

}  // namespace scalefuzz::harness::detail
