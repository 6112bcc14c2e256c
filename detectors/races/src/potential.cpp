// Potential races from one run: DAMPI's potential-match analysis (Vo et al.,
// SC'10) with vector clocks. Happens-before comes from the run's matched
// messages (send -> receive completion) and blocking collectives (all
// members' entries -> every member's exit). A send from another rank is a
// potential match of a wildcard receive when its envelope fits, it was not
// consumed by a receive posted before this one, and it is not causally
// after the receive's completion: nothing in the program stops it from
// arriving first.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "instances.hpp"

namespace scalefuzz::detectors::races {

namespace {

using Clock = std::vector<std::uint32_t>;

void merge(Clock& into, const Clock& from) {
  for (std::size_t i = 0; i < into.size() && i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

// MPI_Probe/MPI_Iprobe with MPI_ANY_SOURCE that found a message.
bool is_wildcard_probe(const trace::Event& e) {
  return static_cast<trace::OpClass>(e.op_class) == trace::OpClass::Probe && e.peer == trace::kAnySource &&
         e.status_source >= 0;
}

struct CollectiveArrivals {
  int members = 0;
  int arrived = 0;
  Clock merged;
};

// Each matched send's clock, and the receiving rank's own component at each
// receive completion.
struct Clocks {
  std::vector<Clock> send;             // by message index
  std::vector<std::uint32_t> done;     // by message index: receiver's clock entry at completion
  std::vector<std::uint32_t> posted;   // by message index: receiver's clock entry at the receive's post
  std::vector<bool> after_post;        // by message index: the receive's post happens before the send
  std::vector<Clock> post;             // by message index: the clock at a wildcard receive's post (keep_clocks)
  std::vector<Clock> unmatched_send;   // by index in matching.unmatched_sends (keep_clocks)
  std::map<std::pair<std::size_t, std::size_t>, Clock> probe;  // (rank, event) of a wildcard probe: its clock (keep_clocks)
};

// keep_clocks: the clock of every send and of every wildcard receive's post
// stays (n entries per message); without it a send's clock is dropped once
// its receive completed.
Clocks vector_clocks(const trace::RunTrace& run, const trace::Matching& matching, bool keep_clocks) {
  const std::size_t n = run.ranks.size();
  const std::size_t msgs = matching.messages.size();
  const auto send_of = message_of_event(run, matching, &trace::MatchedMessage::send);
  const auto done_of = message_of_event(run, matching, &trace::MatchedMessage::recv_done);
  const auto post_of = message_of_event(run, matching, &trace::MatchedMessage::recv_post);
  // Blocking collectives: the k-th one on a communicator is the same call on every member.
  std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>> coll_key(n);
  std::map<std::pair<std::uint32_t, std::uint64_t>, CollectiveArrivals> colls;
  for (std::size_t r = 0; r < n; ++r) {
    std::map<std::uint32_t, std::uint64_t> ordinal;
    const auto& events = run.ranks[r].events;
    coll_key[r].assign(events.size(), {0, 0});
    for (std::size_t i = 0; i < events.size(); ++i) {
      if (static_cast<trace::OpClass>(events[i].op_class) != trace::OpClass::Collective) continue;
      auto key = std::make_pair(events[i].comm, ordinal[events[i].comm]++);
      coll_key[r][i] = key;
      auto& c = colls[key];
      ++c.members;
      c.merged.assign(n, 0);
    }
  }
  Clocks out;
  out.send.resize(msgs);
  out.done.assign(msgs, 0);
  out.posted.assign(msgs, 0);
  out.after_post.assign(msgs, false);
  std::vector<std::vector<long>> unmatched_of(n);
  if (keep_clocks) {
    out.post.resize(msgs);
    out.unmatched_send.resize(matching.unmatched_sends.size());
    for (std::size_t r = 0; r < n; ++r) unmatched_of[r].assign(run.ranks[r].events.size(), -1);
    for (std::size_t k = 0; k < matching.unmatched_sends.size(); ++k) {
      const auto& at = matching.unmatched_sends[k];
      if (static_cast<std::size_t>(at.rank) < n && at.index < unmatched_of[static_cast<std::size_t>(at.rank)].size())
        unmatched_of[static_cast<std::size_t>(at.rank)][at.index] = static_cast<long>(k);
    }
  }
  std::vector<bool> sent(msgs, false);
  std::vector<Clock> vc(n, Clock(n, 0));
  std::vector<std::size_t> pos(n, 0);
  std::vector<bool> arrived_here(n, false);  // rank r registered at its current collective
  auto step = [&](std::size_t r, bool force) -> bool {
    const auto& events = run.ranks[r].events;
    const std::size_t i = pos[r];
    const auto& e = events[i];
    if (static_cast<trace::OpClass>(e.op_class) == trace::OpClass::Collective) {
      auto& c = colls[coll_key[r][i]];
      if (!arrived_here[r]) {
        merge(c.merged, vc[r]);
        ++c.arrived;
        arrived_here[r] = true;
      }
      if (c.arrived < c.members && !force) return false;
      merge(vc[r], c.merged);
      arrived_here[r] = false;
    }
    // A blocking wildcard receive is posted and done in one event: its
    // post's past excludes the message it took.
    const long posted_here = keep_clocks && e.peer == trace::kAnySource ? post_of[r][i] : -1;
    if (posted_here >= 0) out.post[static_cast<std::size_t>(posted_here)] = vc[r];
    if (keep_clocks && is_wildcard_probe(e)) out.probe[{r, i}] = vc[r];
    if (long m = done_of[r][i]; m >= 0) {
      if (!sent[static_cast<std::size_t>(m)] && !force) return false;
      if (sent[static_cast<std::size_t>(m)]) merge(vc[r], out.send[static_cast<std::size_t>(m)]);
      if (!keep_clocks) Clock().swap(out.send[static_cast<std::size_t>(m)]);  // only in-flight ones kept
    }
    ++vc[r][r];
    if (long m = send_of[r][i]; m >= 0) {
      const auto k = static_cast<std::size_t>(m);
      out.send[k] = vc[r];
      sent[k] = true;
      // A post that happens before this send was simulated before it (every
      // chain of edges is), so its tick is known here.
      const auto to = static_cast<std::size_t>(matching.messages[k].recv_post.rank);
      out.after_post[k] = out.posted[k] > 0 && to < n && vc[r][to] >= out.posted[k];
    }
    if (keep_clocks)
      if (long k = unmatched_of[r][i]; k >= 0) out.unmatched_send[static_cast<std::size_t>(k)] = vc[r];
    if (long m = done_of[r][i]; m >= 0) out.done[static_cast<std::size_t>(m)] = vc[r][r];
    if (long m = post_of[r][i]; m >= 0) {
      out.posted[static_cast<std::size_t>(m)] = vc[r][r];
      if (posted_here >= 0) out.post[static_cast<std::size_t>(m)][r] = vc[r][r];
    }
    ++pos[r];
    return true;
  };
  for (;;) {
    bool progress = false, unfinished = false;
    for (std::size_t r = 0; r < n; ++r)
      while (pos[r] < run.ranks[r].events.size() && step(r, false)) progress = true;
    for (std::size_t r = 0; r < n && !progress; ++r)
      if (pos[r] < run.ranks[r].events.size()) {
        unfinished = true;
        step(r, true);  // an inconsistent (cut) trace: drop this dependency and go on
        progress = true;
      }
    if (!progress && !unfinished) break;
    if (!progress) break;
    bool all_done = true;
    for (std::size_t r = 0; r < n; ++r) all_done = all_done && pos[r] >= run.ranks[r].events.size();
    if (all_done) break;
  }
  return out;
}

// A message this run received elsewhere, as the alternative of another
// receive, probe or completion (`past`: its send's clock).
AlternativeSend received_alternative(const ObservedMatch& o, const Clock& past) {
  return {.send_rank = o.send_rank, .send_site_hash = o.send_site_hash, .send_site_id = o.send_site_id,
          .send_instance = o.send_instance, .tag = o.tag, .received = true, .recv_site_hash = o.recv_site_hash,
          .recv_round = o.recv_round, .other_instance = true, .past = past};
}

// A wildcard probe (MPI_Probe/MPI_Iprobe with MPI_ANY_SOURCE that found a
// message) and what it took: the message the rank received next from the
// reported source and tag. `later`: the messages the rank received after the
// probe that fit its envelope, in post order (the taken one among them).
struct ProbeTake {
  std::size_t rank = 0;
  std::size_t event = 0;
  std::size_t message = 0;
  ObservedMatch match;  // the taken message with the probe as its receive
  std::vector<std::size_t> later;
};

// Every wildcard probe of the run that took a message, in (rank, event)
// order; a probe whose message was never received (a run cut short) is left
// out. Probes of a site are numbered in that order (recv_instance).
std::vector<ProbeTake> probe_takes(const trace::RunTrace& run, const trace::Matching& matching,
                                   const std::vector<ObservedMatch>& obs) {
  std::vector<ProbeTake> out;
  // Most runs have none: skip sorting their receives (every run is summarized).
  const bool any_probe = std::any_of(run.ranks.begin(), run.ranks.end(), [](const trace::RankTrace& rank) {
    return std::any_of(rank.events.begin(), rank.events.end(), is_wildcard_probe);
  });
  if (!any_probe) return out;
  // Per receiving rank, its received messages in post order.
  std::vector<std::vector<std::size_t>> received(run.ranks.size());
  for (std::size_t m = 0; m < matching.messages.size(); ++m)
    received[static_cast<std::size_t>(matching.messages[m].recv_post.rank)].push_back(m);
  for (auto& list : received)
    std::sort(list.begin(), list.end(),
              [&](std::size_t a, std::size_t b) { return matching.messages[a].recv_post.index < matching.messages[b].recv_post.index; });
  std::map<std::pair<std::size_t, std::uint64_t>, std::uint64_t> probes_at;  // (rank, probe site) -> probes so far
  for (std::size_t r = 0; r < run.ranks.size(); ++r)
    for (std::size_t i = 0; i < run.ranks[r].events.size(); ++i) {
      const trace::Event& p = run.ranks[r].events[i];
      if (!is_wildcard_probe(p)) continue;
      ProbeTake take;
      take.rank = r;
      take.event = i;
      // Only receives posted after the probe: what the probe saw was not yet received.
      const auto& posted = received[r];
      const auto after = std::upper_bound(posted.begin(), posted.end(), i, [&](std::size_t event, std::size_t m) {
        return event < matching.messages[m].recv_post.index;
      });
      long taken = -1;
      for (auto it = after; it != posted.end(); ++it) {
        const trace::Event& sent =
            run.ranks[static_cast<std::size_t>(matching.messages[*it].send.rank)].events[matching.messages[*it].send.index];
        if (sent.comm != p.comm || (p.tag != trace::kAnyTag && sent.tag != p.tag)) continue;
        take.later.push_back(*it);
        if (taken < 0 && obs[*it].send_rank == p.status_source && obs[*it].tag == p.status_tag) taken = static_cast<long>(*it);
      }
      if (taken < 0) continue;
      take.message = static_cast<std::size_t>(taken);
      take.match = obs[take.message];
      take.match.recv_site_id = p.callsite;
      take.match.recv_site_hash = site_hash(run, static_cast<int>(r), p.callsite);
      take.match.wildcard = true;
      take.match.recv_instance = probes_at[{r, take.match.recv_site_hash}]++;
      out.push_back(std::move(take));
    }
  return out;
}

// Wildcard probes as wildcard receives whose post and completion are the
// probe's record: the first not yet received message of each other sender
// that fits and whose send does not follow the probe (vector clocks) could
// have been reported instead. Appended to `out`.
void probe_alternatives(const trace::RunTrace& run, const trace::Matching& matching, const std::vector<ObservedMatch>& obs,
                        const Clocks& clocks, std::vector<WildcardAlternatives>& out) {
  for (auto& take : probe_takes(run, matching, obs)) {
    const auto clock = clocks.probe.find({take.rank, take.event});
    if (clock == clocks.probe.end()) continue;
    const trace::Event& p = run.ranks[take.rank].events[take.event];
    WildcardAlternatives w;
    w.actual = take.match;
    w.message = take.message;
    w.post_event = take.event;
    w.done_event = take.event;
    w.post_past = clock->second;
    std::set<int> senders;
    for (const std::size_t m : take.later) {
      if (senders.size() + 1 >= run.ranks.size()) break;
      const int s = obs[m].send_rank;
      if (s == p.status_source || !senders.insert(s).second) continue;  // the first fitting one per sender
      const auto& vc = clocks.send[m];
      if (take.rank < vc.size() && vc[take.rank] > take.event) continue;  // sent after the probe returned (r's clock then is i + 1)
      w.alternatives.push_back(received_alternative(obs[m], vc));
    }
    std::sort(w.alternatives.begin(), w.alternatives.end(),
              [](const AlternativeSend& a, const AlternativeSend& b) { return a.send_rank < b.send_rank; });
    out.push_back(std::move(w));
  }
}

}  // namespace

void mark_after_post(const trace::RunTrace& run, const trace::Matching& matching, std::vector<ObservedMatch>& obs) {
  if (std::none_of(obs.begin(), obs.end(), [](const ObservedMatch& o) { return o.wildcard; })) return;
  const Clocks clocks = vector_clocks(run, matching, false);
  for (std::size_t i = 0; i < obs.size() && i < clocks.after_post.size(); ++i) obs[i].after_own_post = clocks.after_post[i];
}

std::vector<ObservedMatch> probe_matches(const trace::RunTrace& run, const trace::Matching& matching,
                                         const std::vector<ObservedMatch>& observed) {
  std::vector<ObservedMatch> out;
  for (auto& take : probe_takes(run, matching, observed)) out.push_back(std::move(take.match));
  return out;
}

std::vector<ObservedMatch> probe_matches(const trace::RunTrace& run, const trace::Matching& matching) {
  return probe_matches(run, matching, observe_matches(run, matching));
}

std::vector<WildcardAlternatives> potential_matches(const trace::RunTrace& run, const trace::Matching& matching) {
  std::vector<WildcardAlternatives> out;
  const std::vector<ObservedMatch> obs = observe_matches(run, matching);
  bool any_wildcard = std::any_of(obs.begin(), obs.end(), [](const ObservedMatch& o) { return o.wildcard; });
  for (const auto& rank : run.ranks)
    for (const auto& e : rank.events)
      any_wildcard = any_wildcard || is_wildcard_probe(e);
  if (!any_wildcard) return out;
  const Clocks clocks = vector_clocks(run, matching, true);
  const auto instance = send_instances(run, matching);
  // Sends to each receiver from each sender, in the sender's order: matched
  // messages (>= 0, their index) and sends never received (-1 - their index
  // in matching.unmatched_sends).
  std::map<std::pair<int, int>, std::vector<std::pair<std::size_t, long>>> to_from;
  for (std::size_t i = 0; i < obs.size(); ++i)
    to_from[{obs[i].recv_rank, obs[i].send_rank}].push_back({matching.messages[i].send.index, static_cast<long>(i)});
  for (std::size_t k = 0; k < matching.unmatched_sends.size(); ++k) {
    const auto& at = matching.unmatched_sends[k];
    const trace::Event& e = run.ranks[static_cast<std::size_t>(at.rank)].events[at.index];
    if (e.peer >= 0) to_from[{e.peer, at.rank}].push_back({at.index, -1 - static_cast<long>(k)});
  }
  for (auto& [key, list] : to_from) std::sort(list.begin(), list.end());
  // Each rank's wildcard receive posts in event order, matched or not.
  const auto post_of = message_of_event(run, matching, &trace::MatchedMessage::recv_post);
  std::vector<std::vector<std::uint64_t>> ordinal(run.ranks.size());
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    const auto& events = run.ranks[r].events;
    ordinal[r].assign(events.size(), 0);
    std::uint64_t next = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
      const auto cls = static_cast<trace::OpClass>(events[i].op_class);
      const bool recv = cls == trace::OpClass::Recv || cls == trace::OpClass::Irecv || post_of[r][i] >= 0;
      if (recv && events[i].peer == trace::kAnySource) ordinal[r][i] = next++;
    }
  }
  const std::size_t n = run.ranks.size();
  for (std::size_t i = 0; i < obs.size(); ++i) {
    const ObservedMatch& a = obs[i];
    if (!a.wildcard) continue;
    const auto& post = matching.messages[i].recv_post;
    const trace::Event& posted = run.ranks[static_cast<std::size_t>(post.rank)].events[post.index];
    WildcardAlternatives w;
    w.actual = a;
    w.message = i;
    w.post_event = post.index;
    w.done_event = matching.messages[i].recv_done.index;
    w.wildcard_ordinal = ordinal[static_cast<std::size_t>(post.rank)][post.index];
    w.post_past = clocks.post[i];
    const std::uint32_t done_tick = clocks.done[i];
    for (std::size_t s = 0; s < n; ++s) {
      if (static_cast<int>(s) == a.send_rank) continue;
      auto it = to_from.find({a.recv_rank, static_cast<int>(s)});
      if (it == to_from.end()) continue;
      // The first send from s that fits the envelope and was not consumed
      // by a receive posted before this one (non-overtaking: later ones
      // from s cannot come first).
      for (const auto& [send_index, which] : it->second) {
        const trace::Event& sent = run.ranks[s].events[send_index];
        const bool received = which >= 0;
        if (sent.comm != a.comm || (posted.tag != trace::kAnyTag && sent.tag != posted.tag)) continue;
        if (received && matching.messages[static_cast<std::size_t>(which)].recv_post.index <= post.index) continue;
        const auto& vc = received ? clocks.send[static_cast<std::size_t>(which)]
                                  : clocks.unmatched_send[static_cast<std::size_t>(-1 - which)];
        const bool after_done = static_cast<std::size_t>(a.recv_rank) < vc.size() &&
                                vc[static_cast<std::size_t>(a.recv_rank)] >= done_tick;
        if (!after_done) {
          AlternativeSend alt;
          alt.send_rank = static_cast<int>(s);
          alt.send_site_id = sent.callsite;
          alt.send_site_hash = site_hash(run, static_cast<int>(s), sent.callsite);
          alt.send_instance = instance[s][send_index];
          alt.tag = sent.tag;
          alt.received = received;
          if (received) {
            const ObservedMatch& o = obs[static_cast<std::size_t>(which)];
            alt.recv_site_hash = o.recv_site_hash;
            alt.recv_round = o.recv_round;
          }
          alt.other_instance = !received || alt.recv_site_hash != a.recv_site_hash ||
                               alt.recv_round != a.recv_round || alt.send_site_hash != a.send_site_hash;
          alt.past = vc;
          w.alternatives.push_back(std::move(alt));
        }
        break;
      }
    }
    out.push_back(std::move(w));
  }
  probe_alternatives(run, matching, obs, clocks, out);
  return out;
}

std::vector<CompletionAlternatives> potential_completions(const trace::RunTrace& run, const trace::Matching& matching) {
  std::vector<CompletionAlternatives> out;
  const std::size_t n = run.ranks.size();
  // The completion call (parent record) of each message completed by Waitany/Testany.
  auto is_any = [](const trace::Event& e) {
    const std::string name = trace::op_name(e.op);
    return name == "MPI_Waitany" || name == "MPI_Testany";
  };
  std::vector<long> call_of(matching.messages.size(), -1);
  bool any = false;
  for (std::size_t m = 0; m < matching.messages.size(); ++m) {
    const auto& done = matching.messages[m].recv_done;
    const auto& events = run.ranks[static_cast<std::size_t>(done.rank)].events;
    if (done.index >= events.size() || (events[done.index].flags & trace::kFlagChild) == 0) continue;
    std::size_t parent = done.index;
    while (parent > 0 && (events[parent].flags & trace::kFlagChild) != 0) --parent;
    if ((events[parent].flags & trace::kFlagChild) != 0 || !is_any(events[parent])) continue;
    call_of[m] = static_cast<long>(parent);
    any = true;
  }
  if (!any) return out;
  const std::vector<ObservedMatch> obs = observe_matches(run, matching);
  const Clocks clocks = vector_clocks(run, matching, true);
  // Per rank, its messages returned by such calls, in completion order.
  std::vector<std::vector<std::size_t>> by_rank(n);
  for (std::size_t m = 0; m < matching.messages.size(); ++m)
    if (call_of[m] >= 0) by_rank[static_cast<std::size_t>(matching.messages[m].recv_done.rank)].push_back(m);
  for (auto& list : by_rank)
    std::sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) { return call_of[a] < call_of[b]; });
  for (std::size_t r = 0; r < n; ++r) {
    const auto& events = run.ranks[r].events;
    // Sweep in completion order, keeping the requests pending at each call
    // (posted before it, returned after it), ordered by the call that
    // returned them: the candidates, without rescanning the rank's later returns.
    std::vector<std::size_t> by_post = by_rank[r];
    std::sort(by_post.begin(), by_post.end(), [&](std::size_t a, std::size_t b) {
      return matching.messages[a].recv_post.index < matching.messages[b].recv_post.index;
    });
    std::set<std::pair<long, std::size_t>> pending;  // (returning call, message)
    std::size_t next_post = 0;
    for (const std::size_t m : by_rank[r]) {
      const auto call = static_cast<std::size_t>(call_of[m]);
      for (; next_post < by_post.size() && matching.messages[by_post[next_post]].recv_post.index < call; ++next_post)
        pending.insert({call_of[by_post[next_post]], by_post[next_post]});
      while (!pending.empty() && pending.begin()->first <= call_of[m]) pending.erase(pending.begin());
      CompletionAlternatives c;
      c.actual = obs[m];
      c.message = m;
      c.call_event = call;
      c.call = trace::op_name(events[call].op);
      c.done_event = matching.messages[m].recv_done.index;
      c.past = clocks.send[m];
      for (const auto& [returned_at, o] : pending) {
        const auto later = static_cast<std::size_t>(returned_at);
        // The same call site (the same array, in a completion loop), a
        // message not sent because of this return.
        if (events[later].callsite != events[call].callsite || events[later].op != events[call].op) continue;
        const auto& vc = clocks.send[o];
        if (r < vc.size() && vc[r] >= clocks.done[m]) continue;
        c.alternatives.push_back(received_alternative(obs[o], vc));
        c.alternative_calls.push_back(later);
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

std::vector<PotentialRace> potential_races(const trace::RunTrace& run, const trace::Matching& matching) {
  return potential_races(potential_matches(run, matching));
}

std::vector<PotentialRace> potential_races(const std::vector<WildcardAlternatives>& wildcards) {
  std::vector<PotentialRace> out;
  for (const auto& w : wildcards) {
    auto alt = std::find_if(w.alternatives.begin(), w.alternatives.end(),
                            [](const AlternativeSend& a) { return a.other_instance; });
    if (alt == w.alternatives.end()) continue;
    PotentialRace p;
    p.actual = w.actual;
    p.other_rank = alt->send_rank;
    p.other_site_hash = alt->send_site_hash;
    p.other_site_id = alt->send_site_id;
    p.other_instance = alt->send_instance;
    p.other_recv_round = alt->recv_round;
    p.other_received = alt->received;
    out.push_back(p);
  }
  return out;
}

}  // namespace scalefuzz::detectors::races
