//===- MetalHostDescription.cpp - the host side as JSON -------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The host functions of the GPU front are straight-line code: buffers
// (the arguments, results as trailing out-parameters, and temporaries from
// memref.alloc), views of them, copies and kernel launches. A Metal host
// program needs no MLIR to follow them, so they are written as JSON:
//
//   {"functions": [{"name": "f",
//     "arguments": [{"type": "f32", "shape": [4, 16], "bytes": 256}, ...],
//     "temporaries": [{"bytes": 1024}, ...],
//     "steps": [{"kind": "launch", "kernel": "f_kernel_f_kernel",
//                "grid": [64, 1, 1], "threadgroup": [32, 1, 1],
//                "buffers": [{"index": 0, "buffer": 0}, ...],
//                "builtins": ["thread_position_in_threadgroup", ...]},
//               {"kind": "copy", "from": 1, "to": 4, "bytes": 256}]}]}
//
// Buffers are numbered arguments first, then temporaries. A view binds the
// buffer it views: the kernel applies the view's offset and strides, which
// its memref type carries.
//
// The Vulkan pipeline's host functions, before gpu-module-to-binary, are
// described too (rlx-compile --target=vulkan --host-description), so that
// SPIRV-Cross's MSL of its SPIR-V can run as the Vulkan path launches it:
// its async tokens order nothing more than the list of steps does, and a
// buffer read as vectors (rlx-vulkan-vector-buffers) is a view. Its
// launches list no MSL builtins (SPIRV-Cross's kernels choose their own).
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Metal/MSLEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

#include "llvm/Support/JSON.h"

using namespace mlir;

/// The element type's name in the description (the MLIR spelling).
static std::string elementName(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

/// The bytes of a statically shaped memref's elements, from its first to
/// its last (a view's extent in its buffer is the kernel's business).
static FailureOr<int64_t> memrefBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return failure();
  int64_t bits = type.getElementTypeBitWidth();
  if (bits == 1)
    bits = 8;
  return type.getNumElements() * bits / 8;
}

namespace {
/// One host function's description being built.
struct HostFunction {
  llvm::json::Array arguments, temporaries, steps;
  llvm::DenseMap<Value, int64_t> buffers;
  int64_t numArguments = 0;
  bool withBuiltins = true;

  LogicalResult addOp(Operation *op);
  FailureOr<int64_t> bufferOf(Value v, Operation *at);
  LogicalResult addLaunch(gpu::LaunchFuncOp launch);
};
} // namespace

FailureOr<int64_t> HostFunction::bufferOf(Value v, Operation *at) {
  auto it = buffers.find(v);
  if (it == buffers.end())
    return at->emitOpError("uses a buffer that the Metal host description "
                           "does not know");
  return it->second;
}

LogicalResult HostFunction::addLaunch(gpu::LaunchFuncOp launch) {
  if (launch.hasClusterSize())
    return launch.emitOpError("with clusters has no Metal equivalent");
  if (launch.getDynamicSharedMemorySize())
    return launch.emitOpError("with dynamic shared memory is not described");
  auto constants = [&](gpu::KernelDim3 dims) -> FailureOr<llvm::json::Array> {
    llvm::json::Array a;
    for (Value d : {dims.x, dims.y, dims.z}) {
      APInt v;
      if (!matchPattern(d, m_ConstantInt(&v)))
        return launch.emitOpError("needs constant grid and threadgroup "
                                  "sizes in the Metal host description");
      a.push_back(v.getSExtValue());
    }
    return a;
  };
  FailureOr<llvm::json::Array> grid = constants(launch.getGridSizeOperandValues());
  FailureOr<llvm::json::Array> group =
      constants(launch.getBlockSizeOperandValues());
  if (failed(grid) || failed(group))
    return failure();

  auto module = SymbolTable::lookupNearestSymbolFrom<gpu::GPUModuleOp>(
      launch, SymbolRefAttr::get(launch.getKernelModuleName()));
  auto func = module ? module.lookupSymbol<gpu::GPUFuncOp>(launch.getKernelName())
                     : nullptr;
  if (!func)
    return launch.emitOpError("launches a kernel that is not in the module");

  llvm::json::Array bindings;
  for (auto [i, arg] : llvm::enumerate(launch.getKernelOperands())) {
    llvm::json::Object binding{{"index", int64_t(i)}};
    if (isa<MemRefType>(arg.getType())) {
      FailureOr<int64_t> buffer = bufferOf(arg, launch);
      if (failed(buffer))
        return failure();
      binding["buffer"] = *buffer;
    } else {
      // A scalar is bound as the bytes of a constant.
      Attribute value;
      if (!matchPattern(arg, m_Constant(&value)))
        return launch.emitOpError("operand #")
               << i << " is a scalar that is not a constant";
      if (auto f = dyn_cast<FloatAttr>(value))
        binding["float"] = f.getValueAsDouble();
      else if (auto n = dyn_cast<IntegerAttr>(value))
        binding["int"] = n.getValue().getSExtValue();
      else
        return launch.emitOpError("operand #") << i << " has no host value";
      // Index is int in the kernels.
      binding["type"] = arg.getType().isIndex()
                            ? std::string("i32")
                            : elementName(arg.getType());
    }
    bindings.push_back(std::move(binding));
  }
  llvm::json::Object step{
      {"kind", "launch"},
      {"kernel", rlx::getMSLKernelName(module.getName(), func.getName())},
      {"grid", std::move(*grid)},
      {"threadgroup", std::move(*group)},
      {"buffers", std::move(bindings)}};
  if (withBuiltins)
    step["builtins"] = llvm::json::Array(rlx::getMSLKernelBuiltins(func));
  steps.push_back(std::move(step));
  return success();
}

