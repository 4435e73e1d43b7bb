//===- Targets.cpp - the rlx ops each compilation target claims -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The claim set of every target, built from op groups. `cpu` is the backend
// of this repository: it claims every op that `--convert-rlx-to-linalg`
// lowers, that is every rlx op but the autodiff transforms (rlx.grad,
// rlx.jvp, rlx.vmap, which autodiff expands before lowering) and rlx.param
// (which `rlx-specialize-params` or `rlx-promote-params` removes). Fused
// ops and rlx.selective_scan lower on the CPU through their primitive
// chains (the unfuse patterns are part of that conversion).
//
// `cuda` claims what `rlx-cuda-pipeline` compiles: what cpu claims but the
// ops that carry buffers through host loops or read a value back to choose
// what runs (rlx.if, rlx.while, rlx.scan, rlx.selective_scan, rlx.topk,
// rlx.scatter_add, rlx.dense_solve), static shapes only (the GPU front's
// kernels have static sizes), so that a dynamic shape is an error at its
// op rather than in rlx-gpu-map-linalg.
// `rocm` claims what `rlx-rocm-pipeline` compiles: the same GPU front, so
// what cuda claims but rlx.int8_matmul. `metal`
// claims what its backend compiles. `vulkan` claims what
// `rlx-vulkan-pipeline` compiles and runs (test/Integration/Vulkan): the
// GPU front's kernels as SPIR-V, static shapes only, but no host loops
// over kernels that pass views at dynamic offsets (rlx.cumsum: a bare
// kernel pointer has no offset), no rlx.topk or rlx.scatter_add (the
// front does not take them), no complex values (so no fft family) and no
// rlx.dot_general (legalized to transpose/reshape/matmul). The plan
// followed the seeds (003, backend-aware op claims; 000, "Metal may skip
// FuseAttentionBlock"): metal claims what vulkan claims but
// rlx.fused_attention_block.
// No target claims the autodiff transforms or rlx.param. Element types are
// not part of a claim (metal has no f64: its emitter reports it at the op).
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/Targets.h"

#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

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

/// The fused ops that the GPU kernel encoders cover.
static const StringRef kFusedKernels[] = {
    "rlx.fused_matmul_bias_act", "rlx.fused_residual_layer_norm",
    "rlx.fused_residual_rms_norm", "rlx.fused_swiglu"};
static const StringRef kFusedAttention[] = {"rlx.fused_attention_block"};
static const StringRef kFusedLayer[] = {"rlx.fused_transformer_layer"};

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

namespace {
/// A target's claim set as the union of op groups.
struct TargetDef {
  StringRef name;
  std::vector<ArrayRef<StringRef>> groups;
  bool generalBroadcast;
  bool staticShapes = false;
};
} // namespace

static std::vector<TargetDef> targetDefs() {
  // The primitives every target lowers.
  std::vector<ArrayRef<StringRef>> primitives = {
      kElementwise, kShape,  kScatter, kReduction, kScan,
      kTopK,        kNN,     kMatmul,  kQuant,     kBackward};
  auto with = [](std::vector<ArrayRef<StringRef>> base,
                 std::vector<ArrayRef<StringRef>> more) {
    std::vector<ArrayRef<StringRef>> all = std::move(base);
    all.insert(all.end(), more.begin(), more.end());
    return all;
  };
  auto full = with(primitives,
                   {kDotGeneral, kSpectral, kSolve, kCustomFn, kLoops,
                    kFusedKernels, kFusedAttention, kFusedLayer, kInt8Matmul});
  // What the CUDA pipeline compiles: no loop carries buffers on the host
  // and no kernel reads a value back to choose what runs next, so the ops
  // that need either are left out (rlx-legalize rewrites rlx.if into
  // rlx.where and unrolls a bounded rlx.while; the rest is an error).
  std::vector<ArrayRef<StringRef>> cuda = {
      kElementwise, kShape,      kReduction, kScan, kNN,
      kMatmul,      kQuant,      kBackward,  kDotGeneral,
      kSpectral,    kCustomFn,   kFusedKernels,
      kFusedAttention, kFusedLayer};
  return {
      // The CPU backend: everything convert-rlx-to-linalg lowers; linalg
      // indexing maps take any broadcast.
      {"cpu", full, /*generalBroadcast=*/true},
      // The CUDA backend (rlx-cuda-pipeline), with int8 products (cuBLASLt's
      // int8 kernels or generated ones; test/Integration's GPU checks).
      {"cuda", with(cuda, {kInt8Matmul}), /*generalBroadcast=*/true,
       /*staticShapes=*/true},
      // The ROCm backend (rlx-rocm-pipeline): the CUDA backend's GPU front.
      {"rocm", cuda, /*generalBroadcast=*/true, /*staticShapes=*/true},
      // The Vulkan backend (rlx-vulkan-pipeline; test/Integration/Vulkan):
      // the GPU front's kernels in SPIR-V and AOT host code.
      {"vulkan",
       {kElementwise, kShape, kReduction, kNN, kMatmul, kQuant, kBackward,
        kFusedKernels, kFusedAttention},
       /*generalBroadcast=*/true,
       /*staticShapes=*/true},
      // The Metal backend (rlx-metal-pipeline, the MSL emitter and the
      // host description; test/Integration/Metal): what the GPU front
      // makes kernels of, but host loops (rlx.cumsum, control flow), which
      // the host description does not hold, and rlx.topk and
      // rlx.scatter_add, which the front does not take. Its kernels take
      // any broadcast, but legalization still expands non-trailing ones.
      {"metal",
       {kElementwise, kShape, kReduction, kNN, kMatmul, kQuant, kBackward,
        kFusedKernels},
       /*generalBroadcast=*/false},
  };
}

namespace {
/// The targets with their sorted op lists, built once.
struct Registry {
  std::vector<std::vector<StringRef>> lists;
  std::vector<TargetOps> targets;
  std::vector<StringRef> names;

  Registry() {
    std::vector<TargetDef> defs = targetDefs();
    lists.reserve(defs.size());
    for (const TargetDef &def : defs) {
      std::vector<StringRef> ops;
      for (ArrayRef<StringRef> group : def.groups)
        ops.insert(ops.end(), group.begin(), group.end());
      llvm::sort(ops);
      ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
      lists.push_back(std::move(ops));
    }
    for (auto [def, ops] : llvm::zip(defs, lists)) {
      targets.push_back(
          TargetOps{def.name, ops, def.generalBroadcast, def.staticShapes});
      names.push_back(def.name);
    }
  }
};
} // namespace

static const Registry &registry() {
  static const Registry r;
  return r;
}

bool TargetOps::claims(StringRef opName) const {
  return std::binary_search(ops.begin(), ops.end(), opName);
}

ArrayRef<StringRef> rlx::targetNames() { return registry().names; }

FailureOr<const TargetOps *> rlx::lookupTarget(StringRef name) {
  for (const TargetOps &target : registry().targets)
    if (target.name == name)
      return &target;
  return failure();
}

FailureOr<const TargetOps *> rlx::lookupTarget(StringRef name, Location loc) {
  FailureOr<const TargetOps *> target = lookupTarget(name);
  if (failed(target))
    emitError(loc) << "unknown target '" << name
                   << "' (known: " << llvm::join(targetNames(), ", ") << ")";
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
