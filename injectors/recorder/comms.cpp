// Communicator ids equal on every member, and comm-rank -> world-rank
// translation cached per communicator.
#include <vector>

#include "mix.hpp"
#include "state.hpp"

namespace scalefuzz::inject {

namespace comms_detail {
constinit unsigned g_comm_generation = 1;
thread_local constinit MPI_Comm tl_memo_comm = MPI_COMM_NULL;
thread_local constinit CommInfo* tl_memo_comm_info = nullptr;
thread_local constinit unsigned tl_memo_comm_generation = 0;
}  // namespace comms_detail
using namespace comms_detail;

namespace {

// Fills size, rank and the translation of the communicator's (remote, for an
// intercommunicator) group to world ranks.
CommInfo* build(MPI_Comm comm) {
  auto* ci = new CommInfo();  // never deleted: requests may outlive MPI_Comm_free
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  ci->inter = inter != 0;
  PMPI_Comm_rank(comm, &ci->my_rank);
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  if (ci->inter) {
    PMPI_Comm_remote_size(comm, &ci->size);
    PMPI_Comm_remote_group(comm, &group);
  } else {
    PMPI_Comm_size(comm, &ci->size);
    PMPI_Comm_group(comm, &group);
  }
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> ranks(static_cast<std::size_t>(ci->size));
  for (int i = 0; i < ci->size; ++i) ranks[i] = i;
  ci->to_world.assign(ranks.size(), trace::kNoPeer);
  PMPI_Group_translate_ranks(group, ci->size, ranks.data(), world, ci->to_world.data());
  for (int& w : ci->to_world)
    if (w == MPI_UNDEFINED) w = trace::kNoPeer;
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return ci;
}

// World ranks of the local group in rank order (for an intracommunicator,
// to_world itself).
std::vector<int> local_world(MPI_Comm comm, const CommInfo& ci) {
  if (!ci.inter) return ci.to_world;
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int n = 0;
  PMPI_Group_size(group, &n);
  std::vector<int> ranks(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n), -1);
  for (int i = 0; i < n; ++i) ranks[i] = i;
  PMPI_Group_translate_ranks(group, n, ranks.data(), world, out.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return out;
}

std::uint32_t usable(std::uint32_t id) {
  return id <= trace::kCommSelf || id == trace::kCommNull ? id + 2 : id;
}
}  // namespace

void setup_world_comms() {
  State& s = *g_state;
  auto* world = new CommInfo();
  world->id = trace::kCommWorld;
  world->size = s.size;
  world->my_rank = s.rank;
  world->identity = true;
  auto* self = new CommInfo();
  self->id = trace::kCommSelf;
  self->size = 1;
  self->to_world = {s.rank};
  s.comms.insert(handle_key(MPI_COMM_WORLD), world);
  s.comms.insert(handle_key(MPI_COMM_SELF), self);
  __atomic_fetch_add(&g_comm_generation, 1, __ATOMIC_ACQ_REL);
}

CommInfo* comm_info(MPI_Comm comm) {
  State& s = *g_state;
  if (CommInfo** found = s.comms.find(handle_key(comm))) return *found;
  if (comm == MPI_COMM_NULL) return nullptr;
  // Created by a call the injector does not wrap: name it by its members, the
  // only thing all of them agree on without communicating.
  CommInfo* ci = build(comm);
  std::uint64_t h = 0x51ed27u;
  for (int w : ci->to_world) h = h * 0x100000001b3ull ^ static_cast<std::uint32_t>(w);
  ci->id = usable(mix_to_id(h) | 0x80000000u);
  s.comms.insert(handle_key(comm), ci);
  return ci;
}

// The id hashes what every member agrees on without communicating: the
// members' world ranks in rank order (both groups of an intercommunicator,
// the one with the lower leader first) and how many communicators with the
// same members this process has seen created before. Every member takes part
// in each such creation, and creations of communicators with equal members
// are ordered alike on all of them (they synchronize), so the count agrees.
// (A parent's creation ordinal does not: Comm_create_group and
// Intercomm_create involve only some of the parent's members.)
void register_new_comm(MPI_Comm newcomm) {
  State& s = *g_state;
  CommInfo* ci = build(newcomm);
  std::vector<int> first = local_world(newcomm, *ci), second;
  if (ci->inter) {
    second = ci->to_world;
    if (!second.empty() && (first.empty() || second[0] < first[0])) first.swap(second);
  }
  std::uint64_t h = ci->inter ? 0x1e7e2c0ull : 0x1a72aull;
  for (int w : first) h = h * 0x100000001b3ull ^ static_cast<std::uint32_t>(w);
  h = h * 0x100000001b3ull ^ 0xfffffffeull;  // group separator
  for (int w : second) h = h * 0x100000001b3ull ^ static_cast<std::uint32_t>(w);
  std::uint32_t* seen = s.comms_created.find(static_cast<std::int64_t>(h));
  if (seen == nullptr) seen = &s.comms_created.insert(static_cast<std::int64_t>(h), 0);
  const std::uint32_t ordinal = (*seen)++;
  ci->id = usable(mix_to_id(h ^ (static_cast<std::uint64_t>(ordinal) << 40) ^ ordinal) & 0x7FFFFFFFu);
  s.comms.insert(handle_key(newcomm), ci);  // replaces a stale entry of a reused handle
  __atomic_fetch_add(&g_comm_generation, 1, __ATOMIC_ACQ_REL);
}

void forget_comm(MPI_Comm comm) {
  g_state->comms.erase(handle_key(comm));
  // After the erase: a thread that reads the new generation finds comm gone.
  __atomic_fetch_add(&g_comm_generation, 1, __ATOMIC_ACQ_REL);
}

CommInfo* locked_comm_slow(MPI_Comm comm) {
  const unsigned generation = __atomic_load_n(&g_comm_generation, __ATOMIC_ACQUIRE);
  CommInfo* ci;
  {
    StateLock lock;
    ci = comm_info(comm);
  }
  if (ci != nullptr) {
    tl_memo_comm = comm;
    tl_memo_comm_info = ci;
    tl_memo_comm_generation = generation;
  }
  return ci;
}

}  // namespace scalefuzz::inject
