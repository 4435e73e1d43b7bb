//===- NCCLCollectives.cpp - collectives between GPUs through NCCL --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Collectives.h for the CUDA runtime, over NVIDIA's NCCL, opened at the
// first collective that needs it ($RLX_NCCL_LIBRARY, else libnccl.so.2;
// in a PyTorch process its copy is already loaded). A job of one process
// needs no NCCL: its collectives are copies.
//
// Communicators: the world's is made at the first collective. Rank 0 asks
// NCCL for the job's unique id and publishes it in $RLX_COLLECTIVE_DIR
// (rlx-<job>-nccl-id, written aside and renamed, so that no peer reads half
// of it); the others wait for the file; all then join with
// ncclCommInitRankConfig, non-blocking, so that a peer that never comes
// makes the others give up after $RLX_COLLECTIVE_TIMEOUT (ncclCommAbort)
// instead of waiting forever. Rank 0 removes the file once all joined (or
// gave up).
// Each `group` gets its own communicator at its first call,
// ncclCommSplit(world, color, key), every process of the job taking part
// (programs are SPMD), under the same timeout. Even a group of the whole
// job is split: only there do its keys (its axis order) decide the ranks,
// and the processes could not agree locally whether they match the
// world's. The group's communicators block (their calls return once
// enqueued, in the caller's thread); a peer that dies after the group
// formed can still hold the first call that connects to it.
//
// Calls run on the stream set by rlxCudaSetStream, else on the legacy
// default stream, as the other rlx* functions: then the call waits for the
// stream, polling it and NCCL's error state, and gives up after the
// timeout (a peer that died mid-collective leaves the kernels waiting),
// aborting the group's communicator. A group whose communicator failed
// fails its later calls at once. On a caller's stream a call returns once
// enqueued; a failure NCCL notices later is reported at the group's next
// call.
//
// The *Async calls run on a communication stream of the process (created
// at the first), after an event of the caller's stream, and return once
// enqueued; rlxCollectiveWait makes the caller's stream wait for an event
// recorded after the collective. So the work the caller enqueues between
// the two overlaps the collective. No host wait: a peer that dies during
// one is noticed at the group's next call, or by the caller's own
// synchronization. A driver that cannot order streams (no
// cuStreamWaitEvent) runs them as the others.
//
// Errors go to rlxCollectiveGetLastError and to rlxCudaGetLastError.
//
//===----------------------------------------------------------------------===//

#include "CUDADriver.h"
#include "CollectiveEnvironment.h"
#include "DynamicLibrary.h"
#include "NCCLABI.h"
#include "RLX/Runtime/Common/Collectives.h"

#include <cstdio>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <string>
#include <unistd.h>
#include <vector>

using namespace rlx::runtime::collective;
using namespace rlx::nccl;
using rlx::cuda::Driver;
using Clock = std::chrono::steady_clock;

