// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trips of the convolution and pooling ops. Functions return their
// results so that the `return` line checks the inferred output sizes.

//===----------------------------------------------------------------------===//
// rlx.conv
//===----------------------------------------------------------------------===//

// 2-D with and without bias; out = (in + lo + hi - dilation (k - 1) - 1) / stride + 1.
// CHECK-LABEL: func.func @conv2d
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<1x3x32x32xf32>, %[[W:[^:]+]]: tensor<16x3x3x3xf32>, %[[B:[^:]+]]: tensor<16xf32>)
func.func @conv2d(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>)
    -> (tensor<1x16x16x16xf32>, tensor<1x16x30x30xf32>, tensor<1x16x30x30xf32>, tensor<1x16x28x28xf32>, tensor<1x16x15x17xf32>) {
  // CHECK: %[[A:.+]] = rlx.conv %[[X]], %[[W]], %[[B]] strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>
  %a = rlx.conv %x, %w, %b strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>
  // CHECK: %[[NB:.+]] = rlx.conv %[[X]], %[[W]] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>{{$}}
  %nb = rlx.conv %x, %w : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>
  // CHECK: %[[WB:.+]] = rlx.conv %[[X]], %[[W]], %[[B]] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>
  %wb = rlx.conv %x, %w, %b : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>
  // CHECK: %[[D:.+]] = rlx.conv %[[X]], %[[W]] dilations = [2, 2] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>
  %d = rlx.conv %x, %w dilations = [2, 2] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>
  // Padding per dim, low then high: H = (32 + 0 + 0 - 3) / 2 + 1 = 15,
  // W = (32 + 2 + 1 - 3) / 2 + 1 = 17.
  // CHECK: %[[P:.+]] = rlx.conv %[[X]], %[[W]], %[[B]] strides = [2, 2] padding = [0, 0, 2, 1] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>
  %p = rlx.conv %x, %w, %b strides = [2, 2] padding = [0, 0, 2, 1] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>
  // CHECK: return %[[A]], %[[NB]], %[[WB]], %[[D]], %[[P]] : tensor<1x16x16x16xf32>, tensor<1x16x30x30xf32>, tensor<1x16x30x30xf32>, tensor<1x16x28x28xf32>, tensor<1x16x15x17xf32>
  return %a, %nb, %wb, %d, %p : tensor<1x16x16x16xf32>, tensor<1x16x30x30xf32>, tensor<1x16x30x30xf32>, tensor<1x16x28x28xf32>, tensor<1x16x15x17xf32>
}

