//===- MSLEmitter.cpp - GPU kernels to Metal Shading Language -------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Writes the GPU front's kernels (gpu.func in gpu.module, bodies of arith,
// math, scf, memref, vector and gpu ops on statically shaped buffers) as
// MSL. Every SSA value becomes a local variable; memrefs become pointers
// indexed by their static strides and offset; the front's butterfly
// reductions (five gpu.shuffle xor steps over 32 lanes, each combined by
// one op) become simd_sum / simd_max / simd_min / simd_product. An op, type
// or attribute that has no MSL spelling here is an error at that op: the
// emitter never writes text it cannot vouch for.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Metal/MSLEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Support/IndentedOstream.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;

std::string rlx::getMSLKernelName(StringRef module, StringRef func) {
  return (module + "_" + func).str();
}

/// The kernel's builtin parameters: their names and MSL attributes.
static const std::pair<StringRef, StringRef> kBuiltins[] = {
    {"rlx_group", "threadgroup_position_in_grid"},
    {"rlx_thread", "thread_position_in_threadgroup"},
    {"rlx_groups", "threadgroups_per_grid"},
    {"rlx_threads", "threads_per_threadgroup"}};

SmallVector<StringRef> rlx::getMSLKernelBuiltins(gpu::GPUFuncOp func) {
  bool used[4] = {false, false, false, false};
  func.walk([&](Operation *op) {
    if (op->getNumResults() != 1 || op->use_empty())
      return;
    if (isa<gpu::BlockIdOp>(op))
      used[0] = true;
    else if (isa<gpu::ThreadIdOp>(op))
      used[1] = true;
    else if (isa<gpu::GridDimOp>(op))
      used[2] = true;
    else if (isa<gpu::BlockDimOp>(op))
      used[3] = true;
  });
  SmallVector<StringRef> builtins;
  for (auto [isUsed, builtin] : llvm::zip(used, kBuiltins))
    if (isUsed)
      builtins.push_back(builtin.second);
  return builtins;
}

/// Whether a vector has more lanes than MSL's vectors (4): its lanes are
/// then scalars.
static bool isWide(VectorType type) {
  return type.getRank() == 1 && !type.isScalable() &&
         type.getNumElements() > 4;
}

namespace {

/// The MSL address space of a memref: `device` (global), `threadgroup`
/// (workgroup) or `thread` (private).
static FailureOr<StringRef> addressSpace(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (!space)
    return StringRef("device");
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space)) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Global:
      return StringRef("device");
    case gpu::AddressSpace::Workgroup:
      return StringRef("threadgroup");
    case gpu::AddressSpace::Private:
      return StringRef("thread");
    }
  }
  return failure();
}

class MSLEmitter {
public:
  explicit MSLEmitter(raw_ostream &out) : out(out) {}

  LogicalResult emitModule(Operation *root);

private:
  LogicalResult emitKernel(gpu::GPUModuleOp module, gpu::GPUFuncOp func);
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  /// emitOp but for ops already written or unused.
  LogicalResult emitNested(Operation *op);

  FailureOr<std::string> typeName(Type type, Operation *at);
  FailureOr<std::string> pointerType(MemRefType type, bool readOnly,
                                     Operation *at);
  FailureOr<std::string> constant(Attribute attr, Type type, Operation *at);
  FailureOr<std::string> element(Value memref, ValueRange indices,
                                 Operation *at);
  std::string fresh() { return "v" + std::to_string(counter++); }
  std::string name(Value v) { return names.lookup(v); }

  /// Declares `T vN = expr;` for the op's only result.
  LogicalResult assign(Operation *op, const Twine &expr);
  /// Declares a variable per result, left uninitialized: scf results and
  /// iteration arguments are assigned by their yields.
  LogicalResult declareResults(Operation *op);

  LogicalResult emitArith(Operation *op);
  LogicalResult emitMath(Operation *op);
  LogicalResult emitFor(scf::ForOp op);
  LogicalResult emitIf(scf::IfOp op);
  LogicalResult emitYieldTo(Operation *yield, ValueRange targets);
  LogicalResult emitShuffle(gpu::ShuffleOp op);
  LogicalResult emitGlobal(gpu::GPUModuleOp module, memref::GlobalOp global);
  LogicalResult emitVectorLoad(vector::LoadOp op);
  LogicalResult emitVectorStore(vector::StoreOp op);

