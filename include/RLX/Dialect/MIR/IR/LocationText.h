//===- LocationText.h - a location as the reports print it ------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The fusion and memory reports' pictures name where an op or value comes
// from; both spell a location this way.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_LOCATIONTEXT_H
#define RLX_DIALECT_MIR_IR_LOCATIONTEXT_H

#include "mlir/IR/Location.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir {
namespace rlx {

/// "file:line:col" of the first file location in `loc`, else `loc` printed.
inline std::string locationText(Location loc) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    loc.print(os);
  return s;
}

} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_MIR_IR_LOCATIONTEXT_H
