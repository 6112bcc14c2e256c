// Communicator ids equal on every member, and comm-rank -> world-rank
// translation cached per communicator.
#include <vector>

#include "state.hpp"

namespace scalefuzz::inject {

namespace {
std::uint32_t mix(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return static_cast<std::uint32_t>(h);
}

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

// World rank of rank 0 of the local group.
int local_rank0_world(MPI_Comm comm, const CommInfo& ci) {
  if (!ci.inter) return ci.to_world.empty() ? -1 : ci.to_world[0];
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int zero = 0, out = -1;
  PMPI_Group_translate_ranks(group, 1, &zero, world, &out);
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
  s.comms.insert(MPI_COMM_WORLD, world);
  s.comms.insert(MPI_COMM_SELF, self);
}

CommInfo* comm_info(MPI_Comm comm) {
  State& s = *g_state;
  if (CommInfo** found = s.comms.find(comm)) return *found;
  if (comm == MPI_COMM_NULL) return nullptr;
  // Created by a call the injector does not wrap: name it by its members, the
  // only thing all of them agree on without communicating.
  CommInfo* ci = build(comm);
  std::uint64_t h = 0x51ed27u;
  for (int w : ci->to_world) h = h * 0x100000001b3ull ^ static_cast<std::uint32_t>(w);
  ci->id = usable(mix(h) | 0x80000000u);
  s.comms.insert(comm, ci);
  return ci;
}

void register_new_comm(CommInfo& parent, MPI_Comm newcomm, std::uint32_t ordinal) {
  State& s = *g_state;
  CommInfo* ci = build(newcomm);
  int rank0 = local_rank0_world(newcomm, *ci);
  if (ci->inter && !ci->to_world.empty() && ci->to_world[0] < rank0) rank0 = ci->to_world[0];
  std::uint64_t key = (static_cast<std::uint64_t>(parent.id) << 32) ^ (static_cast<std::uint64_t>(ordinal) << 12) ^
                      static_cast<std::uint32_t>(rank0);
  ci->id = usable(mix(key) & 0x7FFFFFFFu);
  s.comms.insert(newcomm, ci);  // replaces a stale entry of a reused handle
}

void forget_comm(MPI_Comm comm) { g_state->comms.erase(comm); }

}  // namespace scalefuzz::inject
