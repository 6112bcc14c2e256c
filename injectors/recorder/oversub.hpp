// Oversubscription mode: MPICH busy-polls inside blocking calls, so with more
// ranks than cores the spinning ranks starve the ones that could progress.
// Blocking calls are completed instead by PMPI_Test* loops that spin briefly
// and then sleep ~1 us between tests.
#pragma once

#include <mpi.h>

#include "handlers.hpp"

namespace scalefuzz::inject {

int poll_request(MPI_Request* r, MPI_Status* st);
int poll_all(int n, MPI_Request* r, MPI_Status* st);
int poll_any(int n, MPI_Request* r, int* index, MPI_Status* st);
int poll_some(int n, MPI_Request* r, int* outcount, int* indices, MPI_Status* st);
int poll_probe(int source, int tag, MPI_Comm comm, MPI_Status* st);
int poll_mprobe(int source, int tag, MPI_Comm comm, MPI_Message* msg, MPI_Status* st);

// Runs a blocking call: its nonblocking twin plus a polling loop when
// oversubscribed and a twin exists, else the call itself.
int run_blocking(Invoke call, NbInvoke nb, MPI_Status* st);

bool oversubscribed();

}  // namespace scalefuzz::inject
