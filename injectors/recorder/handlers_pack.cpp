// MPI_Pack / MPI_Unpack: data movements for DMTracker (detectors/dmtracker).
// One Pack/Unpack record per call: `buffer` is where the bytes were read,
// `rbuffer` where they were written (the packed side at the position the call
// started from), `bytes` how far the position moved. The communicator only
// names the packing context; it is not recorded (no communication happens).
#include <cstdint>

#include "record.hpp"
#include "types.hpp"

namespace scalefuzz::inject {

SCALEFUZZ_HANDLER(pack) {
  (void)nb;
  if (!g_state->recording) return call();
  const bool packing = c.cls == trace::OpClass::Pack;
  MPI_Datatype type = packing ? c.stype : c.rtype;
  const int count = packing ? c.scount : c.rcount;  // elements of the typed side
  const int packed_size = packing ? c.rcount : c.scount;  // outsize / insize
  const int before = c.position != nullptr ? *c.position : 0;
  trace::Event e = blank_event();
  if (type != MPI_DATATYPE_NULL) e.dtype = type_info(type).key;
  e.count = count;
  e.scount_arg = count;
  e.rcount_arg = packed_size;
  e.bytes = type_bytes(type, count);  // corrected from the position after the call
  const auto typed = reinterpret_cast<std::uintptr_t>(packing ? c.sbuf : c.rbuf);
  const auto packed = reinterpret_cast<std::uintptr_t>(packing ? static_cast<const void*>(c.rbuf) : c.sbuf) +
                      static_cast<std::uintptr_t>(before > 0 ? before : 0);
  e.buffer = packing ? typed : packed;
  e.rbuffer = packing ? packed : typed;
  Active a = begin_call(c, e, 0);
  int rc = call();
  if (rc == MPI_SUCCESS && a.ev != nullptr && c.position != nullptr) a.ev->bytes = *c.position - before;
  end_call(a, rc, 0);
  return rc;
}

}  // namespace scalefuzz::inject
