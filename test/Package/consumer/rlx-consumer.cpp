//===- rlx-consumer.cpp - a tool built on an installed RLX ----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-consumer FILE.mlir: registers upstream's and RLX's dialects, runs RLX
// fusion (--rlx-fuse) and prints the fused IR, then compiles @mlp for the
// CPU (--rlx-cpu-pipeline, through rlx::CPUProgram), runs it on random
// inputs and compares it with a double-precision reference of
// y = gelu(x w + b) computed here.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/ExecutionEngine/CPUProgram.h"
#include "RLX/InitAllDialects.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <random>

using namespace mlir;

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: rlx-consumer FILE.mlir\n";
    return 2;
  }
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  rlx::registerAllDialects(registry);
  MLIRContext context(registry);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(argv[1], sourceMgr, &context);
  if (!module)
    return 1;

  PassManager pm(&context);
  pm.addPass(rlx::createFusePass());
  if (failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());

  std::unique_ptr<rlx::CPUProgram> program =
      rlx::CPUProgram::compile(*module, "mlp", rlx::CPUPipelineOptions());
  if (!program)
    return 1;
  constexpr int M = 8, K = 16, N = 32;
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> uniform(-1, 1);
  std::vector<float> x(M * K), w(K * N), b(N), y(M * N, NAN);
  for (auto *v : {&x, &w, &b})
    for (float &e : *v)
      e = uniform(rng);
  auto into = [&](unsigned, ArrayRef<int64_t>) -> void * { return y.data(); };
  if (llvm::Error err = program->run(
          {{x.data(), {M, K}}, {w.data(), {K, N}}, {b.data(), {N}}}, into)) {
    llvm::errs() << "rlx-consumer: " << toString(std::move(err)) << "\n";
    return 1;
  }
  double worst = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = b[j];
      for (int k = 0; k < K; ++k)
        s += double(x[i * K + k]) * w[k * N + j];
      double ref = 0.5 * s * (1 + std::erf(s / std::sqrt(2.0)));
      double err = std::abs(y[i * N + j] - ref) / (1e-5 + 1e-4 * std::abs(ref));
      worst = std::isnan(err) ? INFINITY : std::max(worst, err);
    }
  llvm::outs() << (worst <= 1 ? "mlp matches the reference"
                              : "mlp differs from the reference")
               << " (worst error " << worst
               << " of the tolerance abs 1e-5 + rel 1e-4)\n";
  return worst <= 1 ? 0 : 1;
}
