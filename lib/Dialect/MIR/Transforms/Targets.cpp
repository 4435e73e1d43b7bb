//===- Targets.cpp - the rlx ops each compilation target claims -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The op groups that targets claim (each target registers its claim set in
// its own folder, lib/Target/<T>/<T>Target.cpp), the lookups that
// rlx-legalize, rlx-fuse and the reports make through the target registry,
// and the fusion families with the fused ops each emits.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/Targets.h"

#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <vector>

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// Op groups
//===----------------------------------------------------------------------===//

/// Elementwise ops, leaves (but rlx.param) and the region terminator.
static const StringRef kElementwise[] = {
    "rlx.abs",      "rlx.add",      "rlx.atan",     "rlx.cast",
    "rlx.cmp",      "rlx.constant", "rlx.cos",      "rlx.div",
    "rlx.exp",      "rlx.fma",      "rlx.gelu",     "rlx.log",
    "rlx.max",      "rlx.min",      "rlx.mul",      "rlx.neg",
    "rlx.pow",      "rlx.relu",     "rlx.round",    "rlx.rsqrt",
    "rlx.sigmoid",  "rlx.silu",     "rlx.sin",      "rlx.sqrt",
    "rlx.stop_gradient", "rlx.sub", "rlx.tan",      "rlx.tanh",
    "rlx.where",    "rlx.yield",    "rlx.elementwise_region"};

static const StringRef kShape[] = {
    "rlx.concat", "rlx.expand",  "rlx.gather", "rlx.narrow",
    "rlx.reshape", "rlx.reverse", "rlx.transpose"};
/// Accumulates into data-dependent places (a loop of its own on CUDA).
static const StringRef kScatter[] = {"rlx.scatter_add"};

static const StringRef kReduction[] = {
    "rlx.argmax", "rlx.argmin", "rlx.log_softmax", "rlx.reduce",
    "rlx.softmax", "rlx.softmax_cross_entropy"};
/// A scan: on GPUs a host loop over one kernel per step.
static const StringRef kScan[] = {"rlx.cumsum"};
/// Selection by k passes that carry buffers through a loop.
static const StringRef kTopK[] = {"rlx.topk"};

static const StringRef kNN[] = {
    "rlx.attention", "rlx.batch_norm_inference", "rlx.group_norm",
    "rlx.layer_norm", "rlx.rms_norm", "rlx.rope",
    "rlx.conv", "rlx.conv_transpose2d", "rlx.pool"};

static const StringRef kMatmul[] = {"rlx.matmul"};
static const StringRef kDotGeneral[] = {"rlx.dot_general"};

static const StringRef kQuant[] = {"rlx.dequant_matmul", "rlx.dequantize",
                                   "rlx.fake_quantize", "rlx.quantize"};

/// Integer products, made by rlx-quant-propagate.
static const StringRef kInt8Matmul[] = {"rlx.int8_matmul"};

static const StringRef kBackward[] = {
    "rlx.attention_backward", "rlx.conv2d_backward_input",
    "rlx.conv2d_backward_weight", "rlx.layer_norm_backward",
    "rlx.rms_norm_backward", "rlx.softmax_cross_entropy_backward"};

static const StringRef kSpectral[] = {"rlx.fft", "rlx.irfft", "rlx.rfft"};
/// LU with partial pivoting: loops whose steps depend on the data.
static const StringRef kSolve[] = {"rlx.dense_solve"};

static const StringRef kCustomFn[] = {"rlx.custom_fn"};
/// Control flow that carries values through loops or chooses a region by
/// a value: host loops over the kernels where the values live on a GPU.
static const StringRef kLoops[] = {"rlx.if", "rlx.scan",
                                   "rlx.selective_scan", "rlx.while"};

/// LLM decoding over a KV cache: the cache written at a run-time position
/// and attention over a run-time length of it.
static const StringRef kKVCache[] = {"rlx.decode_attention",
                                     "rlx.kv_cache_write"};

/// The rest of LLM decoding: the sampling of the next token, MoE expert
/// products, LoRA products and the gated delta rule's recurrence (the GPU
/// fronts have no kernels yet; rlx-legalize rewrites rlx.lora_matmul into
/// matmuls for them).
static const StringRef kDecode[] = {"rlx.gated_delta_net",
                                    "rlx.grouped_matmul", "rlx.lora_matmul",
                                    "rlx.sample"};

/// The fused ops that the GPU kernel encoders cover.
static const StringRef kFusedKernels[] = {
    "rlx.fused_matmul_bias_act", "rlx.fused_residual_layer_norm",
    "rlx.fused_residual_rms_norm", "rlx.fused_swiglu"};
static const StringRef kFusedAttention[] = {"rlx.fused_attention_block"};
static const StringRef kFusedLayer[] = {"rlx.fused_transformer_layer"};

