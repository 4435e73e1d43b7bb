//===- NCCLABI.h - the NCCL C interface, spelled out ------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The types, enum values and entry points of nccl.h that the collectives
// (NCCLCollectives.cpp) use, so that the runtime builds without NCCL.
// NCCLABICheck.cpp compares them with nccl.h where it is installed.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_NCCLABI_H
#define RLX_LIB_RUNTIME_NCCLABI_H

#include <climits>
#include <cstddef>

namespace rlx::nccl {

using Result = int;    // ncclResult_t
using Comm = void *;   // ncclComm_t
using Stream = void *; // cudaStream_t

// ncclResult_t
constexpr Result kSuccess = 0, kInProgress = 7;

// ncclDataType_t
constexpr int kInt32 = 2, kInt64 = 4, kFloat16 = 6, kFloat32 = 7, kFloat64 = 8,
              kBfloat16 = 9;

// ncclRedOp_t
constexpr int kSum = 0, kProd = 1, kMax = 2, kMin = 3;

struct UniqueId {
  char internal[128];
};

/// The leading fields of ncclConfig_t as NCCL 2.18 defined them. NCCL
/// copies min(size, its own size) bytes and gives the fields that a
/// config of an older `version` lacks their defaults, so this struct
/// works with every release since 2.18 (ncclCommSplit's first).
struct Config {
  size_t size = sizeof(Config);
  unsigned magic = 0xcafebeef;
  unsigned version = 21800; // NCCL_VERSION(2, 18, 0)
  int blocking = INT_MIN;   // NCCL_CONFIG_UNDEF_INT: NCCL's default
  int cgaClusterSize = INT_MIN;
  int minCTAs = INT_MIN;
  int maxCTAs = INT_MIN;
  const char *netName = nullptr;
  int splitShare = INT_MIN;
  /// The padding to 8 bytes, which NCCL copies too: later releases read
  /// it as their next int field (trafficClass), so "undefined" as well.
  int padding = INT_MIN;
};

/// The entry points, looked up once.
struct Library {
  Result (*ncclGetVersion)(int *);
  Result (*ncclGetUniqueId)(UniqueId *);
  Result (*ncclCommInitRankConfig)(Comm *, int, UniqueId, int, Config *);
  Result (*ncclCommSplit)(Comm, int, int, Comm *, Config *);
  Result (*ncclCommCount)(Comm, int *);
  Result (*ncclCommGetAsyncError)(Comm, Result *);
  Result (*ncclCommAbort)(Comm);
  const char *(*ncclGetErrorString)(Result);
  const char *(*ncclGetLastError)(Comm);
  Result (*ncclAllReduce)(const void *, void *, size_t, int, int, Comm, Stream);
  Result (*ncclAllGather)(const void *, void *, size_t, int, Comm, Stream);
  Result (*ncclReduceScatter)(const void *, void *, size_t, int, int, Comm,
                              Stream);
  Result (*ncclSend)(const void *, size_t, int, int, Comm, Stream);
  Result (*ncclRecv)(void *, size_t, int, int, Comm, Stream);
  Result (*ncclGroupStart)();
  Result (*ncclGroupEnd)();
};

} // namespace rlx::nccl

#endif // RLX_LIB_RUNTIME_NCCLABI_H
