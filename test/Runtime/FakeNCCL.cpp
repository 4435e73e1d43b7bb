//===- FakeNCCL.cpp - an NCCL that records its calls ----------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Stands in for libnccl.so.2 in the test of the CUDA runtime's collectives
// (test/Python/collectives-nccl.py; no GPU in CI): the entry points that
// NCCLCollectives.cpp looks up, each appending one line to a log the test
// reads back (fakeNcclLog). Communicators are non-blocking as asked: their
// creation and calls return ncclInProgress and settle at the next
// ncclCommGetAsyncError (the world's once every rank has joined, which
// each marks with a file in $RLX_COLLECTIVE_DIR), except those that
// $FAKE_NCCL_HANG names ("init", "split", "call"), which never do (a peer
// that never came). A split's size is its parent's unless
// $FAKE_NCCL_SPLIT_COUNT says otherwise.
//
//===----------------------------------------------------------------------===//

#include "FakeLibrary.h"

#include <map>
#include <string>
#include <unistd.h>

namespace {
struct FakeComm {
  int count;
  bool settled;
  bool hangs;
  /// For the world's: "<dir>/fake-nccl-<id>-", where each rank that joins
  /// leaves a file named by its rank.
  std::string joined;
};
std::map<void *, FakeComm> comms;

bool hangs(const char *what) {
  const char *spec = getenv("FAKE_NCCL_HANG");
  return spec && strstr(spec, what);
}

/// A new communicator of `count` ranks, pending.
void *newComm(int count, const char *what) {
  void *comm = newHandle(0x100);
  comms[comm] = {count, false, hangs(what)};
  return comm;
}

struct Config {
  size_t size;
  unsigned magic, version;
  int blocking;
};

struct UniqueId {
  char internal[128];
};

/// The communicator of the ncclGroupStart/End being built.
void *groupComm = nullptr;
} // namespace

extern "C" {
const char *fakeNcclLog() { return callLog.c_str(); }

int ncclGetVersion(int *version) {
  *version = 22809;
  return 0;
}
int ncclGetUniqueId(UniqueId *id) {
  memset(id, 0, sizeof(*id));
  snprintf(id->internal, sizeof(id->internal), "fake-id-of-%d", int(getpid()));
  log("ncclGetUniqueId");
  return 0;
}
int ncclCommInitRankConfig(void **comm, int count, UniqueId id, int rank,
                           Config *config) {
  *comm = newComm(count, "init");
  // The ranks meet as NCCL's would: none is done before all joined (so
  // that none is done before all read the id).
  const char *dir = getenv("RLX_COLLECTIVE_DIR");
  std::string &joined = comms[*comm].joined;
  joined = std::string(dir ? dir : "/tmp") + "/fake-nccl-" + id.internal + "-";
  fclose(fopen((joined + std::to_string(rank)).c_str(), "w"));
  log("ncclCommInitRankConfig %p ranks %d rank %d id %.32s blocking %d "
      "magic %x version %u size %zu",
      *comm, count, rank, id.internal, config->blocking, config->magic,
      config->version, config->size);
  return config->blocking == 0 ? 7 : 0;
}
int ncclCommSplit(void *parent, int color, int key, void **comm,
                  Config *config) {
  const char *count = getenv("FAKE_NCCL_SPLIT_COUNT");
  *comm = newComm(count ? atoi(count) : comms[parent].count, "split");
  log("ncclCommSplit %p color %d key %d -> %p blocking %d", parent, color, key,
      *comm, config->blocking);
  return 7;
}
int ncclCommCount(void *comm, int *count) {
  *count = comms[comm].count;
  return 0;
}
int ncclCommGetAsyncError(void *comm, int *state) {
  FakeComm &c = comms[comm];
  bool allJoined = true;
  for (int r = 0; r < c.count && !c.joined.empty(); ++r)
    allJoined &= access((c.joined + std::to_string(r)).c_str(), F_OK) == 0;
  if (!c.hangs && allJoined)
    c.settled = true;
  *state = c.settled ? 0 : 7;
  return 0;
}
int ncclCommAbort(void *comm) {
  log("ncclCommAbort %p", comm);
  comms.erase(comm);
  return 0;
}
const char *ncclGetErrorString(int result) {
  return result == 7 ? "operation in progress" : "fake NCCL error";
}
const char *ncclGetLastError(void *) { return ""; }

/// A collective on `comm`: pending until polled.
static int enqueue(void *comm) {
  comms[comm].settled = false;
  comms[comm].hangs = hangs("call");
  return 7;
}
int ncclAllReduce(const void *in, void *out, size_t count, int type, int op,
                  void *comm, void *stream) {
  log("ncclAllReduce %p -> %p count %zu type %d op %d comm %p stream %p", in,
      out, count, type, op, comm, stream);
  return enqueue(comm);
}
int ncclAllGather(const void *in, void *out, size_t count, int type, void *comm,
                  void *stream) {
  log("ncclAllGather %p -> %p count %zu type %d comm %p stream %p", in, out,
      count, type, comm, stream);
  return enqueue(comm);
}
int ncclReduceScatter(const void *in, void *out, size_t count, int type, int op,
                      void *comm, void *stream) {
  log("ncclReduceScatter %p -> %p count %zu type %d op %d comm %p stream %p",
      in, out, count, type, op, comm, stream);
  return enqueue(comm);
}
int ncclSend(const void *in, size_t count, int type, int peer, void *comm,
             void *) {
  log("ncclSend %p count %zu type %d peer %d comm %p", in, count, type, peer,
      comm);
  groupComm = comm;
  return 0;
}
int ncclRecv(void *out, size_t count, int type, int peer, void *comm, void *) {
  log("ncclRecv %p count %zu type %d peer %d comm %p", out, count, type, peer,
      comm);
  return 0;
}
int ncclGroupStart() {
  log("ncclGroupStart");
  return 0;
}
int ncclGroupEnd() {
  log("ncclGroupEnd");
  return enqueue(groupComm);
}
} // extern "C"
