/*===- rlx-capi-test.c - RLX through its C API alone ----------------------===*\
|*                                                                            *|
|* Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM      *|
|* Exceptions. See the LICENSE file for license information.                  *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* RUN: rlx-capi-test 2>&1 | FileCheck %s
 *
 * A C program that links librlx_c.so only: it creates a context, registers
 * upstream's and RLX's dialects and passes, parses an MLP, optimizes it
 * (--rlx-optimize), compiles it for the CPU, runs it on fresh random inputs
 * and compares with a reference computed here in double precision; then
 * the attribute helpers, the memory plan, the target registry and the
 * error paths. */

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "rlx-c/Attributes.h"
#include "rlx-c/Dialects.h"
#include "rlx-c/ExecutionEngine.h"
#include "rlx-c/Passes.h"
#include "rlx-c/Targets.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures = 0;

#define EXPECT(cond, ...)                                                      \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "FAILED %s:%d: %s: ", __FILE__, __LINE__, #cond);        \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

static void printToStderr(MlirStringRef s, void *userData) {
  (void)userData;
  fwrite(s.data, 1, s.length, stderr);
}

/* Diagnostics of the context: printed, so that FileCheck sees them. */
static MlirLogicalResult printDiagnostic(MlirDiagnostic d, void *userData) {
  (void)userData;
  fprintf(stderr, "diagnostic: ");
  mlirDiagnosticPrint(d, printToStderr, NULL);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

/* Appends printed IR to a growing buffer. */
typedef struct {
  char *text;
  size_t length;
} Text;

static void appendText(MlirStringRef s, void *userData) {
  Text *t = (Text *)userData;
  t->text = realloc(t->text, t->length + s.length + 1);
  memcpy(t->text + t->length, s.data, s.length);
  t->length += s.length;
  t->text[t->length] = 0;
}

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

/* Uniform in [-1, 1) from a 64-bit LCG. */
static uint64_t rngState;
static float uniform(void) {
  rngState = rngState * 6364136223846793005ull + 1442695040888963407ull;
  return (float)((double)(rngState >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

static const char *kMlp =
    "func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32>,\n"
    "               %b1: tensor<16xf32>, %w2: tensor<16x3xf32>)\n"
    "    -> tensor<4x3xf32> {\n"
    "  %0 = rlx.matmul %x, %w1 : tensor<4x8xf32>, tensor<8x16xf32>\n"
    "  %1 = rlx.add %0, %b1 : tensor<4x16xf32>, tensor<16xf32>\n"
    "  %2 = rlx.gelu %1 : tensor<4x16xf32>\n"
    "  %3 = rlx.matmul %2, %w2 : tensor<4x16xf32>, tensor<16x3xf32>\n"
    "  return %3 : tensor<4x3xf32>\n"
    "}\n";

static MlirModule optimize(MlirContext ctx, const char *source) {
  MlirModule module = mlirModuleCreateParse(ctx, str(source));
  if (mlirModuleIsNull(module))
    return module;
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm, str("builtin.module(rlx-optimize{target=cpu})"), printToStderr,
      NULL);
  EXPECT(mlirLogicalResultIsSuccess(parsed), "rlx-optimize not registered");
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  EXPECT(mlirLogicalResultIsSuccess(ran), "rlx-optimize failed");
  mlirPassManagerDestroy(pm);
  return module;
}

/* The MLP in double precision, GELU with erf. */
static void referenceMlp(const float *x, const float *w1, const float *b1,
                         const float *w2, double *y) {
  double h[4][16];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 16; ++j) {
      double s = b1[j];
      for (int k = 0; k < 8; ++k)
        s += (double)x[i * 8 + k] * w1[k * 16 + j];
      h[i][j] = 0.5 * s * (1.0 + erf(s / sqrt(2.0)));
    }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += h[i][k] * w2[k * 3 + j];
      y[i * 3 + j] = s;
    }
}

static void testMlp(MlirContext ctx) {
  MlirModule module = optimize(ctx, kMlp);
  Text printed = {NULL, 0};
  mlirOperationPrint(mlirModuleGetOperation(module), appendText, &printed);
  fprintf(stderr, "%s", printed.text);
  free(printed.text);
  // CHECK-LABEL: func.func @mlp
  // CHECK: rlx.fused_matmul_bias_act {{.*}} activation = gelu
  // CHECK-NOT: rlx.gelu
  // CHECK: rlx.matmul
  // CHECK: return

  RlxCpuProgram program = rlxCpuProgramCreate(module, str("mlp"), str(""));
  EXPECT(!rlxCpuProgramIsNull(program), "compiling @mlp failed");
  if (rlxCpuProgramIsNull(program))
    return;
  EXPECT(rlxCpuProgramGetNumArguments(program) == 4, "4 arguments");
  EXPECT(rlxCpuProgramGetNumResults(program) == 1, "1 result");
  MlirType resultType = rlxCpuProgramGetResultType(program, 0);
  EXPECT(rlxGetElementBytes(mlirShapedTypeGetElementType(resultType)) == 4,
         "f32 takes 4 bytes");

  float x[4 * 8], w1[8 * 16], b1[16], w2[16 * 3], y[4 * 3];
  for (int i = 0; i < 4 * 8; ++i) x[i] = uniform();
  for (int i = 0; i < 8 * 16; ++i) w1[i] = uniform();
  for (int i = 0; i < 16; ++i) b1[i] = uniform();
  for (int i = 0; i < 16 * 3; ++i) w2[i] = uniform();
  for (int i = 0; i < 4 * 3; ++i) y[i] = NAN;
  int64_t xs[] = {4, 8}, w1s[] = {8, 16}, b1s[] = {16}, w2s[] = {16, 3},
          ys[] = {4, 3};
  RlxTensor args[] = {{x, 2, xs}, {w1, 2, w1s}, {b1, 1, b1s}, {w2, 2, w2s}};
  RlxTensor results[] = {{y, 2, ys}};
  MlirLogicalResult ran = rlxCpuProgramRun(program, args, 4, results, 1,
                                           printToStderr, NULL);
  EXPECT(mlirLogicalResultIsSuccess(ran), "running @mlp failed");
  double ref[4 * 3], worst = 0;
  referenceMlp(x, w1, b1, w2, ref);
  for (int i = 0; i < 4 * 3; ++i) {
    double err = fabs(y[i] - ref[i]) / (1e-5 + 1e-4 * fabs(ref[i]));
    if (!(err <= worst)) /* NaN counts as the worst */
      worst = isnan(err) ? INFINITY : err;
  }
  EXPECT(worst <= 1.0,
         "@mlp differs from the double reference by %g of the tolerance "
         "(abs 1e-5 + rel 1e-4)", worst);
  fprintf(stderr, "mlp: %s\n", worst <= 1.0 ? "matches the reference" : "WRONG");
  // CHECK: mlp: matches the reference

  /* Wrong argument shape, wrong result buffer, wrong counts. */
  int64_t bad[] = {3, 8};
  args[0].shape = bad;
  ran = rlxCpuProgramRun(program, args, 4, results, 1, printToStderr, NULL);
  EXPECT(mlirLogicalResultIsFailure(ran), "a 3x8 x was taken");
  fprintf(stderr, "\n");
  // CHECK: argument #0 of @mlp expects tensor<4x8xf32>, given a tensor of shape [3, 8]
  args[0].shape = xs;
  int64_t badResult[] = {3, 4};
  results[0].shape = badResult;
  ran = rlxCpuProgramRun(program, args, 4, results, 1, printToStderr, NULL);
  EXPECT(mlirLogicalResultIsFailure(ran), "a 3x4 result buffer was taken");
  fprintf(stderr, "\n");
  // CHECK: result #0 of @mlp has shape [4, 3], but its buffer is for shape [3, 4]
  results[0].shape = ys;
  ran = rlxCpuProgramRun(program, args, 3, results, 1, printToStderr, NULL);
  EXPECT(mlirLogicalResultIsFailure(ran), "3 arguments were taken");
  fprintf(stderr, "\n");
  // CHECK: @mlp takes 4 arguments, 3 given
  rlxCpuProgramDestroy(program);
  mlirModuleDestroy(module);
}

/* Results placed by a callback: the shape of a dynamic result is known
 * once the program ran. */
typedef struct {
  float buffer[64];
  int64_t shape[2];
  intptr_t rank;
} Destination;

static void *placeResult(intptr_t index, intptr_t rank, const int64_t *shape,
                         void *userData) {
  Destination *d = (Destination *)userData;
  (void)index;
  d->rank = rank;
  for (intptr_t i = 0; i < rank; ++i)
    d->shape[i] = shape[i];
  return d->buffer;
}

static void testDynamicShapes(MlirContext ctx) {
  MlirModule module = mlirModuleCreateParse(
      ctx, str("func.func @rows(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {\n"
               "  %0 = rlx.exp %x : tensor<?x4xf32>\n"
               "  return %0 : tensor<?x4xf32>\n}\n"));
  RlxCpuProgram program = rlxCpuProgramCreate(module, str("rows"), str(""));
  EXPECT(!rlxCpuProgramIsNull(program), "compiling @rows failed");
  if (rlxCpuProgramIsNull(program))
    return;
  float x[3 * 4];
  for (int i = 0; i < 12; ++i)
    x[i] = uniform();
  int64_t xs[] = {3, 4};
  RlxTensor arg = {x, 2, xs};
  Destination d;
  MlirLogicalResult ran = rlxCpuProgramRunWithDestination(
      program, &arg, 1, placeResult, printToStderr, &d);
  EXPECT(mlirLogicalResultIsSuccess(ran), "running @rows failed");
  EXPECT(d.rank == 2 && d.shape[0] == 3 && d.shape[1] == 4,
         "result shape %ldx%ld", (long)d.shape[0], (long)d.shape[1]);
  double worst = 0;
  for (int i = 0; i < 12; ++i) {
    double err = fabs(d.buffer[i] - exp((double)x[i])) / (1e-6 + 1e-5 * exp((double)x[i]));
    worst = err > worst || isnan(err) ? err : worst;
  }
  fprintf(stderr, "rows: %s\n", worst <= 1.0 ? "matches exp" : "WRONG");
  // CHECK: rows: matches exp
  rlxCpuProgramDestroy(program);
  mlirModuleDestroy(module);
}

static void testCompileErrors(MlirContext ctx) {
  MlirModule module = mlirModuleCreateParse(ctx, str(kMlp));
  RlxCpuProgram program = rlxCpuProgramCreate(module, str("nosuch"), str(""));
  EXPECT(rlxCpuProgramIsNull(program), "compiled a missing function");
  // CHECK: diagnostic: no function 'nosuch' with a body to compile
  program = rlxCpuProgramCreate(module, str("mlp"), str("no-such-option=1"));
  EXPECT(rlxCpuProgramIsNull(program), "took a bad pipeline option");
  // CHECK: diagnostic: bad rlx-cpu-pipeline options 'no-such-option=1'
  mlirModuleDestroy(module);

  /* A verifier error while parsing goes to the diagnostic handler. */
  module = mlirModuleCreateParse(
      ctx, str("func.func @f(%x: tensor<4x8xf32>, %w: tensor<7x3xf32>) -> "
               "tensor<4x3xf32> {\n  %0 = rlx.matmul %x, %w : "
               "tensor<4x8xf32>, tensor<7x3xf32>\n  return %0 : "
               "tensor<4x3xf32>\n}\n"));
  EXPECT(mlirModuleIsNull(module), "parsed a bad matmul");
  // CHECK: diagnostic: 'rlx.matmul' op contracting dims differ: 'lhs' has 8, 'rhs' has 7

  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      str("builtin.module(rlx-no-such-pass)"), printToStderr, NULL);
  fprintf(stderr, "\n");
  EXPECT(mlirLogicalResultIsFailure(parsed), "parsed an unknown pass");
  // CHECK: 'rlx-no-such-pass' does not refer to a registered pass or pass pipeline
  mlirPassManagerDestroy(pm);
}