  raw_ostream &out;
  /// The kernel body being written: its signature, written after it, has
  /// the builtins that the body used.
  std::string body;
  llvm::raw_string_ostream bodyStream{body};
  raw_indented_ostream os{bodyStream};
  llvm::DenseMap<Value, std::string> names;
  /// The MSL names of the gpu.modules' constant globals.
  llvm::DenseMap<std::pair<Operation *, StringRef>, std::string> globalNames;
  /// Memrefs in the `constant` address space (the globals).
  llvm::DenseSet<Value> constantMemrefs;
  /// The lanes of vectors wider than MSL's 4 lanes, each a scalar.
  llvm::DenseMap<Value, SmallVector<std::string>> wideLanes;
  /// Ops already written as part of a matched SIMD-group reduction.
  llvm::DenseSet<Operation *> skipped;
  int counter = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// Types and constants
//===----------------------------------------------------------------------===//

FailureOr<std::string> MSLEmitter::typeName(Type type, Operation *at) {
  if (isa<IndexType>(type))
    return std::string("int");
  if (type.isF32())
    return std::string("float");
  if (type.isF16())
    return std::string("half");
  if (type.isBF16())
    return std::string("bfloat");
  if (auto intType = dyn_cast<IntegerType>(type)) {
    bool isUnsigned = intType.isUnsigned();
    switch (intType.getWidth()) {
    case 1:
      return std::string("bool");
    case 8:
      return std::string(isUnsigned ? "uchar" : "char");
    case 16:
      return std::string(isUnsigned ? "ushort" : "short");
    case 32:
      return std::string(isUnsigned ? "uint" : "int");
    case 64:
      return std::string(isUnsigned ? "ulong" : "long");
    default:
      break;
    }
  }
  if (auto vecType = dyn_cast<VectorType>(type)) {
    if (vecType.getRank() == 1 && !vecType.isScalable() &&
        vecType.getNumElements() >= 2 && vecType.getNumElements() <= 4 &&
        !vecType.getElementType().isInteger(1)) {
      FailureOr<std::string> elem = typeName(vecType.getElementType(), at);
      if (failed(elem))
        return failure();
      return *elem + std::to_string(vecType.getNumElements());
    }
  }
  return at->emitOpError("type ")
         << type << " has no MSL equivalent (MSL has no double; vectors have "
         << "2 to 4 lanes)";
}

FailureOr<std::string> MSLEmitter::pointerType(MemRefType type, bool readOnly,
                                               Operation *at) {
  FailureOr<StringRef> space = addressSpace(type);
  if (failed(space))
    return at->emitOpError("memory space ")
           << type.getMemorySpace() << " has no MSL address space";
  FailureOr<std::string> elem = typeName(type.getElementType(), at);
  if (failed(elem))
    return failure();
  return ((readOnly ? "const " : "") + *space + " " + *elem + "*").str();
}

/// The MSL unsigned type of an integer type's width, for the unsigned ops.
static std::string unsignedName(Type type) {
  if (isa<IndexType>(type))
    return "uint";
  switch (type.getIntOrFloatBitWidth()) {
  case 1:
    return "bool";
  case 8:
    return "uchar";
  case 16:
    return "ushort";
  case 64:
    return "ulong";
  default:
    return "uint";
  }
}

/// A float's MSL literal of `type`: 9 significant digits round-trip f32
/// and every f16 and bf16 value.
static std::string floatLiteral(const APFloat &value, StringRef type) {
  double d = value.convertToDouble();
  std::string literal;
  if (std::isnan(d))
    literal = "NAN";
  else if (std::isinf(d))
    literal = d > 0 ? "INFINITY" : "(-INFINITY)";
  else
    literal = llvm::formatv("{0:e9}f", d).str();
  if (type == "float")
    return literal;
  return (type + "(" + literal + ")").str();
}

FailureOr<std::string> MSLEmitter::constant(Attribute attr, Type type,
                                            Operation *at) {
  FailureOr<std::string> ty = typeName(type, at);
  if (failed(ty))
    return failure();
  if (auto f = dyn_cast<FloatAttr>(attr))
    return floatLiteral(f.getValue(), *ty);
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    if (type.isInteger(1))
      return std::string(i.getValue().isZero() ? "false" : "true");
    const APInt &v = i.getValue();
    int64_t s = v.getSExtValue();
    // INT_MIN-style literals are negations of an unrepresentable positive.
    if (s == std::numeric_limits<int64_t>::min())
      return (*ty + "(" + std::to_string(s + 1) + " - 1)");
    std::string literal = std::to_string(s);
    if (*ty == "int")
      return literal;
    return *ty + "(" + literal + ")";
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (!dense.isSplat())
      return at->emitOpError("only splat vector constants have an MSL "
                             "spelling here");
    auto vecType = cast<VectorType>(type);
    FailureOr<std::string> scalar = constant(
        dense.getSplatValue<Attribute>(), vecType.getElementType(), at);
    if (failed(scalar))
      return failure();
    return *ty + "(" + *scalar + ")";
  }
  return at->emitOpError("constant ") << attr << " has no MSL spelling";
}

/// The element `memref[indices]` as an MSL lvalue: the pointer indexed by
/// the static offset and strides of the memref's layout.
FailureOr<std::string> MSLEmitter::element(Value memref, ValueRange indices,
                                           Operation *at) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return at->emitOpError("memref ")
           << type << " needs a static offset and static strides in MSL";
  std::string index = offset ? std::to_string(offset) : "";
  for (auto [i, stride] : llvm::zip(indices, strides)) {
    if (stride == 0)
      continue;
    std::string term = name(i);
    if (stride != 1)
      term = term + " * " + std::to_string(stride);
    index = index.empty() ? term : index + " + " + term;
  }
  if (index.empty())
    index = "0";
  return name(memref) + "[" + index + "]";
}

//===----------------------------------------------------------------------===//
// Module and kernels
//===----------------------------------------------------------------------===//

