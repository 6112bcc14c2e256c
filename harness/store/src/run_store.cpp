#include <array>
#include "scalefuzz/harness/run_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/finding_json.hpp"
#include "scalefuzz/harness/run_json.hpp"
#include "sqlite_db.hpp"

namespace scalefuzz::harness {

namespace fs = std::filesystem;
using nlohmann::json;

StoreError::StoreError(fs::path path, std::string reason, bool out_of_space)
    : std::runtime_error(path.string() + ": " + reason),
      path_(std::move(path)),
      reason_(std::move(reason)),
      out_of_space_(out_of_space) {}

namespace {

constexpr const char* kSchemaSql = R"sql(
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (
  run_id       TEXT PRIMARY KEY,
  nprocs       INTEGER NOT NULL,
  scale_role   TEXT NOT NULL,
  noise        TEXT NOT NULL,
  repetition   INTEGER NOT NULL,
  state        TEXT NOT NULL CHECK (state IN ('started', 'finished')),
  spec_json    TEXT NOT NULL,
  outcome      TEXT,
  exit_code    INTEGER,
  signal       INTEGER,
  detail       TEXT,
  wall_seconds REAL,
  outcome_json TEXT,
  started_at   TEXT,
  finished_at  TEXT
);
CREATE INDEX runs_by_state ON runs (state);
CREATE TABLE findings (
  seq          INTEGER PRIMARY KEY,
  detector     TEXT NOT NULL,
  kind         TEXT NOT NULL,
  severity     TEXT NOT NULL,
  run_id       TEXT NOT NULL,
  title        TEXT NOT NULL,
  finding_json TEXT NOT NULL
);
)sql";

using TableColumns = std::map<std::string, std::vector<std::string>>;

// Every table of a database and its columns in order.
TableColumns table_columns(sqlite::Db& db) {
  TableColumns out;
  sqlite::Stmt tables(db, "SELECT name FROM sqlite_master WHERE type = 'table'");
  while (tables.step()) out[tables.text(0)];
  for (auto& [table, columns] : out) {
    sqlite::Stmt cols(db, "SELECT name FROM pragma_table_info(?)");
    cols.bind(1, table);
    while (cols.step()) columns.push_back(cols.text(0));
  }
  return out;
}

// The tables and columns kSchemaSql creates, read from an in-memory database
// so that the schema has one source.
const TableColumns& expected_schema() {
  static const TableColumns schema = [] {
    sqlite::Db mem(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY);
    mem.exec(kSchemaSql);
    return table_columns(mem);
  }();
  return schema;
}

// What a store lacks of the schema: (table, column) pairs, column empty
// when the whole table is missing.
std::vector<std::pair<std::string, std::string>> missing_schema(sqlite::Db& db) {
  const TableColumns found = table_columns(db);
  std::vector<std::pair<std::string, std::string>> missing;
  for (const auto& [table, columns] : expected_schema()) {
    auto it = found.find(table);
    if (it == found.end()) {
      missing.emplace_back(table, "");
      continue;
    }
    for (const auto& column : columns)
      if (std::find(it->second.begin(), it->second.end(), column) == it->second.end())
        missing.emplace_back(table, column);
  }
  return missing;
}

std::string describe_missing(const std::vector<std::pair<std::string, std::string>>& missing) {
  std::string list;
  for (const auto& [table, column] : missing)
    list += (list.empty() ? "" : ", ") + (column.empty() ? "table '" + table + "'" : "column '" + table + "." + column + "'");
  return "damaged scalefuzz store: " + list + " missing; refusing to touch it";
}

// A URI that opens `file` read-only without locks, journals or -wal/-shm
// files (SQLite's immutable=1): the schema check touches nothing.
std::string immutable_uri(const fs::path& file) {
  std::string uri = "file:";
  for (unsigned char c : fs::absolute(file).string()) {
    if (std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789ABCDEF";
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    }
  }
  return uri + "?immutable=1";
}

bool is_reserved_meta_key(const std::string& key) {
  return key == "schema_version" || key == "campaign" || key == "fingerprint";
}

// Exclusive advisory lock on OUT/scalefuzz.db.lock; the kernel drops it when
// the process dies, so a killed harness never leaves a stale lock.
class LockFile {
 public:
  LockFile() = default;
  explicit LockFile(const fs::path& file) {
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw StoreError(file, std::string("cannot create lock file: ") + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd_);
      fd_ = -1;
      if (err == EWOULDBLOCK)
        throw StoreError(file, "another scalefuzz process is writing this output directory");
      throw StoreError(file, std::string("cannot lock: ") + std::strerror(err));
    }
  }
  ~LockFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  LockFile(const LockFile&) = delete;
  LockFile& operator=(const LockFile&) = delete;

