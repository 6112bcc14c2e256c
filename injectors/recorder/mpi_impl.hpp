// What differs between the MPI implementations the injector is built for
// (MPICH: handles are ints; Open MPI: handles are pointers to objects of
// libmpi, at other addresses in every rank under ASLR). The rest of the
// recorder turns a handle into a number only through these functions.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <type_traits>

#include "scalefuzz/trace/format.hpp"

namespace scalefuzz::inject {

// A handle as the key of this process's hash maps (requests, communicators,
// messages, windows, datatypes). Local only: never written to a trace.
template <class Handle>
inline std::int64_t handle_key(Handle h) {
  if constexpr (std::is_pointer_v<Handle>)
    return static_cast<std::int64_t>(reinterpret_cast<std::intptr_t>(h));
  else
    return static_cast<std::int64_t>(h);
}

// The trace key of a predefined datatype: equal on every rank (the usage
// checks compare type signatures across ranks by their primitives' keys).
// MPICH: the handle itself (0x4c00SSxx). Open MPI: its Fortran index, fixed
// for predefined types by the order ompi_datatype_init registers them, in a
// range of its own (0x4F000000 | index) that derived keys (counted from 1)
// and MPICH's keys never reach.
inline std::uint32_t predefined_type_key(MPI_Datatype t) {
#if defined(OPEN_MPI)
  return 0x4F000000u | (static_cast<std::uint32_t>(PMPI_Type_c2f(t)) & 0x00FFFFFFu);
#else
  return static_cast<std::uint32_t>(t);
#endif
}

// The predefined datatype whose predefined_type_key() is `key`.
inline MPI_Datatype predefined_type_of_key(std::uint32_t key) {
#if defined(OPEN_MPI)
  return PMPI_Type_f2c(static_cast<MPI_Fint>(key & 0x00FFFFFFu));
#else
  return static_cast<MPI_Datatype>(key);
#endif
}

// The value a HandleNew/HandleFree record keeps of a group, datatype or op
// handle , read through the pointer the call
// takes; the usage checks pair creations and frees by it within one rank.
// MPICH: the int handle. Open MPI: the handle's Fortran index (an object
// freed and another created may share it, as MPICH reuses handle values).
inline std::uint32_t handle_record_value(trace::HandleKind kind, const void* p) {
  if (p == nullptr) return 0;
#if defined(OPEN_MPI)
  switch (kind) {
    case trace::HandleKind::Group: return static_cast<std::uint32_t>(PMPI_Group_c2f(*static_cast<const MPI_Group*>(p)));
    case trace::HandleKind::Datatype: return static_cast<std::uint32_t>(PMPI_Type_c2f(*static_cast<const MPI_Datatype*>(p)));
    case trace::HandleKind::Op: return static_cast<std::uint32_t>(PMPI_Op_c2f(*static_cast<const MPI_Op*>(p)));
  }
  return 0;
#else
  static_assert(sizeof(MPI_Group) == sizeof(int) && sizeof(MPI_Datatype) == sizeof(int) && sizeof(MPI_Op) == sizeof(int),
                "MPICH handles are ints");
  (void)kind;
  return static_cast<std::uint32_t>(*static_cast<const int*>(p));
#endif
}

}  // namespace scalefuzz::inject