LogicalResult MSLEmitter::emitModule(Operation *root) {
  out << "// Generated by rlx-translate --rlx-to-msl.\n"
      << "#include <metal_stdlib>\n"
      << "using namespace metal;\n";
  llvm::StringSet<> kernelNames;
  WalkResult result = root->walk([&](gpu::GPUModuleOp module) {
    for (auto global : module.getOps<memref::GlobalOp>())
      if (failed(emitGlobal(module, global)))
        return WalkResult::interrupt();
    for (auto func : module.getOps<gpu::GPUFuncOp>()) {
      if (!func.isKernel()) {
        func.emitOpError("is not a kernel: the MSL emitter writes kernels "
                         "alone (the GPU front inlines device functions)");
        return WalkResult::interrupt();
      }
      std::string kernelName =
          rlx::getMSLKernelName(module.getName(), func.getName());
      if (!kernelNames.insert(kernelName).second) {
        func.emitOpError("has the MSL name '")
            << kernelName << "' of another kernel";
        return WalkResult::interrupt();
      }
      if (failed(emitKernel(module, func)))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// A constant memref.global (the front's sunk constants) as a program-scope
/// `constant` array, named after its module and symbol.
LogicalResult MSLEmitter::emitGlobal(gpu::GPUModuleOp module,
                                     memref::GlobalOp global) {
  auto initial =
      dyn_cast_or_null<DenseElementsAttr>(global.getInitialValueAttr());
  MemRefType type = global.getType();
  if (!global.getConstant() || !initial || !type.hasStaticShape() ||
      !type.getLayout().isIdentity())
    return global.emitOpError("is not a constant with a dense value: MSL "
                              "has no mutable program-scope memory");
  FailureOr<std::string> elem = typeName(type.getElementType(), global);
  if (failed(elem))
    return failure();
  std::string values;
  for (Attribute value : initial.getValues<Attribute>()) {
    FailureOr<std::string> literal =
        constant(value, type.getElementType(), global);
    if (failed(literal))
      return failure();
    values += (values.empty() ? "" : ", ") + *literal;
  }
  std::string globalName =
      (module.getName() + "_" + global.getSymName().ltrim("_")).str();
  globalNames[{module, global.getSymName()}] = globalName;
  out << "\nconstant " << *elem << " " << globalName << "["
      << std::max<int64_t>(type.getNumElements(), 1) << "] = {" << values
      << "};\n";
  return success();
}

/// Whether the kernel writes through `memref` (a store, or a vector store).
static bool isWritten(Value memref) {
  return llvm::any_of(memref.getUsers(), [&](Operation *user) {
    if (auto store = dyn_cast<memref::StoreOp>(user))
      return store.getMemRef() == memref;
    if (auto store = dyn_cast<vector::StoreOp>(user))
      return store.getBase() == memref;
    return !isa<memref::LoadOp, vector::LoadOp>(user);
  });
}

LogicalResult MSLEmitter::emitKernel(gpu::GPUModuleOp module,
                                     gpu::GPUFuncOp func) {
  names.clear();
  counter = 0;
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("has several blocks: the MSL emitter writes "
                            "structured control flow (scf) alone");
  SmallVector<std::string> params;
  int64_t bufferIndex = 0;
  // The block's leading arguments; the attributions follow them.
  for (auto [i, arg] : llvm::enumerate(func.getArguments().take_front(
           func.getFunctionType().getNumInputs()))) {
    std::string argName = "arg" + std::to_string(i);
    names[arg] = argName;
    if (auto memref = dyn_cast<MemRefType>(arg.getType())) {
      if (!memref.hasStaticShape())
        return func.emitOpError("argument #")
               << i << " has dynamic shape " << memref
               << ": MSL kernels take static shapes";
      if (memref.getNumElements() >= (int64_t(1) << 31))
        return func.emitOpError("argument #")
               << i << " has 2^31 elements or more: MSL indices are int";
      FailureOr<std::string> ptr =
          pointerType(memref, !isWritten(arg), func);
      if (failed(ptr))
        return failure();
      if (!StringRef(*ptr).contains("device "))
        return func.emitOpError("argument #")
               << i << " must be a device buffer";
      params.push_back(llvm::formatv("{0} {1} [[buffer({2})]]", *ptr,
                                     argName, bufferIndex++));
      continue;
    }
    FailureOr<std::string> ty = typeName(arg.getType(), func);
    if (failed(ty))
      return failure();
    params.push_back(llvm::formatv("constant {0}& {1} [[buffer({2})]]", *ty,
                                   argName, bufferIndex++));
  }
  body.clear();
  os.indent();
  // Threadgroup memory is declared in the kernel's scope, sized statically.
  auto declareArrays = [&](ArrayRef<BlockArgument> attributions,
                           StringRef space, StringRef prefix) {
    for (auto [k, attribution] : llvm::enumerate(attributions)) {
      if (attribution.use_empty())
        continue;
      auto memref = cast<MemRefType>(attribution.getType());
      FailureOr<std::string> elem = typeName(memref.getElementType(), func);
      if (failed(elem))
        return failure();
      std::string arrayName = prefix.str() + std::to_string(k);
      names[attribution] = arrayName;
      os << space << (space.empty() ? "" : " ") << *elem << " " << arrayName
         << "[" << memref.getNumElements() << "];\n";
    }
    return success();
  };
  if (failed(declareArrays(func.getWorkgroupAttributions(), "threadgroup",
                           "tg")) ||
      failed(declareArrays(func.getPrivateAttributions(), "", "priv")) ||
      failed(emitBlock(func.getBody().front())))
    return failure();
  os.unindent();

  for (StringRef builtin : rlx::getMSLKernelBuiltins(func))
    for (auto [var, attr] : kBuiltins)
      if (attr == builtin)
        params.push_back(("uint3 " + var + " [[" + attr + "]]").str());
  out << "\nkernel void "
      << rlx::getMSLKernelName(module.getName(), func.getName()) << "(";
  for (auto [i, p] : llvm::enumerate(params))
    out << (i ? ",\n    " : "") << p;
  out << ") {\n" << body << "}\n";
  return success();
}

LogicalResult MSLEmitter::emitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(emitNested(&op)))
      return failure();
  return success();
}

LogicalResult MSLEmitter::emitNested(Operation *op) {
  // Unused pure values (the front's unused builtins) are not written: MSL
  // compilers warn on unused variables and parameters.
  if (skipped.contains(op) ||
      (op->getNumResults() && op->use_empty() && isMemoryEffectFree(op)))
    return success();
  return emitOp(op);
}

LogicalResult MSLEmitter::assign(Operation *op, const Twine &expr) {
  FailureOr<std::string> ty = typeName(op->getResult(0).getType(), op);
  if (failed(ty))
    return failure();
  std::string var = fresh();
  names[op->getResult(0)] = var;
  os << *ty << " " << var << " = " << expr << ";\n";
  return success();
}

LogicalResult MSLEmitter::declareResults(Operation *op) {
  for (Value result : op->getResults()) {
    FailureOr<std::string> ty = typeName(result.getType(), op);
    if (failed(ty))
      return failure();
    std::string var = fresh();
    names[result] = var;
    os << *ty << " " << var << ";\n";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

/// The gpu dimension's component.
static StringRef component(gpu::Dimension dim) {
  switch (dim) {
  case gpu::Dimension::x:
    return "x";
  case gpu::Dimension::y:
    return "y";
  case gpu::Dimension::z:
    return "z";
  }
  llvm_unreachable("unknown dimension");
}

LogicalResult MSLEmitter::emitOp(Operation *op) {
  auto builtin = [&](StringRef var, gpu::Dimension dim) {
    names[op->getResult(0)] = ("int(" + var + "." + component(dim) + ")").str();
    return success();
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](gpu::ThreadIdOp o) {
        return builtin("rlx_thread", o.getDimension());
      })
      .Case([&](gpu::BlockIdOp o) {
        return builtin("rlx_group", o.getDimension());
      })
      .Case([&](gpu::BlockDimOp o) {
        return builtin("rlx_threads", o.getDimension());
      })
      .Case([&](gpu::GridDimOp o) {
        return builtin("rlx_groups", o.getDimension());
      })
      .Case([&](gpu::BarrierOp) {
        // gpu.barrier orders every memory access of the block; kernels that
        // read back what other threads stored in a device buffer need the
        // device fence too.
        os << "threadgroup_barrier(mem_flags::mem_device | "
              "mem_flags::mem_threadgroup);\n";
        return success();
      })
      .Case([&](gpu::ShuffleOp o) { return emitShuffle(o); })
      .Case([&](gpu::ReturnOp o) -> LogicalResult {
        if (o->getNumOperands())
          return o.emitOpError("returns values: a kernel returns nothing");
        // A return that ends the kernel body needs no statement.
        if (o->getNextNode() || !isa<gpu::GPUFuncOp>(o->getParentOp()))
          os << "return;\n";
        return success();
      })
      .Case([&](arith::ConstantOp o) -> LogicalResult {
        FailureOr<std::string> literal =
            constant(o.getValue(), o.getType(), o);
        if (failed(literal))
          return failure();
        names[o.getResult()] = *literal;
        return success();
      })
      .Case([&](memref::GetGlobalOp o) -> LogicalResult {
        auto it = globalNames.find(
            {o->getParentOfType<gpu::GPUModuleOp>(), o.getName()});
        if (it == globalNames.end())
          return o.emitOpError("names no constant of its gpu.module");
        names[o.getResult()] = it->second;
        constantMemrefs.insert(o.getResult());
        return success();
      })
      .Case([&](memref::LoadOp o) -> LogicalResult {
        FailureOr<std::string> e =
            element(o.getMemRef(), o.getIndices(), o);
        if (failed(e))
          return failure();
        return assign(o, *e);
      })
      .Case([&](memref::StoreOp o) -> LogicalResult {
        FailureOr<std::string> e =
            element(o.getMemRef(), o.getIndices(), o);
        if (failed(e))
          return failure();
        os << *e << " = " << name(o.getValueToStore()) << ";\n";
        return success();
      })
      .Case([&](vector::LoadOp o) { return emitVectorLoad(o); })
      .Case([&](vector::StoreOp o) { return emitVectorStore(o); })
      .Case([&](vector::ExtractOp o) -> LogicalResult {
        if (o.hasDynamicPosition() || o.getStaticPosition().size() != 1 ||
            !o.getResult().getType().isIntOrIndexOrFloat())
          return o.emitOpError(
              "extracts other than one static lane have no MSL spelling "
              "here");
        auto wide = wideLanes.find(o.getSource());
        if (wide != wideLanes.end()) {
          names[o.getResult()] = wide->second[o.getStaticPosition()[0]];
          return success();
        }
        return assign(o, name(o.getSource()) + "[" +
                             std::to_string(o.getStaticPosition()[0]) + "]");
      })
      .Case([&](vector::FromElementsOp o) -> LogicalResult {
        if (isWide(o.getType())) {
          for (Value e : o.getElements())
            wideLanes[o.getResult()].push_back(name(e));
          return success();
        }
        FailureOr<std::string> ty = typeName(o.getType(), o);
        if (failed(ty))
          return failure();
        std::string args;
        for (Value e : o.getElements())
          args += (args.empty() ? "" : ", ") + name(e);
        // Brace initialization: clang's extended vectors, which MSL's
        // vectors are, take it.
        return assign(o, *ty + "{" + args + "}");
      })
      .Case([&](vector::BroadcastOp o) -> LogicalResult {
        if (!o.getSourceType().isIntOrIndexOrFloat())
          return o.emitOpError("broadcasts of vectors have no MSL spelling "
                               "here");
        if (isWide(o.getType())) {
          wideLanes[o.getResult()].assign(o.getType().getNumElements(),
                                          name(o.getSource()));
          return success();
        }
        FailureOr<std::string> ty = typeName(o.getType(), o);
        if (failed(ty))
          return failure();
        return assign(o, *ty + "(" + name(o.getSource()) + ")");
      })
      .Case([&](scf::ForOp o) { return emitFor(o); })
      .Case([&](scf::IfOp o) { return emitIf(o); })
      .Default([&](Operation *o) -> LogicalResult {
        if (isa<arith::ArithDialect>(o->getDialect()))
          return emitArith(o);
        if (isa<math::MathDialect>(o->getDialect()))
          return emitMath(o);
        return o->emitOpError("has no MSL equivalent in the Metal emitter");
      });
}

LogicalResult MSLEmitter::emitVectorLoad(vector::LoadOp op) {
  VectorType vecType = op.getVectorType();
  FailureOr<std::string> ty = isWide(vecType) ? std::string()
                                              : typeName(vecType, op);
  if (failed(ty))
    return failure();
  FailureOr<std::string> first = element(op.getBase(), op.getIndices(), op);
  if (failed(first))
    return failure();
  auto memref = cast<MemRefType>(op.getBase().getType());
  // Lanes along the innermost, contiguous dim only.
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memref.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1)
    return op.emitOpError("vector loads need a unit innermost stride");
  if (isWide(vecType)) {
    // Wider than MSL's vectors: one scalar per lane.
    FailureOr<std::string> elem = typeName(vecType.getElementType(), op);
    if (failed(elem))
      return failure();
    SmallVector<std::string> &lanes = wideLanes[op.getResult()];
    for (int64_t l = 0; l < vecType.getNumElements(); ++l) {
      lanes.push_back(fresh());
      os << *elem << " " << lanes.back() << " = (&" << *first << ")[" << l
         << "];\n";
    }
    return success();
  }
  int64_t bytes =
      vecType.getNumElements() * vecType.getElementTypeBitWidth() / 8;
  StringRef space = constantMemrefs.contains(op.getBase())
                        ? StringRef("constant")
                        : *addressSpace(memref);
  std::optional<uint64_t> alignment = op.getAlignment();
  if (alignment && int64_t(*alignment) >= bytes &&
      (space == "device" || space == "constant")) {
    // An aligned access as one vector (MSL vectors are aligned to their
    // size); threadgroup and thread memory are arrays, read lane by lane.
    return assign(op, "*(const " + space + " " + *ty + "*)&" + *first);
  }
  std::string lanes;
  for (int64_t l = 0; l < vecType.getNumElements(); ++l)
    lanes += (l ? ", " : "") + ("(&" + *first + ")[" + std::to_string(l) +
                                "]");
  return assign(op, *ty + "{" + lanes + "}");
}

LogicalResult MSLEmitter::emitVectorStore(vector::StoreOp op) {
  VectorType vecType = op.getVectorType();
  FailureOr<std::string> ty = isWide(vecType) ? std::string()
                                              : typeName(vecType, op);
  if (failed(ty))
    return failure();
  FailureOr<std::string> first = element(op.getBase(), op.getIndices(), op);
  if (failed(first))
    return failure();
  auto memref = cast<MemRefType>(op.getBase().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memref.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1)
    return op.emitOpError("vector stores need a unit innermost stride");
  auto wide = wideLanes.find(op.getValueToStore());
  if (wide != wideLanes.end()) {
    for (auto [l, lane] : llvm::enumerate(wide->second))
      os << "(&" << *first << ")[" << l << "] = " << lane << ";\n";
    return success();
  }
  int64_t bytes =
      vecType.getNumElements() * vecType.getElementTypeBitWidth() / 8;
  FailureOr<StringRef> space = addressSpace(memref);
  std::optional<uint64_t> alignment = op.getAlignment();
  std::string value = name(op.getValueToStore());
  if (alignment && int64_t(*alignment) >= bytes && *space == "device") {
    os << "*(" << *space << " " << *ty << "*)&" << *first << " = " << value
       << ";\n";
    return success();
  }
  for (int64_t l = 0; l < vecType.getNumElements(); ++l)
    os << "(&" << *first << ")[" << l << "] = " << value << "[" << l
       << "];\n";
  return success();
}

/// Whether `v` is the integer constant `c`.
static bool isConstant(Value v, int64_t c) {
  APInt value;
  return matchPattern(v, m_ConstantInt(&value)) && value == c;
}

/// The MSL SIMD-group reduction of a combining op, or "" if none.
static StringRef simdReduction(Operation *combine) {
  return llvm::TypeSwitch<Operation *, StringRef>(combine)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return "simd_sum"; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return "simd_product"; })
      // simd_max and simd_min ignore NaNs as fmax and fmin do: the
      // NaN-propagating maximumf and minimumf stay shuffles.
      .Case<arith::MaxNumFOp, arith::MaxSIOp>([](auto) { return "simd_max"; })
      .Case<arith::MinNumFOp, arith::MinSIOp>([](auto) { return "simd_min"; })
      .Default([](Operation *) { return ""; });
}

