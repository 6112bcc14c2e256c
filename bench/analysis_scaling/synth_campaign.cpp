// Writes a campaign output directory holding one finished 2-rank run whose
// traces are synthetic but shaped like the production code of issue 37: most
// transfers build a derived datatype (MPI_Type_vector + MPI_Type_commit), post
// MPI_Irecv + MPI_Isend with it, complete both with MPI_Waitall and free the
// type. CALLS is the number of records of the run (both ranks), TYPES the
// number of datatypes created (spread evenly over the transfers). The files
// are written by trace::write_rank (packed, as a finalized rank leaves them)
// and the run is stored through the real RunStore, so `scalefuzz analyze OUT`
// reads and analyses it as after `scalefuzz run`.
// usage: synth_campaign OUT CALLS TYPES   (prints calls=C types=T events=E)
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "scalefuzz/harness/run_store.hpp"
#include "scalefuzz/trace/ops.hpp"
#include "scalefuzz/trace/writer.hpp"

namespace fs = std::filesystem;
namespace trace = scalefuzz::trace;
namespace ops = scalefuzz::trace::ops;
using scalefuzz::harness::RunStore;
using trace::Event;
using trace::OpClass;

namespace {

constexpr std::uint32_t kDouble = 0x4c00080b;  // MPICH's MPI_DOUBLE handle: the predefined key
constexpr int kRanks = 2;
constexpr int kPerTransfer = 5;                // Irecv, Isend, Waitall + 2 RequestDone children
constexpr int kPerType = 3;                    // Type_vector, Type_commit, Type_free

struct RankWriter {
  trace::RankTrace rt;
  std::ofstream types;
  std::uint64_t next_request = 1;

