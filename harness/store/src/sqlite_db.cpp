#include "sqlite_db.hpp"

#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::harness::sqlite {

Db::Db(const std::filesystem::path& file, int open_flags) : file_(file) {
  const int rc = sqlite3_open_v2(file.c_str(), &db_, open_flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw StoreError(file, "cannot open database: " + msg);
  }
  sqlite3_extended_result_codes(db_, 1);
}

Db::~Db() { sqlite3_close_v2(db_); }

void Db::fail(const std::string& what) const {
  last_failure_ = sqlite3_errcode(db_) & 0xff;
  throw StoreError(file_, what + ": " + sqlite3_errmsg(db_), last_failure_ == SQLITE_FULL);
}

void Db::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    last_failure_ = sqlite3_errcode(db_) & 0xff;
    throw StoreError(file_, std::string("SQL failed (") + sql + "): " + msg, last_failure_ == SQLITE_FULL);
  }
}

Stmt::Stmt(Db& db, const char* sql) : db_(db) {
  if (sqlite3_prepare_v2(db.handle(), sql, -1, &stmt_, nullptr) != SQLITE_OK)
    db.fail(std::string("cannot prepare '") + sql + "'");
}

Stmt::~Stmt() { sqlite3_finalize(stmt_); }

Stmt& Stmt::bind(int index, std::string_view text) {
  if (sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT) != SQLITE_OK)
    db_.fail("cannot bind text");
  return *this;
}

Stmt& Stmt::bind(int index, std::int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) db_.fail("cannot bind integer");
  return *this;
}

Stmt& Stmt::bind(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) db_.fail("cannot bind real");
  return *this;
}

Stmt& Stmt::bind_null(int index) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) db_.fail("cannot bind null");
  return *this;
}

bool Stmt::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_.fail(std::string("statement failed '") + sqlite3_sql(stmt_) + "'");
}

void Stmt::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string Stmt::text(int col) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))) : std::string();
}

std::int64_t Stmt::int64(int col) const { return sqlite3_column_int64(stmt_, col); }

bool Stmt::is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

Transaction::Transaction(Db& db) : db_(db) {
  db_.exec("BEGIN IMMEDIATE");
  open_ = true;
}

Transaction::~Transaction() {
  if (open_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.exec("COMMIT");
  open_ = false;
}

}  // namespace scalefuzz::harness::sqlite