// Every window attribute at once, in the order printed.
// CHECK-LABEL: func.func @conv2d_all_attributes
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x8x20x20xf32>, %[[W:[^:]+]]: tensor<4x4x3x3xf32>, %[[B:[^:]+]]: tensor<4xf32>)
func.func @conv2d_all_attributes(%x: tensor<2x8x20x20xf32>, %w: tensor<4x4x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x9x6xf32> {
  // H = (20 + 1 + 1 - 2 * 2 - 1) / 2 + 1 = 9, W = (20 + 1 + 1 - 2 * 2 - 1) / 3 + 1 = 6.
  // CHECK: %[[Y:.+]] = rlx.conv %[[X]], %[[W]], %[[B]] strides = [2, 3] padding = [1, 1, 1, 1] dilations = [2, 2] groups = 2 : tensor<2x8x20x20xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>
  %y = rlx.conv %x, %w, %b strides = [2, 3] padding = [1, 1, 1, 1] dilations = [2, 2] groups = 2 : tensor<2x8x20x20xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>
  // CHECK: return %[[Y]] : tensor<2x4x9x6xf32>
  return %y : tensor<2x4x9x6xf32>
}

// Grouped and depthwise (groups = channels) convolutions; groups = 1 is
// the default and is not printed.
// CHECK-LABEL: func.func @conv2d_groups
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x8x10x10xf32>, %[[WG:[^:]+]]: tensor<4x4x3x3xf32>, %[[WD:[^:]+]]: tensor<8x1x3x3xf32>, %[[W1:[^:]+]]: tensor<6x8x1x1xf32>)
func.func @conv2d_groups(%x: tensor<2x8x10x10xf32>, %wg: tensor<4x4x3x3xf32>, %wd: tensor<8x1x3x3xf32>, %w1: tensor<6x8x1x1xf32>)
    -> (tensor<2x4x8x8xf32>, tensor<2x8x8x8xf32>, tensor<2x6x10x10xf32>) {
  // CHECK: %[[G:.+]] = rlx.conv %[[X]], %[[WG]] groups = 2 : tensor<2x8x10x10xf32>, tensor<4x4x3x3xf32>
  %g = rlx.conv %x, %wg groups = 2 : tensor<2x8x10x10xf32>, tensor<4x4x3x3xf32>
  // CHECK: %[[DW:.+]] = rlx.conv %[[X]], %[[WD]] groups = 8 : tensor<2x8x10x10xf32>, tensor<8x1x3x3xf32>
  %dw = rlx.conv %x, %wd groups = 8 : tensor<2x8x10x10xf32>, tensor<8x1x3x3xf32>
  // CHECK: %[[ONE:.+]] = rlx.conv %[[X]], %[[W1]] : tensor<2x8x10x10xf32>, tensor<6x8x1x1xf32>
  %one = rlx.conv %x, %w1 groups = 1 : tensor<2x8x10x10xf32>, tensor<6x8x1x1xf32>
  // CHECK: return %[[G]], %[[DW]], %[[ONE]] : tensor<2x4x8x8xf32>, tensor<2x8x8x8xf32>, tensor<2x6x10x10xf32>
  return %g, %dw, %one : tensor<2x4x8x8xf32>, tensor<2x8x8x8xf32>, tensor<2x6x10x10xf32>
}

// 1-D (NCL): one stride and dilation, two paddings.
// CHECK-LABEL: func.func @conv1d
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x4x100xf32>, %[[W:[^:]+]]: tensor<8x4x5xf32>, %[[B:[^:]+]]: tensor<8xf32>, %[[WG:[^:]+]]: tensor<4x1x3xf32>)
func.func @conv1d(%x: tensor<2x4x100xf32>, %w: tensor<8x4x5xf32>, %b: tensor<8xf32>, %wg: tensor<4x1x3xf32>)
    -> (tensor<2x8x50xf32>, tensor<2x8x96xf32>, tensor<2x4x96xf32>) {
  // CHECK: %[[A:.+]] = rlx.conv %[[X]], %[[W]], %[[B]] strides = [2] padding = [2, 2] : tensor<2x4x100xf32>, tensor<8x4x5xf32>, tensor<8xf32>
  %a = rlx.conv %x, %w, %b strides = [2] padding = [2, 2] : tensor<2x4x100xf32>, tensor<8x4x5xf32>, tensor<8xf32>
  // CHECK: %[[NB:.+]] = rlx.conv %[[X]], %[[W]] : tensor<2x4x100xf32>, tensor<8x4x5xf32>{{$}}
  %nb = rlx.conv %x, %w : tensor<2x4x100xf32>, tensor<8x4x5xf32>
  // CHECK: %[[G:.+]] = rlx.conv %[[X]], %[[WG]] dilations = [2] groups = 4 : tensor<2x4x100xf32>, tensor<4x1x3xf32>
  %g = rlx.conv %x, %wg dilations = [2] groups = 4 : tensor<2x4x100xf32>, tensor<4x1x3xf32>
  // CHECK: return %[[A]], %[[NB]], %[[G]] : tensor<2x8x50xf32>, tensor<2x8x96xf32>, tensor<2x4x96xf32>
  return %a, %nb, %g : tensor<2x8x50xf32>, tensor<2x8x96xf32>, tensor<2x4x96xf32>
}