static void testQuantScheme(MlirContext ctx) {
  MlirAttribute q = rlxQuantSchemeAttrGet(ctx, str("int8_block"), 32);
  EXPECT(rlxAttributeIsAQuantScheme(q), "int8_block, 32");
  MlirStringRef kind = rlxQuantSchemeAttrGetKind(q);
  EXPECT(mlirStringRefEqual(kind, str("int8_block")), "kind int8_block");
  EXPECT(rlxQuantSchemeAttrGetBlockSize(q) == 32, "block 32");
  mlirAttributePrint(q, printToStderr, NULL);
  fprintf(stderr, "\n");
  // CHECK: #rlx.quant<int8_block, 32>
  MlirAttribute parsed =
      mlirAttributeParseGet(ctx, str("#rlx.quant<int8_block, 32>"));
  EXPECT(mlirAttributeEqual(q, parsed), "parsed and built differ");
  MlirAttribute gguf = rlxQuantSchemeAttrGet(ctx, str("gguf_q4_k"), 0);
  EXPECT(rlxQuantSchemeAttrGetBlockSize(gguf) == 256, "gguf block 256");
  EXPECT(!rlxAttributeIsAQuantScheme(mlirUnitAttrGet(ctx)), "unit is no scheme");

  MlirAttribute bad = rlxQuantSchemeAttrGet(ctx, str("int3_block"), 32);
  EXPECT(mlirAttributeIsNull(bad), "int3_block was taken");
  // CHECK: diagnostic: unknown quantization scheme 'int3_block'
  bad = rlxQuantSchemeAttrGet(ctx, str("int4_block"), 31);
  EXPECT(mlirAttributeIsNull(bad), "an odd int4 block was taken");
  // CHECK: diagnostic: scheme 'int4_block' needs an even block size (two weights per byte), got 31
}