 private:
  int fd_ = -1;
};

std::string plain_run_id_problem(const std::string& id) {
  if (id.empty()) return "empty run id";
  if (id == "." || id == "..") return "run id '" + id + "' is not a file name";
  if (id.size() > 200) return "run id longer than 200 characters";
  if (id.find('/') != std::string::npos || id.find('\0') != std::string::npos)
    return "run id '" + id + "' contains '/' or NUL";
  return {};
}

}  // namespace

struct RunStore::Impl {
  fs::path out_dir;
  std::string campaign;
  std::string fingerprint;
  StoreAccess access = StoreAccess::ReadWrite;
  std::unique_ptr<LockFile> lock;  // released after db (declared before it)
  std::unique_ptr<sqlite::Db> db;
  mutable std::mutex mutex;        // one connection, serialized

  fs::path db_path() const { return out_dir / kDbFileName; }

  void require_writable() const {
    if (access == StoreAccess::ReadOnly) throw StoreError(db_path(), "store was opened read-only");
  }

  std::optional<std::string> read_meta(const std::string& key) {
    sqlite::Stmt q(*db, "SELECT value FROM meta WHERE key = ?");
    q.bind(1, key);
    if (!q.step()) return std::nullopt;
    return q.text(0);
  }

  std::vector<std::string> table_names() {
    // The first read of a file that is not SQLite fails here with SQLITE_NOTADB.
    sqlite3_stmt* raw = nullptr;
    const char* sql = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name";
    int rc = sqlite3_prepare_v2(db->handle(), sql, -1, &raw, nullptr);
    std::vector<std::string> names;
    while (rc == SQLITE_OK || rc == SQLITE_ROW) {
      rc = sqlite3_step(raw);
      if (rc == SQLITE_ROW) names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(raw, 0)));
    }
    const std::string msg = sqlite3_errmsg(db->handle());
    const int primary = rc & 0xff;
    sqlite3_finalize(raw);
    if (primary == SQLITE_NOTADB)
      throw StoreError(db_path(), "not an SQLite database (foreign or corrupt file); refusing to touch it");
    if (primary == SQLITE_CORRUPT) throw StoreError(db_path(), "corrupt SQLite database: " + msg);
    if (primary != SQLITE_DONE) throw StoreError(db_path(), "cannot read database: " + msg);
    return names;
  }

  // Checks an existing store; reads only. Fills campaign/fingerprint when empty.
  void validate_existing(bool expect_campaign) {
    try {
      validate_existing_unguarded(expect_campaign);
    } catch (const StoreError& e) {
      const int code = db->last_failure();
      if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
        throw StoreError(db_path(), "corrupt database (" + e.reason() + "); refusing to touch it");
      throw;
    }
  }

  void validate_existing_unguarded(bool expect_campaign) {
    const auto tables = table_names();
    if (std::find(tables.begin(), tables.end(), "meta") == tables.end())
      throw StoreError(db_path(), "an SQLite database but not a scalefuzz store (no meta table)");
    // Meta's own columns first: the version is read from them.
    const auto missing = missing_schema(*db);
    if (std::any_of(missing.begin(), missing.end(), [](const auto& m) { return m.first == "meta"; }))
      throw StoreError(db_path(), describe_missing(missing));
    const auto version = read_meta("schema_version");
    if (!version) throw StoreError(db_path(), "not a scalefuzz store (meta has no schema_version)");
    if (*version != std::to_string(kSchemaVersion))
      throw StoreError(db_path(), "store has schema version " + *version + " but this scalefuzz reads version " +
                                      std::to_string(kSchemaVersion));
    if (!missing.empty()) throw StoreError(db_path(), describe_missing(missing));
    const auto stored_campaign = read_meta("campaign").value_or("");
    const auto stored_fingerprint = read_meta("fingerprint").value_or("");
    if (expect_campaign) {
      if (stored_campaign != campaign)
        throw StoreError(db_path(), "store belongs to campaign '" + stored_campaign + "', not '" + campaign +
                                        "'; use another output directory");
      if (stored_fingerprint != fingerprint)
        throw StoreError(db_path(), "campaign '" + campaign +
                                        "' changed since this store was written (fingerprint " +
                                        stored_fingerprint + " != " + fingerprint +
                                        "); use another output directory");
    } else {
      campaign = stored_campaign;
      fingerprint = stored_fingerprint;
    }
    sqlite::Stmt check(*db, "PRAGMA quick_check");
    std::string verdict;
    while (check.step()) verdict += (verdict.empty() ? "" : "; ") + check.text(0);
    if (verdict != "ok") throw StoreError(db_path(), "corrupt database: " + verdict);
  }

  void create_schema() {
    db->exec("PRAGMA journal_mode = WAL");
    sqlite::Transaction tx(*db);
    db->exec(kSchemaSql);
    sqlite::Stmt put(*db, "INSERT INTO meta (key, value) VALUES (?, ?)");
    const std::pair<std::string, std::string> rows[] = {{"schema_version", std::to_string(kSchemaVersion)},
                                                        {"campaign", campaign},
                                                        {"fingerprint", fingerprint},
                                                        {"created_at", utc_timestamp_now()}};
    for (const auto& [key, value] : rows) {
      put.bind(1, key).bind(2, value);
      put.run();
      put.reset();
    }
    tx.commit();
  }

  void configure_connection() {
    sqlite3_busy_timeout(db->handle(), 10000);
  }

  void enable_wal() {
    sqlite::Stmt mode(*db, "PRAGMA journal_mode = WAL");
    if (!mode.step() || mode.text(0) != "wal")
      throw StoreError(db_path(), "cannot switch the database to WAL mode");
    db->exec("PRAGMA synchronous = NORMAL");
  }

  // Validates an existing store through a read-only connection before it is
  // opened for writing (issue 36): a damaged store is refused without a byte
  // written. Without a -wal file the main file holds every commit and the
  // connection is immutable (no -wal/-shm created); with one, SQLite needs it.
  // Returns the store's (campaign, fingerprint), or nullopt for an empty file.
  static std::optional<std::pair<std::string, std::string>> check_read_only(const fs::path& db_path,
                                                                            const std::string& campaign,
                                                                            const std::string& fingerprint,
                                                                            bool expect_campaign) {
    Impl probe;
    probe.out_dir = db_path.parent_path();
    probe.campaign = campaign;
    probe.fingerprint = fingerprint;
    const bool has_wal = fs::exists(fs::path(db_path) += "-wal");
    probe.db = has_wal ? std::make_unique<sqlite::Db>(db_path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX)
                       : std::make_unique<sqlite::Db>(immutable_uri(db_path),
                                                      SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX);
    probe.configure_connection();
    if (probe.table_names().empty()) return std::nullopt;  // created (open) or refused (open_existing) below
    probe.validate_existing(expect_campaign);
    return std::make_pair(probe.campaign, probe.fingerprint);
  }

  RunRecord record_from_row(sqlite::Stmt& row) const {
    RunRecord rec;
    const auto run_id = row.text(0);
    try {
      rec.spec = json::parse(row.text(1)).get<RunSpec>();
      if (row.text(3) == "finished") rec.outcome = json::parse(row.text(2)).get<Outcome>();
    } catch (const std::exception& e) {
      throw StoreError(db_path(), "run " + run_id + ": stored record is unreadable: " + e.what());
    }
    rec.dir = out_dir / "runs" / run_id;
    rec.started_at = row.text(4);
    rec.finished_at = row.text(5);
    return rec;
  }
};

