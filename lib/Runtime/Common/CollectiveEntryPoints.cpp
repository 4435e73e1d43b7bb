//===- CollectiveEntryPoints.cpp - the collectives ABI's C functions ------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The functions of RLX/Runtime/Common/Collectives.h, compiled into each
// runtime that carries collectives (librlx_cpu_runtime over shared memory,
// librlx_cuda_runtime over NCCL): each describes its call and hands it to
// the runtime's collective::run, which checks and carries it.
//
//===----------------------------------------------------------------------===//

#include "CollectiveEnvironment.h"

using namespace rlx::runtime::collective;

namespace {

// Each kind's call described once, for its entry point and its *Async
// twin: how many blocks of `count` elements its input and its output hold
// (a gather's output and a scatter's input hold one per member).

void allReduce(const char *name, bool async, int32_t type, int32_t reduction,
               const void *in, void *out, int64_t count, int64_t group,
               int64_t color, int64_t key, int64_t groupSize) {
  run(Kind::AllReduce, {name, /*reduces=*/true, 1, 1, type, reduction, in, out,
                        count, group, color, key, groupSize, async});
}

void allGather(const char *name, bool async, int32_t type, const void *in,
               void *out, int64_t count, int64_t group, int64_t color,
               int64_t key, int64_t groupSize) {
  run(Kind::AllGather, {name, /*reduces=*/false, 1, groupSize, type, 0, in,
                        out, count, group, color, key, groupSize, async});
}

void reduceScatter(const char *name, bool async, int32_t type,
                   int32_t reduction, const void *in, void *out, int64_t count,
                   int64_t group, int64_t color, int64_t key,
                   int64_t groupSize) {
  run(Kind::ReduceScatter,
      {name, /*reduces=*/true, groupSize, 1, type, reduction, in, out, count,
       group, color, key, groupSize, async});
}

void allToAll(const char *name, bool async, int32_t type, const void *in,
              void *out, int64_t count, int64_t group, int64_t color,
              int64_t key, int64_t groupSize) {
  run(Kind::AllToAll, {name, /*reduces=*/false, groupSize, groupSize, type, 0,
                       in, out, count, group, color, key, groupSize, async});
}

} // namespace

extern "C" {

int64_t rlxCollectiveRank(void) { return rank(); }

int64_t rlxCollectiveWorldSize(void) { return worldSize(); }

void rlxCollectiveAllReduce(int32_t type, int32_t reduction, const void *in,
                            void *out, int64_t count, int64_t group,
                            int64_t color, int64_t key, int64_t groupSize) {
  allReduce("rlxCollectiveAllReduce", false, type, reduction, in, out, count,
            group, color, key, groupSize);
}

void rlxCollectiveAllGather(int32_t type, const void *in, void *out,
                            int64_t count, int64_t group, int64_t color,
                            int64_t key, int64_t groupSize) {
  allGather("rlxCollectiveAllGather", false, type, in, out, count, group,
            color, key, groupSize);
}

void rlxCollectiveReduceScatter(int32_t type, int32_t reduction, const void *in,
                                void *out, int64_t count, int64_t group,
                                int64_t color, int64_t key, int64_t groupSize) {
  reduceScatter("rlxCollectiveReduceScatter", false, type, reduction, in, out,
                count, group, color, key, groupSize);
}

void rlxCollectiveAllToAll(int32_t type, const void *in, void *out,
                           int64_t count, int64_t group, int64_t color,
                           int64_t key, int64_t groupSize) {
  allToAll("rlxCollectiveAllToAll", false, type, in, out, count, group, color,
           key, groupSize);
}

void rlxCollectiveAllReduceAsync(int32_t type, int32_t reduction,
                                 const void *in, void *out, int64_t count,
                                 int64_t group, int64_t color, int64_t key,
                                 int64_t groupSize) {
  allReduce("rlxCollectiveAllReduceAsync", true, type, reduction, in, out,
            count, group, color, key, groupSize);
}

void rlxCollectiveAllGatherAsync(int32_t type, const void *in, void *out,
                                 int64_t count, int64_t group, int64_t color,
                                 int64_t key, int64_t groupSize) {
  allGather("rlxCollectiveAllGatherAsync", true, type, in, out, count, group,
            color, key, groupSize);
}

void rlxCollectiveReduceScatterAsync(int32_t type, int32_t reduction,
                                     const void *in, void *out, int64_t count,
                                     int64_t group, int64_t color, int64_t key,
                                     int64_t groupSize) {
  reduceScatter("rlxCollectiveReduceScatterAsync", true, type, reduction, in,
                out, count, group, color, key, groupSize);
}

void rlxCollectiveAllToAllAsync(int32_t type, const void *in, void *out,
                                int64_t count, int64_t group, int64_t color,
                                int64_t key, int64_t groupSize) {
  allToAll("rlxCollectiveAllToAllAsync", true, type, in, out, count, group,
           color, key, groupSize);
}

void rlxCollectiveWait(void *out, const void *in) { wait(out, in); }

const char *rlxCollectiveGetLastError(void) { return lastError(); }

void rlxCollectiveClearError(void) { clearError(); }

} // extern "C"
