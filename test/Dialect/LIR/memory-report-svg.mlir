// The report's text, the plan --rlx-plan-memory writes and the SVG of the
// same input, read in one stream so that the picture is checked against the
// figures of the other two (captured, not repeated by hand):
// RUN: rlx-opt %s --rlx-memory-report -o /dev/null > %t.txt
// RUN: rlx-opt %s --rlx-plan-memory -o %t.plan.mlir
// RUN: rlx-opt %s --rlx-memory-report=format=svg -o /dev/null > %t.svg
// RUN: cat %t.txt %t.plan.mlir %t.svg | FileCheck %s
// RUN: rlx-opt %s --rlx-memory-report="format=svg output=%t.out.svg" -o /dev/null | count 0
// RUN: FileCheck %s --check-prefix=FILE < %t.out.svg
// RUN: rlx-opt %s --rlx-memory-report="format=svg planner=best-fit" -o /dev/null | FileCheck %s --check-prefix=BESTFIT
// RUN: rlx-opt %s --rlx-memory-report=format=html -o /dev/null | FileCheck %s --check-prefix=HTML
// RUN: not rlx-opt %s --rlx-memory-report=format=png -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// plan-memory.mlir's @chain: buffer 0 and buffer 2, and the gelu's
// in-place result as view 1 of buffer 0.
func.func @chain(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %1 = rlx.gelu %0 : tensor<4x8xf32>
  %2 = rlx.matmul %1, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %3 = rlx.add %2, %x : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// The text report and the plan.
// CHECK-LABEL: rlx memory report: @chain
// CHECK:       arena [[ARENA:[0-9]+]] bytes
// CHECK-NEXT:  lower bound [[LOWER:[0-9]+]] bytes
// CHECK-LABEL: func.func @chain
// CHECK: #rlx_lir.plan<arena_size = [[ARENA]], alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = [[OFF0:[0-9]+]], size = [[SIZE0:[0-9]+]], start = [[START0:[0-9]+]], end = [[END0:[0-9]+]]>, #rlx_lir.buffer<id = 1, offset = [[OFF1:[0-9]+]], size = [[SIZE1:[0-9]+]], start = [[START1:[0-9]+]], end = [[END1:[0-9]+]], root = 0>, #rlx_lir.buffer<id = 2, offset = [[OFF2:[0-9]+]], size = [[SIZE2:[0-9]+]], start = [[START2:[0-9]+]], end = [[END2:[0-9]+]]>]>

// The picture: one rect per planned buffer (roots, then views) at the
// planned offset, size and live range, hovered by its value, op, source
// location, size and range; nothing else in the group.
// CHECK-LABEL: <svg xmlns="http://www.w3.org/2000/svg" class="function" data-function="chain"
// CHECK: @chain: arena 256 B, lower bound 256 B, ratio 1.0000
// CHECK: <g class="buffers">
// CHECK-NEXT: <rect class="buffer" id="f0-0" data-id="0" data-offset="[[OFF0]]" data-size="[[SIZE0]]" data-start="[[START0]]" data-end="[[END0]]" x="88.00" y="228.00" width="360.00" height="180.00"
// CHECK-SAME: <title>%0 = rlx.matmul (buffer 0)
// CHECK-NEXT: memory-report-svg.mlir:[[# @LINE - 22]]:8
// CHECK-NEXT: 128 bytes (128 B) at offset 0
// CHECK-NEXT: live kernels 0-2 (rlx.matmul .. rlx.matmul)</title></rect>
// CHECK-NEXT: <rect class="buffer" id="f0-2" data-id="2" data-offset="[[OFF2]]" data-size="[[SIZE2]]" data-start="[[START2]]" data-end="[[END2]]"
// CHECK-SAME: <title>%2 = rlx.matmul (buffer 2)
// CHECK-NEXT: memory-report-svg.mlir:[[# @LINE - 25]]:8
// CHECK-NEXT: 128 bytes (128 B) at offset 128
// CHECK-NEXT: live kernels 2-3 (rlx.matmul .. rlx.add)</title></rect>
// CHECK-NEXT: <rect class="view" id="f0-1" data-id="1" data-root="0" data-offset="[[OFF1]]" data-size="[[SIZE1]]" data-start="[[START1]]" data-end="[[END1]]"
// CHECK-SAME: stroke-dasharray="3 2"><title>%1 = rlx.gelu (view 1 of buffer 0, +0 bytes)
// CHECK-NEXT: memory-report-svg.mlir:[[# @LINE - 31]]:8
// CHECK: </title></rect>
// CHECK-NEXT: </g>
// Labels where they fit; the lower bound (the text report's) as a line.
// CHECK-NEXT: <g class="labels"
// CHECK-NEXT: >%0 matmul</text>
// CHECK: <line class="lower-bound" data-bytes="[[LOWER]]" x1="88.00" x2="568.00" y1="48.00" y2="48.00"
// CHECK: </svg>

// FILE: <svg xmlns="http://www.w3.org/2000/svg" class="function" data-function="chain"

// A second function is a second panel, below the first. Best-fit misses the
// lower bound by 64 bytes (memory-report.mlir): the arena's top is drawn
// apart from the lower bound.
func.func @divergent(%x: tensor<1x16xf32>, %w: tensor<16x16xf32>,
                     %a: tensor<2x1xf32>, %m: tensor<3x3xf32>) -> tensor<4x16xf32> {
  %b0 = rlx.matmul %x, %w : tensor<1x16xf32>, tensor<16x16xf32>
  %b1 = rlx.matmul %x, %w : tensor<1x16xf32>, tensor<16x16xf32>
  %b2 = rlx.matmul %x, %w : tensor<1x16xf32>, tensor<16x16xf32>
  %b3 = rlx.matmul %a, %b1 : tensor<2x1xf32>, tensor<1x16xf32>
  %b4 = rlx.concat %b2, %b3 axis = 0 : tensor<1x16xf32>, tensor<2x16xf32>
  %b5 = rlx.matmul %m, %b4 : tensor<3x3xf32>, tensor<3x16xf32>
  %y = rlx.concat %b0, %b5 axis = 0 : tensor<1x16xf32>, tensor<3x16xf32>
  return %y : tensor<4x16xf32>
}

// CHECK-LABEL: data-function="divergent" x="0" y="452.00"
// CHECK: </svg>
// CHECK-NEXT: </svg>

// BESTFIT-LABEL: data-function="divergent"
// BESTFIT: @divergent: arena 512 B, lower bound 448 B, ratio 1.1429
// BESTFIT: <g class="buffers">
// BESTFIT-COUNT-6: <rect class="buffer"
// BESTFIT-NOT: <rect
// BESTFIT: </g>
// BESTFIT: <line class="lower-bound" data-bytes="448" {{.*}} y1="93.00"
// BESTFIT: <line class="arena-size" data-bytes="512" {{.*}} y1="48.00"

// HTML: <!DOCTYPE html>
// HTML: <p class="legend">
// HTML: <h2>@chain</h2>
// HTML-NEXT: <div class="plot">
// HTML-NEXT: <svg xmlns="http://www.w3.org/2000/svg" class="function" data-function="chain"
// HTML: <h2>@divergent</h2>
// HTML: </html>

// BAD: error: unknown format 'png'; expected text, json, svg or html
