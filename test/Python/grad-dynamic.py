# RUN: %python %s
# rlx.grad of losses over dynamic dims: ONE compiled CPU program per loss
# runs at several batch sizes and sequence lengths, its loss and gradients
# against PyTorch autograd on the same fresh random inputs. Covered: a mean
# over a dynamic batch and sequence (its gradient divides by a count known
# only at run time), a mean over the sequence alone, a max over a dynamic
# axis (ties share the gradient), a bias broadcast over dynamic dims (its
# gradient sums over them), layer_norm, group_norm, GELU, softmax, matmul and
# softmax_cross_entropy with a dynamic batch, and an
# nn.TransformerEncoderLayer imported with a dynamic batch and sequence.
# float64 programs against float64 PyTorch at rtol 1e-9; one float32 program against float64 PyTorch at
# rtol 1e-4 (f32 sums of up to 17 * 8 * 16 terms).
import os

import numpy as np
import torch

import rlx

SEED = int(os.environ.get("RLX_TEST_SEED") or
           int.from_bytes(os.urandom(4), "little"))
rng = np.random.default_rng(SEED)
torch.manual_seed(SEED)
H = 16
FAILURES = []

# Encoder-shaped: x [?, ?, H] -> layer_norm -> x W + b -> GELU -> softmax
# over H -> times x -> mean over every dim (batch and sequence dynamic).
ENCODER = """
func.func @loss(%%x: tensor<?x?x16x%(t)s>, %%g: tensor<16x%(t)s>,
                %%be: tensor<16x%(t)s>, %%w: tensor<16x16x%(t)s>,
                %%b: tensor<16x%(t)s>) -> tensor<%(t)s> {
  %%n = rlx.layer_norm %%x, %%g, %%be {epsilon = 1.0e-5 : f32}
      : tensor<?x?x16x%(t)s>, tensor<16x%(t)s>
  %%m = rlx.matmul %%n, %%w : tensor<?x?x16x%(t)s>, tensor<16x16x%(t)s>
  %%z = rlx.add %%m, %%b : tensor<?x?x16x%(t)s>, tensor<16x%(t)s>
  %%a = rlx.gelu %%z : tensor<?x?x16x%(t)s>
  %%s = rlx.softmax %%a axis = -1 : tensor<?x?x16x%(t)s>
  %%p = rlx.mul %%s, %%x : tensor<?x?x16x%(t)s>
  %%l = rlx.reduce mean %%p axes = [0, 1, 2] : tensor<?x?x16x%(t)s>
  return %%l : tensor<%(t)s>
}
func.func @main(%%x: tensor<?x?x16x%(t)s>, %%g: tensor<16x%(t)s>,
                %%be: tensor<16x%(t)s>, %%w: tensor<16x16x%(t)s>,
                %%b: tensor<16x%(t)s>)
    -> (tensor<%(t)s>, tensor<?x?x16x%(t)s>, tensor<16x%(t)s>,
        tensor<16x%(t)s>, tensor<16x16x%(t)s>, tensor<16x%(t)s>) {
  %%r:6 = rlx.grad @loss(%%x, %%g, %%be, %%w, %%b) wrt [0, 1, 2, 3, 4]
      : (tensor<?x?x16x%(t)s>, tensor<16x%(t)s>, tensor<16x%(t)s>,
         tensor<16x16x%(t)s>, tensor<16x%(t)s>)
      -> (tensor<%(t)s>, tensor<?x?x16x%(t)s>, tensor<16x%(t)s>,
          tensor<16x%(t)s>, tensor<16x16x%(t)s>, tensor<16x%(t)s>)
  return %%r#0, %%r#1, %%r#2, %%r#3, %%r#4, %%r#5
      : tensor<%(t)s>, tensor<?x?x16x%(t)s>, tensor<16x%(t)s>,
        tensor<16x%(t)s>, tensor<16x16x%(t)s>, tensor<16x%(t)s>
}
"""


def encoder_torch(x, g, be, w, b):
    n = torch.nn.functional.layer_norm(x, [H], g, be, 1e-5)
    a = torch.nn.functional.gelu(n @ w + b)
    return (torch.softmax(a, -1) * x).mean()


# Pooling over a dynamic sequence: mean over the sequence alone, then the
# max over the batch (dynamic, reduced), summed over H.
POOLED = """
func.func @loss(%x: tensor<?x?x16xf64>, %w: tensor<16xf64>) -> tensor<f64> {
  %y = rlx.mul %x, %w : tensor<?x?x16xf64>, tensor<16xf64>
  %m = rlx.reduce mean %y axes = [1] : tensor<?x?x16xf64>
  %t = rlx.tanh %m : tensor<?x16xf64>
  %k = rlx.reduce max %t axes = [0] : tensor<?x16xf64>
  %l = rlx.reduce sum %k axes = [0] : tensor<16xf64>
  return %l : tensor<f64>
}
func.func @main(%x: tensor<?x?x16xf64>, %w: tensor<16xf64>)
    -> (tensor<f64>, tensor<?x?x16xf64>, tensor<16xf64>) {
  %r:3 = rlx.grad @loss(%x, %w) wrt [0, 1]
      : (tensor<?x?x16xf64>, tensor<16xf64>)
      -> (tensor<f64>, tensor<?x?x16xf64>, tensor<16xf64>)
  return %r#0, %r#1, %r#2 : tensor<f64>, tensor<?x?x16xf64>, tensor<16xf64>
}
"""