namespace {

//===----------------------------------------------------------------------===//
// Errors and the library
//===----------------------------------------------------------------------===//

std::mutex firstErrorMutex;
std::string firstError;

/// Records `message` as the CUDA runtime's error (which reports it on
/// stderr) and as the collectives' first error since the last clear.
void recordError(const std::string &message) {
  rlx::cuda::recordError(message);
  std::lock_guard<std::mutex> lock(firstErrorMutex);
  if (firstError.empty())
    firstError = message;
}

/// Why NCCL could not be used, once nccl() has failed.
std::string loadError;

/// NCCL's entry points, or null (with the reason in loadError).
const Library *nccl() {
  static Library n;
  static bool loaded = [] {
    rlx::runtime::OpenedLibrary lib =
        rlx::runtime::openFirst("RLX_NCCL_LIBRARY", {"libnccl.so.2"});
    if (!lib.handle) {
      loadError = "cannot load NCCL " + lib.tried + ": " + lib.reason +
                  " (RLX_NCCL_LIBRARY names it; python3 -m rlx.distributed "
                  "sets it to PyTorch's copy)";
      return false;
    }
    rlx::runtime::SymbolBinder bind(lib.handle, "NCCL " + lib.tried,
                                    rlx::cuda::errors());
    bind(n.ncclGetVersion, "ncclGetVersion");
    bind(n.ncclGetUniqueId, "ncclGetUniqueId");
    bind(n.ncclCommInitRankConfig, "ncclCommInitRankConfig");
    bind(n.ncclCommSplit, "ncclCommSplit");
    bind(n.ncclCommCount, "ncclCommCount");
    bind(n.ncclCommGetAsyncError, "ncclCommGetAsyncError");
    bind(n.ncclCommAbort, "ncclCommAbort");
    bind(n.ncclGetErrorString, "ncclGetErrorString");
    bind(n.ncclGetLastError, "ncclGetLastError");
    bind(n.ncclAllReduce, "ncclAllReduce");
    bind(n.ncclAllGather, "ncclAllGather");
    bind(n.ncclReduceScatter, "ncclReduceScatter");
    bind(n.ncclSend, "ncclSend");
    bind(n.ncclRecv, "ncclRecv");
    bind(n.ncclGroupStart, "ncclGroupStart");
    bind(n.ncclGroupEnd, "ncclGroupEnd");
    int version = 0;
    if (!bind.ok() || n.ncclGetVersion(&version) != kSuccess ||
        version < 21800) {
      loadError = "NCCL " + lib.tried + " (version code " +
                  std::to_string(version) +
                  ") is not NCCL 2.18 or later (ncclCommSplit)";
      return false;
    }
    return true;
  }();
  return loaded ? &n : nullptr;
}

/// NCCL's name for `result`, and its last error message if it has one.
std::string describe(const Library &n, Result result) {
  const char *name = n.ncclGetErrorString(result);
  std::string text = (name ? name : "unknown NCCL error") + std::string(" (") +
                     std::to_string(result) + ")";
  // NCCL keeps the last message per thread; the argument is unused.
  if (const char *last = n.ncclGetLastError(nullptr); last && *last)
    text += ": " + std::string(last);
  return text;
}

/// Waits until `comm`'s pending operation (its creation, an enqueue) is
/// done, as a non-blocking communicator must be; false with `error` set
/// if it failed or the deadline passed.
bool settle(const Library &n, Comm comm, Clock::time_point deadline,
            std::string &error) {
  Result state = kInProgress;
  bool done = waitUntil(
      [&] {
        if (Result r = n.ncclCommGetAsyncError(comm, &state); r != kSuccess)
          state = r;
        return state != kInProgress;
      },
      deadline);
  if (!done)
    error = "timed out after " + timeoutText();
  else if (state != kSuccess)
    error = describe(n, state);
  return done && state == kSuccess;
}

/// A config for a non-blocking communicator: its creation and calls
/// return at once, and settle() waits for them with a deadline.
Config nonBlocking() {
  Config config;
  config.blocking = 0;
  return config;
}

//===----------------------------------------------------------------------===//
// Communicators
//===----------------------------------------------------------------------===//

/// One communicator, or why it cannot be used.
struct Communicator {
  Comm comm = nullptr;
  /// Its processes.
  int64_t size = 0;
  std::string failure;

