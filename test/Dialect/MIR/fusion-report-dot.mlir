// The fusion report as a graph: the DOT text's structure (format=dot), the
// same written to a file, the errors, and the SVG where Graphviz is there.
// RUN: rlx-opt %s --rlx-fusion-report=format=dot -o /dev/null | FileCheck %s
// RUN: rlx-opt %s --rlx-fusion-report="format=dot output=%t.dot" -o /dev/null | count 0
// RUN: FileCheck %s --check-prefix=FILE < %t.dot
// RUN: rlx-opt %s --rlx-fusion-report=format=png -verify-diagnostics -o /dev/null
// RUN: not rlx-opt %s --rlx-fusion-report="format=dot output=%t.missing/report.dot" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not env PATH=%t.nowhere rlx-opt %s --rlx-fusion-report=format=svg -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODOT
// RUN: %if graphviz %{ rlx-opt %s --rlx-fusion-report=format=svg -o /dev/null | FileCheck %s --check-prefix=SVG %}

// A bad format is an error at the module, before anything fuses.
// expected-error @+1 {{unknown format 'png'; expected text, json, dot or svg}}
module {

// fusion-report.mlir's @report: the matmul + bias fuses (its add also read
// by the return, so the gelu stays out), the gelu's chain and the add of a
// 3-D "bias" are near misses.
func.func @report(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>, %r: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %m = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a = rlx.add %m, %b : tensor<4x16xf32>, tensor<16xf32>
  %g = rlx.gelu %a : tensor<4x16xf32>
  %m2 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a2 = rlx.add %m2, %r : tensor<4x16xf32>
  return %g, %a, %a2 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// Two fusions one after the other: the second matmul + bias first, then
// matmul + bias + gelu.
func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>, %w2: tensor<16x8xf32>, %b2: tensor<8xf32>) -> tensor<4x8xf32> {
  %m = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a = rlx.add %m, %b : tensor<4x16xf32>, tensor<16xf32>
  %g = rlx.gelu %a : tensor<4x16xf32>
  %m2 = rlx.matmul %g, %w2 : tensor<4x16xf32>, tensor<16x8xf32>
  %a2 = rlx.add %m2, %b2 : tensor<4x8xf32>, tensor<8xf32>
  return %a2 : tensor<4x8xf32>
}

}

// Before: every op of the input, those fusion replaced filled with their
// cluster's colour, and the values between them.
// CHECK-LABEL: digraph "rlx fusion report" {
// CHECK:       subgraph cluster_before {
// CHECK-NEXT:    id="before"; class="panel"; label="before fusion: 10 rlx ops"
// CHECK-LABEL: subgraph cluster_before_0 {
// CHECK-NEXT:    label="@report"
// CHECK:         b0_arg3 [label="%arg3", class="argument"
// CHECK-NEXT:    b[[MM:[0-9]+]] [label="rlx.matmul\n{{[0-9]+}}:8", tooltip="rlx.matmul at {{.*}}fusion-report-dot.mlir:{{[0-9]+}}:8", class="op replaced", fillcolor="[[COLOUR:[0-9. ]+]]"
// CHECK-NEXT:    b[[ADD:[0-9]+]] [label="rlx.add\n{{.*}}class="op replaced", fillcolor="[[COLOUR]]"
// CHECK-NEXT:    b[[GELU:[0-9]+]] [label="rlx.gelu\n{{.*}}class="op"]
// CHECK:         b0_arg0 -> b[[MM]];
// CHECK-NEXT:    b0_arg1 -> b[[MM]];
// CHECK-NEXT:    b[[MM]] -> b[[ADD]];
// CHECK:       subgraph cluster_before_1 {
// CHECK-NEXT:    label="@mlp"

