//===- Passes.td - rlx (MIR) transformation passes ---------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_TRANSFORMS_PASSES_TD
#define RLX_DIALECT_MIR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def UnfusePass : Pass<"rlx-unfuse"> {
  let summary = "Rewrite every fused rlx op back into its primitive chain";
  let description = [{
    Replaces `rlx.fused_matmul_bias_act`, `rlx.fused_residual_layer_norm`,
    `rlx.fused_residual_rms_norm`, `rlx.fused_swiglu`,
    `rlx.fused_attention_block` and `rlx.fused_transformer_layer` by the
    chains of primitive rlx ops that their descriptions define, and
    `rlx.lora_matmul` by its three matmuls, scale and add. Autodiff runs on
    the primitives, and targets without a fused kernel lower them.
  }];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def FuseMatmulBiasActPass : Pass<"rlx-fuse-matmul-bias-act"> {
  let summary = "Fuse rlx.matmul → rlx.add(bias) → activation";
  let description = [{
    Replaces `act(rlx.matmul(x, w) + bias)` by one
    `rlx.fused_matmul_bias_act`, where `act` is `rlx.relu`, `rlx.gelu`
    (either approximation), `rlx.silu`, `rlx.sigmoid` or `rlx.tanh`. A
    matmul followed by only the bias add fuses with `activation = none`.
    (A matmul followed directly by an activation is left alone: as
    `silu(x Wg)` it belongs to the SwiGLU pattern.)

    ```mlir
    %m = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
    %a = rlx.add %m, %b : tensor<4x16xf32>, tensor<16xf32>
    %y = rlx.gelu %a : tensor<4x16xf32>
    // becomes
    %y = rlx.fused_matmul_bias_act %x, %w, %b activation = gelu
        : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
    ```

    The chain fuses only when the fused op computes exactly what it did:
    float element types, no `transpose_a`, a bias 1-D of the (static)
    output features (either operand of the add), and no other reader of
    the matmul's result, nor of the add's result when an activation
    follows (such an add fuses alone, with `activation = none`).
  }];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def FuseResidualNormPass : Pass<"rlx-fuse-residual-norm"> {
  let summary = "Fuse rlx.add → rlx.layer_norm / rlx.rms_norm";
  let description = [{
    Replaces `rlx.layer_norm(x + r)` by `rlx.fused_residual_layer_norm`
    and `rlx.rms_norm(x + r)` by `rlx.fused_residual_rms_norm`, keeping the
    epsilon. The sum is the fused op's second result and replaces every
    other use of the add, so the residual stream may be read on.

    ```mlir
    %s = rlx.add %x, %r : tensor<2x8xf32>
    %y = rlx.layer_norm %s, %g, %b : tensor<2x8xf32>, tensor<8xf32>
    // becomes
    %y, %s = rlx.fused_residual_layer_norm %x, %r, %g, %b
        : tensor<2x8xf32>, tensor<8xf32>
    ```

    The add fuses only without broadcasting (both operands of the sum's
    type), and only where the fused op can be placed before every reader
    of the sum.
  }];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def FuseSwigluPass : Pass<"rlx-fuse-swiglu"> {
  let summary = "Fuse the SwiGLU gate silu(x Wg) * (x Wu)";
  let description = [{
    Replaces `rlx.mul(rlx.silu(rlx.matmul(x, wg)), rlx.matmul(x, wu))`
    (either operand order of the mul) by `rlx.fused_swiglu x, wg, wu`. The
    down projection that usually follows is not part of the fused op.

    ```mlir
    %g = rlx.matmul %x, %wg : tensor<4x8xf32>, tensor<8x16xf32>
    %u = rlx.matmul %x, %wu : tensor<4x8xf32>, tensor<8x16xf32>
    %s = rlx.silu %g : tensor<4x16xf32>
    %h = rlx.mul %s, %u : tensor<4x16xf32>
    // becomes
    %h = rlx.fused_swiglu %x, %wg, %wu
        : tensor<4x8xf32>, tensor<8x16xf32>
    ```

    Both matmuls must read the same `x`, take 2-D weights of one type and
    transpose nothing; the matmuls and the silu must have no other reader.

    The same gate written as one matmul of the two weights side by side
    (as `rlx-fuse-shared-input-matmul` or a merged gate_up projection
    writes it) fuses too: `rlx.mul(rlx.silu(rlx.narrow(m, 0, F)),
    rlx.narrow(m, F, F))` with `m = rlx.matmul(x, w)`, `w` [E, 2F], becomes
    `rlx.fused_swiglu x, w[:, :F], w[:, F:]`, the two halves being the
    operands of a `rlx.concat` that built `w`, or `rlx.narrow`s of `w`.
    Each narrow and the matmul must have no other reader.
  }];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def FuseAttentionBlockPass : Pass<"rlx-fuse-attention-block"> {
  let summary = "Fuse a whole attention block into rlx.fused_attention_block";
  let description = [{
    Replaces the chain that `rlx-unfuse` makes of
    `rlx.fused_attention_block`: the QKV projection `x @ w_qkv (+ bias)`,
    the three column blocks narrowed, reshaped to heads and transposed to
    [B, heads, S, D], `rlx.rope` on q and k (optional, one style and one
    pair of tables), `rlx.attention` (any mask kind, window, scale and
    mask operand), the transpose and reshape back to [B, S, H D] and the
    output projection `@ w_out (+ bias)`.

    ```mlir
    %qkv = rlx.matmul %x, %wqkv : tensor<1x4x8xf32>, tensor<8x24xf32>
    %qn = rlx.narrow %qkv axis = 2 start = 0 length = 8 : tensor<1x4x24xf32>
    %qr = rlx.reshape %qn : tensor<1x4x8xf32> -> tensor<1x4x2x4xf32>
    %q = rlx.transpose %qr [0, 2, 1, 3] : tensor<1x4x2x4xf32>
    // ... %k and %v alike from columns 8 and 16 ...
    %a = rlx.attention %q, %k, %v mask = causal : tensor<1x2x4x4xf32>,
        tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
    %t = rlx.transpose %a [0, 2, 1, 3] : tensor<1x2x4x4xf32>
    %m = rlx.reshape %t : tensor<1x4x2x4xf32> -> tensor<1x4x8xf32>
    %y = rlx.matmul %m, %wout : tensor<1x4x8xf32>, tensor<8x8xf32>
    // becomes
    %y = rlx.fused_attention_block %x, %wqkv, %wout heads = 2 mask = causal
        : (tensor<1x4x8xf32>, tensor<8x24xf32>, tensor<8x8xf32>)
        -> tensor<1x4x8xf32>
    ```

    Biases are 1-D adds on the right of their matmul (as `rlx-unfuse`
    builds them), or come fused by `rlx-fuse-matmul-bias-act` (activation
    none). Every intermediate must have no other reader, the input and
    `w_qkv` static shapes, and the output as many features as the input.
  }];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def FuseTransformerLayerPass : Pass<"rlx-fuse-transformer-layer"> {
  let summary = "Fuse a whole BERT-style post-LN layer into "
                "rlx.fused_transformer_layer";
  let description = [{
    Replaces the chain that `rlx-unfuse` makes of
    `rlx.fused_transformer_layer`, and the same chain partly fused:

        a = attention block of x (rlx.fused_attention_block, or its chain)
        h = layer_norm(x + a)        (or rlx.fused_residual_layer_norm)
        f = act(h @ w1 + b1) @ w2 + b2   (or rlx.fused_matmul_bias_act)
        y = layer_norm(h + f)        (or rlx.fused_residual_layer_norm)

    by one `rlx.fused_transformer_layer`, rooted at the last norm.
    ```mlir
    %a = rlx.fused_attention_block %x, %wqkv, %wo bias %bqkv, %bo ...
    %h, %s1 = rlx.fused_residual_layer_norm %x, %a, %g1, %b1 ...
    %f1 = rlx.fused_matmul_bias_act %h, %w1, %c1 activation = gelu ...
    %f2 = rlx.fused_matmul_bias_act %f1, %w2, %c2 activation = none ...
    %y, %s2 = rlx.fused_residual_layer_norm %h, %f2, %g2, %b2 ...
    // becomes
    %y = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1,
        %w1, %c1, %w2, %c2, %g2, %b2 heads = 2 mask = none ...
    ```
    The layer fuses only as the fused op expresses it: both projections of
    the attention block with biases, no rope, as many key/value heads as
    heads, no sliding window nor explicit scale, 2-D feed-forward weights
    with 1-D biases, one epsilon for both norms, residual adds that do not
    broadcast, and no other reader of any intermediate (the sums of the
    residual norms included; `h` is read by the feed-forward and the second
    residual only).
  }];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def FuseSharedInputMatmulPass : Pass<"rlx-fuse-shared-input-matmul"> {
  let summary = "Merge matmuls of one input into one matmul of concatenated "
                "weights";
  let description = [{
    Replaces matmuls that read the same `x` with different 2-D weights
    (function arguments or constants) by one matmul of `x` with the weights
    concatenated along their last axis, each former result being an
    `rlx.narrow` of its columns. The columns of a matmul are independent,
    so every result keeps its values exactly.
    ```mlir
    %a = rlx.matmul %x, %wa : tensor<4x8xf32>, tensor<8x16xf32>
    %b = rlx.matmul %x, %wb : tensor<4x8xf32>, tensor<8x4xf32>
    // becomes
    %w = rlx.concat %wa, %wb axis = 1 : tensor<8x16xf32>, tensor<8x4xf32>
    %m = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x20xf32>
    %a = rlx.narrow %m axis = 1 start = 0 length = 16 : tensor<4x20xf32>
    %b = rlx.narrow %m axis = 1 start = 16 length = 4 : tensor<4x20xf32>
    ```
    The matmuls must transpose nothing, have static weights of one element
    type and row count, and be in one block. Matmul pairs that
    `rlx-fuse-swiglu` fuses (the gate and up of a SwiGLU) are left to it.
  }];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def FuseRmsNormReshapePass : Pass<"rlx-fuse-rms-norm-reshape"> {
  let summary = "Apply rlx.rms_norm after a reshape that keeps the last axis";
  let description = [{
    `rlx.rms_norm` normalizes the last axis, so a reshape of its result
    that keeps the last dimension (e.g. flattening the leading ones) can
    come first: `reshape(rms_norm(x, g))` becomes
    `rms_norm(reshape(x), g)`, and the norm writes the reshaped result
    directly (a reshape of an input is a view, one of a result a copy).
    ```mlir
    %n = rlx.rms_norm %x, %g : tensor<2x4x8xf32>, tensor<8xf32>
    %y = rlx.reshape %n : tensor<2x4x8xf32> -> tensor<8x8xf32>
    // becomes
    %r = rlx.reshape %x : tensor<2x4x8xf32> -> tensor<8x8xf32>
    %y = rlx.rms_norm %r, %g : tensor<8x8xf32>, tensor<8xf32>
    ```
    Only with static shapes whose last dimension the reshape keeps, and
    when the norm's result has no other reader. The norm of a residual add
    (`rms_norm(x + r)` without broadcasting) is left to
    `rlx-fuse-residual-norm`.
  }];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def FormElementwiseRegionsPass : Pass<"rlx-form-elementwise-regions"> {
  let summary = "Group chains of elementwise rlx ops into "
                "rlx.elementwise_region";
  let description = [{
    Replaces a chain of elementwise ops by one `rlx.elementwise_region`
    whose body computes each element with the scalar that each op lowers
    to, so the chain runs as one kernel. Grouped are the ops whose scalar
    is one arith / math op on f32 or f64: `rlx.add`, `sub`, `mul`, `div`,
    `max`, `min`, `pow`, `exp`, `log`, `sqrt`, `rsqrt`, `tanh`, `sin`,
    `cos`, `tan`, `atan`, `neg`, `abs`, `round`, `rlx.cmp` of floats,
    `rlx.where` of floats and `rlx.cast` between f32 and f64 (activations
    such as gelu are left to `rlx-fuse-matmul-bias-act`).
    ```mlir
    %e = rlx.exp %x : tensor<4x8xf32>
    %y = rlx.add %e, %b : tensor<4x8xf32>, tensor<8xf32>
    // becomes
    %y = rlx.elementwise_region ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>)
        -> tensor<4x8xf32> {
    ^bb0(%a: f32, %c: f32):
      %0 = math.exp %a : f32
      %1 = arith.addf %0, %c : f32
      rlx.yield %1 : f32
    }
    ```
    A region has one result: an op whose value is read outside the chain
    ends it (it is the result, or stays out). Every grouped op has the
    region's static shape; operands of other shapes are region inputs and
    broadcast as before. At most `max-ops` ops go into one region, and a
    lone op forms none. `rlx-unfuse-elementwise-regions` is the inverse.
  }];
  let options = [
    Option<"maxOps", "max-ops", "unsigned", /*default=*/"16",
           "Most ops grouped into one region">,
  ];
  let dependentDialects = ["::mlir::rlx::RLXDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def UnfuseElementwiseRegionsPass : Pass<"rlx-unfuse-elementwise-regions"> {
  let summary = "Expand rlx.elementwise_region back into rlx ops";
  let description = [{
    The inverse of `rlx-form-elementwise-regions`: each scalar op of a
    single-result region's body becomes the rlx op it stands for, on the
    region's shape (see that pass for the table). Regions whose body holds
    another scalar op (a constant, an integer op, ...) are left as they
    are.
    ```mlir
    %y = rlx.elementwise_region ins(%x : tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %0 = math.exp %a : f32
      %1 = arith.negf %0 : f32
      rlx.yield %1 : f32
    }
    // becomes
    %0 = rlx.exp %x : tensor<4xf32>
    %y = rlx.neg %0 : tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def FusePass : Pass<"rlx-fuse"> {
  let summary = "Run every rlx fusion pattern";
  let description = [{
    Applies the patterns of `rlx-fuse-matmul-bias-act`,
    `rlx-fuse-residual-norm`, `rlx-fuse-swiglu`,
    `rlx-fuse-attention-block`, `rlx-fuse-transformer-layer`,
    `rlx-fuse-shared-input-matmul` and `rlx-fuse-rms-norm-reshape`
    together, or only those named in `patterns` (`matmul-bias-act`,
    `residual-norm`, `swiglu`, `attention-block`, `transformer-layer`,
    `shared-input-matmul`, `rms-norm-reshape`). `elementwise-regions`
    (`rlx-form-elementwise-regions` with its default `max-ops`) applies
    only when named.
    `rlx-unfuse` of the result gives back the fused chains.

    ```mlir
    %s = rlx.add %x, %r : tensor<2x8xf32>
    %y = rlx.rms_norm %s, %g : tensor<2x8xf32>, tensor<8xf32>
    // with --rlx-fuse (or --rlx-fuse=patterns=residual-norm) becomes
    %y, %s = rlx.fused_residual_rms_norm %x, %r, %g
        : tensor<2x8xf32>, tensor<8xf32>
    ```

    An unknown name in `patterns` is an error.

    With `target=NAME` (see `rlx-print-target-ops`), only the families
    whose fused ops the target claims run, so fusion never emits an op the
    target cannot lower: `--rlx-fuse="target=metal"` leaves attention
    blocks unfused. Without a target every family runs. An unknown target
    is an error.
  }];
  let options = [
    ListOption<"patterns", "patterns", "std::string",
               "Pattern families to apply (default: all): matmul-bias-act, "
               "residual-norm, swiglu, attention-block, transformer-layer, "
               "shared-input-matmul, rms-norm-reshape; elementwise-regions "
               "only when named">,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Run only the families whose fused ops this target claims: "
           "cpu, cuda, rocm, vulkan, metal (default: none, all families)">,
  ];
  let dependentDialects = ["::mlir::rlx::RLXDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def PrintTargetOpsPass : Pass<"rlx-print-target-ops"> {
  let summary = "Print the rlx ops that a target claims";
  let description = [{
    Prints to stdout the header `// target 'NAME' claims N ops`, the line
    `// broadcasts: general` (or `trailing only`, for targets whose
    elementwise kernels take only trailing broadcasts; see `rlx-legalize`),
    for targets that take static shapes only the line
    `// shapes: static only`, and then the names of the ops that the target claims (lowers), sorted,
    one per line; the IR is left as it is. Known targets: `cpu` (every op that
    `convert-rlx-to-linalg` lowers), `cuda` (what `rlx-cuda-pipeline`
    compiles: no `rlx.if`, `rlx.while`, `rlx.scan`, `rlx.selective_scan`,
    `rlx.topk`, `rlx.scatter_add`, `rlx.dense_solve` or the LLM decoding
    ops `rlx.kv_cache_write`, `rlx.decode_attention`, `rlx.sample`,
    `rlx.grouped_matmul`, `rlx.gated_delta_net` and `rlx.lora_matmul`,
    which `rlx-legalize` rewrites into matmuls),
    `rocm` (what `rlx-rocm-pipeline` compiles: cuda's claims, static shapes only) and
    the planned claims of `vulkan` and `metal`. An unknown target is an error
    naming the known ones.

    ```
    $ rlx-opt --rlx-print-target-ops="target=metal" in.mlir
    // target 'metal' claims 71 ops
    // broadcasts: trailing only
    rlx.abs
    rlx.add
    ...
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "The target whose claims to print">,
  ];
}

def LegalizePass : Pass<"rlx-legalize"> {
  let summary = "Rewrite the ops a target lacks, or reject them";
  let description = [{
    For every rlx op that the target `target` does not claim, applies the
    rewrite that expresses it by other ops, where one exists:

    - a fused op is unfused into its primitive chain (as `rlx-unfuse`);
    - `rlx.dot_general` becomes transposes to [batch, free, contracting]
      and [batch, contracting, free], reshapes to 3-D (2-D without batch
      dims), one `rlx.matmul` and a reshape to the result (static shapes
      only);
    - `rlx.if` whose regions are free of side effects becomes both
      regions inlined and one `rlx.where` per result;
    - `rlx.while` with `max_iterations` and side-effect-free regions is
      unrolled that many times: each step evaluates `cond` and `body` on
      the carried values and keeps the body's values only while every
      condition so far held (`rlx.where`). A loop that would run longer
      than `max_iterations` stops at that bound.

    On a target whose elementwise kernels take only trailing broadcasts
    (vulkan, metal; `rlx-print-target-ops` says which), an operand of
    `rlx.add`, `sub`, `mul`, `div`, `max`, `min`, `pow`, `cmp`, `where` or
    `fma` that broadcasts otherwise (a unit dim stretched anywhere but in
    the leading dims, e.g. `tensor<8x1xf32>` against `tensor<8x16xf32>`) is
    materialized by an `rlx.expand` to the result's shape. A bias of the
    result's trailing dims (`tensor<16xf32>` or `tensor<1x16xf32>` against
    `tensor<8x16xf32>`) stays as written. Such a broadcast with a dynamic
    result shape cannot be expanded and is an error.

    ```mlir
    %y = rlx.dot_general %a, %b batch [0] x [0] contracting [2] x [1]
        : tensor<4x8x16xf32>, tensor<4x16x32xf32>
    // with --rlx-legalize="target=metal" becomes
    %y = rlx.matmul %a, %b : tensor<4x8x16xf32>, tensor<4x16x32xf32>
    ```

    Then every op still unclaimed is an error, one per op
    (`'rlx.fft' is not supported by target 'metal'`), and so is every
    claimed op with a dynamic operand or result shape on a target that
    takes static shapes only (rocm), and the pass fails.
    An unknown target is an error.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "The target to legalize for: cpu, cuda, rocm, vulkan, metal">,
  ];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def FusionReportPass : Pass<"rlx-fusion-report", "::mlir::ModuleOp"> {
  let summary = "Fuse as rlx-fuse and report what fused, what did not, and "
                "why";
  let description = [{
    Applies every fusion pattern (as `rlx-fuse`) and prints to stdout the
    count of each rlx op before and after, each fusion made (the fused op,
    the pattern, the location of the chain's last op), and each near miss:
    a chain a pattern found but could not fuse, with the pattern's reason
    (an intermediate with other users, a bias that broadcasts, a type the
    fused op cannot take, ...). With `target=NAME` only the families whose
    fused ops the target claims run (as `rlx-fuse="target=NAME"`), and the
    report names each family left off with the op the target lacks.
    `format=json` prints the same as one JSON object with keys
    `ops_before`, `ops_after`, `fusions`, `near_misses`, `families_off`.
    `format=dot` draws it as one Graphviz graph: each function's ops and
    the values between them before fusion and after, each fused op in a
    cluster labelled with the pattern that made it beside the ops it
    replaced (the ops of the input filled with their cluster's colour), and
    each near miss a dashed edge to its root labelled with the reason.
    `format=svg` lays that graph out with Graphviz's `dot`, found on PATH
    when the pass runs (an error without it: install graphviz or use
    `format=dot`). `output=FILE` writes the report to FILE instead of
    stdout.

    ```
    $ rlx-opt model.mlir --rlx-fusion-report -o /dev/null
    fusions made (1):
      rlx.fused_matmul_bias_act by FuseMatmulBiasAct<GeluOp> at model.mlir:4:8
    near misses (1):
      FuseResidualNorm<LayerNormOp> at model.mlir:9:8 (rlx.layer_norm): ...
    ```
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"text\"",
           "text, json, dot or svg">,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Fuse only what this target claims (default: every family)">,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "The file to write the report to ('-', the default: stdout)">,
  ];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def PromoteParamsPass : Pass<"rlx-promote-params", "::mlir::ModuleOp"> {
  let summary = "Turn every rlx.param of a function into a trailing argument";
  let description = [{
    In each public `func.func` of the module (or in those named by
    `functions`), every distinct `rlx.param` name becomes a new function
    argument, appended after the existing ones in the order of the names'
    first uses. The argument carries the attribute `rlx.param = "<name>"`,
    and every `rlx.param` of that name is replaced by it, so that a runtime
    binds the weights as ordinary inputs (rlx-run's `--param=NAME=PATH`).

    ```mlir
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %w = rlx.param "w" : tensor<4xf32>
      %y = rlx.add %x, %w : tensor<4xf32>
      return %y : tensor<4xf32>
    }
    // becomes
    func.func @f(%x: tensor<4xf32>, %w: tensor<4xf32> {rlx.param = "w"})
        -> tensor<4xf32> {
      %y = rlx.add %x, %w : tensor<4xf32>
      return %y : tensor<4xf32>
    }
    ```

    Two params of one name with different types are an error (at the
    second one). A promoted function must have no callers in the module,
    since their calls would lack the new arguments: that is an error too.
    External functions and functions without params are left as they are.
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "Functions to promote (default: every public function)">,
  ];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def SpecializeParamsPass : Pass<"rlx-specialize-params",
                                "::mlir::ModuleOp"> {
  let summary = "Replace every rlx.param by a constant from a weight file";
  let description = [{
    Replaces each `rlx.param "NAME" : T` by `rlx.constant` holding the
    array of the file `DIR/NAME.npy`, where `DIR` is the `dir` option. The
    file must be a little-endian, C-order .npy file (as `numpy.save`
    writes) whose shape is T's shape and whose dtype holds T's element type
    exactly, as for rlx-run's inputs: `f4` (f32), `f8` (f64), `f2` (f16),
    `i1`..`i8` (signless integers), `u1`..`u4` (unsigned), `b1` (i1) and
    `c8` (complex<f32>); bf16 weights are stored as `f4` and rounded to
    nearest even. A missing file, a wrong shape or a wrong dtype is an
    error at the param, naming the file; so is a param of dynamic shape.
    Params in every function of the module are replaced.

    ```mlir
    %w = rlx.param "w" : tensor<2xf32>
    // with DIR/w.npy holding [1.0, 2.0] becomes
    %w = rlx.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```

    Each file is read once; every param of its name gets a constant of
    that value.

    With `files`, params bind the tensors of safetensors and GGUF files
    first (by name, or by the tensor `map` renames them to; the first file
    holding it wins), and `dir` only serves params no file holds. A file
    tensor binds a param of the same type and shape: F32/F16/F64/BF16 and
    the integer types their element type, a GGUF quantized tensor (Q4_0,
    Q8_0, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, Q8_K) a ui8 param of its packed
    rows ([..., ne[0] / block * block bytes]; GGUF's ne[0] is the last dim),
    which an `rlx.dequant_matmul` of the matching `gguf_*` scheme must be
    the one to use as its weight. A param no file holds (and no `dir`), an
    unreadable or truncated file, and a type, shape or scheme mismatch are
    errors at the param naming the file and both types.

    ```
    --rlx-specialize-params="files=model.gguf map=w1=blk.0.ffn_up.weight"
    ```
  }];
  let options = [
    Option<"dir", "dir", "std::string", /*default=*/"\"\"",
           "Directory holding one NAME.npy file per param">,
    ListOption<"files", "files", "std::string",
               "safetensors or GGUF files whose tensors bind params">,
    ListOption<"map", "map", "std::string",
               "PARAM=TENSOR: param PARAM binds file tensor TENSOR">,
  ];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def SpecializeShapesPass : Pass<"rlx-specialize-shapes", "::mlir::ModuleOp"> {
  let summary = "Bind dynamic dims of a function's arguments to sizes";
  let description = [{
    Gives the dynamic dims named by `dims` (`ARG:DIM=SIZE`: argument ARG's
    dim DIM is SIZE) their sizes in `function`'s signature, then infers
    the types of the ops that read them again, in order, so that what
    follows from the bound dims becomes static: one program written with
    `?` dims, specialised per shape (or per bucket of shapes) where a
    static compile is faster or a target takes static shapes only, as the
    RLX seeds' `specialize`. An op that does not infer its types keeps its
    operands' old types through a `tensor.cast`; the function's results
    take the types that reach its `return`.

    Errors (at the function): an argument or dim out of range, a size
    that is not positive, a dim that is static with another size, a
    function that is called in the module (its callers would pass the
    old types), a malformed `dims` entry.

    ```mlir
    // --rlx-specialize-shapes="function=f dims=0:0=8"
    func.func @f(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
      %y = rlx.gelu %x : tensor<?x16xf32>
      return %y : tensor<?x16xf32>
    }
    // becomes
    func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
      %y = rlx.gelu %x : tensor<8x16xf32>
      return %y : tensor<8x16xf32>
    }
    ```
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "The function to specialise">,
    ListOption<"dims", "dims", "std::string",
               "ARG:DIM=SIZE: argument ARG's dim DIM is SIZE">,
  ];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def PartitionPass : Pass<"rlx-partition", "::mlir::ModuleOp"> {
  let summary = "Split a program annotated with shardings into the program "
                "of one device";
  let description = [{
    A module with a `shard.grid` and `shard.shard` annotations (on
    arguments, results or any value) becomes the SPMD program each device of
    the grid runs: upstream's `sharding-propagation` spreads the
    annotations through the rlx ops (their ShardingInterface models,
    `RLX/Dialect/MIR/Sharding/ShardingInterfaceImpl.h`), then
    `shard-partition` gives every value its local shape and inserts the
    collectives: `shard.all_reduce` after a matmul or reduction whose
    contracted dim is split, `shard.all_gather` where a split value meets
    an op that needs it whole, and slices of replicated values (each
    device's block, from its `shard.process_linear_index`). Functions take
    and return their arguments' and results' local shards.

    Loops an op cannot split stay whole (a norm's normalized axis, a
    softmax's axis, attention's sequence and head dims; attention splits
    over batch and heads, with GQA's key/value heads split alike), so the
    partition gathers there. A module without a `shard.grid` is left as
    it is.

    Errors, at the value: a split dim whose size the devices along its
    grid axes do not divide; a grid with dynamic sizes; a collective that
    RLX's runtimes do not carry (only all_reduce, all_gather,
    reduce_scatter and all_to_all are).

    ```mlir
    shard.grid @tp(shape = 2)
    func.func @ffn(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>,
                   %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
      %col = shard.sharding @tp split_axes = [[], [0]] : !shard.sharding
      %w1s = shard.shard %w1 to %col annotate_for_users : tensor<16x32xf32>
      %row = shard.sharding @tp split_axes = [[0]] : !shard.sharding
      %w2s = shard.shard %w2 to %row annotate_for_users : tensor<32x16xf32>
      %h = rlx.matmul %x, %w1s : tensor<8x16xf32>, tensor<16x32xf32>
      %y = rlx.matmul %h, %w2s : tensor<8x32xf32>, tensor<32x16xf32>
      return %y : tensor<8x16xf32>
    }
    // becomes, on each of the 2 devices
    func.func @ffn(%x: tensor<8x16xf32>, %w1: tensor<16x16xf32>,
                   %w2: tensor<16x16xf32>) -> tensor<8x16xf32> {
      %h = rlx.matmul %x, %w1 : tensor<8x16xf32>, tensor<16x16xf32>
      %p = rlx.matmul %h, %w2 : tensor<8x16xf32>, tensor<16x16xf32>
      %y = shard.all_reduce %p on @tp grid_axes = [0]
          : tensor<8x16xf32> -> tensor<8x16xf32>
      return %y : tensor<8x16xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::shard::ShardDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def DataParallelPass : Pass<"rlx-data-parallel", "::mlir::ModuleOp"> {
  let summary = "Average every rlx.grad's results over the processes of a "
                "data-parallel job";
  let description = [{
    Data parallelism of a training step, as PyTorch's DistributedDataParallel
    does it: each of `grid-size` processes runs the same program on its own
    slice of the batch (the program is written at the local batch size), and
    the loss and gradients that each `rlx.grad` returns are replaced by their
    mean over the processes: summed by a `shard.all_reduce` over a 1-D grid
    `@rlx_data_parallel` of `grid-size` devices (the collectives of
    `rlx-lower-collectives`: NCCL on CUDA, shared memory between CPU
    processes) and scaled by 1 / grid-size. With equal local batches and a
    loss that is a mean over the batch, every process then holds the
    full batch's loss and gradients, and its update is the one-device
    update.

    The gradient with respect to an argument that holds the process's own
    slice of the batch (`batch-args`: indices of the differentiated
    function's arguments, the input x say) is not averaged, only scaled by
    1 / grid-size: it is the gradient of the whole batch's mean loss with
    respect to this process's examples.

    Gradients are all-reduced in buckets, as DDP does: consecutive results
    of one element type are flattened and concatenated into one buffer of
    at most `bucket-bytes` (a larger result is a bucket of its own; 0: one
    all-reduce per result), so a step of many small parameters makes few
    collective calls.

    A module without `rlx.grad`, or `grid-size` 1, is left as it is. Errors:
    `grid-size` below 1; a symbol `@rlx_data_parallel` that is not a grid of
    `grid-size`.

    ```mlir
    // --rlx-data-parallel="grid-size=2"
    %l, %g = rlx.grad @loss(%w, %x) wrt [0]
        : (tensor<4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<4xf32>)
    // becomes (one bucket)
    %l, %g = rlx.grad @loss(%w, %x) wrt [0] : ...
    %lf = rlx.reshape %l : tensor<f32> -> tensor<1xf32>
    %b = rlx.concat %lf, %g axis = 0 : ...
    %s = shard.all_reduce %b on @rlx_data_parallel grid_axes = [0] : ...
    %m = rlx.mul %s, %half : tensor<5xf32>, tensor<f32>
    // %l and %g read back as rlx.narrow + rlx.reshape of %m
    ```
  }];
  let options = [
    Option<"gridSize", "grid-size", "int64_t", "1",
           "The number of processes (devices) the batch is split over">,
    Option<"bucketBytes", "bucket-bytes", "int64_t", "26214400",
           "The most bytes one all-reduce carries (0: one per result)">,
    ListOption<"batchArgs", "batch-args", "int64_t",
               "Arguments of the differentiated functions that hold each "
               "process's slice of the batch (their gradients are scaled, "
               "not averaged)">,
  ];
  let dependentDialects = ["::mlir::rlx::RLXDialect",
                           "::mlir::shard::ShardDialect"];
}

def ExpandAutodiffPass : Pass<"rlx-expand-autodiff", "::mlir::ModuleOp"> {
  let summary = "Replace rlx.grad, rlx.jvp and rlx.vmap with generated functions";
  let description = [{
    Each transform op becomes a `func.call` of a new private function
    derived from its callee:

    - `rlx.grad @f(...) wrt [i, ...]` calls `@f_grad_i_...`, which returns
      the loss and its gradient with respect to each listed argument: the
      forward program followed by a reverse sweep that asks every op for
      its VJP (`DifferentiableOpInterface`) and accumulates cotangents
      with `rlx.add`;
    - `rlx.jvp @f(...) tangents(...)` calls `@f_jvp`, which returns f's
      results and their tangents, built forward with each op's JVP;
    - `rlx.vmap @f(...)` calls `@f_vmap`, which slices the mapped operands,
      calls f once per batch element and concatenates the results (static
      batch sizes; a first, unrolled version).

    Before differentiating, the callee's copy is prepared as RLX's
    `prepare_graph_for_ad` does: calls are inlined, fused ops and
    elementwise regions are unfused, `dot_general`, `rlx.if` and
    `rlx.while` are legalized into primitives (the same rewrites as
    `rlx-legalize`), `rlx.selective_scan` becomes the `rlx.scan` it lowers
    through, and scans carry the values their bodies capture (a scan is
    differentiated as a loop: a reverse scan for the VJP). Transforms nest: one whose callee (or a function it
    calls) holds another transform is expanded after it, so a Hessian-vector
    product is `rlx.jvp` of a function that returns an `rlx.grad`, and
    higher orders nest further.

    Only values of float or complex element type carry derivatives
    (complex ones with PyTorch's convention: dL/da + i dL/db); integer and
    boolean values (argmax, cmp, indices) carry none. An op without a rule
    on the path from the inputs to the outputs is an error naming it, and
    so is an operand that its op's rules cannot differentiate
    (`dequant_matmul`'s scales) when it depends on a differentiated
    argument.
    An argument listed in `wrt` that does not affect the loss gets a zero
    gradient, or, with `unused-wrt=error`, an error.

    ```mlir
    %l, %dw = rlx.grad @loss(%w, %x) wrt [0]
        : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<4x4xf32>)
    // becomes
    %l, %dw = call @loss_grad_0(%w, %x)
        : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<4x4xf32>)
    ```
  }];
  let options = [
    Option<"unusedWrt", "unused-wrt", "std::string", /*default=*/"\"zeros\"",
           "The gradient of a 'wrt' argument that does not affect the "
           "loss: 'zeros' or 'error'">,
  ];
  let dependentDialects = ["::mlir::rlx::RLXDialect",
                           "::mlir::func::FuncDialect"];
}

//===----------------------------------------------------------------------===//
// Precision and quantization
//===----------------------------------------------------------------------===//

def AutoMixedPrecisionPass : Pass<"rlx-auto-mixed-precision",
                                  "::mlir::ModuleOp"> {
  let summary = "Run each op category in the precision a policy gives it";
  let description = [{
    Rewrites every function of the module so that the ops of each category
    compute in the float type the policy names, as `torch.autocast` does.
    The categories and their ops:

    | category | ops | default |
    |---|---|---|
    | `matmul` | `rlx.matmul`, `rlx.dot_general`, `rlx.dequant_matmul` (its input), the fused matmuls | `bf16` |
    | `conv` | `rlx.conv`, `rlx.conv_transpose2d` | `bf16` |
    | `attention` | `rlx.attention`, `rlx.fused_attention_block` | `bf16` |
    | `softmax` | `rlx.softmax`, `rlx.log_softmax` | `f32` |
    | `norm` | `rlx.layer_norm`, `rlx.rms_norm`, `rlx.group_norm`, `rlx.batch_norm_inference`, the fused residual norms | `f32` |
    | `reduction` | `rlx.reduce`, `rlx.cumsum` | `f32` |
    | `loss` | `rlx.softmax_cross_entropy` | `f32` |
    | `elementwise` | elementwise and data-movement ops | `follow` |

    An op of a category with a type gets its float operands cast to that
    type (f32 operands of a bf16 matmul become bf16), and its float
    results take it. `follow` ops compute in their operands' type when all
    their float operands share one, and otherwise in the widest of them
    (a bf16 activation added to an f32 residual is added in f32), so a
    chain matmul -> bias -> gelu -> matmul stays in bf16. Every other op,
    and every function result, gets its operands back in their original
    types. Casts are made once per value and type, and a cast of a cast
    that widened exactly (bf16 -> f32 -> bf16) folds to the value.

    Low-precision products keep an f32 accumulator: `rlx.matmul`,
    `rlx.conv` and `rlx.attention` of bf16 or f16 accumulate in f32 in
    every backend and round once at the end.

    `matmul=fp8` quantizes the constant 2-D weight of each `rlx.matmul`
    (without `transpose_a`) to e4m3 at compile time, one scale per output
    channel (its largest magnitude over 448, e4m3's largest finite value;
    round to nearest even): the matmul becomes `rlx.dequant_matmul
    #rlx.quant<fp8_e4m3>` on the activations in bf16, which CUDA computes
    in fp8 under `fp8-activations=true` and other targets by decoding the
    weight. The category's other ops (weights that are not constants, or
    hold a NaN or infinity) run in bf16.

    The policy is `policy` (`category=type` pairs separated by commas,
    with `type` one of `f32`, `f16`, `bf16`, `f64`, for `matmul` also
    `fp8`, and for `elementwise` `follow`), or the JSON object of
    `policy-file` (`{"matmul": "f16",
    ...}`); categories left out keep their defaults. Run it before
    `rlx-expand-autodiff`: the gradient of a function that `rlx.grad`
    differentiates then follows the same policy, since the derivative of a
    cast is a cast. With `loss-scale=S`, each `rlx.grad` differentiates
    the loss times S and divides the loss and the gradients by S after,
    which keeps small f16 gradients from flushing to zero.

    ```mlir
    %y = rlx.matmul %x, %w : tensor<8x16xf32>, tensor<16x4xf32>
    // with policy "matmul=bf16" becomes
    %xb = rlx.cast %x : tensor<8x16xf32> -> tensor<8x16xbf16>
    %wb = rlx.cast %w : tensor<16x4xf32> -> tensor<16x4xbf16>
    %yb = rlx.matmul %xb, %wb : tensor<8x16xbf16>, tensor<16x4xbf16>
    %y = rlx.cast %yb : tensor<8x4xbf16> -> tensor<8x4xf32>
    ```

    An unknown category or type, or a file that is not such an object, is
    an error.
  }];
  let options = [
    Option<"policy", "policy", "std::string", /*default=*/"\"\"",
           "Precision per category: 'matmul=bf16,softmax=f32,...'">,
    Option<"policyFile", "policy-file", "std::string", /*default=*/"\"\"",
           "A JSON file holding the policy as an object">,
    Option<"lossScale", "loss-scale", "double", /*default=*/"1.0",
           "Scale the loss of each rlx.grad by this factor (f16 training)">,
  ];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}


def ExposeQuantTapsPass : Pass<"rlx-expose-quant-taps", "::mlir::ModuleOp"> {
  let summary = "Return every quantization tap of a function for calibration";
  let description = [{
    Appends the value of each tap (a float operand of `rlx.matmul` or
    `rlx.conv`, named `<function>/<op><k>/<operand>`, see QuantTaps.h) to
    the results of each public function, and lists the taps in the
    function attributes `rlx.quant_taps` (names) and `rlx.quant_tap_axes`
    (the channel axis of a weight tap, -1 for an activation). A runtime
    (`rlx-run --calibrate`) runs the result on sample inputs and records
    each tap's range.

    ```mlir
    func.func @main(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
      %w = rlx.param "w" : tensor<8x2xf32>
      %y = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x2xf32>
      return %y : tensor<4x2xf32>
    }
    // becomes
    func.func @main(%x: tensor<4x8xf32>)
        -> (tensor<4x2xf32>, tensor<4x8xf32>, tensor<8x2xf32>)
        attributes {rlx.quant_taps = ["main/matmul0/lhs", "main/matmul0/rhs"],
                    rlx.quant_tap_axes = array<i64: -1, 1>} {
      ...
      return %y, %x, %w : ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def QuantInsertPass : Pass<"rlx-quant-insert", "::mlir::ModuleOp"> {
  let summary = "Quantize and dequantize each tap of a calibration record";
  let description = [{
    For each tap of the functions that the calibration record `record`
    names, inserts `rlx.quantize` -> `rlx.dequantize` (int8) on the
    operand: weights per channel and symmetric (zero point 0, scale
    max(|min|, |max|) / 127), activations per tensor and affine over
    [min(min, 0), max(max, 0)] (scale (hi - lo) / 255, zero point
    round(-128 - lo / scale)). `method` picks which range of the record
    is used: `minmax` (default), `percentile` or `mse`; a tap without that
    method's range is an error. Taps the record does not name are left
    in float; a record tap with no operand of that name in the module, a
    channel count or axis that differs from the operand's, or an
    unreadable record is an error. `rlx-quant-propagate` then turns the
    quantized matmuls into integer ones.

    ```mlir
    %y = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x2xf32>
    // becomes
    %qx = rlx.quantize %x {scales = array<f32: 0.02>,
                           zero_points = array<i64: -3>} : tensor<4x8xf32>
    %dx = rlx.dequantize %qx {...} : tensor<4x8xi8> -> tensor<4x8xf32>
    %qw = rlx.quantize %w {scales = array<f32: 0.01, 0.03>,
                           zero_points = array<i64: 0, 0>, axis = 1 : i64}
        : tensor<8x2xf32>
    %dw = rlx.dequantize %qw {...} : tensor<8x2xi8> -> tensor<8x2xf32>
    %y = rlx.matmul %dx, %dw : tensor<4x8xf32>, tensor<8x2xf32>
    ```
  }];
  let options = [
    Option<"record", "record", "std::string", /*default=*/"\"\"",
           "The calibration record (JSON, as rlx-run --calibrate writes)">,
    Option<"method", "method", "std::string", /*default=*/"\"minmax\"",
           "The record's range to use: 'minmax', 'percentile' or 'mse'">,
  ];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def QuantPropagatePass : Pass<"rlx-quant-propagate"> {
  let summary = "Run dequantized matmuls on int8 with int32 accumulation";
  let description = [{
    Moves `rlx.dequantize` later through ops that only move elements
    (reshape, transpose, expand of a per-tensor or unaffected axis), folds
    `rlx.quantize` of an `rlx.dequantize` with the same parameters to the
    int8 value, and rewrites

      matmul(dequantize(qa; sa, za), dequantize(qb; sb[n], 0))

    with `qa` per tensor and `qb` per tensor or per channel along the
    output dim N, into `rlx.int8_matmul(qa, qb)` (i32 accumulation,
    exact), minus `za * colsum(qb)` when `za` is not zero, times
    `sa * sb[n]` in the result's float type. What the next op needs is a
    float, so the result is one; matmuls whose dequantized operands do not
    have that form stay in float.

    ```mlir
    %y = rlx.matmul %dx, %dw : tensor<4x8xf32>, tensor<8x2xf32>
    // becomes
    %acc = rlx.int8_matmul %qx, %qw : tensor<4x8xi8>, tensor<8x2xi8>
    ... rlx.sub, rlx.cast to f32, rlx.mul by the scales
    ```
  }];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

def InsertFakeQuantPass : Pass<"rlx-insert-fake-quant", "::mlir::ModuleOp"> {
  let summary = "Fake-quantize every tap for quantization-aware training";
  let description = [{
    Puts `rlx.fake_quantize` (`bits`, `ste` as the options say) on every
    tap of every function, at the places `rlx-quant-insert` would quantize:
    weights per channel and symmetric, activations per tensor and
    symmetric. Scales come from the tensor itself on each call, max(|x|)
    over the channel (or the tensor) divided by 2^(bits-1) - 1, behind
    `rlx.stop_gradient` so that training moves the weights, not the
    ranges. Differentiating the result with `rlx.grad` trains through the
    quantization with the chosen straight-through estimator; after
    training, calibrating the float program and running
    `rlx-quant-insert` and `rlx-quant-propagate` gives the int8 program.

    ```mlir
    %y = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x2xf32>
    // becomes, for the weight
    %s = ... max(|w|) over dim 0, / 127, stop_gradient : tensor<2xf32>
    %fw = rlx.fake_quantize %w, %s, %zero {bits = 8 : i64, axis = 1 : i64}
        : tensor<8x2xf32>, tensor<2xf32>, tensor<2xi32>
    ```
  }];
  let options = [
    Option<"bits", "bits", "int64_t", /*default=*/"8",
           "Bits of the simulated integers, in [2, 16]">,
    Option<"ste", "ste", "std::string", /*default=*/"\"identity\"",
           "The straight-through estimator: identity, clipped_identity, "
           "tanh or hard_tanh">,
  ];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

#endif // RLX_DIALECT_MIR_TRANSFORMS_PASSES_TD