// Dynamic batch, channels and spatial dims; a window exactly the padded
// input size gives 1.
// CHECK-LABEL: func.func @conv_dynamic
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x3x?x32xf32>, %[[W:[^:]+]]: tensor<16x3x3x3xf32>, %[[XC:[^:]+]]: tensor<1x?x8x8xf32>, %[[WD:[^:]+]]: tensor<?x?x?x8xf32>)
func.func @conv_dynamic(%x: tensor<?x3x?x32xf32>, %w: tensor<16x3x3x3xf32>, %xc: tensor<1x?x8x8xf32>, %wd: tensor<?x?x?x8xf32>)
    -> (tensor<?x16x?x30xf32>, tensor<1x?x?x1xf32>) {
  // CHECK: %[[A:.+]] = rlx.conv %[[X]], %[[W]] : tensor<?x3x?x32xf32>, tensor<16x3x3x3xf32>
  %a = rlx.conv %x, %w : tensor<?x3x?x32xf32>, tensor<16x3x3x3xf32>
  // CHECK: %[[B:.+]] = rlx.conv %[[XC]], %[[WD]] : tensor<1x?x8x8xf32>, tensor<?x?x?x8xf32>
  %b = rlx.conv %xc, %wd : tensor<1x?x8x8xf32>, tensor<?x?x?x8xf32>
  // CHECK: return %[[A]], %[[B]] : tensor<?x16x?x30xf32>, tensor<1x?x?x1xf32>
  return %a, %b : tensor<?x16x?x30xf32>, tensor<1x?x?x1xf32>
}

// CHECK-LABEL: func.func @conv_element_types
func.func @conv_element_types(%h: tensor<1x2x4x4xf16>, %wh: tensor<2x2x3x3xf16>, %bh: tensor<2xf16>,
                              %bf: tensor<1x2x4xbf16>, %wbf: tensor<2x2x3xbf16>,
                              %d: tensor<1x2x4x4xf64>, %wd: tensor<2x2x3x3xf64>, %bd: tensor<2xf64>)
    -> (tensor<1x2x2x2xf16>, tensor<1x2x2xbf16>, tensor<1x2x2x2xf64>) {
  // CHECK: %[[A:.+]] = rlx.conv %{{.+}}, %{{.+}}, %{{.+}} : tensor<1x2x4x4xf16>, tensor<2x2x3x3xf16>, tensor<2xf16>
  %0 = rlx.conv %h, %wh, %bh : tensor<1x2x4x4xf16>, tensor<2x2x3x3xf16>, tensor<2xf16>
  // CHECK: %[[B:.+]] = rlx.conv %{{.+}}, %{{.+}} : tensor<1x2x4xbf16>, tensor<2x2x3xbf16>
  %1 = rlx.conv %bf, %wbf : tensor<1x2x4xbf16>, tensor<2x2x3xbf16>
  // CHECK: %[[C:.+]] = rlx.conv %{{.+}}, %{{.+}}, %{{.+}} : tensor<1x2x4x4xf64>, tensor<2x2x3x3xf64>, tensor<2xf64>
  %2 = rlx.conv %d, %wd, %bd : tensor<1x2x4x4xf64>, tensor<2x2x3x3xf64>, tensor<2xf64>
  // CHECK: return %[[A]], %[[B]], %[[C]] : tensor<1x2x2x2xf16>, tensor<1x2x2xbf16>, tensor<1x2x2x2xf64>
  return %0, %1, %2 : tensor<1x2x2x2xf16>, tensor<1x2x2xbf16>, tensor<1x2x2x2xf64>
}

//===----------------------------------------------------------------------===//
// rlx.conv_transpose2d
//===----------------------------------------------------------------------===//

