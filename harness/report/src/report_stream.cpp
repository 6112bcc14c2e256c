// The streaming side of the reporters: ReportFiles (a set of files put in
// place together), the Reporter's default steps, ReportStream (the engine's
// listener) and finalize_reports.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <system_error>

#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::harness {

namespace fs = std::filesystem;

namespace {

std::string errno_text(int error) { return std::error_code(error, std::generic_category()).message(); }

}  // namespace

ReportFiles::~ReportFiles() {
  for (const auto& s : staged_) ::unlink(s.temporary.c_str());
}

void ReportFiles::stage(const fs::path& file, const std::string& content) {
  try {
    if (file.has_parent_path()) fs::create_directories(file.parent_path());
    const fs::path temporary = unique_sibling(file, "tmp");
    write_file_contents(temporary, content);
    staged_.push_back({file, temporary});
  } catch (const std::exception& e) {
    throw ReportError("cannot write report " + file.string() + ": " + e.what());
  }
}

std::vector<fs::path> ReportFiles::commit() {
  // A target's previous version is kept under a second name (a hard link)
  // until every rename succeeded, so a failed rename can put back what the
  // ones before it replaced. A target that cannot be linked (a directory
  // in its place) fails here, before anything was renamed.
  struct Backup {
    fs::path name;
    bool exists = false;
  };
  std::vector<Backup> backups(staged_.size());
  auto drop_backups = [&] {
    for (const auto& b : backups)
      if (b.exists) ::unlink(b.name.c_str());
  };
  for (std::size_t i = 0; i < staged_.size(); ++i) {
    const fs::path& file = staged_[i].file;
    struct stat st {};
    if (::lstat(file.c_str(), &st) != 0 && errno == ENOENT) continue;  // nothing to keep
    backups[i].name = unique_sibling(file, "old");
    if (::link(file.c_str(), backups[i].name.c_str()) != 0) {
      const int error = errno;
      drop_backups();
      throw ReportError("cannot write report " + file.string() + ": " + errno_text(error) +
                        " (no report was changed)");
    }
    backups[i].exists = true;
  }
  for (std::size_t i = 0; i < staged_.size(); ++i) {
    if (::rename(staged_[i].temporary.c_str(), staged_[i].file.c_str()) == 0) continue;
    const int error = errno;
    for (std::size_t j = 0; j < i; ++j) {  // put back what was replaced
      if (backups[j].exists) {
        if (::rename(backups[j].name.c_str(), staged_[j].file.c_str()) == 0) backups[j].exists = false;
      } else {
        ::unlink(staged_[j].file.c_str());
      }
    }
    drop_backups();
    for (std::size_t j = i; j < staged_.size(); ++j) ::unlink(staged_[j].temporary.c_str());
    const fs::path failed = staged_[i].file;
    staged_.clear();
    throw ReportError("cannot write report " + failed.string() + ": " + errno_text(error) +
                      " (no report was changed)");
  }
  drop_backups();
  std::vector<fs::path> written;
  for (const auto& s : staged_) written.push_back(s.file);
  staged_.clear();
  return written;
}

void Reporter::begin(const ReportData& context, ReportFiles& files) {
  if (streams()) files.stage(output_path(context), render(context));
}

void Reporter::report_run(const ReportData& so_far, const RunRecord&, ReportFiles& files) {
  if (streams()) files.stage(output_path(so_far), render(so_far));
}

void Reporter::finalize(const ReportData& data, ReportFiles& files) {
  files.stage(output_path(data), render(data));
}

void Reporter::write(const ReportData& data) {
  ReportFiles files;
  files.stage(output_path(data), render(data));
  files.commit();
}

ReportStream::ReportStream(const RunStore& store, std::vector<std::unique_ptr<Reporter>> reporters, std::ostream* log)
    : store_(store), reporters_(std::move(reporters)), log_(log) {}

void ReportStream::begin(const std::vector<RunSpec>& planned) {
  std::lock_guard lock(mutex_);
  data_ = report_data_from_store(store_);
  data_.generated_at.clear();  // each file says when it was written
  data_.finished_at.clear();   // the campaign is not over
  std::set<std::string> stored;
  for (const auto& r : data_.runs) stored.insert(r.spec.run_id);
  for (const auto& spec : planned) {
    if (!stored.insert(spec.run_id).second) continue;
    RunRecord r;
    r.spec = spec;
    r.dir = store_.run_dir(spec.run_id);
    data_.runs.push_back(std::move(r));
  }
  std::stable_sort(data_.runs.begin(), data_.runs.end(),
                   [](const RunRecord& a, const RunRecord& b) { return run_listed_before(a.spec, b.spec); });
  index_.clear();
  for (std::size_t i = 0; i < data_.runs.size(); ++i) index_[data_.runs[i].spec.run_id] = i;
  stage_and_commit([this](Reporter& r, ReportFiles& files) { r.begin(data_, files); });
}

void ReportStream::run_finished(const RunSpec& spec, const Outcome&) {
  auto record = store_.run(spec.run_id);  // the stored record: outcome, directory, times
  if (!record) return;
  std::lock_guard lock(mutex_);
  if (auto it = index_.find(spec.run_id); it != index_.end()) {
    data_.runs[it->second] = *record;
  } else {  // a run begin() was not told about
    index_[spec.run_id] = data_.runs.size();
    data_.runs.push_back(*record);
  }
  stage_and_commit([this, &record](Reporter& r, ReportFiles& files) { r.report_run(data_, *record, files); });
}

void ReportStream::stage_and_commit(const std::function<void(Reporter&, ReportFiles&)>& step) {
  try {
    ReportFiles files;
    for (auto& reporter : reporters_) step(*reporter, files);
    files.commit();
  } catch (const ReportError& e) {
    if (!failed_ && log_) *log_ << "warning: " << e.what() << "; the runs go on\n";
    failed_ = true;
  }
}

std::vector<fs::path> finalize_reports(const ReportData& data, const std::vector<std::unique_ptr<Reporter>>& reporters,
                                       const std::function<void(const fs::path&)>& before_each) {
  ReportFiles files;
  for (const auto& reporter : reporters) {
    if (before_each) before_each(reporter->output_path(data));
    reporter->finalize(data, files);
  }
  return files.commit();
}

}  // namespace scalefuzz::harness