def pooled_torch(x, w):
    return torch.tanh((x * w).mean(1)).amax(0).sum()


# A classifier over a dynamic batch: cross entropy (a mean over the batch).
CLASSIFIER = """
func.func @loss(%x: tensor<?x16xf64>, %w: tensor<16x5xf64>, %b: tensor<5xf64>,
                %y: tensor<?xi64>) -> tensor<f64> {
  %m = rlx.matmul %x, %w : tensor<?x16xf64>, tensor<16x5xf64>
  %z = rlx.add %m, %b : tensor<?x5xf64>, tensor<5xf64>
  %l = rlx.softmax_cross_entropy %z, %y : tensor<?x5xf64>, tensor<?xi64>
  return %l : tensor<f64>
}
func.func @main(%x: tensor<?x16xf64>, %w: tensor<16x5xf64>, %b: tensor<5xf64>,
                %y: tensor<?xi64>)
    -> (tensor<f64>, tensor<?x16xf64>, tensor<16x5xf64>, tensor<5xf64>) {
  %r:4 = rlx.grad @loss(%x, %w, %b, %y) wrt [0, 1, 2]
      : (tensor<?x16xf64>, tensor<16x5xf64>, tensor<5xf64>, tensor<?xi64>)
      -> (tensor<f64>, tensor<?x16xf64>, tensor<16x5xf64>, tensor<5xf64>)
  return %r#0, %r#1, %r#2, %r#3
      : tensor<f64>, tensor<?x16xf64>, tensor<16x5xf64>, tensor<5xf64>
}
"""


# group_norm over a dynamic batch (its gradient is taken through its
# decomposition, which needs the other dims static).
GROUPED = """
func.func @loss(%x: tensor<?x8x3x5xf64>, %g: tensor<8xf64>, %b: tensor<8xf64>)
    -> tensor<f64> {
  %y = rlx.group_norm %x, %g, %b {num_groups = 4 : i64}
      : tensor<?x8x3x5xf64>, tensor<8xf64>
  %t = rlx.tanh %y : tensor<?x8x3x5xf64>
  %l = rlx.reduce mean %t axes = [0, 1, 2, 3] : tensor<?x8x3x5xf64>
  return %l : tensor<f64>
}
func.func @main(%x: tensor<?x8x3x5xf64>, %g: tensor<8xf64>, %b: tensor<8xf64>)
    -> (tensor<f64>, tensor<?x8x3x5xf64>, tensor<8xf64>, tensor<8xf64>) {
  %r:4 = rlx.grad @loss(%x, %g, %b) wrt [0, 1, 2]
      : (tensor<?x8x3x5xf64>, tensor<8xf64>, tensor<8xf64>)
      -> (tensor<f64>, tensor<?x8x3x5xf64>, tensor<8xf64>, tensor<8xf64>)
  return %r#0, %r#1, %r#2, %r#3
      : tensor<f64>, tensor<?x8x3x5xf64>, tensor<8xf64>, tensor<8xf64>
}
"""


def grouped_torch(x, g, b):
    # rlx.group_norm's epsilon is an f32 attribute.
    eps = float(np.float32(1e-5))
    return torch.tanh(torch.nn.functional.group_norm(x, 4, g, b, eps)).mean()


def classifier_torch(x, w, b, y):
    return torch.nn.functional.cross_entropy(x @ w + b, y)


def check(name, program, reference, inputs, wrt, rtol):
    """Runs `program` on `inputs` (NumPy) and compares its loss and the
    gradients w.r.t. inputs[wrt] with `reference`'s in float64."""
    outs = program(*inputs)
    ts = [torch.tensor(a.astype(np.float64) if a.dtype.kind == "f" else a,
                       requires_grad=i in wrt)
          for i, a in enumerate(inputs)]
    loss = reference(*ts)
    loss.backward()
    expected = [loss.detach().numpy()] + [ts[i].grad.numpy() for i in wrt]
    for k, (got, want) in enumerate(zip(outs, expected)):
        got = np.asarray(got, np.float64)
        scale = max(np.abs(want).max(), 1e-300)
        err = np.abs(got - want).max() / scale if got.shape == want.shape \
            else float("inf")
        what = "loss" if k == 0 else "d/d arg %d" % wrt[k - 1]
        if not err <= rtol:
            FAILURES.append("%s %s: shape %s (want %s), max error %.3g of "
                            "max |ref| (rtol %g)" % (
                                name, what, got.shape, want.shape, err, rtol))
    print("%s: ok" % name if not FAILURES else "%s: checked" % name)