namespace {

// SQLite creates DB-wal and DB-shm beside a WAL database as soon as it reads
// it, even read-only. A store that is refused must be left as it was found:
// the files this attempt created are removed once its connection is closed.
class SidecarFiles {
 public:
  explicit SidecarFiles(const fs::path& db) : paths_{fs::path(db) += "-wal", fs::path(db) += "-shm"} {
    for (std::size_t i = 0; i < paths_.size(); ++i) existed_[i] = fs::exists(paths_[i]);
  }
  void remove_created() const {
    std::error_code ec;
    for (std::size_t i = 0; i < paths_.size(); ++i)
      if (!existed_[i]) fs::remove(paths_[i], ec);
  }

 private:
  std::array<fs::path, 2> paths_;
  std::array<bool, 2> existed_{};
};

}  // namespace

RunStore::RunStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RunStore::RunStore(RunStore&&) noexcept = default;
RunStore& RunStore::operator=(RunStore&&) noexcept = default;
RunStore::~RunStore() = default;

RunStore RunStore::open(const fs::path& out_dir, const std::string& campaign_name,
                        const std::string& campaign_fingerprint) {
  if (campaign_name.empty()) throw StoreError(out_dir, "empty campaign name");
  auto impl = std::make_unique<Impl>();
  impl->out_dir = out_dir;
  impl->campaign = campaign_name;
  impl->fingerprint = campaign_fingerprint;
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) throw StoreError(out_dir, "cannot create output directory: " + ec.message());
  const auto db_path = impl->db_path();
  impl->lock = std::make_unique<LockFile>(fs::path(db_path) += ".lock");

  const bool exists = fs::exists(db_path);
  if (exists && !fs::is_regular_file(db_path)) throw StoreError(db_path, "exists but is not a regular file");
  const SidecarFiles sidecars(db_path);
  try {
    const bool validated =
        exists && Impl::check_read_only(db_path, campaign_name, campaign_fingerprint, /*expect_campaign=*/true);
    impl->db = std::make_unique<sqlite::Db>(
        db_path, SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX);
    impl->configure_connection();
    // An empty database (a fresh file, or one whose creation was killed before
    // its first commit) is initialised; anything else must be our own store.
    if (!validated) {
      if (impl->table_names().empty()) impl->create_schema();
      else impl->validate_existing(/*expect_campaign=*/true);
    }
    impl->enable_wal();
  } catch (...) {
    impl->db.reset();
    sidecars.remove_created();
    throw;
  }
  fs::create_directories(out_dir / "runs", ec);
  if (ec) throw StoreError(out_dir / "runs", "cannot create: " + ec.message());
  return RunStore(std::move(impl));
}

