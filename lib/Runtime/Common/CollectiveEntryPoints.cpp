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

extern "C" {

int64_t rlxCollectiveRank(void) { return rank(); }

int64_t rlxCollectiveWorldSize(void) { return worldSize(); }

void rlxCollectiveAllReduce(int32_t type, int32_t reduction, const void *in,
                            void *out, int64_t count, int64_t group,
                            int64_t color, int64_t key, int64_t groupSize) {
  run(Kind::AllReduce,
      {"rlxCollectiveAllReduce", /*reduces=*/true, 1, 1, type, reduction, in,
       out, count, group, color, key, groupSize});
}

void rlxCollectiveAllGather(int32_t type, const void *in, void *out,
                            int64_t count, int64_t group, int64_t color,
                            int64_t key, int64_t groupSize) {
  run(Kind::AllGather,
      {"rlxCollectiveAllGather", /*reduces=*/false, 1, groupSize, type, 0, in,
       out, count, group, color, key, groupSize});
}

void rlxCollectiveReduceScatter(int32_t type, int32_t reduction, const void *in,
                                void *out, int64_t count, int64_t group,
                                int64_t color, int64_t key, int64_t groupSize) {
  run(Kind::ReduceScatter,
      {"rlxCollectiveReduceScatter", /*reduces=*/true, groupSize, 1, type,
       reduction, in, out, count, group, color, key, groupSize});
}

void rlxCollectiveAllToAll(int32_t type, const void *in, void *out,
                           int64_t count, int64_t group, int64_t color,
                           int64_t key, int64_t groupSize) {
  run(Kind::AllToAll,
      {"rlxCollectiveAllToAll", /*reduces=*/false, groupSize, groupSize, type,
       0, in, out, count, group, color, key, groupSize});
}

void rlxCollectiveAllReduceAsync(int32_t type, int32_t reduction,
                                 const void *in, void *out, int64_t count,
                                 int64_t group, int64_t color, int64_t key,
                                 int64_t groupSize) {
  run(Kind::AllReduce,
      {"rlxCollectiveAllReduceAsync", /*reduces=*/true, 1, 1, type, reduction,
       in, out, count, group, color, key, groupSize, /*async=*/true});
}

void rlxCollectiveAllGatherAsync(int32_t type, const void *in, void *out,
                                 int64_t count, int64_t group, int64_t color,
                                 int64_t key, int64_t groupSize) {
  run(Kind::AllGather,
      {"rlxCollectiveAllGatherAsync", /*reduces=*/false, 1, groupSize, type, 0,
       in, out, count, group, color, key, groupSize, /*async=*/true});
}

void rlxCollectiveReduceScatterAsync(int32_t type, int32_t reduction,
                                     const void *in, void *out, int64_t count,
                                     int64_t group, int64_t color, int64_t key,
                                     int64_t groupSize) {
  run(Kind::ReduceScatter,
      {"rlxCollectiveReduceScatterAsync", /*reduces=*/true, groupSize, 1, type,
       reduction, in, out, count, group, color, key, groupSize,
       /*async=*/true});
}

void rlxCollectiveAllToAllAsync(int32_t type, const void *in, void *out,
                                int64_t count, int64_t group, int64_t color,
                                int64_t key, int64_t groupSize) {
  run(Kind::AllToAll,
      {"rlxCollectiveAllToAllAsync", /*reduces=*/false, groupSize, groupSize,
       type, 0, in, out, count, group, color, key, groupSize,
       /*async=*/true});
}

void rlxCollectiveWait(void *out, const void *in) { wait(out, in); }

const char *rlxCollectiveGetLastError(void) { return lastError(); }

void rlxCollectiveClearError(void) { clearError(); }

} // extern "C"