static MlirWalkResult findPlan(MlirOperation op, void *userData) {
  MlirIdentifier name = mlirOperationGetName(op);
  if (!mlirStringRefEqual(mlirIdentifierStr(name), str("rlx_lir.arena")))
    return MlirWalkResultAdvance;
  *(MlirAttribute *)userData = mlirOperationGetAttributeByName(op, str("plan"));
  return MlirWalkResultInterrupt;
}

/* The plan of a 3-layer chain: every buffer inside the arena on an aligned
 * offset, and buffers live at once (neither reusing the other's bytes in
 * place) on disjoint bytes. */
static void testPlan(MlirContext ctx) {
  MlirModule module = mlirModuleCreateParse(
      ctx,
      str("func.func @chain(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> "
          "tensor<64x64xf32> {\n"
          "  %0 = rlx.matmul %x, %w : tensor<64x64xf32>, tensor<64x64xf32>\n"
          "  %1 = rlx.tanh %0 : tensor<64x64xf32>\n"
          "  %2 = rlx.matmul %1, %w : tensor<64x64xf32>, tensor<64x64xf32>\n"
          "  %3 = rlx.add %2, %0 : tensor<64x64xf32>, tensor<64x64xf32>\n"
          "  %4 = rlx.exp %3 : tensor<64x64xf32>\n"
          "  %5 = rlx.matmul %4, %1 : tensor<64x64xf32>, tensor<64x64xf32>\n"
          "  return %5 : tensor<64x64xf32>\n}\n"));
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                        str("builtin.module(rlx-plan-memory)"), printToStderr,
                        NULL);
  EXPECT(mlirLogicalResultIsSuccess(
             mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))),
         "rlx-plan-memory failed");
  mlirPassManagerDestroy(pm);
  MlirAttribute plan = {NULL};
  mlirOperationWalk(mlirModuleGetOperation(module), findPlan, &plan,
                    MlirWalkPreOrder);
  EXPECT(!mlirAttributeIsNull(plan) && rlxAttributeIsAPlan(plan),
         "no rlx_lir.arena with a plan");
  if (mlirAttributeIsNull(plan))
    return;
  int64_t size = rlxPlanAttrGetArenaSize(plan);
  int64_t align = rlxPlanAttrGetAlignment(plan);
  intptr_t n = rlxPlanAttrGetNumBuffers(plan);
  EXPECT(n >= 3, "%ld buffers", (long)n);
  for (intptr_t i = 0; i < n; ++i) {
    RlxPlannedBuffer a = rlxPlanAttrGetBuffer(plan, i);
    EXPECT(a.offset % align == 0 && a.offset + a.size <= size,
           "buffer %ld at [%ld, %ld) in an arena of %ld aligned to %ld",
           (long)a.id, (long)a.offset, (long)(a.offset + a.size), (long)size,
           (long)align);
    for (intptr_t j = 0; j < i; ++j) {
      RlxPlannedBuffer b = rlxPlanAttrGetBuffer(plan, j);
      int related = a.root == b.id || b.root == a.id ||
                    (a.root != -1 && a.root == b.root);
      int liveTogether = a.start <= b.end && b.start <= a.end;
      int overlap = a.offset < b.offset + b.size && b.offset < a.offset + a.size;
      EXPECT(related || !liveTogether || !overlap,
             "buffers %ld and %ld share bytes while both live", (long)a.id,
             (long)b.id);
    }
  }
  fprintf(stderr, "plan: checked\n");
  // CHECK: plan: checked
  mlirModuleDestroy(module);
}

