// Stores that are not ours, not SQLite, of another version or campaign, or
// corrupt: opening fails with a StoreError and the file stays byte-identical.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <functional>
#include <map>
#include <vector>

#include "scalefuzz/harness/run_store.hpp"
#include "store_test_util.hpp"

namespace scalefuzz::harness {
namespace {

using testing::read_file;
namespace fs = std::filesystem;

void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

void raw_sql(const fs::path& db_file, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(db_file.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

// Opens `out` as campaign/fingerprint and expects a StoreError mentioning
// `reason_part`, with the database file unchanged byte for byte.
void expect_refused(const fs::path& out, const std::string& campaign, const std::string& fingerprint,
                    const std::string& reason_part) {
  const auto db = out / RunStore::kDbFileName;
  const auto before = read_file(db);
  try {
    RunStore::open(out, campaign, fingerprint);
    ADD_FAILURE() << "expected a StoreError mentioning '" << reason_part << "'";
  } catch (const StoreError& e) {
    EXPECT_NE(e.reason().find(reason_part), std::string::npos) << e.what();
    EXPECT_EQ(e.path(), db);
    EXPECT_NE(std::string(e.what()).find(db.string()), std::string::npos) << "message must name the file";
  }
  EXPECT_EQ(read_file(db), before) << "a refused store must not be modified";
}

void make_store_with_runs(const fs::path& out, int runs) {
  auto store = RunStore::open(out, "alpha", "fp-a");
  for (int i = 0; i < runs; ++i) {
    auto spec = testing::sample_spec("r" + std::to_string(i));
    store.record_finished(spec, testing::sample_hang());
  }
}

// A store of many pages of runs with two pages in the middle overwritten;
// `bytes` is what the file then holds. Call it inside ASSERT_NO_FATAL_FAILURE.
void make_store_with_corrupt_pages(const fs::path& out, std::string& bytes) {
  make_store_with_runs(out, 60);
  bytes = read_file(out / "scalefuzz.db");
  ASSERT_GT(bytes.size(), 8u * 4096u);
  for (std::size_t i = 3 * 4096; i < 5 * 4096; ++i) bytes[i] = static_cast<char>(0xA5 ^ (i & 0xff));
  write_bytes(out / "scalefuzz.db", bytes);
}

TEST(StoreErrors, GarbageFileIsNotTouched) {
  testing::TempDir tmp;
  std::string garbage;
  for (int i = 0; i < 5000; ++i) garbage += static_cast<char>((i * 131 + 7) % 256);
  write_bytes(tmp.path() / "scalefuzz.db", garbage);
  expect_refused(tmp.path(), "alpha", "fp-a", "not an SQLite database");
  EXPECT_THROW(RunStore::open_existing(tmp.path()), StoreError);
  EXPECT_EQ(read_file(tmp.path() / "scalefuzz.db"), garbage);
}

// Other files where the store belongs: a text file, another program's SQLite database.
TEST(StoreErrors, TextFileOrForeignSqliteDatabaseIsRefusedUntouched) {
  const struct {
    const char* what;
    std::function<void(const fs::path& db_file)> write;
    const char* reason;
  } cases[] = {
      {"text file", [](const fs::path& db) { write_bytes(db, "campaign: my notes, not a database\n"); },
       "not an SQLite database"},
      {"foreign SQLite database",
       [](const fs::path& db) { raw_sql(db, "CREATE TABLE customers (id INTEGER, name TEXT); INSERT INTO customers VALUES (1, 'x')"); },
       "not a scalefuzz store"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    testing::TempDir tmp;
    ASSERT_NO_FATAL_FAILURE(c.write(tmp.path() / "scalefuzz.db"));
    expect_refused(tmp.path(), "alpha", "fp-a", c.reason);
  }
}

TEST(StoreErrors, AnotherSchemaVersionIsRefused) {
  testing::TempDir tmp;
  make_store_with_runs(tmp.path(), 3);
  raw_sql(tmp.path() / "scalefuzz.db", "UPDATE meta SET value = '99' WHERE key = 'schema_version'");
  expect_refused(tmp.path(), "alpha", "fp-a", "schema version 99");
  EXPECT_THROW(RunStore::open_existing(tmp.path(), StoreAccess::ReadOnly), StoreError);
}

TEST(StoreErrors, AnotherCampaignIsRefused) {
  testing::TempDir tmp;
  make_store_with_runs(tmp.path(), 3);
  expect_refused(tmp.path(), "beta", "fp-a", "belongs to campaign 'alpha'");
  expect_refused(tmp.path(), "alpha", "fp-changed", "changed since this store was written");
  // The rightful campaign still opens and keeps its runs.
  EXPECT_EQ(RunStore::open(tmp.path(), "alpha", "fp-a").finished_count(), 3u);
}

TEST(StoreErrors, CorruptPagesAreRefused) {
  testing::TempDir tmp;
  std::string bytes;
  ASSERT_NO_FATAL_FAILURE(make_store_with_corrupt_pages(tmp.path(), bytes));
  expect_refused(tmp.path(), "alpha", "fp-a", "corrupt");
}

// Issue 19 defect 5: refusing a store leaves nothing beside it either.
TEST(IssueDefect5, RefusedCorruptStoreLeavesNoShmOrWalBehind) {
  testing::TempDir tmp;
  std::string bytes;
  ASSERT_NO_FATAL_FAILURE(make_store_with_corrupt_pages(tmp.path(), bytes));
  ASSERT_FALSE(fs::exists(tmp.path() / "scalefuzz.db-wal"));
  ASSERT_FALSE(fs::exists(tmp.path() / "scalefuzz.db-shm"));
  for (StoreAccess access : {StoreAccess::ReadOnly, StoreAccess::ReadWrite}) {
    EXPECT_THROW(RunStore::open_existing(tmp.path(), access), StoreError);
    EXPECT_FALSE(fs::exists(tmp.path() / "scalefuzz.db-wal"));
    EXPECT_FALSE(fs::exists(tmp.path() / "scalefuzz.db-shm"));
  }
  expect_refused(tmp.path(), "alpha", "fp-a", "corrupt");
  EXPECT_FALSE(fs::exists(tmp.path() / "scalefuzz.db-wal"));
  EXPECT_FALSE(fs::exists(tmp.path() / "scalefuzz.db-shm"));
  EXPECT_EQ(read_file(tmp.path() / "scalefuzz.db"), bytes);
}

// Every table and column of a real store, read from the file itself.
std::map<std::string, std::vector<std::string>> tables_of(const fs::path& db_file) {
  std::map<std::string, std::vector<std::string>> out;
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(db_file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  sqlite3_prepare_v2(db, "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'",
                     -1, &q, nullptr);
  while (sqlite3_step(q) == SQLITE_ROW)
    out[reinterpret_cast<const char*>(sqlite3_column_text(q, 0))].emplace_back(
        reinterpret_cast<const char*>(sqlite3_column_text(q, 1)));
  sqlite3_finalize(q);
  sqlite3_close(db);
  return out;
}

// Issue 36: damaged content (a table or a column dropped, e.g. `sqlite3
// OUT/scalefuzz.db 'drop table findings'`) is refused by every way of
// opening a store, with the missing piece named, the file byte-identical and
// no -wal/-shm left beside it. Every table and every column, one at a time.
TEST(IssueHardening2Addendum, EveryDroppedTableOrColumnIsRefusedUntouched) {
  testing::TempDir tmp;
  const fs::path pristine = tmp.path() / "pristine";
  make_store_with_runs(pristine, 3);
  const auto schema = tables_of(pristine / "scalefuzz.db");
  ASSERT_EQ(schema.size(), 3u);  // meta, runs, findings
  int cases = 0;
  for (const auto& [table, columns] : schema) {
    std::vector<std::string> drops = {""};  // the whole table, then each column
    drops.insert(drops.end(), columns.begin(), columns.end());
    for (const auto& column : drops) {
      const fs::path out = tmp.path() / ("case" + std::to_string(cases++));
      fs::copy(pristine, out, fs::copy_options::recursive);
      std::string kept;
      for (const auto& c : columns)
        if (c != column) kept += (kept.empty() ? "" : ", ") + c;
      const std::string sql = column.empty() ? "DROP TABLE " + table
                                             : "CREATE TABLE damaged AS SELECT " + kept + " FROM " + table +
                                                   "; DROP TABLE " + table + "; ALTER TABLE damaged RENAME TO " +
                                                   table;
      raw_sql(out / "scalefuzz.db", sql.c_str());
      const std::string what = column.empty() ? "table '" + table + "'" : "column '" + table + "." + column + "'";
      SCOPED_TRACE(what + " dropped");
      ASSERT_FALSE(fs::exists(out / "scalefuzz.db-wal"));
      const std::string before = read_file(out / "scalefuzz.db");
      // Dropping meta whole makes it no scalefuzz store; anything else is named.
      const std::string reason = table == "meta" && column.empty() ? "not a scalefuzz store" : what + " missing";
      for (StoreAccess access : {StoreAccess::ReadOnly, StoreAccess::ReadWrite}) {
        try {
          RunStore::open_existing(out, access);
          ADD_FAILURE() << "opened";
        } catch (const StoreError& e) {
          EXPECT_NE(e.reason().find(reason), std::string::npos) << e.what();
        }
        EXPECT_EQ(read_file(out / "scalefuzz.db"), before);
        EXPECT_FALSE(fs::exists(out / "scalefuzz.db-wal"));
        EXPECT_FALSE(fs::exists(out / "scalefuzz.db-shm"));
      }
      expect_refused(out, "alpha", "fp-a", reason);
      EXPECT_FALSE(fs::exists(out / "scalefuzz.db-wal"));
      EXPECT_FALSE(fs::exists(out / "scalefuzz.db-shm"));
    }
  }
  EXPECT_GT(cases, 20);
}

TEST(StoreErrors, EmptyFileBecomesAFreshStore) {
  // A store whose creation was killed before its first commit is an empty
  // file; that holds nothing to lose, so it is initialised.
  testing::TempDir tmp;
  write_bytes(tmp.path() / "scalefuzz.db", "");
  auto store = RunStore::open(tmp.path(), "alpha", "fp-a");
  EXPECT_EQ(store.campaign_name(), "alpha");
  EXPECT_TRUE(store.runs().empty());
}

TEST(StoreErrors, MissingStoreForReportIsClear) {
  testing::TempDir tmp;
  try {
    RunStore::open_existing(tmp.path() / "nothing-here");
    FAIL();
  } catch (const StoreError& e) {
    EXPECT_NE(e.reason().find("no scalefuzz store"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(tmp.path() / "nothing-here"));
}

}  // namespace
}  // namespace scalefuzz::harness
