//===- Passes.td - RLX conversion passes -------------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_CONVERSION_PASSES_TD
#define RLX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// ShardToRuntime
//===----------------------------------------------------------------------===//

def LowerCollectivesPass : Pass<"rlx-lower-collectives", "::mlir::ModuleOp"> {
  let summary = "Call the runtime's collectives for shard's collectives";
  let description = [{
    Lowers what `rlx-partition` leaves of the `shard` dialect on tensors,
    before bufferization, to calls of RLX's collectives ABI
    (`RLX/Runtime/Common/Collectives.h`), which the CPU runtime carries
    between processes over shared memory and the CUDA runtime over NCCL:
    - `shard.all_reduce` to `rlxCollectiveAllReduce` (sum, product, max,
      min);
    - `shard.all_gather` to `rlxCollectiveAllGather`, whose key-ordered
      blocks are transposed into place when the gather axis is not the
      first;
    - `shard.reduce_scatter` to `rlxCollectiveReduceScatter`, the operand
      first transposed so that each process's block is contiguous;
    - `shard.all_to_all` to `rlxCollectiveAllToAll`, transposed on both
      sides likewise;
    - `shard.process_linear_index` to `rlxCollectiveRank`.
    The process group of a collective over some grid axes is computed from
    the rank at run time (`color`: the linear index off those axes; `key`:
    on them, in the op's axis order; `group`: the axes in their order as
    base-17 digits, with the grid's index in the module above bit 40).
    Buffers reach the runtime
    as contiguous memrefs (bufferization copies a strided view first). The
    `shard.grid` symbols go last.

    With `overlap`, each block holding collectives is first reordered
    (dependencies and the order of ops with memory effects kept): stage by
    stage, a stage ending at the collectives, and within a stage the work
    that feeds the earliest collective first. So a program written one
    micro-batch after another computes the next micro-batch while the
    previous one's all-reduce runs, and a data-parallel backward starts
    each gradient bucket's all-reduce once its gradients exist. Each
    collective whose input nothing else reads (so that no later op takes
    its buffer to write in place) then calls the `Async` entry point, and
    a call of
    `rlxCollectiveWait(out, in)` goes before the first reader of its
    result (its use of the input buffer keeps that buffer alive until
    then). The CUDA runtime runs these on a communication stream; the
    CPU's completes them at once.

    Errors, at the op: an element type the ABI lacks (f32, f64, bf16, f16,
    i32 and i64 are carried), a reduction other than sum, product, max and
    min, a dynamic shape, any other `shard` op; any collective where
    `carried` is false (the target's runtime has no collectives: the
    error names `target`).

    ```mlir
    %r = shard.all_reduce %p on @tp grid_axes = [0]
        : tensor<8x16xf32> -> tensor<8x16xf32>
    // becomes (%pin, %pout: the buffers' addresses)
    call @rlxCollectiveAllReduce(%f32, %sum, %pin, %pout, %c128, %group,
                                 %color, %key, %c2) : (...) -> ()
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "The target compiled for (named in errors)">,
    Option<"carried", "carried", "bool", "true",
           "The target's runtime carries collectives">,
    Option<"overlap", "overlap", "bool", "false",
           "Start each collective as soon as its operand is computed "
           "(`rlxCollective*Async`) and wait for it "
           "(`rlxCollectiveWait`) only before the first reader of its "
           "result, with the block reordered so that independent work "
           "runs in between">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
}

//===----------------------------------------------------------------------===//
// RLXToLinalg
//===----------------------------------------------------------------------===//

def ConvertRLXToLinalgPass : Pass<"convert-rlx-to-linalg", "ModuleOp"> {
  let summary = "Lower rlx ops to linalg, tensor, arith, math and complex";
  let description = [{
    Rewrites every rlx op that has a lowering into upstream tensor-level
    dialects: elementwise ops and broadcasting into `linalg.generic`,
    reductions into reduction `linalg.generic`s with f32 accumulation for
    f16/bf16, matmul into a contraction, shape ops into `tensor` ops, and
    the norms, softmax and attention into numerically stable compositions.
    Unsigned element types become signless (the ops chosen keep the
    unsigned meaning), including in function signatures. An rlx op left
    without a lowering is reported with its location and fails the pass.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::complex::ComplexDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def LinalgFuseElementwisePass
    : Pass<"rlx-linalg-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuse elementwise linalg.generic chains, never into "
                "reductions";
  let description = [{
    Upstream elementwise fusion (`linalg::populateElementwiseOpsFusionPatterns`)
    with one restriction: a producer is fused only into a consumer whose
    loops are all parallel. Fusing, say, a GELU into the matmul that reads
    it would recompute the GELU once per step of the matmul's reduction;
    kept apart, each element is computed once.

    A producer that other ops read too stays for them and is computed
    again inside the consumer; it is fused only while the consumer's body
    stays within `max-body-ops` operations. Without that bound, a graph
    that reads each value twice per step (an unrolled loop and its
    derivative) grows bodies exponentially in its depth.
  }];
  let options = [
    Option<"maxBodyOps", "max-body-ops", "unsigned", /*default=*/"64",
           "Fuse a producer that has other readers only while the fused "
           "body has at most this many operations">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

//===----------------------------------------------------------------------===//
// RLXToGPU
//===----------------------------------------------------------------------===//

def GPUDispatchAttentionPass
    : Pass<"rlx-gpu-dispatch-attention", "::mlir::ModuleOp"> {
  let summary = "Outline attention that the flash-attention kernel computes, "
                "for the GPU";
  let description = [{
    The seeds' kernel-dispatch policy for attention on the GPU: each
    `rlx.attention` that the runtime's fused flash-attention kernel
    (`rlxFlashAttention`, `RLX/Runtime/Common/GPURuntime.h`) computes moves into
    a private function of its own, tagged `rlx.flash_attention` with the problem
    (`mask`, `window`, `scale`, `seq_major`, and the sizes `batch`, `heads`,
    `kv_heads`, `seq_q`, `seq_k`, `head_dim`), called in its place; after
    bufferization `rlx-gpu-call-runtime-kernels` calls the runtime's
    `rlxFlashAttention` instead. The kernel applies causal and sliding-window
    masks without a mask tensor and reads grouped-query key/value heads as they
    are.

    Taken: bf16 and f16, static shapes, head dim 64 or 128 (values too), mask
    `none`, `causal` or `sliding_window` (no `attn_mask` operand), heads a
    multiple of key/value heads, batch and heads at most 65535, a positive
    scale, and only where the target's runtime has the kernel (`runtime-kernel`:
    the CUDA target on sm_90). Other attention stays (for
    `rlx-decompose-attention` or the generated lowering). With `report`, each
    attention gets a remark saying where it went and why.

    The kernel reads and writes rows through strides, so transposes
    between [batch, seq, heads, head dim] tensors and the attention move
    into the function with it: an `rlx.transpose [0, 2, 1, 3]` producing q,
    k or v (the call then takes its input), and one that is the result's
    only user (the call then returns its result). `seq_major` (four
    booleans: q, k, v, the result) records which. BERT's heads, sliced
    from one qkv projection, are then read in place, with no transpose
    kernels (see `rlx-gpu-call-runtime-kernels`).

    ```mlir
    %o = rlx.attention %q, %k, %v mask = causal : tensor<2x8x256x64xbf16>,
        tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
    // becomes
    %o = call @rlx_flash_attention(%q, %k, %v) : (...) -> tensor<2x8x256x64xbf16>
    func.func private @rlx_flash_attention(...) attributes {
        rlx.flash_attention = {batch = 2, heads = 8, kv_heads = 2,
        seq_q = 256, seq_k = 256, head_dim = 64, mask = "causal",
        window = 0, scale = 0.125 : f32,
        seq_major = array<i1: false, false, false, false>}} { ... }
    ```
  }];
  let options = [
    Option<"report", "report", "bool", "false",
           "Remark on each attention: the flash kernel (with the problem) "
           "or not (with the reason)">,
    Option<"runtimeKernel", "runtime-kernel", "bool", "true",
           "The target's runtime has the flash-attention kernel (the "
           "target description's runtimeFlashAttention); without it every "
           "attention stays">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::rlx::RLXDialect"];
}

def GPUDispatchDecodePass : Pass<"rlx-gpu-dispatch-decode", "::mlir::ModuleOp"> {
  let summary = "Outline KV-cache writes and decode attention for their GPU "
                "kernels";
  let description = [{
    The first half of LLM decoding on a GPU. Both ops read a run-time
    position or length that lives in device memory, which the linalg
    lowering would read on the host, so each moves into a private function
    of its own that bufferizes like any other:

    - `rlx.kv_cache_write` into one tagged `rlx.gpu_kv_cache_write` (with
      the sequence `axis`) whose cache argument bufferization may write:
      the call writes the caller's cache in place where the cache has no
      later reader (the decode loop's case). After bufferization
      `rlx-gpu-expand-kv-cache-write` replaces the call with a copy kernel.
    - `rlx.decode_attention` into one tagged `rlx.decode_attention` with
      the problem (`batch`, `heads`, `kv_heads`, `seq_q`, `max_seq`,
      `head_dim`, `value_dim`, `window`, `scale`), which
      `rlx-gpu-call-runtime-kernels` turns into a call of the runtime's
      `rlxDecodeAttention` (split over the cache: flash decoding).

    Errors, at the op: a decode attention the runtime's kernel does not
    take (no kernel on the target, dynamic shapes, head dims above 256),
    since the GPU front has no other lowering for it.

    ```mlir
    %o = rlx.decode_attention %q, %kc, %vc, %len {num_kv_heads = 2 : i64}
        : tensor<1x8x1x64xbf16>, tensor<1x512x2x64xbf16>,
          tensor<1x512x2x64xbf16>, tensor<i64>
    // becomes
    %o = call @rlx_decode_attention(%q, %kc, %vc, %len) : (...)
        -> tensor<1x8x1x64xbf16>
    func.func private @rlx_decode_attention(...) attributes {
        rlx.decode_attention = {batch = 1, heads = 8, kv_heads = 2,
        seq_q = 1, max_seq = 512, head_dim = 64, value_dim = 64,
        window = 0, scale = 0.125 : f32}} { ... }
    ```
  }];
  let options = [
    Option<"runtimeKernel", "runtime-kernel", "bool", "true",
           "The target's runtime has the decode-attention kernel (the "
           "target description's runtimeDecodeAttention); without it a "
           "decode attention is an error">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::rlx::RLXDialect"];
}

def GPUExpandKVCacheWritePass
    : Pass<"rlx-gpu-expand-kv-cache-write", "::mlir::ModuleOp"> {
  let summary = "Replace outlined KV-cache writes with a copy kernel";
  let description = [{
    After bufferization, with equivalent results dropped from private
    functions (`drop-equivalent-buffer-results`): replaces each call of a
    function that `rlx-gpu-dispatch-decode` tagged `rlx.gpu_kv_cache_write`,
    `(cache, update, position)`, with a `gpu.launch` of one thread per
    element of `update` that reads the position from device memory and
    stores the element at its place in `cache` (in place: the call had
    already been given the caller's cache where that is correct), and
    erases the tagged functions. A row whose position falls outside the
    cache is not written (the op calls it undefined behaviour).

    ```mlir
    call @kv_cache_write(%cache, %new, %pos)
        : (memref<1x512x2x64xbf16>, memref<1x1x2x64xbf16>, memref<i64>) -> ()
    // becomes
    gpu.launch blocks(...) in (%gx = %c1, ...) threads(...) in (%tx = %c128,
        ...) {
      %p = memref.load %pos[] : memref<i64>
      // element t < 128 of %new to %cache[0, %p, t / 64, t mod 64]
    }
    ```
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GPUDispatchMatmulPass : Pass<"rlx-gpu-dispatch-matmul", "::mlir::ModuleOp"> {
  let summary = "Outline matmuls that the runtime's library computes, for "
                "the GPU";
  let description = [{
    The seeds' kernel-dispatch policy on the GPU: a vendor library where it
    beats generated code. Each `rlx.matmul` and `rlx.fused_matmul_bias_act`
    that the runtime's library matmul (`rlxGpuMatmul`,
    `RLX/Runtime/Common/GPURuntime.h`; the vendor's BLAS underneath) computes
    moves into a private function of its own, tagged
    `rlx.library_matmul` with the problem (`batch` products of `m` x `k` and
    `k` x `n`, the transposes, the `epilogue`), called in its place; after
    bufferization `rlx-gpu-call-runtime-kernels` calls the runtime's
    `rlxGpuMatmul` instead. The bias and the ReLU or tanh-approximated
    GELU become the library's epilogue (`bias`, `relu`, `relu_bias`, `gelu`,
    `gelu_bias`); another activation (the exact GELU, SiLU, sigmoid, tanh)
    is applied to the call's result as an rlx op, hence a generated kernel.

    Taken: f32, bf16 and f16 (f32 accumulation), static shapes, a 2-D rhs
    (the lhs's leading dims are rows; no `transpose_a` then unless the lhs
    is 2-D) or operands of equal batch dims. Other matmuls keep the
    generated kernel. With `report`, each matmul gets a remark saying where
    it went and why.

    With `int8-library` (the runtime's library has int8 matmuls,
    `RLX_GPU_MATMUL_S8`), `rlx.int8_matmul` goes there too, under the same
    shape conditions, where K is a multiple of `int8-k-multiple` (the
    target description's int8MatmulKMultiple); the library multiplies
    the lhs by the transposed rhs only, so an operand in the other layout
    is first transposed (`rlx.transpose`, a generated kernel).

    With `fp8-activations` (the user's choice: it changes the numerics),
    `rlx.dequant_matmul` with `fp8_e4m3` or `fp8_e5m2` weights is computed
    in fp8 by `rlxGpuMatmulFp8`, which quantizes the activations to e4m3
    at each call (one scale per row with per-channel weight scales, one per
    tensor where the weight's scales are one splat constant), instead of
    decoding the weights to the activations' type; taken with static
    shapes where K is a multiple of `fp8-k-multiple` and N of
    `fp8-n-multiple` (the target description's fp8MatmulKMultiple and
    fp8MatmulNMultiple). It needs `fp8-library` (the runtime has
    `rlxGpuMatmulFp8`: CUDA on sm_89 or later); asked for without it, the
    pass fails.

    ```mlir
    %y = rlx.fused_matmul_bias_act %x, %w, %b activation = gelu_tanh
        : tensor<64x32xf32>, tensor<32x16xf32>, tensor<16xf32>
    // becomes
    %y = call @rlx_library_matmul(%x, %w, %b) : (...) -> tensor<64x16xf32>
    func.func private @rlx_library_matmul(...) attributes {rlx.library_matmul =
        {batch = 1, epilogue = "gelu_bias", m = 64, n = 16, k = 32,
         transpose_a = false, transpose_b = false}} { ... }
    ```
  }];
  let options = [
    Option<"report", "report", "bool", "false",
           "Remark on each matmul: the library (with the epilogue) or a "
           "generated kernel (with the reason)">,
    Option<"int8Library", "int8-library", "bool", "false",
           "The runtime's library takes int8 matmuls (rlx.int8_matmul)">,
    Option<"fp8Activations", "fp8-activations", "bool", "false",
           "Compute fp8-weight dequant_matmuls in fp8, quantizing the "
           "activations to e4m3 at each call">,
    Option<"fp8Library", "fp8-library", "bool", "false",
           "The runtime has fp8 matmuls (rlxGpuMatmulFp8)">,
    Option<"int8KMultiple", "int8-k-multiple", "int64_t", "4",
           "The library's int8 matmuls need K a multiple of this">,
    Option<"fp8KMultiple", "fp8-k-multiple", "int64_t", "16",
           "rlxGpuMatmulFp8 needs K a multiple of this">,
    Option<"fp8NMultiple", "fp8-n-multiple", "int64_t", "8",
           "rlxGpuMatmulFp8 needs N a multiple of this">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::rlx::RLXDialect"];
}

def DecomposeAttentionPass : Pass<"rlx-decompose-attention"> {
  let summary = "Attention (and its backward) as batched matmuls around a softmax";
  let description = [{
    For targets without a fused attention kernel whose matmuls run in a
    library (the seeds' kernel-dispatch policy): each `rlx.attention` with
    static shapes and no mask or bias tensor becomes `q * scale`, a batched
    `rlx.matmul` with k transposed, `rlx.softmax` over the keys and a second
    `rlx.matmul` with v. For f16/bf16 operands the scores and the softmax
    are f32 (q and k cast up), as the fused lowering keeps them, and the
    probabilities are cast back to the operands' type for the product with
    v (f32 accumulation), as flash attention does.

    Grouped-query attention (k and v with fewer heads) computes the G query
    heads of a k/v head as one product of G * S rows: q is reshaped to
    [B, Hkv, G * S, D] and the result back. A causal or sliding-window mask
    is a `linalg.generic` on the scores that selects -inf from the row and
    key indices (no mask tensor); it is decomposed only where there are at
    least as many keys as queries, so that every row sees a key. Attention
    with a mask or bias tensor is left as it is, and so is attention in a
    function outlined for a runtime kernel (`rlx-gpu-dispatch-attention`).

    `rlx.attention_backward` under the same conditions becomes the
    probabilities recomputed as above, `D = rowsum(dO * o)` and five batched
    `rlx.matmul`s: `dP = dO v^T`, `dQ = dS k`, `dK = dS^T q` and
    `dV = P^T dO` with `dS = scale * P * (dP - D)` (P, D and dS in f32; the
    products take P and dS in the operands' type, and dP comes back in it).

    ```mlir
    %a = rlx.attention %q, %k, %v mask = none : T, T, T
    // becomes, for f32 operands (scale = 1/sqrt(D)):
    %s = rlx.constant dense<0.125> : tensor<f32>
    %qs = rlx.mul %q, %s : T, tensor<f32>
    %p0 = rlx.matmul %qs, %k {transpose_b = true} : T, T
    %p = rlx.softmax %p0 axis = -1 : tensor<BxHxSxSxf32>
    %a = rlx.matmul %p, %v : tensor<BxHxSxSxf32>, T
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::rlx::RLXDialect",
                           "::mlir::tensor::TensorDialect"];
}

def CopyRepeatedResultsPass
    : Pass<"rlx-copy-repeated-results", "::mlir::func::FuncOp"> {
  let summary = "Give each result of a function a buffer of its own";
  let description = [{
    A function that returns one buffer more than once (two identical
    results that CSE merged, or one value returned twice) returns, for
    each repeat after the first, a copy of it in a new allocation of the
    same type. `buffer-results-to-out-params` with `hoist-static-allocs`
    turns each returned allocation into its caller's out-parameter: it
    needs one allocation per result (upstream crashes on a repeated one),
    and the caller gets results it may write independently.

    Example:

    ```mlir
    return %a, %a : memref<4xf32>, memref<4xf32>
    ```

    becomes

    ```mlir
    %b = memref.alloc() : memref<4xf32>
    memref.copy %a, %b : memref<4xf32> to memref<4xf32>
    return %a, %b : memref<4xf32>, memref<4xf32>
    ```

    Dynamic dims of the copy are those of the returned buffer.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GPUOutlineScatterAddPass
    : Pass<"rlx-gpu-outline-scatter-add", "::mlir::ModuleOp"> {
  let summary = "Outline each rlx.scatter_add for a generated atomic kernel";
  let description = [{
    The first half of `rlx.scatter_add` on a GPU: each op moves into a
    private function tagged `rlx.gpu_scatter_add` (with its `axis`) whose
    arguments bufferization may not write, so that its call bufferizes to
    one call with the result as an out-parameter;
    `rlx-gpu-expand-scatter-add` then replaces the call with the kernels.
    Its body (the CPU's loop over the indices) only stands for the op.
    Complex values, which GPU atomics cannot add, are an error at the op.

    ```mlir
    %r = rlx.scatter_add %t, %i, %u axis = 0
        : tensor<100x16xf32>, tensor<8xi64>, tensor<8x16xf32>
    // becomes
    %r = call @scatter_add(%t, %i, %u) : (...) -> tensor<100x16xf32>
    func.func private @scatter_add(%t: tensor<100x16xf32>
        {bufferization.writable = false}, ...) -> tensor<100x16xf32>
        attributes {rlx.gpu_scatter_add = {axis = 0 : i64}}
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

def GPUExpandScatterAddPass
    : Pass<"rlx-gpu-expand-scatter-add", "::mlir::ModuleOp"> {
  let summary = "Replace outlined scatter-adds with a copy and an atomic "
                "kernel";
  let description = [{
    After bufferization (results as out-parameters), replaces each call of
    a function that `rlx-gpu-outline-scatter-add` outlined, `(base, indices,
    updates, out)`, with a copy of `base` into `out` (a `linalg.generic`,
    which `rlx-gpu-map-linalg` maps) and a `gpu.launch` with one thread per
    element of `updates` that adds it into `out` at its index along the
    axis with `memref.atomic_rmw` (float `addf`, integer `addi`), and
    erases the tagged functions. An index outside `[0, size of the axis)`
    adds nothing (the CPU's loop reads out of bounds there). Repeated
    indices add in an unspecified order: float sums may differ from the
    CPU's in the last bits.

    ```mlir
    call @scatter_add(%t, %i, %u, %out) : (memref<100x16xf32>,
        memref<8xi64>, memref<8x16xf32>, memref<100x16xf32>) -> ()
    // becomes
    linalg.generic ... ins(%t) outs(%out)          // out = base
    gpu.launch blocks(...) in (%gx = %c1, ...) threads(...) in (%tx = %c128,
        ...) {
      // thread t < 128: j = t / 16, c = t % 16
      %row = memref.load %i[%j] ...
      memref.atomic_rmw addf %v, %out[%row, %c] ...
    }
    ```
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block of the atomic kernel">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def GPUCallRuntimeKernelsPass
    : Pass<"rlx-gpu-call-runtime-kernels", "::mlir::ModuleOp"> {
  let summary = "Call the GPU runtime's kernels for the ops outlined for "
                "them";
  let description = [{
    After bufferization (results as out-parameters), replaces each call of
    a function that `rlx-gpu-dispatch-matmul` or `rlx-gpu-dispatch-attention`
    outlined by a call of RLX's GPU runtime ABI
    (`RLX/Runtime/Common/GPURuntime.h`) on the buffers' addresses, and erases
    the tagged functions:
    - `rlx.library_matmul`: `rlxGpuMatmul` with the element type, the
      epilogue, the transposes and the problem's sizes;
    - `rlx.flash_attention`: `rlxFlashAttention` with the element type, the
      mask, the sizes, the window and the scale, and each buffer's address
      with its batch, head and row strides (dims 0, 1, 2, or 0, 2, 1 for an
      operand `seq_major` marks as [batch, seq, heads, head dim]).
    The runtime runs them on the entry point's stream. Where the call's
    result temporary is only copied to an out-parameter (directly or
    through a `memref.collapse_shape`), the call writes the out-parameter
    (expanded back) instead. Function boundaries bufferize to identity
    layouts, so a strided view reaches an outlined attention as a copy into
    a contiguous buffer just before the call; where that buffer is only the
    call's operand, nothing between the copy and the call writes memory
    (but allocations and copies into them) and the flash kernel reads the
    view in place (static strides, contiguous rows, offset and strides
    whole 16-byte chunks), the kernel reads the view and the copy goes.
    The library matmul's operands stay contiguous. A constant operand (a host
    global, or a view of one) is passed as the runtime's device copy of
    it: `rlxGpuConstant` copies it at the first call and keeps it.

    ```mlir
    call @rlx_library_matmul(%x, %w, %b, %y)
        : (memref<64x32xf32>, memref<32x16xf32>, memref<16xf32>,
           memref<64x16xf32>) -> ()
    // becomes (%px ... the buffers' addresses as !llvm.ptr)
    call @rlxGpuMatmul(%f32, %gelu_bias, %false, %false, %c1, %c64,
                            %c16, %c32, %px, %pw, %pb, %py) : (...) -> ()
    call @rlx_flash_attention(%q, %k, %v, %o) : (memref<2x8x256x64xbf16>,
        memref<2x2x256x64xbf16>, memref<2x2x256x64xbf16>,
        memref<2x8x256x64xbf16>) -> ()
    // becomes
    call @rlxFlashAttention(%bf16, %causal, %c2, %c8, %c2, %c256, %c256,
                            %c64, %c0, %scale, %pq, %c131072, %c16384,
                            %c64, %pk, %c32768, %c16384, %c64, %pv, ...)
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GPUHostGluePass : Pass<"rlx-gpu-host-glue", "::mlir::ModuleOp"> {
  let summary = "Compile the host functions of a GPU program unoptimized";
  let description = [{
    Once the kernels are outlined, a GPU program's host functions are
    glue: allocations, launches, runtime calls, with no loop over data.
    LLVM's optimizer and instruction selection take time superlinear in
    one such function (a 24-layer gradient's host function is thousands
    of calls in one block), for code whose speed barely matters. This
    marks every host `func.func` of more than 500 ops `noinline` and
    `optnone` (through `passthrough`, which func-to-llvm carries to the
    `llvm.func`), as `rlx-cpu-outline-kernels` marks the CPU's glue;
    smaller ones, quick to optimize, stay optimized.

    ```mlir
    func.func @layers(...) attributes {passthrough = ["noinline", "optnone"]}
    ```
  }];
}

def GPUMergeKernelModulesPass
    : Pass<"rlx-gpu-merge-kernel-modules", "::mlir::ModuleOp"> {
  let summary = "Keep one of each set of equal GPU kernel modules";
  let description = [{
    After kernel outlining each kernel is a `gpu.module` of its own; a
    model written as N equal layers has N equal modules of each layer's
    kernels (the weights are arguments). Every `gpu.module` whose
    attributes and body equal an earlier one's (its name aside) is erased
    and the launches name the earlier one, so that the device code
    generator and assembler (ptxas, the AMDGPU linker, the SPIR-V
    serializer) run once per distinct kernel.

    ```mlir
    gpu.module @f_kernel { gpu.func @f_kernel(...) kernel { ... } }
    gpu.module @f_kernel_0 { gpu.func @f_kernel(...) kernel { ... } }
    // gpu.launch_func @f_kernel_0::@f_kernel becomes
    // gpu.launch_func @f_kernel::@f_kernel; @f_kernel_0 is gone
    ```
  }];
}

def ResultsInPlacePass
    : Pass<"rlx-results-in-place", "::mlir::ModuleOp"> {
  let summary = "Return results in the arguments that hold them in place";
  let description = [{
    After bufferization: for each argument of a function marked
    `rlx.in_place_result = J`, result `J` is the argument updated in place
    (a KV cache written at a run-time position, a parameter updated by an
    optimizer step). The result is removed from the function; where the
    program did not compute it in the argument's buffer (bufferization
    had to copy), it is copied there before the return. The runtime hands
    the argument back as result `J` (JAX's donated arguments and
    input-output aliases; IREE's tied operands), so a decode step costs
    the rows it writes rather than a copy of the whole cache. The marked
    arguments stay writable (the CPU's `markCPUEntryPoint`; the GPU front's
    arguments all are); the pass removes the attribute once it has done its
    work. The CPU pipeline and the GPU front run it after bufferization.

    Errors: an index out of range or taken twice, an argument whose type
    is not the result's, a function that is called in the module (only
    entry points have results the runtime hands back), a dynamic shape
    where a copy is needed.

    ```mlir
    // Before (bufferized):
    func.func @step(%cache: memref<1x64x2x8xf32> {rlx.in_place_result = 0 : i64},
                    %new: memref<1x1x2x8xf32>, %pos: memref<i64>)
        -> memref<1x64x2x8xf32> {
      ... memref.copy %new, %subview_of_cache ...
      return %cache : memref<1x64x2x8xf32>
    }
    // After:
    func.func @step(%cache: memref<1x64x2x8xf32>, %new: memref<1x1x2x8xf32>,
                    %pos: memref<i64>) {
      ... memref.copy %new, %subview_of_cache ...
      return
    }
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def DeallocAfterLastUsePass
    : Pass<"rlx-dealloc-after-last-use", "::mlir::func::FuncOp"> {
  let summary = "Free each buffer right after its last use";
  let description = [{
    Upstream's ownership-based buffer deallocation frees a buffer at the
    end of the block that owns it. This pass moves each `memref.dealloc` or
    `gpu.dealloc` (synchronous) of an allocation in the same block to just
    after the last op of that block that uses the buffer or any value
    computed from it (views, the pointers a runtime library call takes,
    kernels that capture it), so that a program of many kernels (a
    gradient) holds only its live buffers. The GPU front runs it after
    `rlx-gpu-map-linalg`, the CPU pipeline after outlining its kernels. A buffer from which a value leaves the block (through a
    terminator or a use in another block) keeps its dealloc where it is.

    ```mlir
    %a = memref.alloc() : memref<8xf32>
    linalg.generic ... outs(%a : memref<8xf32>)
    linalg.generic ... ins(%a : memref<8xf32>) outs(%y : memref<8xf32>)
    %b = memref.alloc() : memref<8xf32>
    ...
    memref.dealloc %a : memref<8xf32>
    ```

    frees `%a` after the second generic, before `%b` is allocated.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GPUInlineSplatConstantsPass
    : Pass<"rlx-gpu-inline-splat-constants", "::mlir::func::FuncOp"> {
  let summary = "Read splat constant buffers as constants in the kernels' "
                "bodies";
  let description = [{
    Bufferization turns a constant tensor into a `memref.get_global` of a
    host global, which a GPU kernel cannot read. Where the constant is a
    splat (a scale, an epsilon, a 0-d constant), each `linalg.generic` that
    reads it gets the value as an `arith.constant` in its body instead and
    drops the operand; globals no one reads any more go. Other constant
    buffers stay (`rlx-gpu-sink-constants` ships them in the kernels'
    module).

    Example:

    ```mlir
    %s = memref.get_global @__constant_xf32 : memref<f32>
    linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, ...]}
        ins(%s, %x : memref<f32>, memref<8xf32>) outs(%y : memref<8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    }
    ```

    becomes a generic over `%x` alone whose body multiplies by
    `arith.constant 0.125 : f32` (defined in the function; kernel outlining
    sinks it into the kernel).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def GPUMapLinalgPass : Pass<"rlx-gpu-map-linalg", "::mlir::func::FuncOp"> {
  let summary = "Run every linalg op on buffers as one gpu.launch";
  let description = [{
    After bufferization, replaces each `linalg` op of a host function by a
    `gpu.launch` that computes it (named ops are generalized first,
    `memref.copy` becomes a copy kernel), and host allocations by
    `gpu.alloc` / `gpu.dealloc`. A target may compute some ops its own way
    first (the CUDA target's tensor-core matmuls); their `gpu.launch`es
    stay. The kernels' shapes come from the target description, given as
    options: `subgroup-size` lanes per subgroup (warp, wavefront),
    `vector-bytes` per access, at most `max-threads-per-block` threads and
    `shared-memory-bytes` of workgroup memory per block. Three schedules:

    - *row reduction*: a generic whose reduction loops all follow its
      parallel loops, with one result accumulated by one associative
      combiner (`acc = combine(acc, f(inputs))`, e.g. the max and sums of
      softmax and the norms), runs one block per row: each thread folds a
      strided part of the row, then the block combines the partial values
      with shuffles across each subgroup (`gpu.shuffle xor` of width
      `subgroup-size`) and one word of workgroup memory per subgroup. A
      row reduction of several results (a norm backward's row sums) is
      first split into one per result, and one of fewer than 256 rows of at
      least 65536 values each (a loss) in two: its outer reduction loops
      become rows of a first reduction into a buffer of partial values,
      which a second reduces;
    - *column reduction*: a generic whose innermost loop is parallel, with
      fewer than 32768 points that each reduce many values, every result
      accumulated by a combiner (bias and norm-parameter gradients), runs
      in blocks of `subgroup-size` consecutive points x the block's other
      threads as slices of the reduction loops, each block folding one
      chunk of them; the slices combine through workgroup memory, and
      where there are several chunks a second kernel folds their partial
      values (a device buffer per result) into the outputs;
    - *pointwise*: anything else runs one thread per point of its parallel
      loops, looping over its reduction loops if it has any. Where every
      operand that reads the innermost loop has it as its contiguous last
      dim, each thread handles `vector-bytes` of it with vector loads and
      stores.

    With `fuse-rows`, consecutive ops over the same leading (row) loops,
    at least one of them a row reduction, each reading what another
    writes only within its own row (softmax's max, sum and normalization,
    the norms' statistics and output, the initial values of the
    reductions), run as one kernel of one block per row (with `warp-rows`,
    one subgroup per row and several rows per block where every op's row
    fits in one subgroup's registers), one op after the other. Where an
    op's row divides into at most 8 steps of the row's threads x
    `vector-bytes`, its
    points are computed in straight-line code and the group keeps each
    thread's values in registers: a later op reads them from there (the
    row is loaded from memory once), and a store that the same thread
    overwrites at the same point before any read from memory is dropped
    (softmax's exp(x - max), residual + norm's x + r in the output).
    Longer rows loop over memory and are re-read from the caches. Every
    thread holds each row statistic (the initial value and the total of a
    reduction, which the shuffles leave in every lane); thread 0 stores it
    unless only the group uses its buffer, which then goes. A barrier
    separates two ops only where one writes a buffer that the other
    touches through memory.

    Only static shapes are supported; a dynamic one or host code that
    reads or writes a buffer is an error naming the op. A constant buffer
    (`memref.get_global`) is captured like any other; `rlx-gpu-sink-
    constants` then gives each kernel its own handle. Later passes outline
    the launches (`gpu-kernel-outlining`) and the target's pipeline lowers
    them to its kernel IR. A `block-size` that is not a multiple of the
    subgroup, exceeds the target's threads per block or has more subgroups
    than a subgroup has lanes, and a row group whose reductions need more
    workgroup memory than the target has, are errors.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", "256",
           "Threads per block of each kernel">,
    Option<"fuseRows", "fuse-rows", "bool", "true",
           "Run each group of consecutive ops over the same rows with a row "
           "reduction among them as one kernel">,
    Option<"subgroupRows", "warp-rows", "bool", "true",
           "Give a row group whose rows fit in one subgroup's registers one "
           "subgroup per row, several rows per block">,
    Option<"subgroupSize", "subgroup-size", "int64_t", "32",
           "Lanes of the target's subgroup (warp, wavefront): the width of "
           "the reductions' shuffles">,
    Option<"maxThreadsPerBlock", "max-threads-per-block", "int64_t", "1024",
           "The most threads one block may have on the target">,
    Option<"sharedMemoryBytes", "shared-memory-bytes", "int64_t", "49152",
           "The workgroup memory one block may allocate on the target">,
    Option<"vectorBytes", "vector-bytes", "int64_t", "16",
           "Bytes one thread loads or stores at once along a contiguous dim">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::ub::UBDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUTileMatmulPass : Pass<"rlx-gpu-tile-matmul", "::mlir::func::FuncOp"> {
  let summary = "Run matmuls on buffers as kernels tiled through workgroup "
                "memory";
  let description = [{
    A schedule of the GPU front that a target's pipeline may run just
    before `rlx-gpu-map-linalg` (the Vulkan pipeline does; the CUDA one
    calls its library instead). Each matmul on static buffers (a
    `linalg.generic`, or a named contraction generalized on the way, with
    one reduction loop `k` last, parallel loops `[batch..., m, n]` that
    the output reads in order, A reading `m` and `k`, B reading `k` and
    `n`, each a projected permutation up to broadcast (constant) dims, and
    the body `out + ext(a) * ext(b)` in f32 or f64 with the `arith.extf`s
    optional) becomes a `gpu.launch` of one workgroup per `tile-m` x
    `tile-n` block of the output (grid x: column blocks, y: row blocks, z:
    batch). Each of its `(tile-m / thread-m) * (tile-n / thread-n)`
    threads accumulates `thread-m` x `thread-n` outputs in registers, at
    rows and columns strided by the threads' grid (so that a subgroup's
    reads of the tiles are broadcasts or consecutive words). The `k` loop
    steps by `tile-k`: the workgroup stages the A and B blocks into
    workgroup memory in the accumulator type (converted on the way: bf16
    and f16 operands accumulate in f32), consecutive threads reading
    consecutive elements of each operand's contiguous dim, between two
    `gpu.barrier`s, and each thread then reads its `thread-m` + `thread-n`
    values per step of `k` from there. Each thread loads its share of the
    next step's blocks into registers before the current step's products
    (carried by the `k` loop), so that the loads' latency hides behind
    them. Loads beyond an edge that a tile
    does not divide read 0 and stores beyond it are skipped; the guards
    are emitted only for the dims that need them. At the end each thread
    adds its sums into the output (linalg's `out +=`).

    Other generics are left to `rlx-gpu-map-linalg`, and so is a matmul
    whose grid exceeds the target's `max-grid-x`, `max-grid-y` or
    `max-grid-z` blocks (the target description's maxGridSize; 65535 by
    default, the least a Vulkan device guarantees). Tile sizes that do not
    divide (`thread-m` into `tile-m`, the threads into the staged blocks),
    exceed `max-threads-per-block`
    or, for an op's accumulator type, `shared-memory-bytes` are errors.

    Where `cooperative-matrix` says the target offers cooperative matrices
    (16 x 16 x 16 fragments at subgroup scope, f32 accumulators) for the
    operands' type, the matmul runs on them instead: `f16` takes f16 x f16
    matmuls; `bf16` bf16 x bf16 ones on bf16 fragments, staged as pairs in
    32-bit words (i32) and loaded as f16-typed fragments, which the
    target's kernel lowering must retype to bf16 (`gpu.mma_matrix` has no
    bf16; the Vulkan pipeline's `rlx-vulkan-bf16-fragments` does), each
    thread loading pairs (as one vector where aligned, else
    element by element), unless the threads outnumber a block's pairs
    (then `bf16-as-f16`, where offered, takes it); `bf16-as-f16` bf16 x bf16 ones with the operands rounded to
    f16 in the staging (for devices without bf16 fragments: exact for
    bf16 values of magnitude 6.1e-5 to 65504, infinite beyond, less
    precise below). With both bf16 entries, `bf16` is used. Each workgroup of `coop-subgroups-m` x `coop-subgroups-n`
    subgroups of `subgroup-size` lanes computes a `coop-tile-m` x
    `coop-tile-n` block (halved along a dim while the half still covers
    a small matmul's extent); the k loop and its staging are the same
    (blocks in the staged 16-bit type, stored along each operand's
    contiguous dim with rows padded by 8 elements, which keeps the fragments 16-byte aligned; each
    thread loads 4, else 2, consecutive elements at once as a
    `vector.load` where the operand is row-major along the dim threads
    walk and the block and the operand's extent along it are multiples),
    and each
    subgroup (its `gpu.subgroup_id`) computes its part of the block as
    16 x 16 fragments: `gpu.subgroup_mma_load_matrix` from workgroup
    memory (row- or column-major as stored), `gpu.subgroup_mma_compute`
    into f32 sums. Where the tiles divide C and it is a row-major buffer,
    the sums start as C's fragments and are stored back whole
    (`gpu.subgroup_mma_load_matrix` / `_store_matrix` on C); otherwise
    each fragment goes through a per-subgroup 16 x 16 f32 scratch in
    workgroup memory and is added into C element by element under the
    edge guards. A `linalg.fill` of zero into C just before the matmul
    (the accumulator's init) is erased: the sums then start at zero and
    are stored over C instead of added to it. Then an elementwise
    generic right after the matmul whose C is an allocation it alone
    reads (in order; its other inputs at dims or broadcast, its output
    another row-major buffer, its body arith ops: rounding to the result
    type, a bias, a scale) is computed as the sums are stored, through
    the per-subgroup scratch, and C, the generic and C's deallocation
    go. A body with transcendental math (GELU's tanh) stays its own
    kernel: between the fragments' barriers it was slower on the H100.
    A 16-bit matmul left to the tiled kernel (a type not
    offered, mixed operand types, a grid too large) gets a remark saying
    why. Unknown entries, and cooperative tiles that do not divide into
    fragments and subgroups or exceed the target, are errors.

    ```mlir
    linalg.matmul ins(%a, %b : memref<7x5xf32>, memref<5x13xf32>)
                  outs(%c : memref<7x13xf32>)
    // becomes
    gpu.launch blocks(%bx, %by, %bz) in (%c1, %c1, %c1)
               threads(%tx, %ty, %tz) in (%c256, %c1, %c1)
               workgroup(%as : memref<1056xf32, #gpu.address_space<workgroup>>,
                         %bs : memref<1024xf32, #gpu.address_space<workgroup>>) {
      ... scf.if (in range) memref.load %a ... (the first step's share)
      %sums:72 = scf.for %k0 = %c0 to %c5 step %c8 iter_args(...) {
        ... memref.store ..., %as[...] (this step's share)
        gpu.barrier
        ... scf.if (next step in range) memref.load %a ... (its share)
        ... memref.load %as[...], memref.load %bs[...], arith.mulf, arith.addf
        gpu.barrier
        scf.yield ...
      }
      ... scf.if (in range) C[...] = C[...] + %sums#i
    }
    ```
  }];
  let options = [
    Option<"tileM", "tile-m", "int64_t", "128",
           "Output rows per workgroup">,
    Option<"tileN", "tile-n", "int64_t", "128",
           "Output columns per workgroup">,
    Option<"tileK", "tile-k", "int64_t", "8",
           "Steps of the reduction staged in workgroup memory at once">,
    Option<"threadM", "thread-m", "int64_t", "8",
           "Output rows per thread">,
    Option<"threadN", "thread-n", "int64_t", "8",
           "Output columns per thread">,
    Option<"maxThreadsPerBlock", "max-threads-per-block", "int64_t", "1024",
           "The most threads one block may have on the target">,
    Option<"sharedMemoryBytes", "shared-memory-bytes", "int64_t", "49152",
           "The workgroup memory one block may allocate on the target">,
    Option<"maxGridX", "max-grid-x", "int64_t", "65535",
           "The most blocks a grid may have along x on the target">,
    Option<"maxGridY", "max-grid-y", "int64_t", "65535",
           "The most blocks a grid may have along y on the target">,
    Option<"maxGridZ", "max-grid-z", "int64_t", "65535",
           "The most blocks a grid may have along z on the target">,
    ListOption<"cooperativeMatrix", "cooperative-matrix", "std::string",
               "Operand types whose matmuls run on the target's 16x16x16 "
               "cooperative matrices with f32 sums: f16, bf16 (as pairs "
               "in words on f16-typed fragments, which the target retypes "
               "to bf16), bf16-as-f16 (bf16 rounded to f16); none by "
               "default">,
    Option<"coopTileM", "coop-tile-m", "int64_t", "128",
           "Output rows per workgroup on cooperative matrices">,
    Option<"coopTileN", "coop-tile-n", "int64_t", "128",
           "Output columns per workgroup on cooperative matrices">,
    Option<"coopTileK", "coop-tile-k", "int64_t", "32",
           "Reduction steps staged at once on cooperative matrices">,
    Option<"coopSubgroupsM", "coop-subgroups-m", "int64_t", "2",
           "Subgroups along a cooperative block's rows">,
    Option<"coopSubgroupsN", "coop-subgroups-n", "int64_t", "4",
           "Subgroups along a cooperative block's columns">,
    Option<"subgroupSize", "subgroup-size", "int64_t", "32",
           "Lanes of the target's subgroup">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUSinkConstantsPass
    : Pass<"rlx-gpu-sink-constants", "::mlir::func::FuncOp"> {
  let summary = "Read constant buffers in kernels from the kernels' module";
  let description = [{
    Bufferization turns a constant tensor into a `memref.get_global` of a
    host global, which a GPU kernel cannot read (splat ones are body
    constants already: `rlx-gpu-inline-splat-constants`). After
    `rlx-gpu-map-linalg`, each `gpu.launch` that reads a constant global
    (or a view of one) gets its own `memref.get_global` (and the views)
    in its body, with upstream's launch sinking; `gpu-kernel-outlining`
    then copies the global into the kernel's `gpu.module`, and the target's
    lowering makes it a device global initialized in the binary, loaded
    with the kernels: no copy at run time. Host handles no one reads any
    more go. A runtime kernel's constant operand (a library matmul's
    constant weight) is the runtime's device copy of it already
    (`rlx-gpu-call-runtime-kernels` takes its host address for
    `rlxGpuConstant`); any other host code that reads a constant, and a
    kernel that reads a global that is not constant, are errors naming
    the global.

    Example:

    ```mlir
    %c = memref.get_global @__constant_8xf32 : memref<8xf32>
    gpu.launch blocks(...) threads(...) {
      %v = memref.load %c[%i] : memref<8xf32>
      ...
    }
    // becomes
    gpu.launch blocks(...) threads(...) {
      %c = memref.get_global @__constant_8xf32 : memref<8xf32>
      %v = memref.load %c[%i] : memref<8xf32>
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GPUFastMathPass : Pass<"rlx-gpu-fast-math"> {
  let summary = "Cheaper f32 exp and divisions in GPU kernels";
  let description = [{
    The kernels of the memory-bound ops are short of issue slots, not of
    bandwidth, once their loads are 16 bytes wide and a row is read once:
    bf16 softmax moves 4 bytes per element, so at 3 TB/s an H100 has about
    40 instructions per element, and an accurate exp and an IEEE division
    take about 10 each. This pass, run on the kernels before the target
    lowers them, makes two rewrites:

    - f32 `math.exp` gets `fastmath<afn>`, which a target's math lowering
      may implement approximately (on CUDA, `__nv_fast_expf`: `ex2.approx`
      of `x * log2(e)`, as CUDA's `__expf` and Triton's `exp`, relative
      error about 2^-21 plus the rounding of `x * log2(e)`, `|x| * 2^-24`);
    - f32 `arith.divf`s that share their divisor (softmax's row sum, used
      once per element a thread holds) become multiplications by one
      reciprocal computed after the divisor's definition: two roundings
      instead of one, and a divisor below 2^-126 gives an infinite
      reciprocal where the quotient might have been finite.

    ```mlir
    %e = math.exp %x : f32
    %a = arith.divf %e, %s : f32
    %b = arith.divf %f, %s : f32
    // becomes
    %r = arith.divf %one, %s : f32
    %e = math.exp %x fastmath<afn> : f32
    %a = arith.mulf %e, %r : f32
    %b = arith.mulf %f, %r : f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def GPUExpandMathPass
    : Pass<"rlx-gpu-expand-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Expand the math ops that a target's kernel language lacks";
  let description = [{
    Run on the kernels by the pipelines of targets whose kernel language has
    no `erf` or `erfc` (MSL's standard library, SPIR-V's GLSL.std.450: the
    Metal and Vulkan pipelines): `math.erf` and `math.erfc` on f32 become
    upstream's polynomial approximations, arith and math ops that every
    target has. What remains unexpanded (e.g. f16 `erf`) is left to the
    target, whose lowering or emitter reports it.

    ```mlir
    %y = math.erf %x : f32
    // becomes a rational polynomial in %x (arith.mulf, arith.addf,
    // arith.divf, arith.select)
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // RLX_CONVERSION_PASSES_TD
