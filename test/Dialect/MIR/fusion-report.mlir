// RUN: rlx-opt %s --rlx-fusion-report -o /dev/null | FileCheck %s
// RUN: rlx-opt %s --rlx-fusion-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: not rlx-opt %s --rlx-fusion-report=format=xml -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %if target-metal %{ rlx-opt %s --rlx-fusion-report=target=metal -o /dev/null | FileCheck %s --check-prefix=METAL %}
// RUN: not rlx-opt %s --rlx-fusion-report=target=tpu -o /dev/null 2>&1 | FileCheck %s -DTARGETS="%rlx_targets" --check-prefix=TPU
// RUN: %if target-metal %{ rlx-opt %s --rlx-fusion-report="format=json target=metal output=%t.json" -o /dev/null | count 0 %}
// RUN: %if target-metal %{ FileCheck %s --check-prefix=FILE < %t.json %}
// RUN: not rlx-opt %s --rlx-fusion-report="output=%t.missing/report.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFILE

// One chain fuses (matmul + bias, its add also read by the return, so the
// gelu stays out), one is a near miss (the gelu's add has another user),
// and one add is no bias add (3-D "bias"): a near miss too. Counts before
// and after cover every rlx op.
// CHECK:       op counts (before -> after):
// CHECK-NEXT:    rlx.add                                  2 -> 1
// CHECK-NEXT:    rlx.fused_matmul_bias_act                0 -> 1
// CHECK-NEXT:    rlx.gelu                                 1 -> 1
// CHECK-NEXT:    rlx.matmul                               2 -> 1
// CHECK-NEXT:    total                                    5 -> 4
// CHECK:       fusions made (1):
// CHECK-NEXT:    rlx.fused_matmul_bias_act by FuseMatmulBias at {{.*}}fusion-report.mlir:53:8
// CHECK:       near misses (2):
// CHECK-DAG:     FuseMatmulBias at {{.*}}fusion-report.mlir:56:9 (rlx.add): the bias is not 1-D of the matmul's output features
// CHECK-DAG:     FuseMatmulBiasAct<GeluOp> at {{.*}}fusion-report.mlir:54:8 (rlx.gelu): the add's result has other users (it fuses alone)

// JSON:      "fusions": [
// JSON:          "op": "rlx.fused_matmul_bias_act",
// JSON-NEXT:     "pattern": "FuseMatmulBias"
// JSON:      "near_misses": [
// JSON:      "ops_after": {
// JSON:      "ops_before": {

// BAD: unknown format 'xml'; expected text, json, dot or svg

// For metal the matmul still fuses; the families whose fused ops metal
// lacks are listed with the op.
// FILE:      "families_off": [
// FILE-NEXT:   {
// FILE-NEXT:     "family": "attention-block",
// FILE-NEXT:     "lacks": "rlx.fused_attention_block"
// FILE:          "family": "transformer-layer",
// FILE-NEXT:     "lacks": "rlx.fused_transformer_layer"
// FILE:      "fusions": [
// NOFILE: error: cannot write the report to '{{.*}}.missing/report.json'

// METAL:       fusions made (1):
// METAL:       families off for the target (2):
// METAL-NEXT:    attention-block: the target lacks rlx.fused_attention_block
// METAL-NEXT:    transformer-layer: the target lacks rlx.fused_transformer_layer
// TPU: unknown target 'tpu' (registered: [[TARGETS]])
func.func @report(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>, %r: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %m = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a = rlx.add %m, %b : tensor<4x16xf32>, tensor<16xf32>
  %g = rlx.gelu %a : tensor<4x16xf32>
  %m2 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a2 = rlx.add %m2, %r : tensor<4x16xf32>
  return %g, %a, %a2 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}