RunStore RunStore::open_existing(const fs::path& out_dir, StoreAccess access) {
  auto impl = std::make_unique<Impl>();
  impl->out_dir = out_dir;
  impl->access = access;
  const auto db_path = impl->db_path();
  if (!fs::is_regular_file(db_path)) throw StoreError(db_path, "no scalefuzz store here (file missing)");
  if (access == StoreAccess::ReadWrite) impl->lock = std::make_unique<LockFile>(fs::path(db_path) += ".lock");
  const int flags = (access == StoreAccess::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) |
                    SQLITE_OPEN_NOMUTEX;
  const SidecarFiles sidecars(db_path);
  try {
    std::optional<std::pair<std::string, std::string>> checked;
    if (access == StoreAccess::ReadWrite) checked = Impl::check_read_only(db_path, "", "", /*expect_campaign=*/false);
    impl->db = std::make_unique<sqlite::Db>(db_path, flags);
    impl->configure_connection();
    if (checked) {
      std::tie(impl->campaign, impl->fingerprint) = *checked;
    } else {
      if (impl->table_names().empty()) throw StoreError(db_path, "empty database, not a scalefuzz store");
      impl->validate_existing(/*expect_campaign=*/false);
    }
    if (access == StoreAccess::ReadWrite) impl->enable_wal();
  } catch (...) {
    impl->db.reset();
    sidecars.remove_created();
    throw;
  }
  return RunStore(std::move(impl));
}

const fs::path& RunStore::out_dir() const { return impl_->out_dir; }
fs::path RunStore::db_path() const { return impl_->db_path(); }
const std::string& RunStore::campaign_name() const { return impl_->campaign; }
const std::string& RunStore::campaign_fingerprint() const { return impl_->fingerprint; }