/// Matches the front's butterfly reduction starting at `first`: five
/// `gpu.shuffle xor` steps of offsets 16, 8, 4, 2, 1 over 32 lanes, each
/// result combined with its input by the same op, every intermediate used
/// only by the next step. Returns the ops of the chain (the last one's
/// result is the reduction) and the reduction's name.
static std::optional<std::pair<SmallVector<Operation *>, StringRef>>
matchSimdReduction(gpu::ShuffleOp first) {
  SmallVector<Operation *> ops;
  StringRef reduction;
  Value value = first.getValue();
  gpu::ShuffleOp shuffle = first;
  for (int64_t offset : {16, 8, 4, 2, 1}) {
    if (!shuffle || shuffle.getMode() != gpu::ShuffleMode::XOR ||
        shuffle.getValue() != value || !shuffle.getValid().use_empty() ||
        !isConstant(shuffle.getOffset(), offset) ||
        !isConstant(shuffle.getWidth(), 32) ||
        !shuffle.getShuffleResult().hasOneUse())
      return std::nullopt;
    Operation *combine = *shuffle.getShuffleResult().getUsers().begin();
    StringRef kind = simdReduction(combine);
    if (kind.empty() || (!reduction.empty() && kind != reduction) ||
        combine->getNumOperands() != 2 ||
        !llvm::is_contained(combine->getOperands(), value) ||
        combine->getBlock() != first->getBlock())
      return std::nullopt;
    reduction = kind;
    ops.push_back(shuffle);
    ops.push_back(combine);
    value = combine->getResult(0);
    if (offset == 1)
      break;
    // The intermediate feeds the next shuffle and its combine alone (the
    // next step checks that the combine takes it).
    shuffle = nullptr;
    for (Operation *user : value.getUsers())
      if (auto next = dyn_cast<gpu::ShuffleOp>(user))
        shuffle = next;
    if (!shuffle || std::distance(value.getUsers().begin(),
                                  value.getUsers().end()) != 2)
      return std::nullopt;
  }
  return std::make_pair(ops, reduction);
}

