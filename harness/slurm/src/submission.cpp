#include "scalefuzz/slurm/submission.hpp"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/run_json.hpp"

namespace scalefuzz::slurm {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json read_json(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw SubmissionError(file.string() + ": cannot read (not a directory written by 'scalefuzz submit'?)");
  try {
    return json::parse(in);
  } catch (const std::exception& e) {
    throw SubmissionError(file.string() + ": not valid JSON: " + e.what());
  }
}

}  // namespace

std::map<long, std::pair<std::uint32_t, long>> Submission::latest_tasks() const {
  std::map<long, std::pair<std::uint32_t, long>> out;
  for (const auto& a : arrays)
    for (long id : a.plan.task_ids) out[a.plan.offset + id] = {a.job_id, id};
  return out;
}

int Submission::attempts() const {
  int n = 0;
  for (const auto& a : arrays) n = std::max(n, a.attempt + 1);
  return n;
}

fs::path slurm_dir(const fs::path& out) { return out / "slurm"; }
bool has_submission(const fs::path& out) { return fs::exists(slurm_dir(out) / "submission.json"); }

void write_submission(const fs::path& out, const Submission& s) {
  json arrays = json::array();
  for (const auto& a : s.arrays)
    arrays.push_back({{"job_id", a.job_id},
                      {"attempt", a.attempt},
                      {"phase", a.plan.phase == Phase::Application ? "application" : "first"},
                      {"nprocs", a.plan.nprocs},
                      {"offset", a.plan.offset},
                      {"task_ids", a.plan.task_ids},
                      {"array_inx", a.array_inx},
                      {"dependency", a.dependency},
                      {"script", a.script.string()},
                      {"submitted_at", a.submitted_at}});
  json j = {{"campaign", s.campaign},
            {"campaign_dir", s.campaign_dir.string()},
            {"build_dir", s.build_dir.string()},
            {"scalefuzz", s.scalefuzz.string()},
            {"injector", s.injector.string()},
            {"launcher", s.launcher},
            {"mpiexec", s.mpiexec},
            {"oversubscribe", s.oversubscribe},
            {"nodes", s.nodes},
            {"max_array_size", s.max_array_size},
            {"dry_run", s.dry_run},
            {"arrays", arrays}};
  fs::create_directories(slurm_dir(out));
  harness::write_file_atomic(slurm_dir(out) / "submission.json", harness::dump_json(j) + "\n");
}

Submission read_submission(const fs::path& out) {
  const fs::path file = slurm_dir(out) / "submission.json";
  json j = read_json(file);
  Submission s;
  try {
    s.campaign = j.at("campaign").get<std::string>();
    s.campaign_dir = j.at("campaign_dir").get<std::string>();
    s.build_dir = j.at("build_dir").get<std::string>();
    s.scalefuzz = j.at("scalefuzz").get<std::string>();
    s.injector = j.at("injector").get<std::string>();
    s.launcher = j.at("launcher").get<std::string>();
    s.mpiexec = j.at("mpiexec").get<std::vector<std::string>>();
    s.oversubscribe = j.at("oversubscribe").get<std::string>();
    s.nodes = j.at("nodes").get<int>();
    s.max_array_size = j.at("max_array_size").get<long>();
    s.dry_run = j.at("dry_run").get<bool>();
    for (const auto& a : j.at("arrays")) {
      ArrayRecord r;
      r.job_id = a.at("job_id").get<std::uint32_t>();
      r.attempt = a.at("attempt").get<int>();
      r.plan.phase = a.at("phase").get<std::string>() == "application" ? Phase::Application : Phase::First;
      r.plan.nprocs = a.at("nprocs").get<int>();
      r.plan.offset = a.at("offset").get<long>();
      r.plan.task_ids = a.at("task_ids").get<std::vector<long>>();
      r.array_inx = a.at("array_inx").get<std::string>();
      r.dependency = a.at("dependency").get<std::string>();
      r.script = a.at("script").get<std::string>();
      r.submitted_at = a.at("submitted_at").get<std::string>();
      s.arrays.push_back(std::move(r));
    }
  } catch (const json::exception& e) {
    throw SubmissionError(file.string() + ": " + e.what());
  }
  return s;
}

void write_runs(const fs::path& out, const std::vector<harness::RunSpec>& runs) {
  fs::create_directories(slurm_dir(out));
  harness::write_file_atomic(slurm_dir(out) / "runs.json", harness::dump_json(json(runs), -1) + "\n");
}

std::vector<harness::RunSpec> read_runs(const fs::path& out) {
  const fs::path file = slurm_dir(out) / "runs.json";
  json j = read_json(file);
  try {
    return j.get<std::vector<harness::RunSpec>>();
  } catch (const std::exception& e) {
    throw SubmissionError(file.string() + ": " + e.what());
  }
}

}  // namespace scalefuzz::slurm
