"""The one table of intercepted MPI functions, read by generate.py.

Each entry is (annotated prototype, handler, options). A parameter written
`name@role` tells the recorder what the argument means; parameters without a
role are passed through untouched. Roles:
  sbuf/rbuf/buf        send / receive / both (in-place replace) buffer
  scount/rcount/count  element count of the send / receive / both sides
  stype/rtype/type     datatype of the send / receive / both sides
  scounts/rcounts      per-rank count arrays (v-collectives)
  stypes/rtypes        per-rank datatype arrays (w-collectives)
  rcounts_mine         Reduce_scatter's recvcounts: this rank receives [rank]
  dest/source          peer as rank in `comm`
  tag/rtag             tag (send or only tag) / receive tag of Sendrecv
  comm/newcomm         communicator / created communicator (output)
  root                 collective root as rank in `comm`
  req/reqs/nreq        request (in/out), request array and its length
  index/indices/outcount/flag   completion outputs of Wait*/Test*
  status/statuses      status outputs
  message              MPI_Message of the matched-probe family
  provided             Init_thread's granted thread level
  rop                  reduction op (MPI_Op)
  hout/hin             handle created (output pointer) / handle freed or committed (in/out pointer)
  position             MPI_Pack/MPI_Unpack's in/out byte position in the packed buffer
  win/winout           window / created window (output)
  target               target rank in the window's group
  tdisp/tcount/ttype   target displacement, count and datatype
  base/baseout         window base (Win_create, Win_attach) / base pointer output (Win_allocate*)
  wsize/dispunit       window (or attached region) size in bytes / displacement unit
  locktype/assertion/group   Win_lock's lock type / the assert argument / Win_start's or Win_post's group
One-sided origins: sbuf/scount/stype = the origin buffer MPI reads (Put,
Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap), rbuf/rcount/rtype
= the buffer MPI writes (Get's origin, the result buffer of the fetching ones).
Options: cls = trace OpClass; flags = extra kFlag* names; nb = the
nonblocking call used to emulate a blocking one in oversubscription mode
(`{req}` is the request pointer); root_side = 'send'/'recv' when that side's
arguments matter only at the root ('bcast': the root sends, the others
receive); per_rank = 'send'/'recv'/'both' when that side's scalar count is
per peer rank (Gather's recvcount, Scatter's sendcount, Alltoall's both);
emulated = a note when the handler itself builds the oversubscription
emulation (no single nonblocking twin); hkind = HandleKind of a handle_new /
handle_free function's handle; zero_buffer = (synchronous twin, its
nonblocking twin's call) used in zero-buffer mode.

Op ids are the 1-based positions in OPS: append new functions at the end so
stored traces keep their meaning.
"""