LogicalResult HostFunction::addOp(Operation *op) {
  if (isa<arith::ConstantOp, func::ReturnOp, memref::DeallocOp, gpu::DeallocOp,
          gpu::WaitOp>(op))
    return success();
  if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
    return addLaunch(launch);
  if (isa<memref::AllocOp, gpu::AllocOp>(op)) {
    auto type = cast<MemRefType>(op->getResult(0).getType());
    FailureOr<int64_t> bytes = memrefBytes(type);
    if (failed(bytes) || !type.getLayout().isIdentity())
      return op->emitOpError("of a dynamic shape or layout is not described "
                             "for Metal");
    buffers[op->getResult(0)] = numArguments + int64_t(temporaries.size());
    temporaries.push_back(llvm::json::Object{{"bytes", *bytes}});
    return success();
  }
  auto conversion = dyn_cast<UnrealizedConversionCastOp>(op);
  if (isa<memref::SubViewOp, memref::ReinterpretCastOp, memref::CollapseShapeOp,
          memref::ExpandShapeOp, memref::CastOp>(op) ||
      (conversion && conversion->getNumOperands() == 1 &&
       conversion->getNumResults() == 1 &&
       isa<MemRefType>(conversion.getOperand(0).getType()) &&
       isa<MemRefType>(conversion.getResult(0).getType()))) {
    FailureOr<int64_t> buffer = bufferOf(op->getOperand(0), op);
    if (failed(buffer))
      return failure();
    buffers[op->getResult(0)] = *buffer;
    return success();
  }
  if (isa<memref::CopyOp, gpu::MemcpyOp>(op)) {
    auto memcpy = dyn_cast<gpu::MemcpyOp>(op);
    Value sourceValue = memcpy ? memcpy.getSrc() : op->getOperand(0);
    Value targetValue = memcpy ? memcpy.getDst() : op->getOperand(1);
    auto source = cast<MemRefType>(sourceValue.getType());
    auto target = cast<MemRefType>(targetValue.getType());
    // Copies of whole buffers only: a view's copy needs a kernel.
    if (!source.getLayout().isIdentity() || !target.getLayout().isIdentity() ||
        sourceValue.getDefiningOp<ViewLikeOpInterface>() ||
        targetValue.getDefiningOp<ViewLikeOpInterface>())
      return op->emitOpError("of a view is not described for Metal");
    FailureOr<int64_t> from = bufferOf(sourceValue, op);
    FailureOr<int64_t> to = bufferOf(targetValue, op);
    FailureOr<int64_t> bytes = memrefBytes(source);
    if (failed(from) || failed(to) || failed(bytes))
      return failure();
    steps.push_back(llvm::json::Object{
        {"kind", "copy"}, {"from", *from}, {"to", *to}, {"bytes", *bytes}});
    return success();
  }
  return op->emitOpError("on the host has no Metal host description");
}

LogicalResult rlx::translateToMetalHostDescription(Operation *op,
                                                   raw_ostream &os,
                                                   bool withBuiltins) {
  llvm::json::Array functions;
  WalkResult result = op->walk([&](func::FuncOp fn) {
    if (fn.isExternal() || fn->getParentOfType<gpu::GPUModuleOp>())
      return WalkResult::advance();
    HostFunction host;
    host.withBuiltins = withBuiltins;
    auto sourceTypes = fn->getAttrOfType<ArrayAttr>(rlx::kMetalElementTypesAttr);
    if (sourceTypes && sourceTypes.size() != fn.getNumArguments()) {
      fn.emitOpError("has ")
          << rlx::kMetalElementTypesAttr.str() << " of "
          << sourceTypes.size() << " types for " << fn.getNumArguments()
          << " arguments";
      return WalkResult::interrupt();
    }
    for (auto [i, arg] : llvm::enumerate(fn.getArguments())) {
      auto type = dyn_cast<MemRefType>(arg.getType());
      FailureOr<int64_t> bytes =
          type ? memrefBytes(type) : FailureOr<int64_t>(failure());
      if (failed(bytes) || !type.getLayout().isIdentity()) {
        fn.emitOpError("argument #")
            << i << " is not a statically shaped buffer: the Metal host "
            << "description takes those alone";
        return WalkResult::interrupt();
      }
      host.buffers[arg] = int64_t(i);
      llvm::json::Array shape;
      for (int64_t d : type.getShape())
        shape.push_back(d);
      Type elementType = type.getElementType();
      if (sourceTypes)
        if (auto source = dyn_cast<TypeAttr>(sourceTypes[i]))
          elementType = source.getValue();
      host.arguments.push_back(
          llvm::json::Object{{"type", elementName(elementType)},
                             {"shape", std::move(shape)},
                             {"bytes", *bytes}});
    }
    host.numArguments = fn.getNumArguments();
    if (fn.getNumResults())
      return fn.emitOpError("returns values: the GPU front passes results "
                            "as out-parameters"),
             WalkResult::interrupt();
    if (!fn.getBody().hasOneBlock()) {
      fn.emitOpError("has several blocks: the Metal host description is a "
                     "straight list of steps");
      return WalkResult::interrupt();
    }
    for (Operation &inner : fn.getBody().front())
      if (failed(host.addOp(&inner)))
        return WalkResult::interrupt();
    functions.push_back(llvm::json::Object{
        {"name", fn.getName().str()},
        {"arguments", std::move(host.arguments)},
        {"temporaries", std::move(host.temporaries)},
        {"steps", std::move(host.steps)}});
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  os << llvm::formatv("{0:2}",
                      llvm::json::Value(llvm::json::Object{
                          {"functions", std::move(functions)}}))
     << "\n";
  return success();
}
