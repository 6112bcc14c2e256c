#include "outcome_json.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>
#include <stdexcept>
#include <thread>

#include "scalefuzz/harness/launcher.hpp"

namespace scalefuzz::harness {

nlohmann::json outcome_to_json(const Outcome& outcome) {
  nlohmann::json stacks = nlohmann::json::array();
  for (const auto& s : outcome.stacks) stacks.push_back({{"rank", s.rank}, {"pid", s.pid}, {"text", s.text}});
  return {{"format", "scalefuzz-outcome"},
          {"version", kOutcomeFormatVersion},
          {"kind", to_string(outcome.kind)},
          {"exit_code", outcome.exit_code},
          {"signal", outcome.signal},
          {"crashed_rank", outcome.crashed_rank ? nlohmann::json(*outcome.crashed_rank) : nlohmann::json()},
          {"detail", outcome.detail},
          {"wall_seconds", outcome.wall_seconds},
          {"stacks", stacks}};
}

Outcome outcome_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::runtime_error("not a JSON object");
  if (j.value("format", "") != "scalefuzz-outcome") throw std::runtime_error("missing \"format\": \"scalefuzz-outcome\"");
  int version = j.value("version", 0);
  if (version != kOutcomeFormatVersion)
    throw std::runtime_error("unsupported outcome version " + std::to_string(version) + " (expected " +
                             std::to_string(kOutcomeFormatVersion) + ")");
  Outcome o;
  try {
    auto kind = outcome_from_string(j.at("kind").get<std::string>());
    if (!kind) throw std::runtime_error("unknown kind \"" + j.at("kind").get<std::string>() + "\"");
    o.kind = *kind;
    o.exit_code = j.at("exit_code").get<int>();
    o.signal = j.at("signal").get<int>();
    if (auto it = j.find("crashed_rank"); it != j.end() && !it->is_null()) o.crashed_rank = it->get<int>();
    o.detail = j.at("detail").get<std::string>();
    o.wall_seconds = j.at("wall_seconds").get<double>();
    for (const auto& s : j.at("stacks"))
      o.stacks.push_back(RankStack{s.at("rank").get<int>(), s.at("pid").get<long>(), s.at("text").get<std::string>()});
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(e.what());
  }
  return o;
}

void write_outcome_file(const std::filesystem::path& run_dir, const Outcome& outcome,
                        const nlohmann::json& extra) {
  nlohmann::json j = outcome_to_json(outcome);
  for (const auto& [key, value] : extra.items())
    if (!j.contains(key)) j[key] = value;
  std::string text = j.dump(2) + "\n";

  std::ostringstream tmp_name;
  tmp_name << "outcome.json.tmp." << getpid() << "." << std::this_thread::get_id();
  auto tmp = run_dir / tmp_name.str();
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  // std::system_error: the CLI tells a full disk from a bug by its errno.
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "cannot write " + tmp.string());
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw std::system_error(err, std::generic_category(), "cannot write " + tmp.string());
    }
    done += static_cast<std::size_t>(n);
  }
  // Durable before it becomes visible: a resumed campaign trusts outcome.json.
  ::fsync(fd);
  ::close(fd);
  std::error_code ec;
  std::filesystem::rename(tmp, RunDir(run_dir).outcome_file(), ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw std::system_error(ec, "cannot rename " + tmp.string() + " to outcome.json");
  }
}

void write_outcome(const std::filesystem::path& run_dir, const Outcome& outcome) {
  write_outcome_file(run_dir, outcome, nlohmann::json::object());
}

std::optional<Outcome> read_outcome(const std::filesystem::path& run_dir) {
  auto path = RunDir(run_dir).outcome_file();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path.string() + ": cannot open");
  try {
    return outcome_from_json(nlohmann::json::parse(in));
  } catch (const std::exception& e) {
    throw std::runtime_error(path.string() + ": not a valid outcome record: " + e.what());
  }
}

}  // namespace scalefuzz::harness