fs::path RunStore::run_dir(const std::string& run_id) const {
  if (auto problem = plain_run_id_problem(run_id); !problem.empty()) throw StoreError(impl_->db_path(), problem);
  return impl_->out_dir / "runs" / run_id;
}

fs::path RunStore::prepare_run(const RunSpec& spec) {
  impl_->require_writable();
  const auto dir = run_dir(spec.run_id);
  if (is_finished(spec.run_id))
    throw StoreError(impl_->db_path(), "run " + spec.run_id + " already finished; refusing to overwrite it");
  // Leftovers of an attempt that was killed belong to no finished run.
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (ec) throw StoreError(dir, "cannot clear stale run directory: " + ec.message());
  fs::create_directories(dir, ec);
  if (ec) throw StoreError(dir, "cannot create run directory: " + ec.message());
  const std::string spec_text = dump_json(json(spec)) + "\n";
  try {
    write_file_atomic(RunDir(dir).spec_file(), spec_text);
  } catch (const std::system_error& e) {
    throw StoreError(RunDir(dir).spec_file(), e.what());
  }

  std::lock_guard lock(impl_->mutex);
  sqlite::Stmt up(*impl_->db, R"sql(
    INSERT INTO runs (run_id, nprocs, scale_role, noise, repetition, state, spec_json, started_at)
    VALUES (?1, ?2, ?3, ?4, ?5, 'started', ?6, ?7)
    ON CONFLICT (run_id) DO UPDATE SET
      nprocs = excluded.nprocs, scale_role = excluded.scale_role, noise = excluded.noise,
      repetition = excluded.repetition, state = 'started', spec_json = excluded.spec_json,
      outcome = NULL, exit_code = NULL, signal = NULL, detail = NULL, wall_seconds = NULL,
      outcome_json = NULL, started_at = excluded.started_at, finished_at = NULL)sql");
  up.bind(1, spec.run_id).bind(2, std::int64_t{spec.nprocs}).bind(3, spec.scale_role).bind(4, spec.noise.label());
  up.bind(5, std::int64_t{spec.repetition}).bind(6, spec_text).bind(7, utc_timestamp_now());
  up.run();
  return dir;
}

void RunStore::record_finished(const RunSpec& spec, const Outcome& outcome) {
  impl_->require_writable();
  const auto dir = run_dir(spec.run_id);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw StoreError(dir, "cannot create run directory: " + ec.message());
  const std::string outcome_text = dump_json(json(outcome)) + "\n";
  // The launcher usually wrote outcome.json already (with extra keys of its
  // own); the directory was cleaned by prepare_run, so that file is this
  // attempt's. Only fill it in when it is missing.
  if (!fs::exists(RunDir(dir).outcome_file())) {
    json file = json(outcome);
    file["run_id"] = spec.run_id;
    try {
      write_file_atomic(RunDir(dir).outcome_file(), dump_json(file) + "\n");
    } catch (const std::system_error& e) {
      throw StoreError(RunDir(dir).outcome_file(), e.what());
    }
  }
  const auto now = utc_timestamp_now();

  std::lock_guard lock(impl_->mutex);
  sqlite::Transaction tx(*impl_->db);
  sqlite::Stmt up(*impl_->db, R"sql(
    INSERT INTO runs (run_id, nprocs, scale_role, noise, repetition, state, spec_json, outcome, exit_code,
                      signal, detail, wall_seconds, outcome_json, started_at, finished_at)
    VALUES (?1, ?2, ?3, ?4, ?5, 'finished', ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13)
    ON CONFLICT (run_id) DO UPDATE SET
      nprocs = excluded.nprocs, scale_role = excluded.scale_role, noise = excluded.noise,
      repetition = excluded.repetition, state = 'finished', spec_json = excluded.spec_json,
      outcome = excluded.outcome, exit_code = excluded.exit_code, signal = excluded.signal,
      detail = excluded.detail, wall_seconds = excluded.wall_seconds, outcome_json = excluded.outcome_json,
      started_at = COALESCE(runs.started_at, excluded.started_at), finished_at = excluded.finished_at)sql");
  up.bind(1, spec.run_id).bind(2, std::int64_t{spec.nprocs}).bind(3, spec.scale_role).bind(4, spec.noise.label());
  up.bind(5, std::int64_t{spec.repetition}).bind(6, dump_json(json(spec)) + "\n").bind(7, to_string(outcome.kind));
  up.bind(8, std::int64_t{outcome.exit_code}).bind(9, std::int64_t{outcome.signal}).bind(10, outcome.detail);
  up.bind(11, outcome.wall_seconds).bind(12, outcome_text).bind(13, now);
  up.run();
  tx.commit();
}

