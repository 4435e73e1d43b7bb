//===- Targets.h - the rlx ops each compilation target claims ---*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A target is a backend that lowers rlx ops: it *claims* the ops it lowers.
// Fusion (`--rlx-fuse="target=NAME"`) emits only fused ops the target
// claims, and legalization (`--rlx-legalize="target=NAME"`) rewrites or
// rejects every op it does not. Each target registers its claims in its
// own folder (lib/Target/<T>/<T>Target.cpp, RLX/Target/TargetRegistry.h)
// as a union of the op groups declared here, which are facts about the
// rlx vocabulary, not about any target.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_TRANSFORMS_TARGETS_H
#define RLX_DIALECT_MIR_TRANSFORMS_TARGETS_H

#include "RLX/Target/TargetRegistry.h"

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlir {
namespace rlx {

/// Groups of rlx ops that a target claims together.
enum class OpGroup {
  /// Elementwise ops, leaves (but rlx.param) and the region terminator.
  Elementwise,
  Shape,
  /// Accumulates into data-dependent places (rlx.scatter_add).
  Scatter,
  Reduction,
  /// A scan (rlx.cumsum): on GPUs a host loop over one kernel per step.
  Scan,
  /// Selection by k (rlx.topk): passes that carry buffers through a loop.
  TopK,
  NN,
  Matmul,
  DotGeneral,
  Quant,
  /// Integer products (rlx.int8_matmul), made by rlx-quant-propagate.
  Int8Matmul,
  Backward,
  Spectral,
  /// LU with partial pivoting: loops whose steps depend on the data.
  Solve,
  CustomFn,
  /// Control flow that carries values through loops or chooses a region by
  /// a value: host loops over the kernels where the values live on a GPU.
  Loops,
  /// A KV cache written at a run-time position (rlx.kv_cache_write) and
  /// attention over a run-time length of it (rlx.decode_attention): on a
  /// GPU, a generated copy kernel and the runtime's decode-attention
  /// kernel, both reading the position from device memory.
  KVCache,
  /// The rest of LLM decoding: the sampling of the next token
  /// (rlx.sample), MoE expert products (rlx.grouped_matmul), the gated
  /// delta rule (rlx.gated_delta_net) and LoRA products (rlx.lora_matmul,
  /// which rlx-legalize rewrites into matmuls for a target that lacks it):
  /// no GPU kernels yet.
  Decode,
  /// The fused ops that the GPU kernel encoders cover.
  FusedKernels,
  FusedAttention,
  FusedLayer,
};

/// The op names ("rlx.add", ...) of `group`.
ArrayRef<StringRef> opsOfGroup(OpGroup group);

/// The op names of every group in `groups`, for a TargetOps claim set.
std::vector<StringRef> opsOfGroups(ArrayRef<OpGroup> groups);

/// The groups a GPU front with static kernels compiles: all but those that
/// carry buffers through host loops or read a value back to choose what
/// runs (Scatter, TopK, Solve, Loops), but Int8Matmul, which needs a
/// library's integer products, but KVCache, which needs the runtime's
/// decode-attention kernel, and but Decode, which has no kernels yet.
SmallVector<OpGroup> kernelOpGroups();

/// The groups every backend of the whole vocabulary lowers: all but the
/// autodiff transforms (expanded before lowering) and rlx.param.
SmallVector<OpGroup> allOpGroups();

/// The registered targets' names, in registration order.
std::vector<StringRef> targetNames();

/// The claims of the target `name`; failure when it is unknown.
FailureOr<const TargetOps *> lookupTarget(StringRef name);

/// As above, and an unknown name is an error at `loc` naming the known
/// targets (`unknown target 'tpu' (registered: cpu, ...)`), as every pass
/// with a `target` option reports it.
FailureOr<const TargetOps *> lookupTarget(StringRef name, Location loc);

/// Whether the target `target` claims the op `opName`; false when the
/// target is unknown.
bool claims(StringRef target, StringRef opName);

/// The fused ops that the fusion pattern family `family` of `rlx-fuse`
/// ("matmul-bias-act", "residual-norm", "swiglu", "attention-block")
/// emits; empty for an unknown family.
ArrayRef<StringRef> fusedOpsOfFamily(StringRef family);

/// The fusion families of `families` (rlx-fuse's default ones when empty)
/// whose fused ops `target` claims, in order. Each family left out goes to
/// `dropped` (when given) with the first fused op the target lacks.
SmallVector<std::string> familiesForTarget(
    const TargetOps &target, ArrayRef<std::string> families,
    SmallVectorImpl<std::pair<std::string, StringRef>> *dropped = nullptr);

} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_MIR_TRANSFORMS_TARGETS_H
