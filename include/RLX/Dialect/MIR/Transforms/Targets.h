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
// rejects every op it does not. The claim sets are listed in Targets.cpp,
// one place per target.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_TRANSFORMS_TARGETS_H
#define RLX_DIALECT_MIR_TRANSFORMS_TARGETS_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
namespace rlx {

/// The rlx ops that one target claims (lowers).
struct TargetOps {
  /// The target's name: "cpu", "cuda", "rocm", "vulkan" or "metal".
  StringRef name;
  /// The claimed op names ("rlx.add", ...), sorted.
  ArrayRef<StringRef> ops;

  /// Whether the target's elementwise kernels take any NumPy broadcast of
  /// their operands. When false they take only trailing broadcasts (an
  /// operand equal to the result's trailing dims, after dropping its
  /// leading unit dims), and `rlx-legalize` materializes the others with
  /// `rlx.expand`.
  bool generalBroadcast;
  /// Whether the target takes static shapes only: `rlx-legalize` reports
  /// a claimed op with a dynamic operand or result shape.
  bool staticShapes = false;
  /// Whether the target claims the op named `opName` ("rlx.fft").
  bool claims(StringRef opName) const;
};

/// The known targets' names, in a fixed order.
ArrayRef<StringRef> targetNames();

/// The claims of the target `name`; failure when it is unknown.
FailureOr<const TargetOps *> lookupTarget(StringRef name);

/// As above, and an unknown name is an error at `loc` naming the known
/// targets (`unknown target 'tpu' (known: cpu, cuda, ...)`), as every pass
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
