// Minimal RAII over the SQLite C API, private to the store. Every error is a
// StoreError naming the database file.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace scalefuzz::harness::sqlite {

class Db {
 public:
  Db(const std::filesystem::path& file, int open_flags);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  void exec(const char* sql);
  sqlite3* handle() const { return db_; }
  const std::filesystem::path& file() const { return file_; }
  [[noreturn]] void fail(const std::string& what) const;  // throws StoreError with sqlite's message
  // Primary result code of the last failure that threw (0 if none).
  int last_failure() const { return last_failure_; }

 private:
  std::filesystem::path file_;
  sqlite3* db_ = nullptr;
  mutable int last_failure_ = 0;
};

class Stmt {
 public:
  Stmt(Db& db, const char* sql);
  ~Stmt();
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& bind(int index, std::string_view text);
  Stmt& bind(int index, std::int64_t value);
  Stmt& bind(int index, double value);
  Stmt& bind_null(int index);
  // True while a row is available; false when done.
  bool step();
  void run() { while (step()) {} }
  void reset();  // ready to bind and step again
  std::string text(int col) const;
  std::int64_t int64(int col) const;
  bool is_null(int col) const;

 private:
  Db& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE ... COMMIT; rolls back unless commit() was called.
class Transaction {
 public:
  explicit Transaction(Db& db);
  ~Transaction();
  void commit();

 private:
  Db& db_;
  bool open_ = false;
};

}  // namespace scalefuzz::harness::sqlite
