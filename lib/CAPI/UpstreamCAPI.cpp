//===- UpstreamCAPI.cpp - librlx_mlir_c.so --------------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// librlx_mlir_c.so holds upstream MLIR's C API archives, linked whole (see
// CMakeLists.txt); CMake wants one source file of its own for a library.
//
//===----------------------------------------------------------------------===//
