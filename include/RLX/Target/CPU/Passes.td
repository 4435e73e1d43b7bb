//===- Passes.td - RLX CPU target passes -------------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TARGET_CPU_PASSES_TD
#define RLX_TARGET_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def CPUOrderLoopsPass : Pass<"rlx-cpu-order-loops", "::mlir::func::FuncOp"> {
  let summary = "Make the innermost loop of each linalg.generic contiguous";
  let description = [{
    Interchanges the loops of every `linalg.generic` (upstream
    `linalg::interchangeGenericOp`) so that its innermost loop is one along
    which every operand that reads it is contiguous (it is that operand's
    last dim), preferring parallel loops. For a matmul `(m, n, k)` this is
    `(m, k, n)`: the inner loop streams a row of the right-hand side and of
    the result, which LLVM's loop vectorizer turns into vector FMAs, where
    the original order would walk the right-hand side by columns. The order
    of the other loops is kept, and so is the order in which each result
    element accumulates, so results are bit-identical.
  }];
}

def CPUTileRowsPass : Pass<"rlx-cpu-tile-rows", "::mlir::func::FuncOp"> {
  let summary = "Tile each group of row-wise linalg ops into one loop over "
                "rows";
  let description = [{
    For every linalg op on tensors that no other linalg op reads (the last
    op of a group), tiles its parallel loops but the innermost by 1 and
    fuses into that loop the producers it needs a strict part of (upstream
    `scf::tileConsumerAndFuseProducersUsingSCF`). Softmax's max, sum and
    normalize then run row by row: each row is read from memory once and
    re-read from the cache. Contractions and convolutions are neither tiled
    nor fused (they reuse their inputs across rows), and a producer whose
    whole result each row needs is left outside the loop rather than
    recomputed per row.

    ```mlir
    // Before: three full passes.
    %max = linalg.generic ... ins(%x : tensor<64x128xf32>) -> tensor<64xf32>
    %sum = linalg.generic ... ins(%x, %max ...) -> tensor<64xf32>
    %y = linalg.generic ... ins(%x, %max, %sum ...) -> tensor<64x128xf32>
    // After: scf.for %i = 0 to 64 { max, sum and normalize of row %i }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def CPUReassociateReductionsPass
    : Pass<"rlx-cpu-reassociate-reductions", "::mlir::func::FuncOp"> {
  let summary = "Allow the float arithmetic of reductions to be reordered";
  let description = [{
    Adds the `reassoc` fast-math flag to the float arithmetic in the body
    of every `linalg.generic` that has a reduction loop. LLVM's loop
    vectorizer then keeps one partial sum (or max) per vector lane and
    combines them after the loop instead of adding one element at a time;
    results change by rounding only.

    ```mlir
    // %s = arith.addf %out, %in : f32   becomes
    // %s = arith.addf %out, %in fastmath<reassoc> : f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def CPUDispatchBLASPass : Pass<"rlx-cpu-dispatch-blas", "::mlir::ModuleOp"> {
  let summary = "Call a BLAS gemm for f32/f64 contractions on buffers";
  let description = [{
    The kernel-dispatch policy of the seeds: a vendor library where it beats
    generated code. Each f32 or f64 contraction `linalg.generic` on buffers
    with one reduction loop (matmul, batched and broadcast matmul, either
    operand transposed) becomes a loop over its batch dims around a call to
    `rlx_cpu_sgemm` / `rlx_cpu_dgemm` on 2-D strided views, computing
    C += A B. The runtime (`lib/Runtime/CPU/CPUBlas.cpp`) calls the CBLAS gemm
    of the BLAS library it finds at run time. int8 contractions summed in
    i32 (from `rlx.int8_matmul`) call `rlx_cpu_gemm_s8`, RLX's own int8
    kernel (AVX-512 VNNI where the CPU has it), since no BLAS has one; the
    CPU pipeline runs the pass for those always, and for floats with
    `blas=true`. An int8 contraction whose B is (a view of) a constant
    `memref.global`, with a view that does not move with the batch loops,
    calls `rlx_cpu_gemm_s8_constant_b` instead, passing a fresh mutable
    `memref<1xi64>` global (zero) per call site in which the runtime keeps
    B packed from the first call: the program never writes a constant.

    ```mlir
    // linalg.generic {matmul maps} ins(%a, %b : memref<64x32xf32>, ...)
    //                              outs(%c : memref<64x16xf32>)
    // becomes
    func.call @rlx_cpu_sgemm(%va, %vb, %vc)
        : (memref<?x?xf32, strided<[?, ?], offset: ?>>, ...) -> ()
    ```
  }];
  let options = [
    Option<"floatGemms", "float-gemms", "bool", /*default=*/"true",
           "Call the BLAS gemm for f32 and f64 contractions">,
    Option<"int8Gemms", "int8-gemms", "bool", /*default=*/"true",
           "Call rlx_cpu_gemm_s8 for int8 contractions summed in i32 "
           "(rlx.int8_matmul)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def CPUVectorizeMatmulPass
    : Pass<"rlx-cpu-vectorize-matmul", "::mlir::func::FuncOp"> {
  let summary = "Register-tile and vectorize float matmuls";
  let description = [{
    Tiles each f32/f64 contraction `linalg.generic` on tensors (matmul,
    batched, broadcast or transposed operands; static shapes whose M and N
    are multiples of the tile) into blocks of `rows-per-tile` x (2 vectors
    of `vector-bits`) elements of C, steps k one at a time inside, and
    vectorizes each step into a `vector.contract` whose accumulator is
    carried in registers through the k loop. Upstream SCF tiling,
    and `linalg::vectorize` do the work; after bufferization
    `rlx-cpu-lower-vectors` keeps the C block in registers through the k
    loop and turns the contracts into FMAs. Other contractions keep the loop lowering.

    A reduction longer than `k-block` steps that they divide is tiled
    into blocks of k between the column-block and row-block loops, so the
    part of B's panel that one block reads stays in L1 across the row
    blocks (C's tile is read and written once per block of k).

    With `pack-panels`, where B is read row-major with rows a multiple of
    4 KiB apart (their k steps would share L1 sets) and at least four row
    blocks reuse each column panel, the [K, NR] panel is copied into a
    contiguous tensor (`linalg.copy` into `tensor.empty`) in the
    column-block loop, and the row blocks read the copy (1024^3 f32:
    16.7 -> 11.1 ms).

    ```mlir
    // linalg.generic {matmul} ins(%a, %b : tensor<64x32xf32>,
    //   tensor<32x64xf32>) outs(%c : tensor<64x64xf32>)
    // becomes scf.for (m by 8) { scf.for (n by 32) {
    //   %acc = vector.transfer_read ... : vector<8x32xf32>
    //   scf.for (k) iter_args(%acc) { vector.contract ... } ... } }
    ```
  }];
  let options = [
    Option<"rowsPerTile", "rows-per-tile", "int64_t", "8",
           "Rows of C in one register tile">,
    Option<"vectorBits", "vector-bits", "int64_t", "512",
           "Width of the target's vector registers in bits">,
    Option<"kBlock", "k-block", "int64_t", "256",
           "Tile the reduction into blocks of this many steps (outside the "
           "row blocks) where they divide it; 0: one block">,
    Option<"packPanels", "pack-panels", "bool", "true",
           "Copy each column panel of B into a contiguous tensor before "
           "the row blocks that read it">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def CPUStreamStoresPass
    : Pass<"rlx-cpu-stream-stores", "::mlir::func::FuncOp"> {
  let summary = "Write the large results of row groups with non-temporal "
                "stores";
  let description = [{
    A memory-bound kernel that writes a result larger than the caches
    (a norm or softmax on 4096x4096 f32) pays for the result three times
    with ordinary stores: each cache line is read from memory before it is
    written (write-allocate), then written back. Non-temporal (streaming)
    stores skip the read, a third of the traffic.

    This pass rewrites the op of a row group (after `rlx-cpu-tile-rows`:
    an elementwise op that reads what a reduction in its loop body
    computes, e.g. the normalization of a layer_norm) when it is an
    elementwise
    `linalg.generic` on buffers (all loops parallel, one output, identity
    output map, a body that does not read the output, no later op of the
    group reading it: not softmax's exp) whose output is, or
    is a row view of, a `memref.alloc` that the function returns, holds at
    least `min-bytes`, and is 64-byte aligned (its `alignment` attribute,
    which the lowering to LLVM honors by padding the allocation and
    rounding its pointer up) with an innermost dim that is a multiple of
    one 64-byte vector, every view on the way starting that dim at a
    multiple of the vector: then each 64-byte tile of the output starts on
    a 64-byte boundary. The op is tiled to one vector along its innermost
    loop (upstream `linalg::tileLinalgOp`) and vectorized
    (`linalg::vectorize`), and its write becomes a `vector.store` with
    `nontemporal = true` and `alignment = 64`, which LLVM emits as
    `vmovntps`. With `prefetch`, each tile first prefetches the same
    columns of the next row of each row the group reads (x of a norm),
    so that the group's first pass over the next row does not wait for
    memory.

    Softmax's group writes exp into the output row, reads it back (the sum)
    and scales it in place, so its write cannot stream as it is. With
    `stage-rows`, where the output row would stream (the conditions above;
    the output buffer reached only through the row's view, rows of at most
    64 KiB, no parallel loop around), exp writes a 64-byte aligned row on
    the stack instead, allocated once at the function's entry
    (`memref.alloca`), the group's later ops read that row, and the
    scaling reads it and writes the output row, which then streams. With
    `prefetch`, the op writing a row that its group reads back (softmax's
    exp, staged or not) prefetches instead of the streamed op: it is the
    group's long compute pass, while memory is otherwise idle. When the
    group's result buffer holds at least `min-bytes` and its rows are
    whole tiles of four 64-byte lines, it is tiled to four lines along its
    innermost loop, each tile first prefetching each line of the next row
    of every row the group reads; the tile stays a `linalg.generic` for
    LLVM's loop vectorizer. A function that streams gets a store fence
    before each return (streamed stores are weakly ordered):
    `llvm.x86.sse.sfence` on an x86 host, a sequentially consistent
    `llvm.fence` elsewhere.

    With `elementwise` (the default), a lone elementwise op (gelu, an
    add) streams on the same conditions, tiled and vectorized the same
    way. Gelu 4096x4096 f32 on an Intel Emerald Rapids: 8.6 ms with
    LLVM's loop vectorizer and ordinary stores, 5.5 ms streamed, as fast
    as a non-temporal copy of its bytes; on an AMD EPYC, before RLX's own
    erf expansion, it measured 5.8 ms and 7.4 ms (`elementwise=false`
    keeps them to LLVM).

    Everything else keeps ordinary stores: results smaller than
    `min-bytes` (they stay in cache for their reader) and results whose
    alignment or shape does not give whole aligned vectors (odd widths).

    ```mlir
    // linalg.generic ... outs(%row : memref<1x4096xf32, strided<...>>)
    // becomes, in a loop over 16-element tiles:
    // vector.store %v, %y[%i, %j] {alignment = 64 : i64,
    //     nontemporal = true} : memref<4096x4096xf32>, vector<16xf32>
    ```
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"16777216",
           "Stream a result only if its buffer has at least this many "
           "bytes (default 16 MiB, beyond a last-level cache slice)">,
    Option<"stageRows", "stage-rows", "bool", /*default=*/"true",
           "Stage on the stack a row that the group writes, reads back and "
           "scales in place (softmax), so that its final write streams">,
    Option<"prefetch", "prefetch", "bool", /*default=*/"true",
           "While a streamed op writes a row (or softmax's exp computes "
           "it), prefetch the next row of each row its group reads">,
    Option<"elementwise", "elementwise", "bool", /*default=*/"true",
           "Stream the results of lone elementwise ops (gelu) too, not "
           "only those of row groups">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def CPULowerVectorsPass
    : Pass<"rlx-cpu-lower-vectors", "::mlir::func::FuncOp"> {
  let summary = "Lower vector contractions and transfers for the CPU";
  let description = [{
    Hoists vector transfers that read and write the same buffer slice in
    every iteration of a loop into a vector carried by the loop (upstream
    `linalg::hoistRedundantVectorTransfers`: the C block of a vectorized
    matmul stays in registers through its k loop), then applies upstream
    vector lowering patterns chosen for a CPU's FMA units: `vector.contract` to outer products and those to FMAs on 1-D vectors,
    transfers with permutation maps or unit dims to plain 1-D transfers,
    and leading unit dims cast away, so that `convert-vector-to-scf` and
    `convert-vector-to-llvm` see only 1-D vector ops.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect"];
}

def CPUOutlineKernelsPass
    : Pass<"rlx-cpu-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Outline each outermost loop nest into a function of its own";
  let description = [{
    Moves every outermost kernel of each function (an `scf.for` /
    `scf.parallel` nest, such as a fused row group, or a `linalg` op on
    buffers, which becomes one) into a
    private `func.func` named `<function>_kernel<N>`, marked `noinline` (for
    LLVM, through `passthrough`),
    and calls it where it was (upstream `outlineSingleBlockRegion`). A whole
    model lowered as one function is one function of every layer's loops,
    which the vector lowerings, the LLVM conversions and LLVM's optimizer
    and code generator take superlinear time on (a 24-layer BERT compiled
    in 3.3x the 12-layer time); one function per kernel keeps compile time
    linear in the model, as XLA:CPU and IREE emit each kernel as its own
    function. What is left of the function is glue (allocations, views,
    calls), marked `noinline` and `optnone`: LLVM's instruction selection
    is quadratic in one block of it and its speed does not matter. Constants the nest reads are cloned into it
    and the buffers only it uses move into it (a `memref.alloc` with its
    `memref.dealloc`), so LLVM still keeps per-row temporaries in registers
    and a kernel's scratch is each call's own.

    ```mlir
    // Before:
    func.func @f(%a: memref<64x128xf32>) { scf.for %i = ... { ... } return }
    // After:
    func.func private @f_kernel0(%a: memref<64x128xf32>)
        attributes {passthrough = ["noinline"]} {
      scf.for %i = ... { ... }
      return
    }
    func.func @f(%a: memref<64x128xf32>) { call @f_kernel0(%a) : ... return }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect"];
}

def CPUMergeKernelsPass
    : Pass<"rlx-cpu-merge-kernels", "::mlir::ModuleOp"> {
  let summary = "Keep one of each set of identical private functions";
  let description = [{
    Replaces the calls of every private function whose body, type and
    attributes (but its name) equal an earlier one's with calls of that
    one, and erases it. After `rlx-cpu-outline-kernels`, a model written
    as N equal layers has N copies of each layer's kernels (the weights
    are arguments, so the bodies are the same): compiled once, the rest of
    the pipeline and LLVM do a layer's work once instead of N times (the
    12-layer BERT-base gradient's kernels: see docs/CPU.md).

    ```mlir
    func.func private @f_kernel0(%a: memref<4xf32>) { ... }
    func.func private @f_kernel7(%a: memref<4xf32>) { ... } // the same ops
    // call @f_kernel7(%x) becomes call @f_kernel0(%x); @f_kernel7 is gone
    ```
  }];
}

def CPUChunkKernelsPass : Pass<"rlx-cpu-chunk-kernels", "::mlir::ModuleOp"> {
  let summary = "Give each parallel kernel a range of iterations to run";
  let description = [{
    Prepares the outlined kernels (`rlx-cpu-outline-kernels`) for threads.
    A kernel whose outermost loops are a band of parallel loops (`scf.for`
    marked `rlx.parallel_loop` by the passes that know their iterations
    are independent: `rlx-cpu-tile-rows`, `rlx-cpu-vectorize-matmul`), or
    a `linalg` op whose leading loops are parallel (tiled here by 1 along
    them), gets two trailing `index` arguments `begin` and `end`: the band
    is collapsed into one loop over its iterations [begin, end), each
    iteration delinearized back into the band's induction variables. The
    call passes 0 and the band's iteration count, computed in the caller
    from the loop bounds, and the kernel is marked `rlx.chunked_kernel`;
    `rlx-cpu-call-thread-pool` later splits the range over threads.

    Kernels with less than `min-elements` elements in their operands stay
    as they are (splitting them costs more than it saves), as do kernels
    whose bounds the caller cannot compute (they depend on values the
    kernel loads).

    ```mlir
    // Before:
    func.func private @f_kernel0(%a: memref<64x128xf32>) {
      scf.for %i = %c0 to %c64 step %c1 { ... } {rlx.parallel_loop}
      return
    }
    // After:
    func.func private @f_kernel0(%a: memref<64x128xf32>, %begin: index,
                                 %end: index) attributes {rlx.chunked_kernel} {
      scf.for %l = %begin to %end step %c1 { %i = ... ; ... }
      return
    }
    // and at the call: call @f_kernel0(%a, %c0, %c64)
    ```
  }];
  let options = [
    Option<"minElements", "min-elements", "int64_t", /*default=*/"32768",
           "Kernels whose operands hold fewer elements (all static) run on "
           "one thread">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def CPUCallThreadPoolPass
    : Pass<"rlx-cpu-call-thread-pool", "::mlir::ModuleOp"> {
  let summary = "Run chunked kernels on the runtime's thread pool";
  let description = [{
    Runs on the LLVM dialect, after `convert-func-to-llvm`. Each call of a
    function marked `rlx.chunked_kernel` (`rlx-cpu-chunk-kernels`), whose
    last two operands are the range [0, n), becomes a call of the runtime's
    `rlx_cpu_parallel_for(chunk, context, n, threads)`
    (RLX/Runtime/CPU/CPUThreads.h): the other operands are stored in a
    struct on the caller's stack (`context`), and `<kernel>_chunk(context,
    begin, end)`, generated once per kernel, loads them and calls the kernel
    on its chunk. The packing is done on the LLVM dialect because only there
    is a memref operand a list of plain values that a struct can hold.

    ```mlir
    llvm.call @f_kernel0(%p0, %p1, %o, %s0, %s1, %t0, %t1, %c0, %c64)
    // becomes
    llvm.store ... %ctx    // the operands but the range
    llvm.call @rlx_cpu_parallel_for(%chunk, %ctx, %c64, %threads)
    ```
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"0",
           "Threads at most per kernel (0: the runtime's count, "
           "RLX_NUM_THREADS or every CPU)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def CPUApproximateMathPass
    : Pass<"rlx-cpu-approximate-math", "::mlir::func::FuncOp"> {
  let summary = "Replace f32 exp, log, tanh and erf by polynomial "
                "approximations";
  let description = [{
    Applies upstream `math::populateMathPolynomialApproximationPatterns` to
    `math.log` and `math.tanh` on f32 scalars and vectors, and its own
    expansions to `math.exp` and `math.erf`: branch-free polynomials
    (accurate to a few ulp) that LLVM can vectorize, where a libm call
    would keep softmax, GELU and the norms scalar. f64 keeps libm's
    functions.

    exp(x) = 2^n e^r in 14 operations instead of upstream's 20: n =
    round(x / ln 2) comes from adding 1.5 * 2^23 + 127, whose low bits are
    then 2^n's exponent field, put in place by one shift (upstream floors,
    clamps and converts n and adds the bias apart), and e^r = 1 + r q(r)
    with q of degree 5, fitted for minimax relative error on
    [-ln 2 / 2, 0.70] (upstream: Cephes' degree 7). x is clamped below at
    -87.8 (NaN passes), n above at 127: large x overflow to inf, results
    below 2^-126 flush to 0 (as upstream's), at most 1.2e-7 relative
    (1.5 ulp) from exp elsewhere, and exp(0) = 1 exactly.

    erf(x) = x P(x^2) / Q(x^2) with x clamped to [-4, 4] (erf(4) rounds to
    1), P and Q of degree 5 fitted for minimax relative error: 15
    operations where upstream's expansion picks coefficients per interval
    in about 37 (GELU 4096x4096 f32: 3.5 ms against 5.6). At most 5.3 ulp
    (3.2e-7 relative) from erf, upstream's 4.5 ulp; erf(+-0) = +-0, NaN
    passes.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def CPUOutlineDequantMatmulPass
    : Pass<"rlx-cpu-outline-dequant-matmul", "::mlir::ModuleOp"> {
  let summary = "Move GGUF dequant_matmuls into functions for the runtime's "
                "kernel";
  let description = [{
    The first half of the CPU's dispatch of `rlx.dequant_matmul` (the second
    is `rlx-cpu-call-dequant-matmul`). Runs on MIR, before the linalg
    lowering. Each f32 `rlx.dequant_matmul` of a GGUF scheme that the
    runtime's `rlx_cpu_dequant_matmul` decodes (`gguf_q4_0`, `gguf_q8_0`,
    `gguf_q4_k`, `gguf_q5_k`, `gguf_q6_k`, `gguf_q8_k`) with static K and N
    becomes a call of a private function that computes it on [M, K] rows
    (leading dims folded by `rlx.reshape`, which needs them static above rank
    2), tagged `rlx.cpu_dequant_matmul` with the scheme's runtime code. Ops
    of one scheme and types share one function. The function lowers like any
    other, so the program is correct with or without the second half.

    ```mlir
    %y = rlx.dequant_matmul #rlx.quant<gguf_q8_0> %x, %w
        : tensor<1x64xf32>, tensor<16x68xui8>
    // becomes
    %y = func.call @rlx_dequant_matmul_gguf_q8_0(%x, %w)
        : (tensor<1x64xf32>, tensor<16x68xui8>) -> tensor<1x16xf32>
    func.func private @rlx_dequant_matmul_gguf_q8_0(...)
        attributes {rlx.cpu_dequant_matmul = 1 : i32}
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def CPUCallDequantMatmulPass
    : Pass<"rlx-cpu-call-dequant-matmul", "::mlir::ModuleOp"> {
  let summary = "Replace the bodies of outlined dequant_matmuls by runtime "
                "calls";
  let description = [{
    The second half of the CPU's dispatch of `rlx.dequant_matmul`; runs after
    bufferization. The body of each function tagged `rlx.cpu_dequant_matmul`
    (two row-major 2-D buffers in, one out) becomes a fresh result buffer
    and a call of the runtime's `rlx_cpu_dequant_matmul(x, m, k, packed, n,
    out, scheme)` (RLX/Runtime/CPU/CPUDequantMatmul.h) on the buffers'
    addresses, which decodes the weight tile by tile in the cache and
    splits the tiles over the thread pool; the tag goes. A tagged function
    of another signature is an error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // RLX_TARGET_CPU_PASSES_TD