/* The target registry: every registered target has a name and a summary,
 * the cpu target claims what it lowers and not the autodiff transforms,
 * and an unknown target claims nothing. */
static void testTargets(void) {
  intptr_t n = rlxGetNumTargets();
  EXPECT(n >= 1, "at least the cpu target, got %ld", (long)n);
  int sawCpu = 0;
  for (intptr_t i = 0; i < n; ++i) {
    MlirStringRef name = rlxGetTargetName(i);
    EXPECT(name.length > 0, "target %ld has a name", (long)i);
    EXPECT(rlxGetTargetSummary(name).length > 0, "target %.*s has a summary",
           (int)name.length, name.data);
    EXPECT(rlxTargetClaimsOp(name, str("rlx.add")), "%.*s claims rlx.add",
           (int)name.length, name.data);
    sawCpu |= mlirStringRefEqual(name, str("cpu"));
  }
  EXPECT(sawCpu, "cpu is registered");
  EXPECT(rlxGetTargetName(n).length == 0, "no target past the last");
  EXPECT(rlxTargetClaimsOp(str("cpu"), str("rlx.fft")), "cpu claims rlx.fft");
  EXPECT(!rlxTargetClaimsOp(str("cpu"), str("rlx.grad")),
         "autodiff is expanded before any target");
  EXPECT(!rlxTargetClaimsOp(str("tpu"), str("rlx.add")), "no tpu");
  EXPECT(rlxGetTargetSummary(str("tpu")).length == 0, "no tpu summary");
  fprintf(stderr, "targets: checked\n");
  // CHECK: targets: checked
}

int main(void) {
  rngState = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
  fprintf(stderr, "seed %llu\n", (unsigned long long)rngState);

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  rlxRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);
  mlirRegisterAllPasses();
  rlxRegisterAllPasses();
  rlxRegisterAllPasses(); /* idempotent */
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);

  MlirStringRef ns = mlirDialectHandleGetNamespace(mlirGetDialectHandle__rlx_lir__());
  EXPECT(mlirStringRefEqual(ns, str("rlx_lir")), "rlx_lir handle");
  EXPECT(!mlirDialectIsNull(mlirContextGetOrLoadDialect(ctx, str("rlx_hir"))),
         "rlx_hir loaded");

  testMlp(ctx);
  testDynamicShapes(ctx);
  testCompileErrors(ctx);
  testQuantScheme(ctx);
  testPlan(ctx);
  testTargets();

  mlirContextDestroy(ctx);
  fprintf(stderr, "%d failures\n", failures);
  // CHECK: 0 failures
  return failures != 0;
}
