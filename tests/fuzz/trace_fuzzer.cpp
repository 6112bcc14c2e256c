// libFuzzer target: corrupted run stores. The first byte picks which file of
// a run directory the rest of the input becomes (a rank's events, sites,
// features, markov, live or modules file, or the SQLite store); the readers
// must accept it or refuse it with TraceError / StoreError, never crash,
// hang or grow without bound.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "scalefuzz/harness/run_store.hpp"
#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const fs::path dir = fs::temp_directory_path() / ("scalefuzz-trace-fuzz-" + std::to_string(getpid()));
  static const char* kFiles[] = {"events", "sites", "features", "markov", "live", "modules", "db"};
  const char* kind = kFiles[data[0] % 7];
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir / "ranks");
  const fs::path file = std::string(kind) == "db" ? dir / "scalefuzz.db" : dir / "ranks" / (std::string("0.") + kind);
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  try {
    if (std::string(kind) == "db") {
      auto store = scalefuzz::harness::RunStore::open_existing(dir, scalefuzz::harness::StoreAccess::ReadOnly);
      (void)store.runs();
    } else if (std::string(kind) == "modules") {
      (void)scalefuzz::trace::read_modules(file);
    } else {
      (void)scalefuzz::trace::read_rank(dir, 0);
    }
  } catch (const scalefuzz::trace::TraceError&) {
  } catch (const scalefuzz::harness::StoreError&) {
  }
  return 0;
}