  Event& add(std::uint16_t op, OpClass cls, std::uint32_t site) {
    Event e{};
    e.seq = rt.events.size() + 1;
    e.t_enter_ns = 1'000'000'000ull + e.seq * 1000;
    e.t_exit_ns = e.t_enter_ns + 400;
    e.op = op;
    e.op_class = static_cast<std::uint8_t>(cls);
    e.callsite = site;
    e.peer = trace::kNoPeer;
    e.tag = trace::kNoTag;
    e.root = trace::kNoPeer;
    e.status_source = trace::kNoPeer;
    e.status_tag = trace::kNoTag;
    e.comm = trace::kCommWorld;
    rt.events.push_back(e);
    return rt.events.back();
  }
  // One element of `dtype` (64 bytes) to or from `peer`, tag 7.
  Event& post(std::uint16_t op, OpClass cls, std::uint32_t site, int peer, std::uint32_t dtype, std::uint64_t request,
              std::uint64_t buffer) {
    Event& e = add(op, cls, site);
    e.peer = peer;
    e.tag = 7;
    e.count = e.scount_arg = 1;
    e.bytes = 64;
    e.dtype = dtype;
    e.request = request;
    e.buffer = buffer;
    return e;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s OUT CALLS TYPES\n", argv[0]);
    return 2;
  }
  try {
    const fs::path out = argv[1];
    const long long calls = std::strtoll(argv[2], nullptr, 10), ntypes = std::strtoll(argv[3], nullptr, 10);
    const long long types_per_rank = ntypes / kRanks;
    const long long per_rank = calls / kRanks - 2 - types_per_rank * kPerType;  // minus Init, Finalize
    const long long transfers = per_rank / kPerTransfer;
    if (calls < 1000 || ntypes < kRanks || transfers < types_per_rank)
      throw std::runtime_error("need CALLS >= 1000, TYPES >= 2 and enough calls for one transfer per type");
    if (fs::exists(out)) throw std::runtime_error(out.string() + ": exists already");

    scalefuzz::harness::RunSpec spec;
    spec.campaign = "analysis-scaling";
    spec.run_id = "synthetic-c" + std::to_string(calls) + "-t" + std::to_string(ntypes);
    spec.nprocs = kRanks;
    spec.scale_role = "train";
    spec.argv = {"/bin/true"};
    fs::create_directories(out);
    {
      std::ofstream yaml(out / "campaign.yaml");
      yaml << "campaign: analysis-scaling\napp:\n  command: [\"/bin/true\"]\n  check: exit-code\nscales: [2]\n"
              "repetitions: 1\ntimeout: 60s\n";
    }
    RunStore store = RunStore::open(out, spec.campaign, "synthetic");
    const fs::path dir = store.prepare_run(spec);

    std::size_t events = 0;
    for (int r = 0; r < kRanks; ++r) {
      RankWriter w;
      w.rt.rank = r;
      w.rt.world_size = kRanks;
      w.rt.pid = 1000 + r;
      w.rt.start_ns = 1'000'000'000ull;
      w.rt.events.reserve(static_cast<std::size_t>(per_rank + types_per_rank * kPerType + 2));
      // Call sites: Init, Type_vector, Type_commit, Irecv, Isend, Waitall, Type_free, Finalize.
      const std::uint16_t site_ops[] = {ops::Init, ops::Type_vector, ops::Type_commit, ops::Irecv,
                                        ops::Isend, ops::Waitall, ops::Type_free, ops::Finalize};
      for (std::uint32_t id = 0; id < 8; ++id) {
        trace::CallSiteInfo s;
        s.id = id;
        s.op = site_ops[id];
        s.stable_hash = 0x5eed0000ull + id;
        s.frames = {0x401000ull + 16 * id, 0x402000ull};
        w.rt.sites.push_back(s);
        w.rt.features.push_back({0, 0, 0});
      }
      fs::create_directories(dir / "ranks");
      w.types.open(dir / "ranks" / (std::to_string(r) + ".types"));
      w.types << std::hex << kDouble << std::dec << " 8 8 0 1 1 MPI_DOUBLE 1 1 " << std::hex << kDouble << std::dec
              << ":1\n";
      w.add(ops::Init, OpClass::Init, 0);
      const int peer = 1 - r;
      long long made = 0;
      std::uint32_t key = trace::kTypeNone;
      for (long long t = 0; t < transfers; ++t) {
        // Type k is created at transfer floor(k * transfers / types) and freed before the next one.
        const bool new_type = made < types_per_rank && t * types_per_rank >= made * transfers;
        if (new_type) {
          key = static_cast<std::uint32_t>(made + 1);
          w.types << std::hex << key << std::dec << " 64 120 0 1 0 - " << std::hex << (0xabc0000ull + made)
                  << std::dec << " 1 " << std::hex << kDouble << std::dec << ":8 map 8";
          for (int k = 0; k < 8; ++k) w.types << ' ' << std::hex << kDouble << std::dec << '@' << 16 * k;
          w.types << '\n';
          Event& v = w.add(ops::Type_vector, OpClass::HandleNew, 1);
          v.tag = static_cast<std::int32_t>(trace::HandleKind::Datatype);
          v.buffer = 0x8c000000u + static_cast<std::uint64_t>(made % 1024);
          v.dtype = key;
          Event& c = w.add(ops::Type_commit, OpClass::TypeCommit, 2);
          c.tag = static_cast<std::int32_t>(trace::HandleKind::Datatype);
          c.buffer = v.buffer;
          c.dtype = key;
          ++made;
        }
        const std::uint32_t dtype = key;
        const std::uint64_t rreq = w.next_request++, sreq = w.next_request++;
        Event& rv = w.post(ops::Irecv, OpClass::Irecv, 3, peer, dtype, rreq, 0x7f0000100000ull);
        w.post(ops::Isend, OpClass::Isend, 4, peer, dtype, sreq, 0x7f0000200000ull);
        w.add(ops::Waitall, OpClass::Completion, 5);
        Event& d1 = w.add(ops::Waitall, OpClass::RequestDone, 5);
        d1.flags = trace::kFlagChild;
        d1.request = rreq;
        d1.peer = peer;
        d1.buffer = rv.buffer;
        d1.bytes = 64;
        d1.status_source = peer;
        d1.status_tag = 7;
        d1.status_bytes = 64;
        Event& d2 = w.add(ops::Waitall, OpClass::RequestDone, 5);
        d2.flags = trace::kFlagChild;
        d2.request = sreq;
        w.rt.features[3].calls++;
        w.rt.features[3].bytes_received += 64;
        w.rt.features[4].calls++;
        w.rt.features[4].bytes_sent += 64;
        w.rt.features[5].calls++;
        const bool last_use = made == types_per_rank ? t + 1 == transfers
                                                     : (t + 1) * types_per_rank >= made * transfers;
        if (key != trace::kTypeNone && last_use) {
          Event& f = w.add(ops::Type_free, OpClass::HandleFree, 6);
          f.tag = static_cast<std::int32_t>(trace::HandleKind::Datatype);
          f.buffer = 0x8c000000u + static_cast<std::uint64_t>((made - 1) % 1024);
          f.dtype = key;
          key = trace::kTypeNone;
        }
      }
      w.add(ops::Finalize, OpClass::Finalize, 7);
      w.types.close();
      events += w.rt.events.size();
      trace::write_rank(dir, w.rt, spec.run_id);
    }
    scalefuzz::harness::Outcome outcome;
    outcome.detail = "synthetic";
    store.record_finished(spec, outcome);
    std::printf("calls=%lld types=%lld events=%zu\n", calls, ntypes, events);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "synth_campaign: %s\n", e.what());
    return 2;
  }
}