  /// Aborts the communicator (ending any kernels of it that wait for a
  /// peer) and keeps `why` for the later calls.
  void abandon(const Library &n, const std::string &why) {
    if (comm)
      n.ncclCommAbort(comm);
    comm = nullptr;
    failure = why;
  }
};

/// One collective at a time per process: NCCL's group calls are per
/// thread and the communicators are created in the same order everywhere.
std::mutex commMutex;
Communicator world;
std::map<int64_t, Communicator> groups;

std::string idPath() { return directory() + "/rlx-" + jobId() + "-nccl-id"; }

/// Rank 0 makes the job's unique id and publishes it; the others read it.
bool exchangeId(const Library &n, UniqueId &id, Clock::time_point deadline,
                std::string &error) {
  std::string path = idPath();
  if (rank() == 0) {
    if (Result r = n.ncclGetUniqueId(&id); r != kSuccess) {
      error = "ncclGetUniqueId failed: " + describe(n, r);
      return false;
    }
    std::string aside = path + "." + std::to_string(getpid());
    int fd =
        open(aside.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    bool written = fd >= 0 && write(fd, &id, sizeof(id)) == sizeof(id);
    if (fd >= 0)
      close(fd);
    if (!written || std::rename(aside.c_str(), path.c_str()) != 0) {
      unlink(aside.c_str());
      error = "cannot write the NCCL id to " + path;
      return false;
    }
    return true;
  }
  bool published = waitUntil(
      [&] {
        int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
          return false;
        bool whole = ::read(fd, &id, sizeof(id)) == sizeof(id);
        close(fd);
        return whole;
      },
      deadline);
  if (!published)
    error = "timed out after " + timeoutText() +
            " waiting for rank 0 to publish the NCCL id in " + path;
  return published;
}

/// The job's communicator, made at the first call; null with `error` set
/// if it cannot be.
Communicator *worldCommunicator(const Library &n, std::string &error) {
  if (world.comm)
    return &world;
  if (!world.failure.empty()) {
    error = world.failure;
    return nullptr;
  }
  Clock::time_point deadline = Clock::now() + timeout();
  UniqueId id;
  if (!exchangeId(n, id, deadline, error)) {
    world.failure = error;
    return nullptr;
  }
  Config config = nonBlocking();
  Comm comm = nullptr;
  Result r = n.ncclCommInitRankConfig(&comm, int(worldSize()), id, int(rank()),
                                      &config);
  if (r != kSuccess && r != kInProgress)
    error = "ncclCommInitRankConfig failed: " + describe(n, r);
  else if (settle(n, comm, deadline, error))
    world.comm = comm;
  else
    error = "ncclCommInitRankConfig: " + error + " waiting for the job's " +
            std::to_string(worldSize()) + " processes to join";
  // Every rank that joined has read the id; one that did not is too late
  // now.
  if (rank() == 0)
    unlink(idPath().c_str());
  if (!world.comm) {
    world.comm = comm;
    world.abandon(n, error);
    return nullptr;
  }
  return &world;
}

/// `call`'s group's communicator, split from the world's at the group's
/// first call; null with `error` set if it cannot be.
Communicator *groupCommunicator(const Library &n, const Call &call,
                                std::string &error) {
  Communicator &group = groups[call.group];
  if (!group.failure.empty()) {
    error = "an earlier collective of the group failed: " + group.failure;
    return nullptr;
  }
  if (group.comm && group.size != call.groupSize) {
    error = "the group had " + std::to_string(group.size) +
            " processes at its first call";
    return nullptr;
  }
  if (group.comm) {
    // A failure NCCL noticed since (an enqueue on a caller's stream).
    Result state = kSuccess;
    if (n.ncclCommGetAsyncError(group.comm, &state) == kSuccess &&
        state != kSuccess && state != kInProgress) {
      error = "the group's communicator failed: " + describe(n, state);
      group.abandon(n, error);
      return nullptr;
    }
    return &group;
  }
  Communicator *parent = worldCommunicator(n, error);
  if (!parent)
    return nullptr;
  if (call.color < 0 || call.color > INT32_MAX) {
    // NCCL's colors are non-negative ints (-1 is "in no group").
    error = "color " + std::to_string(call.color) + " is not one for NCCL";
    return nullptr;
  }
  Clock::time_point deadline = Clock::now() + timeout();
  // The group's communicator blocks (as PyTorch's do): on a non-blocking
  // one NCCL hands each collective to a thread of its own, and the caller
  // waited about 1.7 ms per call for it on the H200s, longer than the
  // computation an overlapped collective hides behind. Its creation, a
  // call on the world's non-blocking communicator, still settles under
  // the timeout.
  Config config;
  config.blocking = 1;
  Comm comm = nullptr;
  int count = 0;
  Result r = n.ncclCommSplit(parent->comm, int(call.color), int(call.key),
                             &comm, &config);
  if (r != kSuccess && r != kInProgress)
    error = "ncclCommSplit failed: " + describe(n, r);
  // The split is a call on the parent: the parent settles first (a
  // non-blocking split hands the new communicator out only then: NCCL
  // 2.2x left it null while in progress), then the new one.
  else if (!settle(n, parent->comm, deadline, error) ||
           (comm && !settle(n, comm, deadline, error)))
    error = "ncclCommSplit: " + error +
            " waiting for the job's processes to make the group's first call";
  else if (!comm)
    error = "ncclCommSplit gave no communicator";
  else if (n.ncclCommCount(comm, &count) != kSuccess || count != call.groupSize)
    error = "ncclCommSplit made a group of " + std::to_string(count) +
            ": the processes disagree on the group's colors or size";
  else {
    group.comm = comm;
    group.size = call.groupSize;
  }
  if (!group.comm) {
    group.comm = comm;
    group.abandon(n, error);
    return nullptr;
  }
  return &group;
}

//===----------------------------------------------------------------------===//
// The calls
//===----------------------------------------------------------------------===//

int ncclType(int32_t type) {
  switch (type) {
  case RLX_COLLECTIVE_F32:
    return kFloat32;
  case RLX_COLLECTIVE_F64:
    return kFloat64;
  case RLX_COLLECTIVE_BF16:
    return kBfloat16;
  case RLX_COLLECTIVE_F16:
    return kFloat16;
  case RLX_COLLECTIVE_I32:
    return kInt32;
  case RLX_COLLECTIVE_I64:
    return kInt64;
  }
  return -1;
}

int ncclOp(int32_t reduction) {
  static const int ops[] = {kSum, kProd, kMax, kMin};
  return reduction >= 0 && reduction < 4 ? ops[reduction] : kSum;
}

/// Waits for the legacy default stream, where the call ran, watching
/// NCCL's error state; false with `error` set if the collective failed or
/// did not end by `deadline`.
bool finish(const Driver &d, const Library &n, Comm comm,
            Clock::time_point deadline, std::string &error) {
  if (!d.cuStreamQuery) {
    // A driver without cuStreamQuery (never a real one): wait unbounded.
    if (rlx::cuda::check(d.cuStreamSynchronize(nullptr), "cuStreamSynchronize"))
      return true;
    error = "cuStreamSynchronize failed";
    return false;
  }
  rlx::cuda::CUresult stream = 0;
  Result state = kSuccess;
  bool ended = waitUntil(
      [&] {
        stream = d.cuStreamQuery(nullptr);
        if (stream != rlx::cuda::kErrorNotReady)
          return true;
        // NCCL's proxy thread notices a peer that closed its connections.
        return n.ncclCommGetAsyncError(comm, &state) == kSuccess &&
               state != kSuccess && state != kInProgress;
      },
      deadline);
  if (!ended) {
    error = "timed out after " + timeoutText() +
            " waiting for the collective to complete (a peer stopped or "
            "did not make the call)";
    return false;
  }
  if (state != kSuccess && state != kInProgress) {
    error = describe(n, state);
    return false;
  }
  if (!rlx::cuda::check(stream, "cuStreamQuery")) {
    error = "the stream failed";
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Collectives that overlap the caller's work (the *Async entry points)
//===----------------------------------------------------------------------===//

/// The process's communication stream, its events, and the collectives
/// started on it that no rlxCollectiveWait has joined yet (by their `out`);
/// under commMutex.
rlx::cuda::Handle commStream = nullptr;
std::vector<rlx::cuda::Handle> freeEvents;
std::map<void *, rlx::cuda::Handle> started;

rlx::cuda::Handle takeEvent(const Driver &d) {
  if (!freeEvents.empty()) {
    rlx::cuda::Handle e = freeEvents.back();
    freeEvents.pop_back();
    return e;
  }
  rlx::cuda::Handle e = nullptr;
  // CU_EVENT_DISABLE_TIMING: the cheapest kind, for ordering only.
  if (!rlx::cuda::check(d.cuEventCreate(&e, 2), "cuEventCreate"))
    return nullptr;
  return e;
}

/// Makes `waiter` wait for the work `signaller` holds so far.
bool order(const Driver &d, rlx::cuda::Handle signaller,
           rlx::cuda::Handle waiter, rlx::cuda::Handle event) {
  return rlx::cuda::check(d.cuEventRecord(event, signaller),
                          "cuEventRecord") &&
         rlx::cuda::check(d.cuStreamWaitEvent(waiter, event, 0),
                          "cuStreamWaitEvent");
}

/// Creates the communication stream: CU_STREAM_NON_BLOCKING (no implicit
/// ordering with the legacy stream, which the caller may compute on), at
/// the highest priority the device has, so that the collective's blocks
/// are scheduled as soon as SMs free up rather than after every block of a
/// large kernel already queued.
bool createCommStream(const Driver &d) {
  int least = 0, greatest = 0;
  if (d.cuStreamCreateWithPriority && d.cuCtxGetStreamPriorityRange &&
      d.cuCtxGetStreamPriorityRange(&least, &greatest) == 0)
    return rlx::cuda::check(
        d.cuStreamCreateWithPriority(&commStream, 1, greatest),
        "cuStreamCreateWithPriority");
  return rlx::cuda::check(d.cuStreamCreate(&commStream, 1), "cuStreamCreate");
}

/// The stream an asynchronous collective runs on, after what `stream`
/// holds so far; null (run it on `stream`, synchronously) where the driver
/// cannot order streams.
rlx::cuda::Handle startOn(const Driver &d, rlx::cuda::Handle stream) {
  if (!d.cuStreamWaitEvent)
    return nullptr;
  if (!commStream && !createCommStream(d))
    return nullptr;
  rlx::cuda::Handle ready = takeEvent(d);
  if (!ready)
    return nullptr;
  bool ordered = order(d, stream, commStream, ready);
  freeEvents.push_back(ready);
  return ordered ? commStream : nullptr;
}

} // namespace

void rlx::runtime::collective::wait(void *out, const void *) {
  std::lock_guard<std::mutex> lock(commMutex);
  auto it = started.find(out);
  if (it == started.end())
    return; // ran synchronously, or failed (its error is recorded)
  const Driver *d = rlx::cuda::ready();
  if (d && !rlx::cuda::check(d->cuStreamWaitEvent(rlx::cuda::userStream(),
                                                  it->second, 0),
                             "cuStreamWaitEvent"))
    recordError("rlxCollectiveWait: cuStreamWaitEvent failed");
  // An event may be recorded again once a wait on it is enqueued.
  freeEvents.push_back(it->second);
  started.erase(it);
}

void rlx::runtime::collective::run(Kind kind, const Call &call) {
  if (std::string wrong = checkArguments(call); !wrong.empty())
    return recordError(wrong);
  if (call.count == 0)
    return;
  std::string where = std::string(call.name) + call.where() + ": ";
  const Driver *d = rlx::cuda::ready();
  if (!d) {
    const char *why = rlx::cuda::errors().first();
    return recordError(where + "no CUDA context (" +
                       (why ? why : "unknown error") + ")");
  }
  rlx::cuda::Handle stream = rlx::cuda::userStream();
  size_t block = size_t(call.count) * elementSize(call.type);
  if (call.groupSize == 1) {
    // Every kind is a copy of the one block.
    if (call.in != call.out) {
      if (!d->cuMemcpyAsync)
        return recordError(where + "the CUDA driver lacks cuMemcpyAsync");
      if (!rlx::cuda::check(
              d->cuMemcpyAsync(
                  reinterpret_cast<rlx::cuda::CUdeviceptr>(call.out),
                  reinterpret_cast<rlx::cuda::CUdeviceptr>(call.in), block,
                  stream),
              "cuMemcpyAsync"))
        return recordError(where + "cuMemcpyAsync failed");
    }
    if (!stream && !rlx::cuda::check(d->cuStreamSynchronize(nullptr),
                                     "cuStreamSynchronize"))
      recordError(where + "cuStreamSynchronize failed");
    return;
  }
  const Library *n = ::nccl();
  if (!n)
    return recordError(where + loadError);

  std::lock_guard<std::mutex> lock(commMutex);
  std::string error;
  Communicator *group = groupCommunicator(*n, call, error);
  if (!group)
    return recordError(where + error);
  Clock::time_point deadline = Clock::now() + timeout();
  // An asynchronous call runs on the communication stream, after the
  // caller's work so far; rlxCollectiveWait joins it back.
  rlx::cuda::Handle caller = stream;
  rlx::cuda::Handle comm = call.async ? startOn(*d, caller) : nullptr;
  if (comm)
    stream = comm;
  int type = ncclType(call.type), op = ncclOp(call.reduction);
  Result r = kSuccess;
  switch (kind) {
  case Kind::AllReduce:
    r = n->ncclAllReduce(call.in, call.out, call.count, type, op, group->comm,
                         stream);
    break;
  case Kind::AllGather:
    r = n->ncclAllGather(call.in, call.out, call.count, type, group->comm,
                         stream);
    break;
  case Kind::ReduceScatter:
    r = n->ncclReduceScatter(call.in, call.out, call.count, type, op,
                             group->comm, stream);
    break;
  case Kind::AllToAll: {
    // Block j of `in` to key j, block j of `out` from key j: the group's
    // NCCL ranks are its keys.
    // Calls in a group are only queued (a non-blocking communicator may
    // still answer ncclInProgress); ncclGroupEnd starts them.
    auto queued = [](Result r) { return r == kSuccess || r == kInProgress; };
    r = n->ncclGroupStart();
    if (!queued(r))
      break;
    auto *in = static_cast<const char *>(call.in);
    auto *out = static_cast<char *>(call.out);
    for (int64_t k = 0; k < call.groupSize && queued(r); ++k) {
      r = n->ncclSend(in + k * block, call.count, type, int(k), group->comm,
                      stream);
      if (queued(r))
        r = n->ncclRecv(out + k * block, call.count, type, int(k), group->comm,
                        stream);
    }
    // The group must end even after a failed call in it.
    Result end = n->ncclGroupEnd();
    if (queued(r))
      r = end;
    break;
  }
  }
  if (r != kSuccess && r != kInProgress)
    error = describe(*n, r);
  else if (r == kInProgress && !settle(*n, group->comm, deadline, error))
    error = "enqueueing: " + error;
  else if (comm) {
    rlx::cuda::Handle done = takeEvent(*d);
    if (done && rlx::cuda::check(d->cuEventRecord(done, comm),
                                 "cuEventRecord")) {
      started[call.out] = done;
      return;
    }
    // Not joinable: join it now.
    if (done)
      freeEvents.push_back(done);
    rlx::cuda::Handle join = takeEvent(*d);
    if (join && order(*d, comm, caller, join)) {
      freeEvents.push_back(join);
      return;
    }
    error = "joining the communication stream failed";
  } else if (!stream && !finish(*d, *n, group->comm, deadline, error))
    error = "running: " + error;
  else
    return;
  group->abandon(*n, error);
  recordError(where + error);
}

const char *rlx::runtime::collective::lastError() {
  std::lock_guard<std::mutex> lock(firstErrorMutex);
  return firstError.empty() ? nullptr : firstError.c_str();
}

void rlx::runtime::collective::clearError() {
  std::lock_guard<std::mutex> lock(firstErrorMutex);
  firstError.clear();
}
