//===- EntryPointHeader.cpp - the C header of entry points ----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Tools/EntryPointHeader.h"

#include "RLX/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ToolOutputFile.h"

#include <set>

using namespace mlir;

/// The C type of one element, or "" for types the header cannot spell.
static std::string cElementType(Type type) {
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  if (type.isF16() || type.isBF16())
    return "uint16_t"; // raw IEEE half / bfloat16 bits
  if (type.isInteger(1))
    return "bool";
  if (auto complex = dyn_cast<ComplexType>(type))
    return complex.getElementType().isF64() ? "rlx_complex_f64"
                                            : "rlx_complex_f32";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    unsigned w = integer.getWidth();
    if (w != 8 && w != 16 && w != 32 && w != 64)
      return "";
    return (integer.isUnsigned() ? "uint" : "int") + std::to_string(w) + "_t";
  }
  return "";
}

/// The descriptor struct name for `type`, e.g. rlx_memref_f32_2d.
static std::string descriptorName(RankedTensorType type) {
  std::string tag;
  llvm::raw_string_ostream os(tag);
  type.getElementType().print(os);
  llvm::erase_if(tag, [](char c) { return !llvm::isAlnum(c); });
  return "rlx_memref_" + tag + "_" + std::to_string(type.getRank()) + "d";
}

/// Writes the header to `os`.
static LogicalResult writeHeader(ModuleOp module, llvm::raw_ostream &os,
                                 bool outParams) {
  std::set<std::string> emitted;
  std::string decls, structs;
  llvm::raw_string_ostream d(decls), s(structs);
  auto descriptor = [&](Type t, func::FuncOp fn) -> FailureOr<std::string> {
    auto type = dyn_cast<RankedTensorType>(t);
    if (!type || cElementType(type.getElementType()).empty())
      return fn.emitError("rlx-compile --header: cannot spell type ")
             << t << " in C";
    std::string name = descriptorName(type);
    if (emitted.insert(name).second) {
      std::string elem = cElementType(type.getElementType());
      s << "typedef struct {\n  " << elem << " *allocated;\n  " << elem
        << " *aligned;\n  int64_t offset;\n";
      if (type.getRank() > 0)
        s << "  int64_t sizes[" << type.getRank() << "];\n  int64_t strides["
          << type.getRank() << "];\n";
      s << "} " << name << ";\n\n";
    }
    return name;
  };
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPublic() || fn.isExternal())
      continue;
    FunctionType signature = fn.getFunctionType();
    SmallVector<std::string> args, results;
    std::string resultType;
    // On the CPU, a result an argument holds in place is not returned
    // (rlx-results-in-place): the argument's buffer is written.
    SmallVector<Type> returned(signature.getResults());
    std::string heldNote;
    if (!outParams) {
      llvm::BitVector held(signature.getNumResults());
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        if (auto j = fn.getArgAttrOfType<IntegerAttr>(
                i, rlx::kInPlaceResultAttrName);
            j && j.getInt() >= 0 &&
            j.getInt() < int64_t(signature.getNumResults())) {
          held.set(j.getInt());
          heldNote += "/* @" + fn.getName().str() + ": arg" +
                      std::to_string(i) + " holds result #" +
                      std::to_string(j.getInt()) +
                      " in place: it is written, not returned. */\n";
        }
      returned.clear();
      for (auto [j, t] : llvm::enumerate(signature.getResults()))
        if (!held.test(j))
          returned.push_back(t);
    }
    d << heldNote;
    if (outParams) {
      for (Type t : returned) {
        FailureOr<std::string> r = descriptor(t, fn);
        if (failed(r))
          return failure();
        results.push_back(*r);
      }
    } else if (returned.size() == 1) {
      FailureOr<std::string> r = descriptor(returned.front(), fn);
      if (failed(r))
        return failure();
      resultType = *r;
    } else if (returned.size() > 1) {
      // Several results come back as one struct of descriptors.
      resultType = fn.getName().str() + "_results";
      std::string fields;
      for (auto [i, t] : llvm::enumerate(returned)) {
        FailureOr<std::string> r = descriptor(t, fn);
        if (failed(r))
          return failure();
        fields += "  " + *r + " r" + std::to_string(i) + ";\n";
      }
      s << "typedef struct {\n" << fields << "} " << resultType << ";\n\n";
    }
    for (Type t : signature.getInputs()) {
      FailureOr<std::string> a = descriptor(t, fn);
      if (failed(a))
        return failure();
      args.push_back(*a);
    }
    d << "void _mlir_ciface_" << fn.getName() << "(";
    bool first = true;
    if (!resultType.empty()) {
      d << resultType << " *result";
      first = false;
    }
    for (auto [i, a] : llvm::enumerate(args)) {
      d << (first ? "" : ", ") << a << " *arg" << i;
      first = false;
    }
    for (auto [i, r] : llvm::enumerate(results)) {
      d << (first ? "" : ", ") << r << " *result" << i;
      first = false;
    }
    d << (first ? "void" : "") << ");\n";
  }
  os << "/* Generated by rlx-compile: entry points of an RLX program.\n"
     << (outParams
             ? " * Every buffer is device memory; the caller allocates the\n"
               " * results, which the program writes. Inputs are read,\n"
               " * never written or kept. */\n"
             : " * Each result's buffer is allocated with malloc by the "
               "program;\n"
               " * free each distinct `allocated` pointer once. Inputs are "
               "read,\n"
               " * never written or kept, but those that hold a result in "
               "place. */\n")
     << "#ifndef RLX_GENERATED_H\n#define RLX_GENERATED_H\n\n"
        "#include <stdbool.h>\n#include <stdint.h>\n\n"
        "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
        "typedef struct {\n  float re, im;\n} rlx_complex_f32;\n"
        "typedef struct {\n  double re, im;\n} rlx_complex_f64;\n\n"
     << structs << decls
     << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* RLX_GENERATED_H */\n";
  return success();
}

LogicalResult
rlx::writeEntryPointHeader(ModuleOp module, StringRef path, bool outParams,
                           llvm::function_ref<void(const Twine &)> error) {
  std::string message;
  auto header = openOutputFile(path, &message);
  if (!header) {
    error(message);
    return failure();
  }
  if (failed(writeHeader(module, header->os(), outParams)))
    return failure();
  header->keep();
  return success();
}
