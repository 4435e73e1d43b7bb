/*===- Collectives.h - what partitioned RLX programs call to communicate -===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ABI between a program partitioned over a device grid (upstream's
// `shard` dialect: `shard-partition` turns a program annotated with
// shardings into one program per device with `shard.all_reduce`,
// `all_gather`, `reduce_scatter` and `all_to_all` between its ops;
// `rlx-lower-collectives` turns those into the calls below) and the
// runtimes that carry the data: librlx_cpu_runtime between processes of one
// machine over shared memory, librlx_cuda_runtime over NVIDIA's NCCL.
//
// Processes: one process per device (as torchrun launches them). A process
// reads its place in the job from the environment: RLX_RANK and
// RLX_WORLD_SIZE, else torchrun's RANK and WORLD_SIZE; with neither it is
// rank 0 of a job of one. The rank is the device's linear index in the
// grid (row-major). Processes of one job name it alike with RLX_JOB_ID
// (else torchrun's TORCHELASTIC_RUN_ID, else MASTER_ADDR:MASTER_PORT) and
// meet in RLX_COLLECTIVE_DIR (default /tmp). A collective that waits more
// than RLX_COLLECTIVE_TIMEOUT seconds (default 300) for a peer gives up:
// it records an error naming the collective and the peers it waited for,
// and returns.
//
// Groups: a collective runs over some axes of the grid. Every process of
// the job makes the call (programs are SPMD); `group` names the set of
// axes and is the same on every process (a bitmask of the axes, say);
// `color` splits the processes into groups (the linear index of the
// process's coordinates off those axes) of `groupSize` processes each,
// ordered by `key` (the linear index of its coordinates on those axes, in
// the collective's axis order, 0 .. groupSize - 1). The calls of one
// `group` have the same axes in the same order, so each process keeps its
// color and key across them (the CUDA runtime makes one NCCL communicator
// per group, at the group's first call, on every process of the job): the
// same axes in another order need another group id.
//
// Buffers are contiguous, on the device the runtime computes on (host
// memory for the CPU runtime, device memory for CUDA), and `in` may equal
// `out` for all_reduce. Errors are recorded, not fatal: the first one since
// the last rlxCollectiveClearError() is rlxCollectiveGetLastError(); the
// CUDA runtime records them as its other errors too (rlxCudaGetLastError).
//
//===----------------------------------------------------------------------===*/

#ifndef RLX_RUNTIME_COMMON_COLLECTIVES_H
#define RLX_RUNTIME_COMMON_COLLECTIVES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The element type of a collective's buffers. */
enum RlxCollectiveType {
  RLX_COLLECTIVE_F32 = 0,
  RLX_COLLECTIVE_F64 = 1,
  RLX_COLLECTIVE_BF16 = 2,
  RLX_COLLECTIVE_F16 = 3,
  RLX_COLLECTIVE_I32 = 4,
  RLX_COLLECTIVE_I64 = 5
};

/* How all_reduce and reduce_scatter combine the processes' elements
   (shard's reduction kinds sum, product, max and min). */
enum RlxCollectiveReduction {
  RLX_COLLECTIVE_SUM = 0,
  RLX_COLLECTIVE_PRODUCT = 1,
  RLX_COLLECTIVE_MAX = 2,
  RLX_COLLECTIVE_MIN = 3
};

/* This process's rank in the job and the job's size (see above). */
int64_t rlxCollectiveRank(void);
int64_t rlxCollectiveWorldSize(void);

/* out[i] = reduction over the group of in[i], i < count. */
void rlxCollectiveAllReduce(int32_t type, int32_t reduction, const void *in,
                            void *out, int64_t count, int64_t group,
                            int64_t color, int64_t key, int64_t groupSize);

/* out = the group's `in` buffers of `count` elements each, concatenated in
   key order (groupSize * count elements). */
void rlxCollectiveAllGather(int32_t type, const void *in, void *out,
                            int64_t count, int64_t group, int64_t color,
                            int64_t key, int64_t groupSize);

/* out[i] = reduction over the group of in[key * count + i], i < count:
   `in` holds groupSize * count elements, block j for the process of key j. */
void rlxCollectiveReduceScatter(int32_t type, int32_t reduction,
                                const void *in, void *out, int64_t count,
                                int64_t group, int64_t color, int64_t key,
                                int64_t groupSize);

/* Block j of `out` (count elements) is block `key` of the `in` of the
   process of key j: both hold groupSize * count elements. */
void rlxCollectiveAllToAll(int32_t type, const void *in, void *out,
                           int64_t count, int64_t group, int64_t color,
                           int64_t key, int64_t groupSize);

/* The same four, which may return before the collective completes (the
   CUDA runtime runs them on a communication stream after the work the
   caller's stream holds so far): the caller must not read `out`, nor write
   or free `in`, before rlxCollectiveWait(out, in), which makes the caller's
   later work (its stream's, for CUDA) wait for the collective. A runtime
   that completes collectives at once (the CPU's) makes the wait a no-op.
   `rlx-lower-collectives{overlap=true}` calls these. */
void rlxCollectiveAllReduceAsync(int32_t type, int32_t reduction,
                                 const void *in, void *out, int64_t count,
                                 int64_t group, int64_t color, int64_t key,
                                 int64_t groupSize);
void rlxCollectiveAllGatherAsync(int32_t type, const void *in, void *out,
                                 int64_t count, int64_t group, int64_t color,
                                 int64_t key, int64_t groupSize);
void rlxCollectiveReduceScatterAsync(int32_t type, int32_t reduction,
                                     const void *in, void *out, int64_t count,
                                     int64_t group, int64_t color, int64_t key,
                                     int64_t groupSize);
void rlxCollectiveAllToAllAsync(int32_t type, const void *in, void *out,
                                int64_t count, int64_t group, int64_t color,
                                int64_t key, int64_t groupSize);
void rlxCollectiveWait(void *out, const void *in);

/* The first error since the last clear, or null. */
const char *rlxCollectiveGetLastError(void);
void rlxCollectiveClearError(void);

#ifdef __cplusplus
}
#endif

#endif /* RLX_RUNTIME_COMMON_COLLECTIVES_H */
