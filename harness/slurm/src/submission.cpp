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

// submission.json: each field named once for writing and reading (every key
// required on reading).
void to_json(json& j, const ArrayRecord& a) {
  j = {{"job_id", a.job_id},
       {"attempt", a.attempt},
       {"phase", a.plan.phase == Phase::Application ? "application" : "first"},
       {"nprocs", a.plan.nprocs},
       {"offset", a.plan.offset},
       {"task_ids", a.plan.task_ids},
       {"array_inx", a.array_inx},
       {"dependency", a.dependency},
       {"script", a.script},
       {"submitted_at", a.submitted_at}};
}

void from_json(const json& j, ArrayRecord& r) {
  r.job_id = j.at("job_id").get<std::uint32_t>();
  r.attempt = j.at("attempt").get<int>();
  r.plan.phase = j.at("phase").get<std::string>() == "application" ? Phase::Application : Phase::First;
  r.plan.nprocs = j.at("nprocs").get<int>();
  r.plan.offset = j.at("offset").get<long>();
  r.plan.task_ids = j.at("task_ids").get<std::vector<long>>();
  r.array_inx = j.at("array_inx").get<std::string>();
  r.dependency = j.at("dependency").get<std::string>();
  r.script = j.at("script").get<std::string>();
  r.submitted_at = j.at("submitted_at").get<std::string>();
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Submission, campaign, campaign_dir, build_dir, scalefuzz, injector, launcher,
                                   mpiexec, oversubscribe, nodes, max_array_size, dry_run, arrays)

void write_submission(const fs::path& out, const Submission& s) {
  fs::create_directories(slurm_dir(out));
  harness::write_file_atomic(slurm_dir(out) / "submission.json", harness::dump_json(json(s)) + "\n");
}

Submission read_submission(const fs::path& out) {
  const fs::path file = slurm_dir(out) / "submission.json";
  json j = read_json(file);
  try {
    return j.get<Submission>();
  } catch (const json::exception& e) {
    throw SubmissionError(file.string() + ": " + e.what());
  }
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
