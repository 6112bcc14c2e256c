// NINJA's math on synthetic send timelines (no MPI).
#include "model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace scalefuzz::noise {
namespace {

VbqParams params(std::uint64_t threshold, std::uint64_t packet) {
  VbqParams p;
  p.bandwidth = 1e9;  // 1 byte/ns
  p.latency_ns = 10;
  p.scale = 1;
  p.threshold = threshold;
  p.packet_size = packet;
  return p;
}

TEST(NoiseModel, PacketizeSplitsIntoFixedSizePackets) {
  EXPECT_EQ(packetize(0, 100), (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(packetize(250, 100), (std::vector<std::uint64_t>{100, 100, 50}));
  EXPECT_EQ(packetize(100, 100), (std::vector<std::uint64_t>{100}));
}

TEST(NoiseModel, Formula1SumsFirstNPacketsTimesScale) {
  VbqParams p = params(1, 100);
  p.scale = 2;
  // (100/1 + 10) + (50/1 + 10) = 170, times S_p = 340.
  EXPECT_DOUBLE_EQ(formula1({100, 50, 7}, 2, p), 340.0);
  EXPECT_DOUBLE_EQ(formula1({100}, 0, p), 0.0);
}

TEST(NoiseModel, VbqDelaysOnlyBeyondThreshold) {
  VirtualBufferQueue q(params(3, 100));  // each 100-byte packet takes 110 ns
  // Each message's packets leave 110 ns apart from its own send time.
  EXPECT_EQ(q.offer(1000, 100), 0u);  // queue 1 <= 3
  EXPECT_EQ(q.offer(1000, 100), 0u);
  EXPECT_EQ(q.offer(1000, 100), 0u);  // queue holds 3 = N_s
  // N_l 3 + N_m 1 > 3: N = 1 packet from the head must leave (t 1110).
  EXPECT_EQ(q.offer(1000, 100), 110u);
  // N_l 4 + N_m 2 > 3: N = 3 packets: the third from the head leaves at 1110.
  EXPECT_EQ(q.offer(1000, 200), 110u);
  // Six packets queued; the head ones leave at 1110: at 1110, the 2-packet
  // message's first (1110) and second (1220) remain, plus the new one.
  EXPECT_EQ(q.offer(1110, 100), 0u);
}

TEST(NoiseModel, VbqChargesAFullPacketForSmallMessages) {
  // The reference charges the first packet of every message a full packet:
  // an 8-byte message holds the link for 100/1 + 10 = 110 ns.
  VirtualBufferQueue q(params(1, 100));
  EXPECT_EQ(q.offer(0, 8), 0u);    // alone: within N_s = 1
  EXPECT_EQ(q.offer(40, 8), 70u);  // waits for the first one's packet (t 110)
  EXPECT_EQ(q.length(109), 2u);
  EXPECT_EQ(q.offer(500, 8), 0u);  // both left: idle link again
}

TEST(NoiseModel, VbqDelayGrowsWithMessageSize) {
  VirtualBufferQueue q(params(1, 100));
  // A 250-byte message alone: packets leave at 110, 220, 280; more than
  // N_s = 1 queued, so it waits until N = 3 + 0 - 1 = 2 packets left: 220.
  EXPECT_EQ(q.offer(0, 250), 220u);
  VirtualBufferQueue r(params(1, 100));
  EXPECT_EQ(r.offer(0, 100), 0u);
}

TEST(NoiseModel, VbqDrainsOverTime) {
  VirtualBufferQueue q(params(2, 100));
  q.offer(0, 300);  // 3 packets, leaving at 110, 220, 330
  EXPECT_EQ(q.length(0), 3u);
  EXPECT_EQ(q.length(110), 2u);
  EXPECT_EQ(q.length(330), 0u);
  EXPECT_EQ(q.offer(10000, 100), 0u);  // idle link: no congestion left
}

TEST(NoiseModel, VbqIsExactAtWallClockTimes) {
  // CLOCK_REALTIME in ns (~1.8e18): a double there resolves only 256 ns.
  VbqParams p = params(1, 64);
  p.bandwidth = 1e9;
  p.latency_ns = 1000;
  p.scale = 2;
  VirtualBufferQueue q(p);
  const std::uint64_t now = 1795492336556628209ull;
  EXPECT_EQ(q.offer(now, 4096), 63u * (64 + 1000) * 2);  // Formula 1 over 63 packets: 134,064 ns
}

TEST(NoiseModel, HeldCallerDoesNotChainTheDelaysOfABurst) {
  // Seven 8-byte sends 2 ns apart (the reference's MPI_Isend returns at once),
  // the caller holding each delay itself. Packets take 110 ns.
  auto burst = [](bool discount) {
    VirtualBufferQueue q(params(1, 100));
    HeldVbqClock clock;
    std::uint64_t t = 1000, total = 0;
    for (int i = 0; i < 7; ++i) {
      const std::uint64_t d = discount ? clock.offer(q, t, 8) : q.offer(t, 8);
      clock.held(d);
      total += d;
      t += d + 2;
    }
    return total;
  };
  // As in the reference: every delayed send is due when the first packets
  // leave, one packet time after the burst began.
  EXPECT_EQ(burst(true), 108u);
  // A queue that sees the holds chains them: three packet times.
  EXPECT_EQ(burst(false), 3u * 108);
  // Once the queue drained, the held time no longer counts.
  VirtualBufferQueue q(params(1, 100));
  HeldVbqClock clock;
  EXPECT_EQ(clock.offer(q, 0, 8), 0u);
  EXPECT_EQ(clock.offer(q, 2, 8), 108u);
  clock.held(108);
  EXPECT_EQ(clock.offer(q, 100000, 8), 0u);
  EXPECT_EQ(clock.offer(q, 100002, 8), 108u);
}

TEST(NoiseModel, SendSetsSplitWhereIntervalExceedsMinNoise) {
  // Two bursts separated by 100 ns; D_m = 10.
  std::vector<std::uint64_t> t{0, 5, 10, 110, 112};
  EXPECT_EQ(split_send_sets(t, 10), (std::vector<std::size_t>{0, 3}));
  EXPECT_EQ(split_send_sets(t, 1000), (std::vector<std::size_t>{0}));
  EXPECT_TRUE(split_send_sets({}, 10).empty());
}

TEST(NoiseModel, Formula2IsScaledSpanToNextSetAndSkipsLastSet) {
  std::vector<std::uint64_t> t{0, 5, 10, 110, 112, 300};
  std::vector<std::size_t> sets = split_send_sets(t, 10);  // {0,1,2} {3,4} {5}
  ASSERT_EQ(sets, (std::vector<std::size_t>{0, 3, 5}));
  std::vector<double> v = formula2(t, sets, 1.2);
  ASSERT_EQ(v.size(), 2u);  // none for the last set
  EXPECT_DOUBLE_EQ(v[0], 110 * 1.2);
  EXPECT_DOUBLE_EQ(v[1], (300 - 110) * 1.2);
}

TEST(NoiseModel, AnalyzerKeepsMaxOverEpochsAndFlagsUnsafeIds) {
  Analysis a;
  SendSetAnalyzer an;
  MsgId racy{7, 0}, isolated{8, 0};
  // Epoch 1: tag 7 has two sets (100 apart); tag 8 one set.
  for (std::uint64_t t : {0, 1, 100}) an.send(racy, t);
  for (std::uint64_t t : {2, 3}) an.send(isolated, t);
  an.end_epoch(10, 1.0, a);
  // Epoch 2: tag 7 again, wider gap.
  for (std::uint64_t t : {1000, 1300}) an.send(racy, t);
  an.end_epoch(10, 1.0, a);
  EXPECT_EQ(a.epochs, 2u);
  ASSERT_EQ(a.noise.count(racy), 1u);
  EXPECT_EQ(a.noise[racy], (std::vector<double>{300}));
  EXPECT_EQ(a.noise.count(isolated), 0u);
  EXPECT_EQ(a.unsafe, (std::vector<MsgId>{racy}));
}

TEST(NoiseModel, UsualSetsDropTheNoiseOfASetOnlyARareEpochHas) {
  // Two routines per epoch, 1000 apart; in one epoch of 21 the rank was
  // descheduled 1500 inside the first burst: three sets there, and the max
  // over epochs would give the usual last set (undelayed) a V of its own.
  Analysis a;
  SendSetAnalyzer an;
  const MsgId id{0, 0};
  for (std::uint64_t e = 0; e < 21; ++e) {
    const std::uint64_t t0 = e * 10000;
    if (e == 7) {
      for (std::uint64_t t : {t0, t0 + 1500, t0 + 2500}) an.send(id, t);
    } else {
      for (std::uint64_t t : {t0, t0 + 5, t0 + 1000}) an.send(id, t);
    }
    an.end_epoch(10, 1.0, a);
  }
  ASSERT_EQ(a.noise[id].size(), 2u);
  EXPECT_EQ(a.sets_per_epoch[id], (std::map<std::size_t, std::uint64_t>{{2, 20}, {3, 1}}));
  keep_usual_sets(a);
  EXPECT_EQ(a.noise[id], (std::vector<double>{1500}));  // the first set's, max over all epochs
  // A tie keeps the larger number of sets; an id whose usual epoch has one
  // set keeps no noise at all.
  Analysis tie;
  tie.noise[id] = {100, 200, 300};
  tie.sets_per_epoch[id] = {{2, 4}, {3, 4}, {4, 1}};
  keep_usual_sets(tie);
  EXPECT_EQ(tie.noise[id], (std::vector<double>{100, 200}));
  Analysis single;
  single.noise[id] = {100};
  single.sets_per_epoch[id] = {{1, 9}, {2, 1}};
  keep_usual_sets(single);
  EXPECT_EQ(single.noise.count(id), 0u);
}

TEST(NoiseModel, EpochEndsOnlyWithoutMessagesInFlight) {
  EXPECT_TRUE(epoch_ends(10, 10));
  EXPECT_FALSE(epoch_ends(11, 10));
}

TEST(NoiseModel, AnalysisFileRoundTripsAndRejectsGarbage) {
  Analysis a;
  a.rank = 3;
  a.size = 4;
  a.min_noise = 1500;
  a.epochs = 2;
  a.epoch_ends_at = {0, 7};
  a.noise[{5, 0}] = {1000, 2000};
  a.unsafe = {{5, 0}};
  a.sets_per_epoch[{5, 0}] = {{3, 2}};
  std::string err;
  auto b = parse_analysis(format_analysis(a), err);
  ASSERT_TRUE(b) << err;
  EXPECT_EQ(b->rank, 3);
  EXPECT_EQ(b->size, 4);
  EXPECT_EQ(b->min_noise, 1500u);
  EXPECT_EQ(b->epochs, 2u);
  EXPECT_EQ(b->epoch_ends_at, (std::vector<std::uint64_t>{0, 7}));
  EXPECT_EQ(b->noise[(MsgId{5, 0})], (std::vector<double>{1000, 2000}));
  EXPECT_EQ(b->unsafe, a.unsafe);
  EXPECT_EQ(b->sets_per_epoch, a.sets_per_epoch);
  EXPECT_FALSE(parse_analysis("hello\n", err));
  EXPECT_FALSE(parse_analysis("ninja-analysis 2\nsets 5 0 3:x\n", err));
  EXPECT_NE(err.find("line 2"), std::string::npos) << err;
  EXPECT_FALSE(parse_analysis("ninja-analysis 2\nmsgid x\n", err));
  EXPECT_NE(err.find("line 2"), std::string::npos);
}

TEST(NoiseModel, OldAnalysisVersionIsRejectedWithAHint) {
  std::string err;
  EXPECT_FALSE(parse_analysis("ninja-analysis 1\nrank 0 size 2\n", err));
  EXPECT_NE(err.find("rerun the system-centric run"), std::string::npos) << err;
}

// The deferred epoch log gives the same analysis as ending epochs on the spot.
TEST(NoiseModel, DeferredEpochsMatchImmediateEpochDetection) {
  const MsgId a{1, 0}, b{2, 0};
  // (time, id) sends and, between them, global collectives with the global
  // send/recv sums seen there: in flight at the 2nd, quiet at the 1st and 3rd.
  struct Step {
    bool collective;
    MsgId id;
    std::uint64_t t;
    unsigned long long gs, gr;
  };
  const std::vector<Step> steps = {{false, a, 0, 0, 0},      {false, a, 10, 0, 0},  {false, a, 5000, 0, 0},
                                   {true, a, 0, 6, 6},       {false, b, 6000, 0, 0}, {false, b, 6010, 0, 0},
                                   {true, a, 0, 9, 8},       {false, b, 9000, 0, 0}, {false, a, 9100, 0, 0},
                                   {true, a, 0, 12, 12},     {false, a, 20000, 0, 0}};
  SendSetAnalyzer now_analyzer;
  Analysis now_out;
  std::vector<std::uint64_t> now_ends;
  std::uint64_t k = 0;
  for (const auto& s : steps) {
    if (!s.collective) {
      now_analyzer.send(s.id, s.t);
      continue;
    }
    if (epoch_ends(s.gs, s.gr)) {
      now_analyzer.end_epoch(100, 1.0, now_out);
      now_ends.push_back(k);
    }
    ++k;
  }
  now_analyzer.end_epoch(100, 1.0, now_out);

  for (std::size_t batch : {1u, 2u, 100u}) {
    DeferredEpochs log(batch);
    SendSetAnalyzer analyzer;
    Analysis out;
    std::vector<unsigned long long> global;
    for (const auto& s : steps) {
      if (!s.collective) {
        log.send(s.id, s.t);
        continue;
      }
      global.push_back(s.gs);
      global.push_back(s.gr);
      if (log.mark(0, 0)) {  // local counts are summed by the caller; here `global` stands for the sums
        log.resolve(global, analyzer, 100, out);
        global.clear();
      }
    }
    EXPECT_EQ(log.pending_marks(), global.size() / 2);
    log.resolve(global, analyzer, 100, out);
    analyzer.end_epoch(100, 1.0, out);
    EXPECT_EQ(out.epoch_ends_at, now_ends) << "batch " << batch;
    EXPECT_EQ(out.epochs, now_out.epochs) << "batch " << batch;
    EXPECT_EQ(out.noise, now_out.noise) << "batch " << batch;
    EXPECT_EQ(out.unsafe, now_out.unsafe) << "batch " << batch;
  }
  EXPECT_EQ(now_ends, (std::vector<std::uint64_t>{0, 2}));
  // a: sets {0,10} {5000} in epoch 0; b: {6000,6010} {9000} in the epoch
  // that spans the collective with a message in flight.
  EXPECT_EQ(now_out.unsafe, (std::vector<MsgId>{a, b}));
}

TEST(NoiseModel, TrackerDelaysAllButTheLastSetOfUnsafeIds) {
  Analysis a;
  a.min_noise = 10;
  a.noise[{7, 0}] = {500};
  a.unsafe = {{7, 0}};
  SendSetTracker tr;
  EXPECT_EQ(tr.on_send(a, {7, 0}, 0), 500u);    // set 0
  EXPECT_EQ(tr.on_send(a, {7, 0}, 5), 500u);    // still set 0
  EXPECT_EQ(tr.on_send(a, {7, 0}, 200), 0u);    // set 1: last, no noise
  EXPECT_EQ(tr.on_send(a, {9, 0}, 201), 0u);    // safe id
  tr.new_epoch();
  EXPECT_EQ(tr.on_send(a, {7, 0}, 1000), 500u); // new epoch restarts at set 0
}

TEST(NoiseModel, RandomDelaysAreSeededAndBounded) {
  Rng a(42, 1), b(42, 1), c(42, 2);
  int delayed = 0;
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    std::uint64_t x = random_delay(a, 0.3, 1000), y = random_delay(b, 0.3, 1000), z = random_delay(c, 0.3, 1000);
    EXPECT_EQ(x, y);
    differs |= x != z;
    EXPECT_LE(x, 1000u);
    delayed += x > 0;
  }
  EXPECT_TRUE(differs);
  EXPECT_GT(delayed, 230);
  EXPECT_LT(delayed, 370);
}

TEST(NoiseModel, VictimsAreAFifthOfTheRanksAtLeastOneSameOnEveryRankAndVaryWithTheSeed) {
  auto count = [](const std::vector<bool>& v) { return std::count(v.begin(), v.end(), true); };
  EXPECT_EQ(count(victim_ranks(7, 4, 0.2)), 1);    // floor(0.8) = 0 -> at least one
  EXPECT_EQ(count(victim_ranks(7, 10, 0.2)), 2);
  EXPECT_EQ(count(victim_ranks(7, 64, 0.2)), 12);
  EXPECT_EQ(count(victim_ranks(7, 8, 1.0)), 8);     // share 1: every rank
  EXPECT_EQ(victim_ranks(7, 64, 0.2), victim_ranks(7, 64, 0.2));  // the seed alone decides
  std::set<std::vector<bool>> seen;
  for (std::uint64_t seed = 0; seed < 20; ++seed) seen.insert(victim_ranks(seed, 4, 0.2));
  EXPECT_EQ(seen.size(), 4u);  // over 20 seeds every one of the 4 ranks is drawn
  EXPECT_TRUE(victim_ranks(1, 0, 0.2).empty());
}

TEST(NoiseModel, DueTimesAreMonotonePerChannel) {
  DueOrder o;
  EXPECT_EQ(o.due(1, 0, 500), 500u);
  EXPECT_EQ(o.due(1, 0, 100), 500u);  // may not overtake the earlier send
  EXPECT_EQ(o.due(2, 0, 100), 100u);  // another destination is independent
  EXPECT_EQ(o.due(1, 9, 100), 100u);  // another communicator too
  EXPECT_EQ(o.due(1, 0, 900), 900u);
}

}  // namespace
}  // namespace scalefuzz::noise