def compiled(text):
    return rlx.compile(rlx.Module.parse(text), function="main")


for dtype, np_type, rtol in (("f64", np.float64, 1e-9),
                             ("f32", np.float32, 1e-4)):
    program = compiled(ENCODER % {"t": dtype})
    for batch, seq in ((1, 1), (3, 5), (2, 17), (8, 1)):
        x = rng.uniform(-2, 2, (batch, seq, H)).astype(np_type)
        g = rng.uniform(0.5, 1.5, H).astype(np_type)
        be = rng.uniform(-0.5, 0.5, H).astype(np_type)
        w = (rng.standard_normal((H, H)) / 4).astype(np_type)
        b = rng.uniform(-0.5, 0.5, H).astype(np_type)
        check("encoder %s b%d s%d" % (dtype, batch, seq), program,
              encoder_torch, [x, g, be, w, b], [0, 1, 2, 3, 4], rtol)

program = compiled(POOLED)
for batch, seq in ((1, 1), (4, 3), (7, 17)):
    x = rng.uniform(-2, 2, (batch, seq, H))
    w = rng.uniform(-1, 1, H)
    check("pooled b%d s%d" % (batch, seq), program, pooled_torch, [x, w],
          [0, 1], 1e-9)
# Ties in the max over the batch: every row equal, so each shares the
# gradient (1/batch each, as torch.amax).
x = np.repeat(rng.uniform(-2, 2, (1, 3, H)), 4, axis=0)
check("pooled ties b4 s3", program, pooled_torch, [x, rng.uniform(-1, 1, H)],
      [0, 1], 1e-9)

program = compiled(GROUPED)
for batch in (1, 5):
    check("group_norm b%d" % batch, program, grouped_torch,
          [rng.uniform(-2, 2, (batch, 8, 3, 5)), rng.uniform(0.5, 1.5, 8),
           rng.uniform(-0.5, 0.5, 8)], [0, 1, 2], 1e-9)

program = compiled(CLASSIFIER)
for batch in (1, 6, 33):
    x = rng.uniform(-2, 2, (batch, H))
    w = rng.standard_normal((H, 5)) / 4
    b = rng.uniform(-0.5, 0.5, 5)
    y = rng.integers(0, 5, batch).astype(np.int64)
    check("classifier b%d" % batch, program, classifier_torch, [x, w, b, y],
          [0, 1, 2], 1e-9)

# A model imported from PyTorch with a dynamic batch and sequence
# (rlx.from_torch(..., dynamic_dims=), parameters as arguments): the mean
# square of an nn.TransformerEncoderLayer's output, differentiated with
# respect to every parameter (the slices of the fused QKV projection pad
# their cotangents with zeros of dynamic size). float64, 1e-9 of each
# gradient's max |ref|. rlx.layer_norm's epsilon is an f32 attribute, so
# PyTorch's layer norms get the same value (float32(1e-5)); with its f64
# 1e-5 the gradients differ by 2.5e-8 of their scale.


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.TransformerEncoderLayer(
            H, 4, 2 * H, dropout=0.0, batch_first=True)

    def forward(self, x):
        return self.layer(x).pow(2).mean()


encoder = Encoder().double().eval()
encoder.layer.norm1.eps = encoder.layer.norm2.eps = float(np.float32(1e-5))
imported = rlx.from_torch(encoder, (torch.randn(2, 5, H, dtype=torch.float64),),
                          params_as_args=True,
                          dynamic_dims={0: {0: "batch", 1: "seq"}})
n_params = len(imported.param_args)
program = rlx.compile(rlx.grad(imported.function,
                               wrt=range(1, n_params + 1)))
named = dict(encoder.named_parameters())
for batch, seq in ((1, 1), (3, 17), (2, 40)):
    x = torch.tensor(rng.uniform(-2, 2, (batch, seq, H)))
    value, *grads = program(x.numpy(), *imported.param_list())
    encoder.zero_grad()
    loss = encoder(x)
    loss.backward()
    errs = [abs(float(value) - loss.item()) / abs(loss.item())]
    for name, g in zip(imported.param_args, grads):
        want = named[name].grad.numpy()
        want = want.T if name in imported.transposed else want
        errs.append(np.abs(g - want).max() / np.abs(want).max()
                    if g.shape == want.shape else float("inf"))
    name = "imported encoder b%d s%d" % (batch, seq)
    if not max(errs) <= 1e-9:
        FAILURES.append("%s: max error %.3g of max |ref| (rtol 1e-9)" %
                        (name, max(errs)))
    print("%s: max error %.2g" % (name, max(errs)))

if FAILURES:
    print("seed %d" % SEED)
    for f in FAILURES:
        print("FAIL", f)
    raise SystemExit(1)
print("all passed (seed %d)" % SEED)