OPS = [
    # ---- init / finalize -------------------------------------------------
    ("int MPI_Init(int *argc, char ***argv)", "init", dict(cls="Init")),
    ("int MPI_Init_thread(int *argc, char ***argv, int required, int *provided@provided)", "init", dict(cls="Init")),
    ("int MPI_Finalize(void)", "finalize", dict(cls="Finalize")),
    ("int MPI_Abort(MPI_Comm comm@comm, int errorcode@scount)", "abort", dict(cls="Abort")),
    # ---- blocking point-to-point -----------------------------------------
    ("int MPI_Send(const void *buf@sbuf, int count@scount, MPI_Datatype datatype@stype, int dest@dest, int tag@tag, MPI_Comm comm@comm)",
     "send", dict(cls="Send", nb="PMPI_Isend(buf, count, datatype, dest, tag, comm, {req})",
                  zero_buffer=("MPI_Ssend", "PMPI_Issend(buf, count, datatype, dest, tag, comm, {req})"))),
    ("int MPI_Ssend(const void *buf@sbuf, int count@scount, MPI_Datatype datatype@stype, int dest@dest, int tag@tag, MPI_Comm comm@comm)",
     "send", dict(cls="Send", flags=["kFlagSynchronous"], nb="PMPI_Issend(buf, count, datatype, dest, tag, comm, {req})")),
    ("int MPI_Bsend(const void *buf@sbuf, int count@scount, MPI_Datatype datatype@stype, int dest@dest, int tag@tag, MPI_Comm comm@comm)",
     "send", dict(cls="Send", flags=["kFlagBuffered"])),
    ("int MPI_Rsend(const void *buf@sbuf, int count@scount, MPI_Datatype datatype@stype, int dest@dest, int tag@tag, MPI_Comm comm@comm)",
     "send", dict(cls="Send", nb="PMPI_Irsend(buf, count, datatype, dest, tag, comm, {req})")),
    ("int MPI_Recv(void *buf@rbuf, int count@rcount, MPI_Datatype datatype@rtype, int source@source, int tag@tag, MPI_Comm comm@comm, MPI_Status *status@status)",
     "recv", dict(cls="Recv", nb="PMPI_Irecv(buf, count, datatype, source, tag, comm, {req})")),
    ("int MPI_Sendrecv(const void *sendbuf@sbuf, int sendcount@scount, MPI_Datatype sendtype@stype, int dest@dest, int sendtag@tag, void *recvbuf@rbuf, int recvcount@rcount, MPI_Datatype recvtype@rtype, int source@source, int recvtag@rtag, MPI_Comm comm@comm, MPI_Status *status@status)",
     "sendrecv", dict(cls="Sendrecv", emulated="Irecv + Isend (MPICH 4.0.2's Isendrecv returns an empty status)")),
    ("int MPI_Sendrecv_replace(void *buf@buf, int count@count, MPI_Datatype datatype@type, int dest@dest, int sendtag@tag, int source@source, int recvtag@rtag, MPI_Comm comm@comm, MPI_Status *status@status)",
     "sendrecv", dict(cls="Sendrecv")),  # not emulated: Isendrecv_replace's status is empty in MPICH 4.0.2
    # ---- nonblocking point-to-point --------------------------------------
    ("int MPI_Isend(const void *buf@sbuf, int count@scount, MPI_Datatype datatype@stype, int dest@dest, int tag@tag, MPI_Comm comm@comm, MPI_Request *request@req)",
     "isend", dict(cls="Isend", zero_buffer=("MPI_Issend", None))),
    ("int MPI_Issend(const void *buf@sbuf, int count@scount, MPI_Datatype datatype@stype, int dest@dest, int tag@tag, MPI_Comm comm@comm, MPI_Request *request@req)",
     "isend", dict(cls="Isend", flags=["kFlagSynchronous"])),
    ("int MPI_Ibsend(const void *buf@sbuf, int count@scount, MPI_Datatype datatype@stype, int dest@dest, int tag@tag, MPI_Comm comm@comm, MPI_Request *request@req)",
     "isend", dict(cls="Isend", flags=["kFlagBuffered"])),
    ("int MPI_Irsend(const void *buf@sbuf, int count@scount, MPI_Datatype datatype@stype, int dest@dest, int tag@tag, MPI_Comm comm@comm, MPI_Request *request@req)",
     "isend", dict(cls="Isend")),
    ("int MPI_Irecv(void *buf@rbuf, int count@rcount, MPI_Datatype datatype@rtype, int source@source, int tag@tag, MPI_Comm comm@comm, MPI_Request *request@req)",
     "irecv", dict(cls="Irecv")),
    # ---- persistent ------------------------------------------------------
    ("int MPI_Send_init(const void *buf@sbuf, int count@scount, MPI_Datatype datatype@stype, int dest@dest, int tag@tag, MPI_Comm comm@comm, MPI_Request *request@req)",
     "send_init", dict(cls="SendInit")),
    ("int MPI_Ssend_init(const void *buf@sbuf, int count@scount, MPI_Datatype datatype@stype, int dest@dest, int tag@tag, MPI_Comm comm@comm, MPI_Request *request@req)",
     "send_init", dict(cls="SendInit", flags=["kFlagSynchronous"])),
    ("int MPI_Bsend_init(const void *buf@sbuf, int count@scount, MPI_Datatype datatype@stype, int dest@dest, int tag@tag, MPI_Comm comm@comm, MPI_Request *request@req)",
     "send_init", dict(cls="SendInit", flags=["kFlagBuffered"])),
    ("int MPI_Rsend_init(const void *buf@sbuf, int count@scount, MPI_Datatype datatype@stype, int dest@dest, int tag@tag, MPI_Comm comm@comm, MPI_Request *request@req)",
     "send_init", dict(cls="SendInit")),
    ("int MPI_Recv_init(void *buf@rbuf, int count@rcount, MPI_Datatype datatype@rtype, int source@source, int tag@tag, MPI_Comm comm@comm, MPI_Request *request@req)",
     "recv_init", dict(cls="RecvInit")),
    ("int MPI_Start(MPI_Request *request@req)", "start", dict(cls="Start")),
    ("int MPI_Startall(int count@nreq, MPI_Request array_of_requests[]@reqs)", "startall", dict(cls="Start")),
    # ---- probes and matched receives -------------------------------------
    ("int MPI_Probe(int source@source, int tag@tag, MPI_Comm comm@comm, MPI_Status *status@status)",
     "probe", dict(cls="Probe")),
    ("int MPI_Iprobe(int source@source, int tag@tag, MPI_Comm comm@comm, int *flag@flag, MPI_Status *status@status)",
     "iprobe", dict(cls="Probe")),
    ("int MPI_Mprobe(int source@source, int tag@tag, MPI_Comm comm@comm, MPI_Message *message@message, MPI_Status *status@status)",
     "mprobe", dict(cls="Probe")),
    ("int MPI_Improbe(int source@source, int tag@tag, MPI_Comm comm@comm, int *flag@flag, MPI_Message *message@message, MPI_Status *status@status)",
     "improbe", dict(cls="Probe")),
    ("int MPI_Mrecv(void *buf@rbuf, int count@rcount, MPI_Datatype datatype@rtype, MPI_Message *message@message, MPI_Status *status@status)",
     "mrecv", dict(cls="Recv", nb="PMPI_Imrecv(buf, count, datatype, message, {req})")),
    ("int MPI_Imrecv(void *buf@rbuf, int count@rcount, MPI_Datatype datatype@rtype, MPI_Message *message@message, MPI_Request *request@req)",
     "imrecv", dict(cls="Irecv")),
    # ---- completion ------------------------------------------------------
    ("int MPI_Wait(MPI_Request *request@req, MPI_Status *status@status)", "wait", dict(cls="Completion")),
    ("int MPI_Waitall(int count@nreq, MPI_Request array_of_requests[]@reqs, MPI_Status array_of_statuses[]@statuses)", "waitall", dict(cls="Completion")),
    ("int MPI_Waitany(int count@nreq, MPI_Request array_of_requests[]@reqs, int *indx@index, MPI_Status *status@status)", "waitany", dict(cls="Completion")),
    ("int MPI_Waitsome(int incount@nreq, MPI_Request array_of_requests[]@reqs, int *outcount@outcount, int array_of_indices[]@indices, MPI_Status array_of_statuses[]@statuses)", "waitsome", dict(cls="Completion")),
    ("int MPI_Test(MPI_Request *request@req, int *flag@flag, MPI_Status *status@status)", "test", dict(cls="Completion")),
    ("int MPI_Testall(int count@nreq, MPI_Request array_of_requests[]@reqs, int *flag@flag, MPI_Status array_of_statuses[]@statuses)", "testall", dict(cls="Completion")),
    ("int MPI_Testany(int count@nreq, MPI_Request array_of_requests[]@reqs, int *indx@index, int *flag@flag, MPI_Status *status@status)", "testany", dict(cls="Completion")),
    ("int MPI_Testsome(int incount@nreq, MPI_Request array_of_requests[]@reqs, int *outcount@outcount, int array_of_indices[]@indices, MPI_Status array_of_statuses[]@statuses)", "testsome", dict(cls="Completion")),
    ("int MPI_Request_free(MPI_Request *request@req)", "request_free", dict(cls="RequestFree")),
    ("int MPI_Cancel(MPI_Request *request@req)", "cancel", dict(cls="RequestFree")),
    # ---- blocking collectives --------------------------------------------
    ("int MPI_Barrier(MPI_Comm comm@comm)", "coll", dict(cls="Collective", nb="PMPI_Ibarrier(comm, {req})")),
    ("int MPI_Bcast(void *buffer@buf, int count@count, MPI_Datatype datatype@type, int root@root, MPI_Comm comm@comm)",
     "coll", dict(root_side="bcast", cls="Collective", nb="PMPI_Ibcast(buffer, count, datatype, root, comm, {req})")),
    ("int MPI_Reduce(const void *sendbuf@sbuf, void *recvbuf@rbuf, int count@count, MPI_Datatype datatype@type, MPI_Op op@rop, int root@root, MPI_Comm comm@comm)",
     "coll", dict(cls="Collective", root_side="recv", nb="PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, {req})")),
    ("int MPI_Allreduce(const void *sendbuf@sbuf, void *recvbuf@rbuf, int count@count, MPI_Datatype datatype@type, MPI_Op op@rop, MPI_Comm comm@comm)",
     "coll", dict(cls="Collective", nb="PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, {req})")),
    ("int MPI_Gather(const void *sendbuf@sbuf, int sendcount@scount, MPI_Datatype sendtype@stype, void *recvbuf@rbuf, int recvcount@rcount, MPI_Datatype recvtype@rtype, int root@root, MPI_Comm comm@comm)",
     "coll", dict(per_rank="recv", cls="Collective", root_side="recv", nb="PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, {req})")),
    ("int MPI_Gatherv(const void *sendbuf@sbuf, int sendcount@scount, MPI_Datatype sendtype@stype, void *recvbuf@rbuf, const int recvcounts[]@rcounts, const int displs[], MPI_Datatype recvtype@rtype, int root@root, MPI_Comm comm@comm)",
     "coll", dict(cls="Collective", root_side="recv", nb="PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, {req})")),
    ("int MPI_Scatter(const void *sendbuf@sbuf, int sendcount@scount, MPI_Datatype sendtype@stype, void *recvbuf@rbuf, int recvcount@rcount, MPI_Datatype recvtype@rtype, int root@root, MPI_Comm comm@comm)",
     "coll", dict(per_rank="send", cls="Collective", root_side="send", nb="PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, {req})")),
    ("int MPI_Scatterv(const void *sendbuf@sbuf, const int sendcounts[]@scounts, const int displs[], MPI_Datatype sendtype@stype, void *recvbuf@rbuf, int recvcount@rcount, MPI_Datatype recvtype@rtype, int root@root, MPI_Comm comm@comm)",
     "coll", dict(cls="Collective", root_side="send", nb="PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, {req})")),
    ("int MPI_Allgather(const void *sendbuf@sbuf, int sendcount@scount, MPI_Datatype sendtype@stype, void *recvbuf@rbuf, int recvcount@rcount, MPI_Datatype recvtype@rtype, MPI_Comm comm@comm)",
     "coll", dict(per_rank="recv", cls="Collective", nb="PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, {req})")),
    ("int MPI_Allgatherv(const void *sendbuf@sbuf, int sendcount@scount, MPI_Datatype sendtype@stype, void *recvbuf@rbuf, const int recvcounts[]@rcounts, const int displs[], MPI_Datatype recvtype@rtype, MPI_Comm comm@comm)",
     "coll", dict(cls="Collective", nb="PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, {req})")),
    ("int MPI_Alltoall(const void *sendbuf@sbuf, int sendcount@scount, MPI_Datatype sendtype@stype, void *recvbuf@rbuf, int recvcount@rcount, MPI_Datatype recvtype@rtype, MPI_Comm comm@comm)",
     "coll", dict(per_rank="both", cls="Collective", nb="PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, {req})")),
    ("int MPI_Alltoallv(const void *sendbuf@sbuf, const int sendcounts[]@scounts, const int sdispls[], MPI_Datatype sendtype@stype, void *recvbuf@rbuf, const int recvcounts[]@rcounts, const int rdispls[], MPI_Datatype recvtype@rtype, MPI_Comm comm@comm)",
     "coll", dict(cls="Collective", nb="PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, {req})")),
    ("int MPI_Alltoallw(const void *sendbuf@sbuf, const int sendcounts[]@scounts, const int sdispls[], const MPI_Datatype sendtypes[]@stypes, void *recvbuf@rbuf, const int recvcounts[]@rcounts, const int rdispls[], const MPI_Datatype recvtypes[]@rtypes, MPI_Comm comm@comm)",
     "coll", dict(cls="Collective", nb="PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, {req})")),
    ("int MPI_Reduce_scatter(const void *sendbuf@sbuf, void *recvbuf@rbuf, const int recvcounts[]@rcounts_mine, MPI_Datatype datatype@type, MPI_Op op@rop, MPI_Comm comm@comm)",
     "coll", dict(cls="Collective", nb="PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, {req})")),
    ("int MPI_Reduce_scatter_block(const void *sendbuf@sbuf, void *recvbuf@rbuf, int recvcount@rcount, MPI_Datatype datatype@type, MPI_Op op@rop, MPI_Comm comm@comm)",
     "coll", dict(cls="Collective", nb="PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, {req})")),
    ("int MPI_Scan(const void *sendbuf@sbuf, void *recvbuf@rbuf, int count@count, MPI_Datatype datatype@type, MPI_Op op@rop, MPI_Comm comm@comm)",
     "coll", dict(cls="Collective", nb="PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, {req})")),
    ("int MPI_Exscan(const void *sendbuf@sbuf, void *recvbuf@rbuf, int count@count, MPI_Datatype datatype@type, MPI_Op op@rop, MPI_Comm comm@comm)",
     "coll", dict(cls="Collective", nb="PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, {req})")),
    # ---- nonblocking collectives -----------------------------------------
    ("int MPI_Ibarrier(MPI_Comm comm@comm, MPI_Request *request@req)", "icoll", dict(cls="Icollective")),
    ("int MPI_Ibcast(void *buffer@buf, int count@count, MPI_Datatype datatype@type, int root@root, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(root_side="bcast", cls="Icollective")),
    ("int MPI_Ireduce(const void *sendbuf@sbuf, void *recvbuf@rbuf, int count@count, MPI_Datatype datatype@type, MPI_Op op@rop, int root@root, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(cls="Icollective", root_side="recv")),
    ("int MPI_Iallreduce(const void *sendbuf@sbuf, void *recvbuf@rbuf, int count@count, MPI_Datatype datatype@type, MPI_Op op@rop, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(cls="Icollective")),
    ("int MPI_Igather(const void *sendbuf@sbuf, int sendcount@scount, MPI_Datatype sendtype@stype, void *recvbuf@rbuf, int recvcount@rcount, MPI_Datatype recvtype@rtype, int root@root, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(per_rank="recv", cls="Icollective", root_side="recv")),
    ("int MPI_Igatherv(const void *sendbuf@sbuf, int sendcount@scount, MPI_Datatype sendtype@stype, void *recvbuf@rbuf, const int recvcounts[]@rcounts, const int displs[], MPI_Datatype recvtype@rtype, int root@root, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(cls="Icollective", root_side="recv")),
    ("int MPI_Iscatter(const void *sendbuf@sbuf, int sendcount@scount, MPI_Datatype sendtype@stype, void *recvbuf@rbuf, int recvcount@rcount, MPI_Datatype recvtype@rtype, int root@root, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(per_rank="send", cls="Icollective", root_side="send")),
    ("int MPI_Iscatterv(const void *sendbuf@sbuf, const int sendcounts[]@scounts, const int displs[], MPI_Datatype sendtype@stype, void *recvbuf@rbuf, int recvcount@rcount, MPI_Datatype recvtype@rtype, int root@root, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(cls="Icollective", root_side="send")),
    ("int MPI_Iallgather(const void *sendbuf@sbuf, int sendcount@scount, MPI_Datatype sendtype@stype, void *recvbuf@rbuf, int recvcount@rcount, MPI_Datatype recvtype@rtype, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(per_rank="recv", cls="Icollective")),
    ("int MPI_Iallgatherv(const void *sendbuf@sbuf, int sendcount@scount, MPI_Datatype sendtype@stype, void *recvbuf@rbuf, const int recvcounts[]@rcounts, const int displs[], MPI_Datatype recvtype@rtype, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(cls="Icollective")),
    ("int MPI_Ialltoall(const void *sendbuf@sbuf, int sendcount@scount, MPI_Datatype sendtype@stype, void *recvbuf@rbuf, int recvcount@rcount, MPI_Datatype recvtype@rtype, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(per_rank="both", cls="Icollective")),
    ("int MPI_Ialltoallv(const void *sendbuf@sbuf, const int sendcounts[]@scounts, const int sdispls[], MPI_Datatype sendtype@stype, void *recvbuf@rbuf, const int recvcounts[]@rcounts, const int rdispls[], MPI_Datatype recvtype@rtype, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(cls="Icollective")),
    ("int MPI_Ialltoallw(const void *sendbuf@sbuf, const int sendcounts[]@scounts, const int sdispls[], const MPI_Datatype sendtypes[]@stypes, void *recvbuf@rbuf, const int recvcounts[]@rcounts, const int rdispls[], const MPI_Datatype recvtypes[]@rtypes, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(cls="Icollective")),
    ("int MPI_Ireduce_scatter(const void *sendbuf@sbuf, void *recvbuf@rbuf, const int recvcounts[]@rcounts_mine, MPI_Datatype datatype@type, MPI_Op op@rop, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(cls="Icollective")),
    ("int MPI_Ireduce_scatter_block(const void *sendbuf@sbuf, void *recvbuf@rbuf, int recvcount@rcount, MPI_Datatype datatype@type, MPI_Op op@rop, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(cls="Icollective")),
    ("int MPI_Iscan(const void *sendbuf@sbuf, void *recvbuf@rbuf, int count@count, MPI_Datatype datatype@type, MPI_Op op@rop, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(cls="Icollective")),
    ("int MPI_Iexscan(const void *sendbuf@sbuf, void *recvbuf@rbuf, int count@count, MPI_Datatype datatype@type, MPI_Op op@rop, MPI_Comm comm@comm, MPI_Request *request@req)",
     "icoll", dict(cls="Icollective")),
    # ---- communicators ---------------------------------------------------
    ("int MPI_Comm_dup(MPI_Comm comm@comm, MPI_Comm *newcomm@newcomm)", "comm_new", dict(cls="CommMgmt")),
    ("int MPI_Comm_dup_with_info(MPI_Comm comm@comm, MPI_Info info, MPI_Comm *newcomm@newcomm)", "comm_new", dict(cls="CommMgmt")),
    ("int MPI_Comm_split(MPI_Comm comm@comm, int color@color, int key, MPI_Comm *newcomm@newcomm)", "comm_new", dict(cls="CommMgmt")),
    ("int MPI_Comm_split_type(MPI_Comm comm@comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm@newcomm)", "comm_new", dict(cls="CommMgmt")),
    ("int MPI_Comm_create(MPI_Comm comm@comm, MPI_Group group, MPI_Comm *newcomm@newcomm)", "comm_new", dict(cls="CommMgmt")),
    ("int MPI_Comm_create_group(MPI_Comm comm@comm, MPI_Group group, int tag, MPI_Comm *newcomm@newcomm)", "comm_new", dict(cls="CommMgmt")),
    ("int MPI_Cart_create(MPI_Comm comm_old@comm, int ndims@ndims, const int dims[]@dims, const int periods[], int reorder, MPI_Comm *comm_cart@newcomm)", "comm_new", dict(cls="CommMgmt")),
    ("int MPI_Cart_sub(MPI_Comm comm@comm, const int remain_dims[], MPI_Comm *newcomm@newcomm)", "comm_new", dict(cls="CommMgmt")),
    ("int MPI_Graph_create(MPI_Comm comm_old@comm, int nnodes, const int indx[], const int edges[], int reorder, MPI_Comm *comm_graph@newcomm)", "comm_new", dict(cls="CommMgmt")),
    ("int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old@comm, int indegree, const int sources[], const int sourceweights[], int outdegree, const int destinations[], const int destweights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph@newcomm)", "comm_new", dict(cls="CommMgmt")),
    ("int MPI_Intercomm_create(MPI_Comm local_comm@comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag, MPI_Comm *newintercomm@newcomm)", "comm_new", dict(cls="CommMgmt")),
    ("int MPI_Intercomm_merge(MPI_Comm intercomm@comm, int high, MPI_Comm *newintracomm@newcomm)", "comm_new", dict(cls="CommMgmt")),
    ("int MPI_Comm_free(MPI_Comm *comm@newcomm)", "comm_free", dict(cls="CommMgmt")),
    # ---- handles (format 2: leak checks of detectors/usage) -----------------
    ("int MPI_Comm_group(MPI_Comm comm@comm, MPI_Group *group@hout)", "handle_new", dict(cls="HandleNew", hkind="Group")),
    ("int MPI_Comm_remote_group(MPI_Comm comm@comm, MPI_Group *group@hout)", "handle_new", dict(cls="HandleNew", hkind="Group")),
    ("int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup@hout)", "handle_new", dict(cls="HandleNew", hkind="Group")),
    ("int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup@hout)", "handle_new", dict(cls="HandleNew", hkind="Group")),
    ("int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup@hout)", "handle_new", dict(cls="HandleNew", hkind="Group")),
    ("int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup@hout)", "handle_new", dict(cls="HandleNew", hkind="Group")),
    ("int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup@hout)", "handle_new", dict(cls="HandleNew", hkind="Group")),
    ("int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup@hout)", "handle_new", dict(cls="HandleNew", hkind="Group")),
    ("int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup@hout)", "handle_new", dict(cls="HandleNew", hkind="Group")),
    ("int MPI_Group_free(MPI_Group *group@hin)", "handle_free", dict(cls="HandleFree", hkind="Group")),
    ("int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype@hout)", "handle_new", dict(cls="HandleNew", hkind="Datatype")),
    ("int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype@hout)", "handle_new", dict(cls="HandleNew", hkind="Datatype")),
    ("int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype@hout)", "handle_new", dict(cls="HandleNew", hkind="Datatype")),
    ("int MPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype@hout)", "handle_new", dict(cls="HandleNew", hkind="Datatype")),
    ("int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype@hout)", "handle_new", dict(cls="HandleNew", hkind="Datatype")),
    ("int MPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype@hout)", "handle_new", dict(cls="HandleNew", hkind="Datatype")),
    ("int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype@hout)", "handle_new", dict(cls="HandleNew", hkind="Datatype")),
    ("int MPI_Type_create_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype *newtype@hout)", "handle_new", dict(cls="HandleNew", hkind="Datatype")),
    ("int MPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[], const int array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype@hout)", "handle_new", dict(cls="HandleNew", hkind="Datatype")),
    ("int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype@hout)", "handle_new", dict(cls="HandleNew", hkind="Datatype")),
    ("int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype@hout)", "handle_new", dict(cls="HandleNew", hkind="Datatype")),
    ("int MPI_Type_commit(MPI_Datatype *datatype@hin)", "type_commit", dict(cls="TypeCommit", hkind="Datatype")),
    ("int MPI_Type_free(MPI_Datatype *datatype@hin)", "handle_free", dict(cls="HandleFree", hkind="Datatype")),
    ("int MPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op@hout)", "handle_new", dict(cls="HandleNew", hkind="Op")),
    ("int MPI_Op_free(MPI_Op *op@hin)", "handle_free", dict(cls="HandleFree", hkind="Op")),
    # ---- packing (DMTracker's pack/unpack data movements, detectors/dmtracker) ----
    # Pack: typed inbuf -> outbuf+position; Unpack: inbuf+position -> typed outbuf.
    ("int MPI_Pack(const void *inbuf@sbuf, int incount@scount, MPI_Datatype datatype@stype, void *outbuf@rbuf, int outsize@rcount, int *position@position, MPI_Comm comm@comm)",
     "pack", dict(cls="Pack")),
    ("int MPI_Unpack(const void *inbuf@sbuf, int insize@scount, int *position@position, void *outbuf@rbuf, int outcount@rcount, MPI_Datatype datatype@rtype, MPI_Comm comm@comm)",
     "pack", dict(cls="Unpack")),
    # ---- one-sided communication (format 4; recorder/handlers_rma.cpp, detectors/rma) ----
    ("int MPI_Win_create(void *base@base, MPI_Aint size@wsize, int disp_unit@dispunit, MPI_Info info, MPI_Comm comm@comm, MPI_Win *win@winout)",
     "win_new", dict(cls="WinMgmt")),
    ("int MPI_Win_allocate(MPI_Aint size@wsize, int disp_unit@dispunit, MPI_Info info, MPI_Comm comm@comm, void *baseptr@baseout, MPI_Win *win@winout)",
     "win_new", dict(cls="WinMgmt")),
    ("int MPI_Win_allocate_shared(MPI_Aint size@wsize, int disp_unit@dispunit, MPI_Info info, MPI_Comm comm@comm, void *baseptr@baseout, MPI_Win *win@winout)",
     "win_new", dict(cls="WinMgmt")),
    ("int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm@comm, MPI_Win *win@winout)", "win_new", dict(cls="WinMgmt")),
    ("int MPI_Win_attach(MPI_Win win@win, void *base@base, MPI_Aint size@wsize)", "win_attach", dict(cls="WinMgmt")),
    ("int MPI_Win_detach(MPI_Win win@win, const void *base@base)", "win_attach", dict(cls="WinMgmt")),
    ("int MPI_Win_free(MPI_Win *win@winout)", "win_free", dict(cls="WinMgmt")),
    ("int MPI_Put(const void *origin_addr@sbuf, int origin_count@scount, MPI_Datatype origin_datatype@stype, int target_rank@target, MPI_Aint target_disp@tdisp, int target_count@tcount, MPI_Datatype target_datatype@ttype, MPI_Win win@win)",
     "rma", dict(cls="Rma")),
    ("int MPI_Get(void *origin_addr@rbuf, int origin_count@rcount, MPI_Datatype origin_datatype@rtype, int target_rank@target, MPI_Aint target_disp@tdisp, int target_count@tcount, MPI_Datatype target_datatype@ttype, MPI_Win win@win)",
     "rma", dict(cls="Rma")),
    ("int MPI_Accumulate(const void *origin_addr@sbuf, int origin_count@scount, MPI_Datatype origin_datatype@stype, int target_rank@target, MPI_Aint target_disp@tdisp, int target_count@tcount, MPI_Datatype target_datatype@ttype, MPI_Op op@rop, MPI_Win win@win)",
     "rma", dict(cls="Rma")),
    ("int MPI_Get_accumulate(const void *origin_addr@sbuf, int origin_count@scount, MPI_Datatype origin_datatype@stype, void *result_addr@rbuf, int result_count@rcount, MPI_Datatype result_datatype@rtype, int target_rank@target, MPI_Aint target_disp@tdisp, int target_count@tcount, MPI_Datatype target_datatype@ttype, MPI_Op op@rop, MPI_Win win@win)",
     "rma", dict(cls="Rma")),
    ("int MPI_Fetch_and_op(const void *origin_addr@sbuf, void *result_addr@rbuf, MPI_Datatype datatype@type, int target_rank@target, MPI_Aint target_disp@tdisp, MPI_Op op@rop, MPI_Win win@win)",
     "rma", dict(cls="Rma", single=True)),
    ("int MPI_Compare_and_swap(const void *origin_addr@sbuf, const void *compare_addr, void *result_addr@rbuf, MPI_Datatype datatype@type, int target_rank@target, MPI_Aint target_disp@tdisp, MPI_Win win@win)",
     "rma", dict(cls="Rma", single=True)),
    ("int MPI_Rput(const void *origin_addr@sbuf, int origin_count@scount, MPI_Datatype origin_datatype@stype, int target_rank@target, MPI_Aint target_disp@tdisp, int target_count@tcount, MPI_Datatype target_datatype@ttype, MPI_Win win@win, MPI_Request *request@req)",
     "rma", dict(cls="Rma")),
    ("int MPI_Rget(void *origin_addr@rbuf, int origin_count@rcount, MPI_Datatype origin_datatype@rtype, int target_rank@target, MPI_Aint target_disp@tdisp, int target_count@tcount, MPI_Datatype target_datatype@ttype, MPI_Win win@win, MPI_Request *request@req)",
     "rma", dict(cls="Rma")),
    ("int MPI_Raccumulate(const void *origin_addr@sbuf, int origin_count@scount, MPI_Datatype origin_datatype@stype, int target_rank@target, MPI_Aint target_disp@tdisp, int target_count@tcount, MPI_Datatype target_datatype@ttype, MPI_Op op@rop, MPI_Win win@win, MPI_Request *request@req)",
     "rma", dict(cls="Rma")),
    ("int MPI_Rget_accumulate(const void *origin_addr@sbuf, int origin_count@scount, MPI_Datatype origin_datatype@stype, void *result_addr@rbuf, int result_count@rcount, MPI_Datatype result_datatype@rtype, int target_rank@target, MPI_Aint target_disp@tdisp, int target_count@tcount, MPI_Datatype target_datatype@ttype, MPI_Op op@rop, MPI_Win win@win, MPI_Request *request@req)",
     "rma", dict(cls="Rma")),
    ("int MPI_Win_fence(int mpi_assert@assertion, MPI_Win win@win)", "rma_sync", dict(cls="RmaSync")),
    ("int MPI_Win_lock(int lock_type@locktype, int rank@target, int mpi_assert@assertion, MPI_Win win@win)", "rma_sync", dict(cls="RmaSync")),
    ("int MPI_Win_unlock(int rank@target, MPI_Win win@win)", "rma_sync", dict(cls="RmaSync")),
    ("int MPI_Win_lock_all(int mpi_assert@assertion, MPI_Win win@win)", "rma_sync", dict(cls="RmaSync")),
    ("int MPI_Win_unlock_all(MPI_Win win@win)", "rma_sync", dict(cls="RmaSync")),
    ("int MPI_Win_flush(int rank@target, MPI_Win win@win)", "rma_sync", dict(cls="RmaSync")),
    ("int MPI_Win_flush_all(MPI_Win win@win)", "rma_sync", dict(cls="RmaSync")),
    ("int MPI_Win_flush_local(int rank@target, MPI_Win win@win)", "rma_sync", dict(cls="RmaSync")),
    ("int MPI_Win_flush_local_all(MPI_Win win@win)", "rma_sync", dict(cls="RmaSync")),
    ("int MPI_Win_sync(MPI_Win win@win)", "rma_sync", dict(cls="RmaSync")),
    ("int MPI_Win_start(MPI_Group group@group, int mpi_assert@assertion, MPI_Win win@win)", "rma_sync", dict(cls="RmaSync")),
    ("int MPI_Win_complete(MPI_Win win@win)", "rma_sync", dict(cls="RmaSync")),
    ("int MPI_Win_post(MPI_Group group@group, int mpi_assert@assertion, MPI_Win win@win)", "rma_sync", dict(cls="RmaSync")),
    ("int MPI_Win_wait(MPI_Win win@win)", "rma_sync", dict(cls="RmaSync")),
    ("int MPI_Win_test(MPI_Win win@win, int *flag@flag)", "rma_sync", dict(cls="RmaSync")),
]
