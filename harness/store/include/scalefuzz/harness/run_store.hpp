// The run store of one campaign output directory OUT:
//   OUT/scalefuzz.db          SQLite index: meta, runs (spec + outcome), findings
//   OUT/scalefuzz.db.lock     held (flock) while a process writes the store
//   OUT/runs/<run_id>/        spec.json (written here), outcome.json (the
//                             launcher's, else written here), and what the
//                             launcher and injector write (stdout.txt, ...)
// A run is "started" once prepare_run() returns and "finished" once
// record_finished() commits. Resuming a campaign into the same OUT keeps the
// finished runs; a started-but-unfinished run is rerun from a clean directory.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::harness {

// Any problem with the store: not SQLite, corrupt, another schema version,
// another campaign, locked by another process, I/O error. what() is
// "<path>: <reason>".
class StoreError : public std::runtime_error {
 public:
  StoreError(std::filesystem::path path, std::string reason, bool out_of_space = false);
  const std::filesystem::path& path() const { return path_; }
  const std::string& reason() const { return reason_; }
  // SQLite said the disk is full (SQLITE_FULL): the machine's problem.
  bool out_of_space() const { return out_of_space_; }

 private:
  std::filesystem::path path_;
  std::string reason_;
  bool out_of_space_ = false;
};

struct RunRecord {
  RunSpec spec;
  std::optional<Outcome> outcome;  // empty while started but not finished
  std::filesystem::path dir;       // OUT/runs/<run_id>
  std::string started_at;          // UTC, utc_timestamp_now() format
  std::string finished_at;         // "" while unfinished
  bool finished() const { return outcome.has_value(); }
};

// The order RunStore::runs() lists runs in: nprocs, noise label, params,
// repetition, run id (independent of the order they ran in).
bool run_listed_before(const RunSpec& a, const RunSpec& b);

enum class StoreAccess { ReadWrite, ReadOnly };

class RunStore {
 public:
  static constexpr int kSchemaVersion = 1;
  static constexpr const char* kDbFileName = "scalefuzz.db";

  // Creates OUT and a new store, or reopens the store of the same campaign
  // (same name and fingerprint) for resuming. Throws StoreError, without
  // modifying the database file, when it is not SQLite, corrupt, of another
  // schema version or of another campaign, or when another process holds it.
  static RunStore open(const std::filesystem::path& out_dir, const std::string& campaign_name,
                       const std::string& campaign_fingerprint);
  // Opens an existing store of any campaign (for `report` / `analyze`).
  // ReadOnly takes no lock and allows no writes.
  static RunStore open_existing(const std::filesystem::path& out_dir,
                                StoreAccess access = StoreAccess::ReadWrite);

  RunStore(RunStore&&) noexcept;
  RunStore& operator=(RunStore&&) noexcept;
  ~RunStore();

  const std::filesystem::path& out_dir() const;
  std::filesystem::path db_path() const;
  const std::string& campaign_name() const;
  const std::string& campaign_fingerprint() const;

  std::filesystem::path run_dir(const std::string& run_id) const;

  // Removes whatever a previous unfinished attempt left in the run directory,
  // creates it, writes spec.json and marks the run started. Returns the run
  // directory. Throws StoreError for a finished run or a run id that is not
  // a plain file name.
  std::filesystem::path prepare_run(const RunSpec& spec);
  // Writes outcome.json unless the launcher already did, then marks the run
  // finished with its outcome in one transaction (the database row is what
  // counts). Safe to call from several threads at once.
  void record_finished(const RunSpec& spec, const Outcome& outcome);

  bool is_finished(const std::string& run_id) const;
  std::optional<RunRecord> run(const std::string& run_id) const;
  // All runs, started or finished, ordered by nprocs, noise label, params,
  // repetition, run id (independent of the order they ran in).
  std::vector<RunRecord> runs() const;
  std::size_t finished_count() const;

  // Replaces the stored findings (one transaction); load returns them in the
  // order saved.
  void save_findings(const std::vector<detectors::Finding>& findings);
  std::vector<detectors::Finding> load_findings() const;

  // Free-form campaign metadata for reports ("command_line", "started_at",
  // "finished_at", ...). The keys schema_version, campaign and fingerprint
  // are reserved; setting them throws StoreError.
  void set_meta(const std::string& key, const std::string& value);
  std::optional<std::string> meta(const std::string& key) const;

 private:
  struct Impl;
  explicit RunStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace scalefuzz::harness