// out = (in - 1) stride - lo - hi + dilation (k - 1) + output_padding + 1;
// the weight is [Cin, Cout / groups, kh, kw].
// CHECK-LABEL: func.func @conv_transpose2d
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<1x16x8x8xf32>, %[[W:[^:]+]]: tensor<16x8x4x4xf32>, %[[B:[^:]+]]: tensor<8xf32>)
func.func @conv_transpose2d(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x4x4xf32>, %b: tensor<8xf32>)
    -> (tensor<1x8x18x18xf32>, tensor<1x8x11x11xf32>, tensor<1x8x16x16xf32>, tensor<1x8x17x16xf32>, tensor<1x8x14x14xf32>) {
  // CHECK: %[[A:.+]] = rlx.conv_transpose2d %[[X]], %[[W]] strides = [2, 2] : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>{{$}}
  %a = rlx.conv_transpose2d %x, %w strides = [2, 2] : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>
  // CHECK: %[[NB:.+]] = rlx.conv_transpose2d %[[X]], %[[W]], %[[B]] : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>, tensor<8xf32>
  %nb = rlx.conv_transpose2d %x, %w, %b : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>, tensor<8xf32>
  // CHECK: %[[P:.+]] = rlx.conv_transpose2d %[[X]], %[[W]], %[[B]] strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>, tensor<8xf32>
  %p = rlx.conv_transpose2d %x, %w, %b strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>, tensor<8xf32>
  // output_padding (smaller than the stride) per dim.
  // CHECK: %[[OP:.+]] = rlx.conv_transpose2d %[[X]], %[[W]] strides = [2, 2] padding = [1, 1, 1, 1] output_padding = [1, 0] : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>
  %op = rlx.conv_transpose2d %x, %w strides = [2, 2] padding = [1, 1, 1, 1] output_padding = [1, 0] : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>
  // CHECK: %[[D:.+]] = rlx.conv_transpose2d %[[X]], %[[W]] dilations = [2, 2] : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>
  %d = rlx.conv_transpose2d %x, %w dilations = [2, 2] : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>
  // CHECK: return %[[A]], %[[NB]], %[[P]], %[[OP]], %[[D]] : tensor<1x8x18x18xf32>, tensor<1x8x11x11xf32>, tensor<1x8x16x16xf32>, tensor<1x8x17x16xf32>, tensor<1x8x14x14xf32>
  return %a, %nb, %p, %op, %d : tensor<1x8x18x18xf32>, tensor<1x8x11x11xf32>, tensor<1x8x16x16xf32>, tensor<1x8x17x16xf32>, tensor<1x8x14x14xf32>
}

// Groups multiply the weight's dim 1 into the output channels; output
// padding may also be smaller than the dilation instead of the stride.
// CHECK-LABEL: func.func @conv_transpose2d_groups
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x8x5x5xf32>, %[[W:[^:]+]]: tensor<8x3x3x3xf32>, %[[B:[^:]+]]: tensor<6xf32>)
func.func @conv_transpose2d_groups(%x: tensor<2x8x5x5xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<6xf32>)
    -> (tensor<2x6x11x11xf32>, tensor<2x6x10x10xf32>) {
  // CHECK: %[[G:.+]] = rlx.conv_transpose2d %[[X]], %[[W]], %[[B]] strides = [2, 2] padding = [0, 0, 0, 0] output_padding = [0, 0] groups = 2 : tensor<2x8x5x5xf32>, tensor<8x3x3x3xf32>, tensor<6xf32>
  %g = rlx.conv_transpose2d %x, %w, %b strides = [2, 2] padding = [0, 0, 0, 0] output_padding = [0, 0] groups = 2 : tensor<2x8x5x5xf32>, tensor<8x3x3x3xf32>, tensor<6xf32>
  // (5 - 1) * 1 + 2 * 2 + 1 + 1 = 10.
  // CHECK: %[[D:.+]] = rlx.conv_transpose2d %[[X]], %[[W]] dilations = [2, 2] output_padding = [1, 1] groups = 2 : tensor<2x8x5x5xf32>, tensor<8x3x3x3xf32>
  %d = rlx.conv_transpose2d %x, %w dilations = [2, 2] output_padding = [1, 1] groups = 2 : tensor<2x8x5x5xf32>, tensor<8x3x3x3xf32>
  // CHECK: return %[[G]], %[[D]] : tensor<2x6x11x11xf32>, tensor<2x6x10x10xf32>
  return %g, %d : tensor<2x6x11x11xf32>, tensor<2x6x10x10xf32>
}