LogicalResult MSLEmitter::emitShuffle(gpu::ShuffleOp op) {
  if (!isConstant(op.getWidth(), 32))
    return op.emitOpError("width must be the 32 lanes of a SIMD group");
  if (!op.getValid().use_empty())
    return op.emitOpError("validity result has no MSL equivalent");
  // MSL's SIMD-group functions take 8-, 16- and 32-bit types: a 64-bit
  // value is shuffled as a uint2, and not reduced by simd_sum.
  bool is64 = op.getValue().getType().getIntOrFloatBitWidth() == 64;
  if (!is64)
    if (auto reduction = matchSimdReduction(op)) {
      Operation *last = reduction->first.back();
      for (Operation *chained : reduction->first)
        skipped.insert(chained);
      return assign(last,
                    reduction->second + "(" + name(op.getValue()) + ")");
    }
  StringRef fn;
  switch (op.getMode()) {
  case gpu::ShuffleMode::XOR:
    fn = "simd_shuffle_xor";
    break;
  case gpu::ShuffleMode::DOWN:
    fn = "simd_shuffle_down";
    break;
  case gpu::ShuffleMode::UP:
    fn = "simd_shuffle_up";
    break;
  case gpu::ShuffleMode::IDX:
    fn = "simd_shuffle";
    break;
  }
  FailureOr<std::string> ty = typeName(op.getValue().getType(), op);
  if (failed(ty))
    return failure();
  std::string var = fresh();
  names[op.getShuffleResult()] = var;
  std::string shuffle = (fn + "(" +
                         (is64 ? "as_type<uint2>(" + name(op.getValue()) + ")"
                               : name(op.getValue())) +
                         ", ushort(" + name(op.getOffset()) + "))")
                            .str();
  os << *ty << " " << var << " = "
     << (is64 ? "as_type<" + *ty + ">(" + shuffle + ")" : shuffle) << ";\n";
  return success();
}

