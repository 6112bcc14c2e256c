// What `scalefuzz submit` leaves in OUT/slurm/ for the tasks, `status` and
// `collect` (never the SQLite store: only collect writes that):
//   OUT/slurm/submission.json  campaign, launch settings, every array submitted (all attempts)
//   OUT/slurm/runs.json        every run of the campaign; a run's index is its position
//   OUT/slurm/campaign.yaml    the campaign file as submitted
//   OUT/slurm/scripts/         the batch script of each array
//   OUT/slurm/logs/            SLURM's output of each task (%A_%a.out)
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "scalefuzz/harness/run_spec.hpp"
#include "scalefuzz/slurm/plan.hpp"

namespace scalefuzz::slurm {

// A missing or unreadable submission; what() names the file.
class SubmissionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ArrayRecord {
  std::uint32_t job_id = 0;  // 0 in a dry run
  int attempt = 0;           // 0 = the first submit, then one per --resume
  ArrayPlan plan;
  std::string array_inx;     // as submitted, with the %max_parallel throttle
  std::string dependency;
  std::filesystem::path script;
  std::string submitted_at;
};

struct Submission {
  std::string campaign;
  std::filesystem::path campaign_dir;   // {campaign_dir} of the original file
  std::filesystem::path build_dir;
  std::filesystem::path scalefuzz;      // the executable the tasks run
  std::filesystem::path injector;
  std::string launcher = "hydra";       // the launcher plug-in's name (MpiLauncher::name)
  std::vector<std::string> mpiexec;     // the campaign's mpiexec prefix
  std::string oversubscribe = "auto";
  int nodes = 1;
  long max_array_size = 1001;
  bool dry_run = false;
  std::vector<ArrayRecord> arrays;

  // run index -> (array job id, task id) of its latest submission.
  std::map<long, std::pair<std::uint32_t, long>> latest_tasks() const;
  int attempts() const;
};

std::filesystem::path slurm_dir(const std::filesystem::path& out);
bool has_submission(const std::filesystem::path& out);

void write_submission(const std::filesystem::path& out, const Submission& submission);
Submission read_submission(const std::filesystem::path& out);

void write_runs(const std::filesystem::path& out, const std::vector<harness::RunSpec>& runs);
std::vector<harness::RunSpec> read_runs(const std::filesystem::path& out);

}  // namespace scalefuzz::slurm