// Dynamic dims and other float types.
// CHECK-LABEL: func.func @conv_transpose2d_dynamic_and_types
func.func @conv_transpose2d_dynamic_and_types(%x: tensor<?x4x?x6xf32>, %w: tensor<4x2x3x3xf32>,
                                              %h: tensor<1x2x3x3xf16>, %wh: tensor<2x2x2x2xf16>,
                                              %d: tensor<1x2x3x3xf64>, %wd: tensor<2x1x2x2xf64>)
    -> (tensor<?x2x?x8xf32>, tensor<1x2x4x4xf16>, tensor<1x1x4x4xf64>) {
  // CHECK: %[[A:.+]] = rlx.conv_transpose2d %{{.+}}, %{{.+}} : tensor<?x4x?x6xf32>, tensor<4x2x3x3xf32>
  %0 = rlx.conv_transpose2d %x, %w : tensor<?x4x?x6xf32>, tensor<4x2x3x3xf32>
  // CHECK: %[[B:.+]] = rlx.conv_transpose2d %{{.+}}, %{{.+}} : tensor<1x2x3x3xf16>, tensor<2x2x2x2xf16>
  %1 = rlx.conv_transpose2d %h, %wh : tensor<1x2x3x3xf16>, tensor<2x2x2x2xf16>
  // CHECK: %[[C:.+]] = rlx.conv_transpose2d %{{.+}}, %{{.+}} : tensor<1x2x3x3xf64>, tensor<2x1x2x2xf64>
  %2 = rlx.conv_transpose2d %d, %wd : tensor<1x2x3x3xf64>, tensor<2x1x2x2xf64>
  // CHECK: return %[[A]], %[[B]], %[[C]] : tensor<?x2x?x8xf32>, tensor<1x2x4x4xf16>, tensor<1x1x4x4xf64>
  return %0, %1, %2 : tensor<?x2x?x8xf32>, tensor<1x2x4x4xf16>, tensor<1x1x4x4xf64>
}

//===----------------------------------------------------------------------===//
// rlx.pool
//===----------------------------------------------------------------------===//

// max and avg; strides default to the kernel.
// CHECK-LABEL: func.func @pool
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<1x3x32x32xf32>)
func.func @pool(%x: tensor<1x3x32x32xf32>)
    -> (tensor<1x3x16x16xf32>, tensor<1x3x16x16xf32>, tensor<1x3x32x32xf32>, tensor<1x3x15x16xf32>, tensor<1x3x10x10xf32>) {
  // CHECK: %[[MAX:.+]] = rlx.pool max %[[X]] kernel = [2, 2] : tensor<1x3x32x32xf32>
  %max = rlx.pool max %x kernel = [2, 2] : tensor<1x3x32x32xf32>
  // CHECK: %[[AVG:.+]] = rlx.pool avg %[[X]] kernel = [2, 2] : tensor<1x3x32x32xf32>
  %avg = rlx.pool avg %x kernel = [2, 2] : tensor<1x3x32x32xf32>
  // Padding up to half the kernel.
  // CHECK: %[[SAME:.+]] = rlx.pool avg %[[X]] kernel = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] : tensor<1x3x32x32xf32>
  %same = rlx.pool avg %x kernel = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1] : tensor<1x3x32x32xf32>
  // Per-dim kernel, strides and asymmetric padding:
  // H = (32 + 0 + 0 - 4) / 2 + 1 = 15, W = (32 + 1 + 0 - 3) / 2 + 1 = 16.
  // CHECK: %[[MIX:.+]] = rlx.pool max %[[X]] kernel = [4, 3] strides = [2, 2] padding = [0, 0, 1, 0] : tensor<1x3x32x32xf32>
  %mix = rlx.pool max %x kernel = [4, 3] strides = [2, 2] padding = [0, 0, 1, 0] : tensor<1x3x32x32xf32>
  // Strides given, padding left out: (32 - 5) / 3 + 1 = 10.
  // CHECK: %[[S:.+]] = rlx.pool max %[[X]] kernel = [5, 5] strides = [3, 3] : tensor<1x3x32x32xf32>
  %s = rlx.pool max %x kernel = [5, 5] strides = [3, 3] : tensor<1x3x32x32xf32>
  // CHECK: return %[[MAX]], %[[AVG]], %[[SAME]], %[[MIX]], %[[S]] : tensor<1x3x16x16xf32>, tensor<1x3x16x16xf32>, tensor<1x3x32x32xf32>, tensor<1x3x15x16xf32>, tensor<1x3x10x10xf32>
  return %max, %avg, %same, %mix, %s : tensor<1x3x16x16xf32>, tensor<1x3x16x16xf32>, tensor<1x3x32x32xf32>, tensor<1x3x15x16xf32>, tensor<1x3x10x10xf32>
}

