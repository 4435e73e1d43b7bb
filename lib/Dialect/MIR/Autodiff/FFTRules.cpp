//===- FFTRules.cpp - VJP/JVP of fft, rfft and irfft ----------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The transforms are linear, so their JVPs are the ops applied to the
// tangents. Their VJPs are adjoints under PyTorch's complex convention (the
// cotangent of z = a + ib is dL/da + i dL/db; RuleUtils.h), which makes
// them the adjoints of real-linear maps, as torch.fft's backward:
//
//   fft / ifft: y = s F x with F the DFT (or inverse DFT) kernel, s the
//     norm's scale. The adjoint s F^H is the opposite transform whose norm
//     gives the same scale: backward <-> forward, ortho <-> ortho.
//   rfft: y = s P F C x, C crops / zero-pads x to n, P keeps the n/2 + 1
//     non-negative frequencies. dx = C^T Re(s F^H P^T dy); irfft computes
//     Re(F^H .) but counts every bin but DC and Nyquist twice (their
//     conjugates), so dx = C^T irfft(dy / w, n) with w_k = 2 there, 1 at
//     DC and Nyquist, and the dual norm.
//   irfft: y = s Re(F^H W C X) with W = diag(w) and C cropping / padding
//     the spectrum to n/2 + 1 bins. dX = C^T W rfft(dy, n) with the dual
//     norm (whose imaginary parts at DC and Nyquist are zero, as those of
//     X do not reach y).
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::autodiff;

/// The norm whose transform in the opposite direction has the same scale.
static FftNorm dual(FftNorm norm) {
  switch (norm) {
  case FftNorm::Backward:
    return FftNorm::Forward;
  case FftNorm::Forward:
    return FftNorm::Backward;
  case FftNorm::Ortho:
    return FftNorm::Ortho;
  }
  return norm;
}

/// `v` cropped or zero-padded to `length` along its last dim (static).
static Value resizeLast(OpBuilder &b, Location loc, Value v, int64_t length) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t axis = type.getRank() - 1, have = type.getShape().back();
  if (have == length)
    return v;
  if (have > length)
    return NarrowOp::create(b, loc, v, axis, 0, length);
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = length - have;
  Value zeros = splat(b, loc, type.clone(shape), 0.0);
  if (!zeros)
    return {};
  return ConcatOp::create(b, loc, ValueRange{v, zeros}, axis);
}

/// The weights w_k of the n/2 + 1 bins of a length-n real signal's
/// spectrum raised to `power` (1 or -1), as a [n/2 + 1] tensor of
/// `type`'s element type.
static Value binWeights(OpBuilder &b, Location loc, int64_t n, double power,
                        RankedTensorType type) {
  auto complex = cast<ComplexType>(type.getElementType());
  Type part = complex.getElementType();
  int64_t bins = n / 2 + 1;
  SmallVector<Attribute> weights;
  for (int64_t k = 0; k < bins; ++k) {
    bool single = k == 0 || (n % 2 == 0 && k == n / 2);
    weights.push_back(b.getFloatAttr(part, single ? 1.0 : std::pow(2.0, power)));
  }
  auto partType = RankedTensorType::get({bins}, part);
  Value real =
      ConstantOp::create(b, loc, DenseElementsAttr::get(partType, weights));
  return CastOp::create(b, loc, partType.clone(complex), real);
}

/// The length of the signal: `n` when given, else `otherwise`.
static int64_t signalLength(std::optional<uint64_t> n, int64_t otherwise) {
  return n ? static_cast<int64_t>(*n) : otherwise;
}

/// The static length of `v`'s last dim, or an error at `op`.
static FailureOr<int64_t> staticLength(Operation *op, Value v) {
  int64_t length = cast<RankedTensorType>(v.getType()).getShape().back();
  if (ShapedType::isDynamic(length))
    return op->emitOpError("needs a static last dim to be differentiated");
  return length;
}

static LogicalResult fftVjp(FftOp op, OpBuilder &b, ValueRange ct,
                            SmallVectorImpl<Value> &out) {
  out.push_back(FftOp::create(b, op.getLoc(), ct[0], !op.getInverse(),
                              dual(op.getNorm())));
  return success();
}

static LogicalResult fftJvp(FftOp op, OpBuilder &b, ValueRange t,
                            SmallVectorImpl<Value> &out) {
  out.push_back(
      FftOp::create(b, op.getLoc(), t[0], op.getInverse(), op.getNorm()));
  return success();
}

static LogicalResult rfftVjp(RfftOp op, OpBuilder &b, ValueRange ct,
                             SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  FailureOr<int64_t> m = staticLength(op, op.getInput());
  if (failed(m))
    return failure();
  int64_t n = signalLength(op.getN(), *m);
  Value halved = MulOp::create(b, loc, ct[0],
                               binWeights(b, loc, n, -1.0, op.getType()));
  Value dx = IrfftOp::create(b, loc, halved, b.getI64IntegerAttr(n),
                             dual(op.getNorm()));
  dx = resizeLast(b, loc, dx, *m);
  if (!dx)
    return failure();
  out.push_back(dx);
  return success();
}

static LogicalResult irfftVjp(IrfftOp op, OpBuilder &b, ValueRange ct,
                              SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  FailureOr<int64_t> m = staticLength(op, op.getInput());
  if (failed(m))
    return failure();
  int64_t n = signalLength(op.getN(), 2 * (*m - 1));
  auto inType = op.getInput().getType();
  Value spectrum = RfftOp::create(b, loc, ct[0], b.getI64IntegerAttr(n),
                                  dual(op.getNorm()));
  Value dX = MulOp::create(b, loc, spectrum,
                           binWeights(b, loc, n, 1.0, inType));
  dX = resizeLast(b, loc, dX, *m);
  if (!dX)
    return failure();
  out.push_back(dX);
  return success();
}

/// rfft and irfft are real-linear: the JVP is the op on the tangent.
template <typename OpT>
static LogicalResult realFftJvp(OpT op, OpBuilder &b, ValueRange t,
                                SmallVectorImpl<Value> &out) {
  out.push_back(
      OpT::create(b, op.getLoc(), t[0], op.getNAttr(), op.getNorm()));
  return success();
}

void autodiff::attachFFTRules(MLIRContext *ctx) {
  attach<FftOp, fftVjp, fftJvp>(ctx);
  attach<RfftOp, rfftVjp, realFftJvp<RfftOp>>(ctx);
  attach<IrfftOp, irfftVjp, realFftJvp<IrfftOp>>(ctx);
}