ArrayRef<StringRef> rlx::opsOfGroup(OpGroup group) {
  switch (group) {
  case OpGroup::Elementwise:
    return kElementwise;
  case OpGroup::Shape:
    return kShape;
  case OpGroup::Scatter:
    return kScatter;
  case OpGroup::Reduction:
    return kReduction;
  case OpGroup::Scan:
    return kScan;
  case OpGroup::TopK:
    return kTopK;
  case OpGroup::NN:
    return kNN;
  case OpGroup::Matmul:
    return kMatmul;
  case OpGroup::DotGeneral:
    return kDotGeneral;
  case OpGroup::Quant:
    return kQuant;
  case OpGroup::Int8Matmul:
    return kInt8Matmul;
  case OpGroup::Backward:
    return kBackward;
  case OpGroup::Spectral:
    return kSpectral;
  case OpGroup::Solve:
    return kSolve;
  case OpGroup::CustomFn:
    return kCustomFn;
  case OpGroup::Loops:
    return kLoops;
  case OpGroup::KVCache:
    return kKVCache;
  case OpGroup::Decode:
    return kDecode;
  case OpGroup::FusedKernels:
    return kFusedKernels;
  case OpGroup::FusedAttention:
    return kFusedAttention;
  case OpGroup::FusedLayer:
    return kFusedLayer;
  }
  llvm_unreachable("unknown op group");
}

std::vector<StringRef> rlx::opsOfGroups(ArrayRef<OpGroup> groups) {
  std::vector<StringRef> ops;
  for (OpGroup group : groups) {
    ArrayRef<StringRef> names = opsOfGroup(group);
    ops.insert(ops.end(), names.begin(), names.end());
  }
  return ops;
}

SmallVector<OpGroup> rlx::allOpGroups() {
  return {OpGroup::Elementwise,  OpGroup::Shape,        OpGroup::Scatter,
          OpGroup::Reduction,    OpGroup::Scan,         OpGroup::TopK,
          OpGroup::NN,           OpGroup::Matmul,       OpGroup::DotGeneral,
          OpGroup::Quant,        OpGroup::Int8Matmul,   OpGroup::Backward,
          OpGroup::Spectral,     OpGroup::Solve,        OpGroup::CustomFn,
          OpGroup::Loops,        OpGroup::KVCache,      OpGroup::Decode,
          OpGroup::FusedKernels,
          OpGroup::FusedAttention, OpGroup::FusedLayer};
}

SmallVector<OpGroup> rlx::kernelOpGroups() {
  return {OpGroup::Elementwise, OpGroup::Shape,    OpGroup::Reduction,
          OpGroup::Scan,        OpGroup::NN,       OpGroup::Matmul,
          OpGroup::Quant,       OpGroup::Backward, OpGroup::DotGeneral,
          OpGroup::Spectral,    OpGroup::CustomFn, OpGroup::FusedKernels,
          OpGroup::FusedAttention, OpGroup::FusedLayer};
}

//===----------------------------------------------------------------------===//
// Lookups
//===----------------------------------------------------------------------===//

std::vector<StringRef> rlx::targetNames() { return registeredTargetNames(); }

FailureOr<const TargetOps *> rlx::lookupTarget(StringRef name) {
  if (const TargetInfo *target = lookupTargetInfo(name))
    return &target->ops;
  return failure();
}

FailureOr<const TargetOps *> rlx::lookupTarget(StringRef name, Location loc) {
  FailureOr<const TargetOps *> target = lookupTarget(name);
  if (failed(target))
    emitError(loc) << unknownTargetMessage(name);
  return target;
}

bool rlx::claims(StringRef target, StringRef opName) {
  FailureOr<const TargetOps *> t = lookupTarget(target);
  return succeeded(t) && (*t)->claims(opName);
}

ArrayRef<StringRef> rlx::fusedOpsOfFamily(StringRef family) {
  static const StringRef matmulBiasAct[] = {"rlx.fused_matmul_bias_act"};
  static const StringRef residualNorm[] = {"rlx.fused_residual_layer_norm",
                                           "rlx.fused_residual_rms_norm"};
  static const StringRef swiglu[] = {"rlx.fused_swiglu"};
  static const StringRef attentionBlock[] = {"rlx.fused_attention_block"};
  static const StringRef transformerLayer[] = {"rlx.fused_transformer_layer"};
  static const StringRef regions[] = {"rlx.elementwise_region"};
  if (family == "transformer-layer")
    return transformerLayer;
  if (family == "elementwise-regions")
    return regions;
  if (family == "matmul-bias-act")
    return matmulBiasAct;
  if (family == "residual-norm")
    return residualNorm;
  if (family == "swiglu")
    return swiglu;
  if (family == "attention-block")
    return attentionBlock;
  return {};
}

SmallVector<std::string> rlx::familiesForTarget(
    const TargetOps &target, ArrayRef<std::string> families,
    SmallVectorImpl<std::pair<std::string, StringRef>> *dropped) {
  SmallVector<std::string> all(families.begin(), families.end());
  if (all.empty())
    for (StringRef family : defaultFusionFamilies())
      all.push_back(family.str());
  SmallVector<std::string> kept;
  for (const std::string &family : all) {
    ArrayRef<StringRef> ops = fusedOpsOfFamily(family);
    const StringRef *lacking = llvm::find_if(
        ops, [&](StringRef op) { return !target.claims(op); });
    if (lacking == ops.end())
      kept.push_back(family);
    else if (dropped)
      dropped->push_back({family, *lacking});
  }
  return kept;
}
