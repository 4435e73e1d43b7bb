//===- CommandLine.h - the RLX tools' --help and --version -------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A tool linking LLVM registers hundreds of LLVM's own options (code
// generation, the optimizer); its --help would list them before its own.
// A tool's options go in getToolOptionCategory(); parseToolCommandLine
// hides the others (still listed by --help-hidden and still accepted) and
// prints RLX's version. Header-only: the runners that link only LLVM's
// Support library (rlx-metal-cpu-run) use it too.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TOOLS_COMMANDLINE_H
#define RLX_TOOLS_COMMANDLINE_H

#include "RLX/Config.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace rlx {

/// The category of a tool's own options (`cl::cat(...)` on each).
inline llvm::cl::OptionCategory &getToolOptionCategory() {
  static llvm::cl::OptionCategory category("Options");
  return category;
}

/// Parses the command line: --help lists the tool's options and the
/// generic ones (--help, --version, ...), --help-hidden every option, and
/// --version prints "<tool> (RLX-MLIR <version>, LLVM <version>)".
inline void parseToolCommandLine(int argc, char **argv,
                                 llvm::StringRef overview) {
  static constexpr llvm::StringLiteral kGeneric[] = {
      "help", "help-hidden", "help-list", "help-list-hidden", "version",
      "print-options", "print-all-options"};
  for (auto &[name, option] : llvm::cl::getRegisteredOptions()) {
    if (llvm::is_contained(kGeneric, name) ||
        llvm::is_contained(option->Categories, &getToolOptionCategory()))
      continue;
    if (option->getOptionHiddenFlag() == llvm::cl::NotHidden)
      option->setHiddenFlag(llvm::cl::Hidden);
  }
  static std::string tool;
  tool = llvm::sys::path::filename(argv[0]).str();
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << tool << " (RLX-MLIR " RLX_VERSION ", LLVM " LLVM_VERSION_STRING
       << ")\n";
  });
  llvm::cl::ParseCommandLineOptions(argc, argv, overview);
}

} // namespace rlx
} // namespace mlir

#endif // RLX_TOOLS_COMMANDLINE_H
