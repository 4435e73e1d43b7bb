//===- NCCLABICheck.cpp - NCCLABI.h against the toolkit's nccl.h ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Built only where nccl.h is found (CMakeLists.txt): a value or a type
// spelled wrong in NCCLABI.h fails the build instead of a collective on
// the GPUs.
//
//===----------------------------------------------------------------------===//

#include "NCCLABI.h"

#include <cstddef>
#include <nccl.h>

using namespace rlx::nccl;

static_assert(kSuccess == ncclSuccess && kInProgress == ncclInProgress);
static_assert(kInt32 == ncclInt32 && kInt64 == ncclInt64 &&
              kFloat16 == ncclFloat16 && kFloat32 == ncclFloat32 &&
              kFloat64 == ncclFloat64 && kBfloat16 == ncclBfloat16);
static_assert(kSum == ncclSum && kProd == ncclProd && kMax == ncclMax &&
              kMin == ncclMin);
static_assert(sizeof(UniqueId) == sizeof(ncclUniqueId) &&
              sizeof(UniqueId) == NCCL_UNIQUE_ID_BYTES);
// Enums travel as int in the entry points' types.
static_assert(sizeof(ncclResult_t) == sizeof(Result) &&
              sizeof(ncclDataType_t) == sizeof(int) &&
              sizeof(ncclRedOp_t) == sizeof(int));

// Config is a prefix of ncclConfig_t.
static_assert(sizeof(Config) <= sizeof(ncclConfig_t) && sizeof(Config) == 48);
#define SAME_FIELD(ours, theirs)                                               \
  static_assert(offsetof(Config, ours) == offsetof(ncclConfig_t, theirs) &&    \
                sizeof(Config::ours) == sizeof(ncclConfig_t::theirs))
SAME_FIELD(size, size);
SAME_FIELD(magic, magic);
SAME_FIELD(version, version);
SAME_FIELD(blocking, blocking);
SAME_FIELD(cgaClusterSize, cgaClusterSize);
SAME_FIELD(minCTAs, minCTAs);
SAME_FIELD(maxCTAs, maxCTAs);
SAME_FIELD(netName, netName);
SAME_FIELD(splitShare, splitShare);
#undef SAME_FIELD
static_assert(NCCL_CONFIG_UNDEF_INT == INT_MIN &&
              NCCL_VERSION(2, 18, 0) == 21800);