LogicalResult MSLEmitter::emitYieldTo(Operation *yield, ValueRange targets) {
  if (targets.size() == 1) {
    if (name(yield->getOperand(0)) != name(targets[0]))
      os << name(targets[0]) << " = " << name(yield->getOperand(0)) << ";\n";
    return success();
  }
  // Every yielded value is read before any target is written: a yield may
  // swap iteration arguments.
  SmallVector<std::string> temps;
  for (auto [value, target] : llvm::zip(yield->getOperands(), targets)) {
    if (name(value) == name(target)) {
      temps.push_back("");
      continue;
    }
    FailureOr<std::string> ty = typeName(value.getType(), yield);
    if (failed(ty))
      return failure();
    std::string temp = fresh();
    os << *ty << " " << temp << " = " << name(value) << ";\n";
    temps.push_back(temp);
  }
  for (auto [temp, target] : llvm::zip(temps, targets))
    if (!temp.empty())
      os << name(target) << " = " << temp << ";\n";
  return success();
}

LogicalResult MSLEmitter::emitFor(scf::ForOp op) {
  if (!op.getInductionVar().getType().isIndex())
    return op.emitOpError("loops over integers other than index have no "
                          "MSL spelling here");
  if (failed(declareResults(op)))
    return failure();
  for (auto [result, init, iterArg] :
       llvm::zip(op.getResults(), op.getInitArgs(), op.getRegionIterArgs())) {
    names[iterArg] = name(result);
    os << name(result) << " = " << name(init) << ";\n";
  }
  std::string iv = fresh();
  names[op.getInductionVar()] = iv;
  os << "for (int " << iv << " = " << name(op.getLowerBound()) << "; " << iv
     << " < " << name(op.getUpperBound()) << "; " << iv
     << " += " << name(op.getStep()) << ") {\n";
  os.indent();
  Block *body = op.getBody();
  for (Operation &inner : body->without_terminator())
    if (failed(emitNested(&inner)))
      return failure();
  if (failed(emitYieldTo(body->getTerminator(), op.getResults())))
    return failure();
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult MSLEmitter::emitIf(scf::IfOp op) {
  if (failed(declareResults(op)))
    return failure();
  auto emitRegion = [&](Region &region) -> LogicalResult {
    os.indent();
    Block &block = region.front();
    for (Operation &inner : block.without_terminator())
      if (failed(emitNested(&inner)))
        return failure();
    if (failed(emitYieldTo(block.getTerminator(), op.getResults())))
      return failure();
    os.unindent();
    return success();
  };
  os << "if (" << name(op.getCondition()) << ") {\n";
  if (failed(emitRegion(op.getThenRegion())))
    return failure();
  if (!op.getElseRegion().empty()) {
    os << "} else {\n";
    if (failed(emitRegion(op.getElseRegion())))
      return failure();
  }
  os << "}\n";
  return success();
}

/// The C comparison of an arith.cmpf predicate, NaN-exact: ordered
/// predicates are C's (false on NaN), unordered ones their negations.
static std::string compareF(arith::CmpFPredicate p, StringRef a,
                            StringRef b) {
  auto c = [&](StringRef op) { return ("(" + a + " " + op + " " + b + ")").str(); };
  switch (p) {
  case arith::CmpFPredicate::AlwaysFalse:
    return "false";
  case arith::CmpFPredicate::AlwaysTrue:
    return "true";
  case arith::CmpFPredicate::OEQ:
    return c("==");
  case arith::CmpFPredicate::OGT:
    return c(">");
  case arith::CmpFPredicate::OGE:
    return c(">=");
  case arith::CmpFPredicate::OLT:
    return c("<");
  case arith::CmpFPredicate::OLE:
    return c("<=");
  case arith::CmpFPredicate::ONE:
    return "(" + c("<") + " || " + c(">") + ")";
  case arith::CmpFPredicate::ORD:
    return ("(!isnan(" + a + ") && !isnan(" + b + "))").str();
  case arith::CmpFPredicate::UEQ:
    return "!(" + c("<") + " || " + c(">") + ")";
  case arith::CmpFPredicate::UGT:
    return "!" + c("<=");
  case arith::CmpFPredicate::UGE:
    return "!" + c("<");
  case arith::CmpFPredicate::ULT:
    return "!" + c(">=");
  case arith::CmpFPredicate::ULE:
    return "!" + c(">");
  case arith::CmpFPredicate::UNE:
    return c("!=");
  case arith::CmpFPredicate::UNO:
    return ("(isnan(" + a + ") || isnan(" + b + "))").str();
  }
  llvm_unreachable("unknown predicate");
}

LogicalResult MSLEmitter::emitArith(Operation *op) {
  if (op->getNumResults() != 1)
    return op->emitOpError("has no MSL equivalent in the Metal emitter");
  Type resultType = op->getResult(0).getType();
  if (isa<VectorType>(resultType) && !isa<arith::ConstantOp>(op))
    return op->emitOpError("on vectors has no MSL spelling here (the front "
                           "computes on scalars)");
  FailureOr<std::string> ty = typeName(resultType, op);
  if (failed(ty))
    return failure();
  auto operand = [&](unsigned i) { return name(op->getOperand(i)); };
  // Integer arithmetic narrower than int is done in int (C's promotions)
  // and converted back.
  auto binary = [&](StringRef sym) {
    std::string e = operand(0) + " " + sym.str() + " " + operand(1);
    if (resultType.isIntOrIndex() && !resultType.isIndex() &&
        resultType.getIntOrFloatBitWidth() < 32)
      return assign(op, *ty + "(" + e + ")");
    return assign(op, e);
  };
  auto asUnsigned = [&](unsigned i) {
    return unsignedName(op->getOperand(i).getType()) + "(" + operand(i) + ")";
  };
  auto unsignedBinary = [&](StringRef sym) {
    return assign(op, *ty + "(" + asUnsigned(0) + " " + sym.str() + " " +
                          asUnsigned(1) + ")");
  };
  auto call = [&](StringRef fn) {
    std::string args;
    for (Value v : op->getOperands())
      args += (args.empty() ? "" : ", ") + name(v);
    return assign(op, fn + ("(" + args + ")"));
  };
  auto convert = [&]() {
    Type from = op->getOperand(0).getType();
    // MSL converts between half and bfloat through float only.
    if ((from.isBF16() && resultType.isF16()) ||
        (from.isF16() && resultType.isBF16()))
      return assign(op, *ty + "(float(" + operand(0) + "))");
    return assign(op, *ty + "(" + operand(0) + ")");
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::AddFOp, arith::AddIOp>([&](auto) { return binary("+"); })
      .Case<arith::SubFOp, arith::SubIOp>([&](auto) { return binary("-"); })
      .Case<arith::MulFOp, arith::MulIOp>([&](auto) { return binary("*"); })
      .Case<arith::DivFOp, arith::DivSIOp>([&](auto) { return binary("/"); })
      .Case<arith::RemSIOp>([&](auto) { return binary("%"); })
      .Case<arith::RemFOp>([&](auto) { return call("fmod"); })
      .Case<arith::DivUIOp>([&](auto) { return unsignedBinary("/"); })
      .Case<arith::RemUIOp>([&](auto) { return unsignedBinary("%"); })
      .Case<arith::AndIOp>([&](auto) { return binary("&"); })
      .Case<arith::OrIOp>([&](auto) { return binary("|"); })
      .Case<arith::XOrIOp>([&](auto) { return binary("^"); })
      .Case<arith::ShLIOp>([&](auto) { return binary("<<"); })
      .Case<arith::ShRSIOp>([&](auto) { return binary(">>"); })
      .Case<arith::ShRUIOp>([&](auto) { return unsignedBinary(">>"); })
      .Case<arith::NegFOp>([&](auto) { return assign(op, "-" + operand(0)); })
      .Case<arith::MaxNumFOp>([&](auto) { return call("fmax"); })
      .Case<arith::MinNumFOp>([&](auto) { return call("fmin"); })
      .Case<arith::MaximumFOp, arith::MinimumFOp>([&](auto) {
        // NaN-propagating, unlike fmax / fmin.
        StringRef fn = isa<arith::MaximumFOp>(op) ? "fmax" : "fmin";
        return assign(op, "(isnan(" + operand(0) + ") || isnan(" +
                              operand(1) + ")) ? " + *ty + "(NAN) : " +
                              fn.str() + "(" + operand(0) + ", " +
                              operand(1) + ")");
      })
      .Case<arith::MaxSIOp>([&](auto) { return call("max"); })
      .Case<arith::MinSIOp>([&](auto) { return call("min"); })
      .Case<arith::MaxUIOp, arith::MinUIOp>([&](auto) {
        StringRef fn = isa<arith::MaxUIOp>(op) ? "max" : "min";
        return assign(op, *ty + "(" + fn.str() + "(" + asUnsigned(0) + ", " +
                              asUnsigned(1) + "))");
      })
      .Case([&](arith::CmpFOp o) {
        return assign(op, compareF(o.getPredicate(), operand(0), operand(1)));
      })
      .Case([&](arith::CmpIOp o) {
        using P = arith::CmpIPredicate;
        P p = o.getPredicate();
        bool isUnsignedCmp =
            p == P::ult || p == P::ule || p == P::ugt || p == P::uge;
        std::string a = isUnsignedCmp ? asUnsigned(0) : operand(0);
        std::string b = isUnsignedCmp ? asUnsigned(1) : operand(1);
        StringRef sym;
        switch (p) {
        case P::eq:
          sym = "==";
          break;
        case P::ne:
          sym = "!=";
          break;
        case P::slt:
        case P::ult:
          sym = "<";
          break;
        case P::sle:
        case P::ule:
          sym = "<=";
          break;
        case P::sgt:
        case P::ugt:
          sym = ">";
          break;
        case P::sge:
        case P::uge:
          sym = ">=";
          break;
        }
        return assign(op, a + " " + sym.str() + " " + b);
      })
      .Case([&](arith::SelectOp o) -> LogicalResult {
        if (!o.getCondition().getType().isInteger(1))
          return o.emitOpError("with a vector condition has no MSL spelling "
                               "here");
        return assign(op, operand(0) + " ? " + operand(1) + " : " +
                              operand(2));
      })
      .Case<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp,
            arith::FPToSIOp, arith::ExtSIOp, arith::TruncIOp,
            arith::IndexCastOp>([&](auto) { return convert(); })
      .Case<arith::ExtUIOp, arith::UIToFPOp, arith::IndexCastUIOp>([&](auto) {
        return assign(op, *ty + "(" + asUnsigned(0) + ")");
      })
      .Case([&](arith::FPToUIOp) {
        return assign(op, *ty + "(" + unsignedName(resultType) + "(" +
                              operand(0) + "))");
      })
      .Case([&](arith::BitcastOp) {
        return assign(op, "as_type<" + *ty + ">(" + operand(0) + ")");
      })
      .Default([&](Operation *) {
        return op->emitOpError("has no MSL equivalent in the Metal emitter");
      });
}

LogicalResult MSLEmitter::emitMath(Operation *op) {
  if (op->getNumResults() != 1 ||
      !op->getResult(0).getType().isIntOrIndexOrFloat())
    return op->emitOpError("has no MSL equivalent in the Metal emitter");
  Type type = op->getResult(0).getType();
  // The Metal standard library's math takes float and half: bfloat math is
  // done in float and rounded back.
  bool viaFloat = type.isBF16();
  StringRef fn =
      llvm::TypeSwitch<Operation *, StringRef>(op)
          .Case([](math::ExpOp) { return "exp"; })
          .Case([](math::Exp2Op) { return "exp2"; })
          .Case([](math::LogOp) { return "log"; })
          .Case([](math::Log2Op) { return "log2"; })
          .Case([](math::Log10Op) { return "log10"; })
          .Case([](math::SqrtOp) { return "sqrt"; })
          .Case([](math::RsqrtOp) { return "rsqrt"; })
          .Case([](math::TanhOp) { return "tanh"; })
          .Case([](math::SinOp) { return "sin"; })
          .Case([](math::CosOp) { return "cos"; })
          .Case([](math::TanOp) { return "tan"; })
          .Case([](math::AtanOp) { return "atan"; })
          .Case([](math::Atan2Op) { return "atan2"; })
          .Case([](math::AsinOp) { return "asin"; })
          .Case([](math::AcosOp) { return "acos"; })
          .Case([](math::SinhOp) { return "sinh"; })
          .Case([](math::CoshOp) { return "cosh"; })
          .Case([](math::AbsFOp) { return "fabs"; })
          .Case([](math::AbsIOp) { return "abs"; })
          .Case([](math::FloorOp) { return "floor"; })
          .Case([](math::CeilOp) { return "ceil"; })
          .Case([](math::RoundOp) { return "round"; })
          .Case([](math::RoundEvenOp) { return "rint"; })
          .Case([](math::TruncOp) { return "trunc"; })
          .Case([](math::PowFOp) { return "pow"; })
          .Case([](math::FmaOp) { return "fma"; })
          .Case([](math::CopySignOp) { return "copysign"; })
          .Default([](Operation *) { return ""; });
  if (fn.empty())
    return op->emitOpError("has no metal:: function");
  std::string args;
  for (Value v : op->getOperands())
    args += (args.empty() ? "" : ", ") +
            (viaFloat ? "float(" + name(v) + ")" : name(v));
  std::string call = ("metal::" + fn + "(" + args + ")").str();
  return assign(op, viaFloat ? "bfloat(" + call + ")" : call);
}

LogicalResult rlx::translateToMSL(Operation *op, raw_ostream &os) {
  // Nothing is written unless every kernel is.
  std::string text;
  llvm::raw_string_ostream textStream(text);
  MSLEmitter emitter(textStream);
  if (failed(emitter.emitModule(op)))
    return failure();
  os << text;
  return success();
}
