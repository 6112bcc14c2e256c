// Size of one run directory's traces: events read back, bytes of the events
// files, of all rank files (apparent and allocated on disk), bytes per event.
// usage: trace_size RUN_DIR
// prints: events=E events_bytes=B rank_files_bytes=A rank_files_disk=D bytes_per_event=X
#include <sys/stat.h>

#include <cstdio>
#include <exception>
#include <filesystem>

#include "scalefuzz/trace/model.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s RUN_DIR\n", argv[0]);
    return 2;
  }
  try {
    const fs::path run_dir = argv[1];
    std::size_t events = 0;
    for (const auto& rank : scalefuzz::trace::read_run(run_dir).ranks) events += rank.events.size();
    std::uintmax_t events_bytes = 0, apparent = 0, disk = 0;
    for (const auto& entry : fs::directory_iterator(run_dir / "ranks")) {
      struct stat st{};
      if (::stat(entry.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
      apparent += static_cast<std::uintmax_t>(st.st_size);
      disk += static_cast<std::uintmax_t>(st.st_blocks) * 512;
      if (entry.path().extension() == ".events") events_bytes += static_cast<std::uintmax_t>(st.st_size);
    }
    std::printf("events=%zu events_bytes=%ju rank_files_bytes=%ju rank_files_disk=%ju bytes_per_event=%.2f\n", events,
                events_bytes, apparent, disk, events ? static_cast<double>(events_bytes) / static_cast<double>(events) : 0.0);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "trace_size: %s\n", e.what());
    return 2;
  }
}
