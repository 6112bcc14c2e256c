// Makes a campaign output directory of RUNS runs out of one recorded run, for
// the growth bench (run.sh): every run is a copy of the template run's
// directory (the files the real injector wrote: packed events, sites, Markov
// ...), stored through the real RunStore with its own run id, so that
// `scalefuzz analyze OUT` reads and analyses RUNS runs exactly as after
// `scalefuzz run`.
// usage: growth_store TEMPLATE_OUT OUT RUNS   (prints runs=R ranks=N events=E per run)
//   TEMPLATE_OUT: a campaign output directory with exactly one finished run
//   (its campaign.yaml is copied, so OUT is analysed with its detectors).
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>

#include "scalefuzz/harness/run_store.hpp"
#include "scalefuzz/trace/model.hpp"

namespace fs = std::filesystem;
using scalefuzz::harness::RunStore;
using scalefuzz::harness::StoreAccess;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s TEMPLATE_OUT OUT RUNS\n", argv[0]);
    return 2;
  }
  try {
    const fs::path template_out = argv[1], out = argv[2];
    const long runs = std::strtol(argv[3], nullptr, 10);
    if (runs < 1) throw std::runtime_error(std::string("RUNS must be >= 1: ") + argv[3]);
    RunStore from = RunStore::open_existing(template_out, StoreAccess::ReadOnly);
    auto records = from.runs();
    if (records.size() != 1 || !records[0].finished())
      throw std::runtime_error(template_out.string() + ": expected exactly one finished run, found " +
                               std::to_string(records.size()));
    const auto& tmpl = records[0];
    if (fs::exists(out)) throw std::runtime_error(out.string() + ": exists already");
    RunStore to = RunStore::open(out, from.campaign_name(), from.campaign_fingerprint());
    fs::copy_file(template_out / "campaign.yaml", out / "campaign.yaml");
    for (const char* key : {"campaign_dir", "campaign_file", "build_dir", "command_line"})
      if (auto v = from.meta(key)) to.set_meta(key, *v);
    for (long i = 0; i < runs; ++i) {
      auto spec = tmpl.spec;
      spec.run_id = tmpl.spec.run_id + "-g" + std::to_string(i);
      spec.repetition = static_cast<int>(i);
      fs::path dir = to.prepare_run(spec);
      for (const auto& entry : fs::directory_iterator(tmpl.dir)) {
        const auto name = entry.path().filename();
        if (name == "spec.json") continue;  // prepare_run wrote this run's
        fs::copy(entry.path(), dir / name, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
      }
      to.record_finished(spec, *tmpl.outcome);
    }
    std::size_t events = 0;
    for (const auto& rank : scalefuzz::trace::read_run(tmpl.dir).ranks) events += rank.events.size();
    // Parsed by run.sh: runs, ranks, events per run.
    std::printf("runs=%ld ranks=%d events=%zu\n", runs, tmpl.spec.nprocs, events);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "growth_store: %s\n", e.what());
    return 2;
  }
}