bool RunStore::is_finished(const std::string& run_id) const {
  std::lock_guard lock(impl_->mutex);
  sqlite::Stmt q(*impl_->db, "SELECT state FROM runs WHERE run_id = ?");
  q.bind(1, run_id);
  return q.step() && q.text(0) == "finished";
}

namespace {
constexpr const char* kSelectRuns =
    "SELECT run_id, spec_json, outcome_json, state, started_at, finished_at FROM runs";
}

std::optional<RunRecord> RunStore::run(const std::string& run_id) const {
  std::lock_guard lock(impl_->mutex);
  sqlite::Stmt q(*impl_->db, (std::string(kSelectRuns) + " WHERE run_id = ?").c_str());
  q.bind(1, run_id);
  if (!q.step()) return std::nullopt;
  return impl_->record_from_row(q);
}

bool run_listed_before(const RunSpec& a, const RunSpec& b) {
  auto key = [](const RunSpec& s) {
    return std::make_tuple(s.nprocs, s.noise.label(), std::cref(s.params), s.repetition, std::cref(s.run_id));
  };
  return key(a) < key(b);
}

std::vector<RunRecord> RunStore::runs() const {
  std::vector<RunRecord> out;
  {
    std::lock_guard lock(impl_->mutex);
    sqlite::Stmt q(*impl_->db, kSelectRuns);
    while (q.step()) out.push_back(impl_->record_from_row(q));
  }
  std::sort(out.begin(), out.end(),
            [](const RunRecord& a, const RunRecord& b) { return run_listed_before(a.spec, b.spec); });
  return out;
}

std::size_t RunStore::finished_count() const {
  std::lock_guard lock(impl_->mutex);
  sqlite::Stmt q(*impl_->db, "SELECT COUNT(*) FROM runs WHERE state = 'finished'");
  q.step();
  return static_cast<std::size_t>(q.int64(0));
}

void RunStore::save_findings(const std::vector<detectors::Finding>& findings) {
  impl_->require_writable();
  std::lock_guard lock(impl_->mutex);
  sqlite::Transaction tx(*impl_->db);
  impl_->db->exec("DELETE FROM findings");
  std::int64_t seq = 0;
  sqlite::Stmt ins(*impl_->db,
                   "INSERT INTO findings (seq, detector, kind, severity, run_id, title, finding_json) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)");
  for (const auto& f : findings) {
    ins.bind(1, seq++).bind(2, f.detector).bind(3, f.kind).bind(4, detectors::to_string(f.severity));
    ins.bind(5, f.run_id).bind(6, f.title).bind(7, dump_json(finding_to_json(f), -1));
    ins.run();
    ins.reset();
  }
  tx.commit();
}

std::vector<detectors::Finding> RunStore::load_findings() const {
  std::lock_guard lock(impl_->mutex);
  sqlite::Stmt q(*impl_->db, "SELECT seq, finding_json FROM findings ORDER BY seq");
  std::vector<detectors::Finding> out;
  while (q.step()) {
    try {
      out.push_back(finding_from_json(json::parse(q.text(1))));
    } catch (const std::exception& e) {
      throw StoreError(impl_->db_path(), "finding " + std::to_string(q.int64(0)) + " is unreadable: " + e.what());
    }
  }
  return out;
}

void RunStore::set_meta(const std::string& key, const std::string& value) {
  impl_->require_writable();
  if (is_reserved_meta_key(key)) throw StoreError(impl_->db_path(), "meta key '" + key + "' is reserved");
  std::lock_guard lock(impl_->mutex);
  sqlite::Stmt q(*impl_->db, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
  q.bind(1, key).bind(2, value);
  q.run();
}

std::optional<std::string> RunStore::meta(const std::string& key) const {
  std::lock_guard lock(impl_->mutex);
  return impl_->read_meta(key);
}

}  // namespace scalefuzz::harness
