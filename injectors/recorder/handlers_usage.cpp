// Handle creation and release (groups, datatypes, ops) for the leak checks of
// detectors/usage: one HandleNew/HandleFree record per call, the handle's
// value in `buffer` (mpi_impl.hpp: handle_record_value) and its HandleKind in `tag`.
#include "record.hpp"
#include "types.hpp"

namespace scalefuzz::inject {

namespace {
std::uint32_t handle_value(const Call& c, const void* p) { return handle_record_value(static_cast<trace::HandleKind>(c.hkind), p); }
bool is_datatype(const Call& c) { return c.hkind == static_cast<std::int32_t>(trace::HandleKind::Datatype); }

// The record of a call on an existing handle (c.hin): its kind and value,
// and a datatype's key (`*type` gets the datatype, MPI_DATATYPE_NULL for none).
trace::Event existing_handle_event(const Call& c, MPI_Datatype* type) {
  trace::Event e = blank_event();
  e.tag = c.hkind;
  e.buffer = handle_value(c, c.hin);
  *type = is_datatype(c) && c.hin != nullptr ? *static_cast<MPI_Datatype*>(c.hin) : MPI_DATATYPE_NULL;
  if (*type != MPI_DATATYPE_NULL) e.dtype = type_info(*type).key;
  return e;
}
}  // namespace

SCALEFUZZ_HANDLER(handle_new) {
  (void)nb;
  if (!g_state->recording) return call();
  trace::Event e = blank_event();
  e.tag = c.hkind;
  Active a = begin_call(c, e, 0);
  int rc = call();
  if (rc == MPI_SUCCESS && a.ev != nullptr) {
    a.ev->buffer = handle_value(c, c.hout);
    if (is_datatype(c)) {
      MPI_Datatype t = *static_cast<MPI_Datatype*>(c.hout);
      forget_type(t);  // a reused handle value describes a new type
      a.ev->dtype = type_info(t).key;
    }
  }
  end_call(a, rc, 0);
  return rc;
}

SCALEFUZZ_HANDLER(handle_free) {
  (void)nb;
  if (!g_state->recording) return call();
  MPI_Datatype freed;
  trace::Event e = existing_handle_event(c, &freed);
  Active a = begin_call(c, e, 0);
  int rc = call();
  if (rc == MPI_SUCCESS && freed != MPI_DATATYPE_NULL) forget_type(freed);
  end_call(a, rc, 0);
  return rc;
}

SCALEFUZZ_HANDLER(type_commit) {
  (void)nb;
  if (!g_state->recording) return call();
  MPI_Datatype committed;
  trace::Event e = existing_handle_event(c, &committed);
  Active a = begin_call(c, e, 0);
  int rc = call();
  end_call(a, rc, 0);
  return rc;
}

}  // namespace scalefuzz::inject