// Padding without strides (strides = kernel): (8 + 1 + 1 - 2) / 2 + 1 = 5.
// CHECK-LABEL: func.func @pool_padding_only
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<1x1x8x8xf32>)
func.func @pool_padding_only(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x5x5xf32> {
  // CHECK: %[[Y:.+]] = rlx.pool avg %[[X]] kernel = [2, 2] padding = [1, 1, 1, 1] : tensor<1x1x8x8xf32>
  %y = rlx.pool avg %x kernel = [2, 2] padding = [1, 1, 1, 1] : tensor<1x1x8x8xf32>
  // CHECK: return %[[Y]] : tensor<1x1x5x5xf32>
  return %y : tensor<1x1x5x5xf32>
}

// 1-D pooling, dynamic dims and other float types.
// CHECK-LABEL: func.func @pool_shapes_and_types
func.func @pool_shapes_and_types(%v: tensor<2x4x10xf32>, %d: tensor<?x3x?x8xf32>,
                                 %h: tensor<1x1x4x4xf16>, %bf: tensor<1x1x6xbf16>, %f64: tensor<1x1x4x4xf64>)
    -> (tensor<2x4x4xf32>, tensor<?x3x?x4xf32>, tensor<1x1x2x2xf16>, tensor<1x1x3xbf16>, tensor<1x1x4x4xf64>) {
  // CHECK: %[[A:.+]] = rlx.pool max %{{.+}} kernel = [3] strides = [2] : tensor<2x4x10xf32>
  %0 = rlx.pool max %v kernel = [3] strides = [2] : tensor<2x4x10xf32>
  // CHECK: %[[B:.+]] = rlx.pool avg %{{.+}} kernel = [2, 2] : tensor<?x3x?x8xf32>
  %1 = rlx.pool avg %d kernel = [2, 2] : tensor<?x3x?x8xf32>
  // CHECK: %[[C:.+]] = rlx.pool max %{{.+}} kernel = [2, 2] : tensor<1x1x4x4xf16>
  %2 = rlx.pool max %h kernel = [2, 2] : tensor<1x1x4x4xf16>
  // CHECK: %[[D:.+]] = rlx.pool avg %{{.+}} kernel = [2] : tensor<1x1x6xbf16>
  %3 = rlx.pool avg %bf kernel = [2] : tensor<1x1x6xbf16>
  // CHECK: %[[E:.+]] = rlx.pool max %{{.+}} kernel = [1, 1] : tensor<1x1x4x4xf64>
  %4 = rlx.pool max %f64 kernel = [1, 1] : tensor<1x1x4x4xf64>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]] : tensor<2x4x4xf32>, tensor<?x3x?x4xf32>, tensor<1x1x2x2xf16>, tensor<1x1x3xbf16>, tensor<1x1x4x4xf64>
  return %0, %1, %2, %3, %4 : tensor<2x4x4xf32>, tensor<?x3x?x4xf32>, tensor<1x1x2x2xf16>, tensor<1x1x3xbf16>, tensor<1x1x4x4xf64>
}
