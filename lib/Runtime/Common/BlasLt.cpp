//===- BlasLt.cpp - cuBLASLt and hipBLASLt as the runtimes use them -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "BlasLt.h"
#include "DynamicLibrary.h"

#include <string>

using namespace rlx::runtime;
using namespace rlx::runtime::blaslt;

bool Library::open(const char *overrideVariable,
                   std::initializer_list<const char *> defaults) {
  void *library = openLibrary(dialect.name, overrideVariable, defaults, errors);
  if (!library)
    return false;
  SymbolBinder bind(library, dialect.name, errors);
  auto bindPrefixed = [&](auto &fn, const char *name) {
    bind(fn, (std::string(dialect.prefix) + name).c_str());
  };
  bindPrefixed(create, "Create");
  bindPrefixed(descCreate, "MatmulDescCreate");
  bindPrefixed(descSetAttribute, "MatmulDescSetAttribute");
  bindPrefixed(layoutCreate, "MatrixLayoutCreate");
  bindPrefixed(layoutSetAttribute, "MatrixLayoutSetAttribute");
  bindPrefixed(preferenceCreate, "MatmulPreferenceCreate");
  bindPrefixed(preferenceSetAttribute, "MatmulPreferenceSetAttribute");
  bindPrefixed(preferenceDestroy, "MatmulPreferenceDestroy");
  bindPrefixed(algoGetHeuristic, "MatmulAlgoGetHeuristic");
  bindPrefixed(matmulFn, "Matmul");
  if (dialect.namesStatus)
    bindPrefixed(statusName, "GetStatusName");
  return bind.ok() && check(create(&handle), "Create");
}

bool Library::check(Status status, const char *call) const {
  if (status == 0)
    return true;
  std::string code = std::to_string(status);
  errors.record(std::string(dialect.name) + ": " + dialect.prefix + call +
                " failed: " +
                (statusName ? statusName(status) + (" (" + code + ")")
                            : "status " + code));
  return false;
}

bool Library::setDescAttribute(Handle desc, int attribute, const void *value,
                               size_t size) const {
  return check(descSetAttribute(desc, attribute, value, size),
               "MatmulDescSetAttribute");
}

bool Library::createDesc(Descriptors &d, const ColumnMajorMatmul &problem,
                         int compute, int scaleType, uint32_t epilogue) const {
  int32_t opA = problem.a.transposed ? dialect.opT : dialect.opN,
          opB = problem.b.transposed ? dialect.opT : dialect.opN;
  return check(descCreate(&d.desc, compute, scaleType), "MatmulDescCreate") &&
         setDescAttribute(d.desc, dialect.descTransA, &opA, sizeof(opA)) &&
         setDescAttribute(d.desc, dialect.descTransB, &opB, sizeof(opB)) &&
         setDescAttribute(d.desc, dialect.descEpilogue, &epilogue,
                          sizeof(epilogue));
}

Handle Library::layout(int type, const ColumnMajorOperand &operand,
                       int64_t batch) const {
  Handle h = nullptr;
  if (!check(layoutCreate(&h, type, operand.rows, operand.cols, operand.rows),
             "MatrixLayoutCreate"))
    return nullptr;
  if (batch == 1)
    return h;
  int32_t count = static_cast<int32_t>(batch);
  int64_t stride = operand.stride;
  if (!check(layoutSetAttribute(h, dialect.layoutBatchCount, &count,
                                sizeof(count)),
             "MatrixLayoutSetAttribute") ||
      !check(layoutSetAttribute(h, dialect.layoutStridedBatchOffset, &stride,
                                sizeof(stride)),
             "MatrixLayoutSetAttribute"))
    return nullptr;
  return h;
}

bool Library::createLayouts(Descriptors &d, const ColumnMajorMatmul &problem,
                            int aType, int bType, int cType,
                            int64_t batch) const {
  d.a = layout(aType, problem.a, batch);
  d.b = layout(bType, problem.b, batch);
  d.c = layout(cType, problem.c, batch);
  return d.a && d.b && d.c;
}

bool Library::heuristic(const Descriptors &d, uint64_t maxWorkspace,
                        int requested, void *results, int &found) const {
  Handle pref = nullptr;
  if (!check(preferenceCreate(&pref), "MatmulPreferenceCreate"))
    return false;
  found = 0;
  bool ok = check(preferenceSetAttribute(pref, dialect.prefMaxWorkspaceBytes,
                                         &maxWorkspace, sizeof(maxWorkspace)),
                  "MatmulPreferenceSetAttribute") &&
            check(algoGetHeuristic(handle, d.desc, d.a, d.b, d.c, d.c, pref,
                                   requested, results, &found),
                  "MatmulAlgoGetHeuristic");
  preferenceDestroy(pref);
  return ok;
}

Status Library::matmul(const Descriptors &d, const void *alpha,
                       const void *beta, const void *a, const void *b, void *c,
                       const void *algo, void *workspace, size_t workspaceSize,
                       Handle stream) const {
  return matmulFn(handle, d.desc, alpha, b, d.a, a, d.b, beta, c, d.c, c, d.c,
                  algo, workspace, workspaceSize, stream);
}