// After: one cluster per fusion, labelled with its pattern, holding the
// fused op and the ops it replaced with the values between them; edges
// into and out of a fused op end at its cluster; each near miss a dashed
// edge to its root labelled with the reason.
// CHECK-LABEL: subgraph cluster_after {
// CHECK-NEXT:    id="after"; class="panel"; label="after fusion: 6 rlx ops, 3 fusions, 2 near misses"
// CHECK-LABEL: subgraph cluster_after_0 {
// CHECK-NEXT:    label="@report"
// CHECK:         a[[GELU]] [label="rlx.gelu\n
// CHECK-NEXT:    a[[MM2:[0-9]+]] [label="rlx.matmul\n
// CHECK-NEXT:    a[[ADD2:[0-9]+]] [label="rlx.add\n
// CHECK-NEXT:    a[[RET:[0-9]+]] [label="func.return\n
// CHECK-NEXT:    subgraph cluster_fusion_2 {
// CHECK-NEXT:      id="fusion2"; class="fusion"; label="FuseMatmulBias\n2 ops replaced"; {{.*}}fillcolor="[[FILL:[0-9. ]+]]"
// CHECK-NEXT:      a[[FUSED:[0-9]+]] [label="rlx.fused_matmul_bias_act\n{{.*}}class="fused"
// CHECK-NEXT:      a[[ADD]] [label="rlx.add\n{{.*}}class="replaced"
// CHECK-NEXT:      a[[MM]] [label="rlx.matmul\n{{.*}}class="replaced"
// CHECK-NEXT:    }
// CHECK-NEXT:    a[[MM]] -> a[[ADD]] [class="replaced"
// CHECK-NEXT:    a[[FUSED]] -> a[[MM]] [style=invis];
// CHECK-DAG:     a0_arg2 -> a[[FUSED]] [lhead=cluster_fusion_2];
// CHECK-DAG:     a[[FUSED]] -> a[[GELU]] [ltail=cluster_fusion_2];
// CHECK-DAG:     a[[FUSED]] -> a[[RET]] [ltail=cluster_fusion_2];
// CHECK-DAG:     a0_arg3 -> a[[ADD2]];
// CHECK-DAG:     miss{{[0-9]+}} -> a[[ADD2]] [class="near-miss", style=dashed, {{.*}}label="the bias is not 1-D of the matmul's\noutput features"];
// CHECK-DAG:     miss{{[0-9]+}} -> a[[GELU]] [class="near-miss", style=dashed, {{.*}}label="the add's result has other users (it\nfuses alone)"];
// CHECK-DAG:     miss{{[0-9]+}} [label="near miss\nFuseMatmulBiasAct<GeluOp>", class="near-miss", shape=note
// CHECK:       }

// Two clusters in @mlp, the value between the fused ops from one cluster
// to the other.
// CHECK-LABEL: subgraph cluster_after_1 {
// CHECK:         subgraph cluster_fusion_1 {
// CHECK-NEXT:      label="FuseMatmulBiasAct<GeluOp>\n3 ops replaced"
// CHECK-NEXT:      a[[F1:[0-9]+]] [label="rlx.fused_matmul_bias_act\n
// CHECK-COUNT-3:   class="replaced"
// CHECK-NEXT:    }
// CHECK-NEXT:    subgraph cluster_fusion_0 {
// CHECK-NEXT:      label="FuseMatmulBias\n2 ops replaced"
// CHECK-NEXT:      a[[F0:[0-9]+]] [label="rlx.fused_matmul_bias_act\n
// CHECK:         a[[F1]] -> a[[F0]] [ltail=cluster_fusion_1, lhead=cluster_fusion_0];
// CHECK-NOT:     subgraph cluster_fusion
// CHECK-NOT:     miss
// CHECK:       }
// CHECK-NEXT:  }
// CHECK-NEXT:  }

// FILE: subgraph cluster_fusion_0 {

// NOFILE: error: cannot write the report to '{{.*}}.missing/report.dot'
// NODOT: error: format=svg lays the graph out with Graphviz's 'dot', which is not on PATH: install graphviz (Debian's 'graphviz' package; scripts/setup.sh installs it) or use format=dot

// The SVG from Graphviz: one group per fusion cluster, with its id.
// SVG:           <svg
// SVG:           <g id="before" class="cluster panel">
// SVG:           <g id="after" class="cluster panel">
// SVG-COUNT-3:   <g id="fusion{{[0-2]}}" class="cluster fusion">
// SVG-NOT:       class="cluster fusion"
// SVG:           <title>miss0&#45;&gt;a{{[0-9]+}}</title>
// SVG:           </svg>
