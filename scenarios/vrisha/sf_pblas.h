/* sf_pblas: a library-like panel broadcast (see sf_pblas.c). */
#pragma once
#include <mpi.h>

/* Broadcasts `count` doubles from `root` over `comm`; the topology depends
   on the communicator's size (binomial tree up to 5 ranks, ring above). */
void sf_pbcast(double* buf, int count, int root, MPI_Comm comm);
