// MPI errors: a communicator error handler that stores the error code in the
// record of the failing call before the job aborts, then behaves like
// MPI_ERRORS_ARE_FATAL. An application that sets its own handler replaces
// this one (the recorder then stores the returned code at call exit).
#include <cstdio>

#include "record.hpp"
#include "state.hpp"
#include "types.hpp"

namespace scalefuzz::inject {

namespace {
void record_fatal(int* code);

void on_mpi_error(MPI_Comm* comm, int* code, ...) {
  // The recorder's own query about an application handle failed: return the
  // code to the recorder (MPI_ERRORS_RETURN behaviour); the application's
  // call reports the bad handle itself.
  if (tl_probing) return;
  record_fatal(code);
  PMPI_Abort(comm != nullptr ? *comm : MPI_COMM_WORLD, 1);
}

// Windows have error handlers of their own (one-sided calls, issue 33).
void on_mpi_win_error(MPI_Win*, int* code, ...) {
  record_fatal(code);
  PMPI_Abort(MPI_COMM_WORLD, 1);
}

void record_fatal(int* code) {
  trace::Event* ev = tl_current;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  PMPI_Error_string(*code, text, &len);
  if (ev != nullptr && ev->t_exit_ns == 0) {
    write_error_line(ev->seq, *code, text);
    ev->error = *code;
    __atomic_store_n(&ev->t_exit_ns, now_ns(), __ATOMIC_RELEASE);
  } else {
    write_error_line(0, *code, text);
  }
  std::fprintf(stderr, "scalefuzz injector: rank %d: fatal MPI error (recorded): %s\n",
               g_state != nullptr ? g_state->rank : -1, text);
  std::fflush(stderr);
}

MPI_Errhandler g_win_errhandler = MPI_ERRHANDLER_NULL;
}  // namespace

void install_error_handler() {
  State& s = *g_state;
  if (PMPI_Comm_create_errhandler(on_mpi_error, &s.errhandler) != MPI_SUCCESS) return;
  // Communicators created later inherit the handler from their parent.
  PMPI_Comm_set_errhandler(MPI_COMM_WORLD, s.errhandler);
  PMPI_Comm_set_errhandler(MPI_COMM_SELF, s.errhandler);
}

void set_window_error_handler(MPI_Win win) {
  if (g_win_errhandler == MPI_ERRHANDLER_NULL && PMPI_Win_create_errhandler(on_mpi_win_error, &g_win_errhandler) != MPI_SUCCESS)
    return;
  PMPI_Win_set_errhandler(win, g_win_errhandler);
}

}  // namespace scalefuzz::inject
