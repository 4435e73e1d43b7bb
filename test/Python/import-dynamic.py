# RUN: %python %s
# Dynamic dims through the importers: rlx.from_torch(..., dynamic_dims=)
# and rlx.from_onnx(..., dynamic=True) import input dims as `?`; ONE
# compiled CPU program of each model runs at several batch sizes and
# sequence lengths against PyTorch (float32 eval output, relative 1e-4 of
# the output's scale; float64 for the MLP, 1e-9): an MLP (dynamic batch),
# a CNN (BatchNorm, pools; dynamic batch), an
# nn.TransformerEncoderLayer and a hand-written BERT layer (dynamic batch
# and sequence, lengths {1, 17, 128}, batches {1, 3}), and the MLP and
# encoder layer exported to ONNX with dynamic axes. Then the errors: a
# node that bakes a static size in (a slice of a dynamic length, a
# constant of its size, x.view(2, -1) of rows of 5), and programs called with shapes that break them
# (a static dim, the rank, two dynamic dims that must agree), each a
# Python error naming the argument and dim.
import io
import os
import sys

import numpy as np
import torch
import torch.nn as nn

import rlx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
import import_models as M  # noqa: E402

SEED = int(os.environ.get("RLX_TEST_SEED") or
           int.from_bytes(os.urandom(4), "little"))
print("seed", SEED)
gen = torch.Generator().manual_seed(SEED)
failures = []


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=dtype, generator=gen)


def check(what, program, model, shapes, rtol, make=randn, params=()):
    """Runs `program` (one compiled artifact) at each input shape tuple in
    `shapes` against `model` in PyTorch."""
    worst = 0.0
    for shape in shapes:
        inputs = [make(*s) for s in shape]
        with torch.no_grad():
            want = model(*inputs).numpy()
        got = program(*[x.numpy() for x in inputs], *params)
        scale = max(np.abs(want).max(), 1e-30)
        err = np.abs(np.asarray(got, np.float64) - want).max() / scale
        if got.shape != want.shape or not err <= rtol:
            failures.append("%s at %s: relative error %.3g (> %g), shapes "
                            "%s %s" % (what, shape, err, rtol, got.shape,
                                       want.shape))
        worst = max(worst, err)
    print("ok %s at %d shapes from one program (max relative error %.2g)"
          % (what, len(shapes), worst))


def expect_error(what, kind, words, fn):
    try:
        fn()
    except kind as error:
        text = str(error)
        missing = [w for w in words if w not in text]
        if missing:
            failures.append("%s: message lacks %s: %s" % (what, missing,
                                                          text))
        else:
            print("ok %s: %s" % (what, text.split("\n")[0][:200]))
        return
    except Exception as error:  # noqa: BLE001 - reported
        failures.append("%s: raised %s: %s" % (what, type(error).__name__,
                                               error))
        return
    failures.append("%s: no error" % what)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0,
                                                batch_first=True)

    def forward(self, x):
        return self.layer(x)


class ConvNet(nn.Module):
    """M.CNN without its GroupNorm (static batch only, docs/Limits.md)."""

    def __init__(self, classes=7):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2, padding=(1, 2))
        self.avg = nn.AvgPool2d(2, padding=1)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        h = self.pool(torch.relu(self.bn(self.conv1(x))))
        h = torch.nn.functional.silu(self.conv2(h))
        h = self.gap(self.avg(h))
        return self.fc(torch.flatten(h, 1))


# ---- PyTorch ------------------------------------------------------------ #

mlp = M.randomize(M.MLP().double(), gen)
imported = rlx.from_torch(mlp, (randn(4, 12, dtype=torch.float64),),
                          dynamic_dims={0: [0]})
assert "tensor<?x12xf64>" in str(imported.module), imported.module
program = imported.compile()
check("MLP (batch ?)", program, mlp, [[(1, 12)], [(3, 12)], [(17, 12)]],
      1e-9, lambda *s: randn(*s, dtype=torch.float64),
      imported.param_list(program))

cnn = M.randomize(ConvNet(), gen)
imported = rlx.from_torch(cnn, (randn(2, 3, 16, 16),), dynamic_dims={0: [0]})
program = imported.compile()
check("CNN (batch ?)", program, cnn, [[(1, 3, 16, 16)], [(3, 3, 16, 16)]],
      1e-4, params=imported.param_list(program))

shapes = [[(b, s, 32)] for b in (1, 3) for s in (1, 17, 128)]
encoder = M.randomize(Encoder(), gen)
imported = rlx.from_torch(encoder, (randn(2, 5, 32),),
                          dynamic_dims={"x": {0: "batch", 1: "seq"}})
assert "tensor<?x?x32xf32>" in str(imported.module), imported.module
encoder_program = imported.compile()
encoder_params = imported.param_list(encoder_program)
check("TransformerEncoderLayer (batch ?, seq ?)", encoder_program, encoder,
      shapes, 1e-4, params=encoder_params)

bert = M.randomize(M.BertLayer(), gen)
imported = rlx.from_torch(bert, (randn(2, 5, 64),), dynamic_dims={0: [0, 1]})
program = imported.compile()
check("BertLayer (batch ?, seq ?)", program, bert,
      [[(b, s, 64)] for b in (1, 3) for s in (1, 17, 128)], 1e-4,
      params=imported.param_list(program))

# ---- ONNX --------------------------------------------------------------- #


def exported(model, example, axes):
    buffer = io.BytesIO()
    names = ["x"]
    torch.onnx.export(model, example, buffer, opset_version=17,
                      input_names=names, output_names=["y"],
                      dynamic_axes={"x": axes, "y": axes})
    return buffer.getvalue()


mlp32 = M.randomize(M.MLP(), gen)
imported = rlx.from_onnx(exported(mlp32, (randn(4, 12),), {0: "batch"}),
                         dynamic=True)
assert imported.dynamic_dims == {0: {0: "batch"}}, imported.dynamic_dims
program = imported.compile()
check("ONNX MLP (batch ?)", program, mlp32, [[(1, 12)], [(3, 12)]], 1e-4,
      params=imported.param_list(program))

imported = rlx.from_onnx(exported(encoder, (randn(2, 5, 32),),
                                  {0: "batch", 1: "seq"}), dynamic=True)
program = imported.compile()
check("ONNX TransformerEncoderLayer (batch ?, seq ?)", program, encoder,
      shapes, 1e-4, params=imported.param_list(program))

# ---- Errors ------------------------------------------------------------- #


class DropFirst(nn.Module):
    def forward(self, x):
        return x[:, 1:] * 2.0


expect_error("a slice of a dynamic length", rlx.UnsupportedError,
             ["a static size is baked in", "import-dynamic.py", "x[:, 1:]",
              "getitem"],
             lambda: rlx.from_torch(DropFirst(), (randn(2, 5),),
                                    dynamic_dims={0: [1]}))

class TwoRows(nn.Module):
    def forward(self, x):
        return x.view(2, -1) * 2.0


expect_error("x.view(2, -1) of a dynamic batch of rows of 5",
             rlx.UnsupportedError,
             ["a static size is baked in", "view", "(5, 5)"],
             lambda: rlx.from_torch(TwoRows(), (randn(4, 5),),
                                    dynamic_dims={0: [0]}))

bert_model = M.randomize(M.Bert(), gen)
ids = torch.randint(0, 50, (2, 8), generator=gen)
expect_error("a constant of a dynamic length (BERT's position ids)",
             rlx.UnsupportedError,
             ["a static size is baked in", "the shape of a constant",
              "import_models.py"],
             lambda: rlx.from_torch(bert_model, (ids, ids % 2, ids * 0 + 1),
                                    dynamic_dims={0: [1], 1: [1], 2: [1]}))

expect_error("dynamic_dims naming no input", ValueError, ["no input"],
             lambda: rlx.from_torch(mlp, (randn(4, 12, dtype=torch.float64),),
                                    dynamic_dims={"y": [0]}))

x = np.zeros((3, 17, 32), np.float32)
expect_error("a static dim that differs", ValueError,
             ["argument #0", "dim 2", "32", "31"],
             lambda: encoder_program(x[..., :31], *encoder_params))
expect_error("the wrong rank", ValueError, ["argument #0", "rank 3"],
             lambda: encoder_program(x[0], *encoder_params))

ctx = rlx.Context()
with rlx.Function("add", [ctx.tensor((None, 16)),
                          ctx.tensor((None, 16))]) as f:
    f.returns(f.args[0] + f.args[1])
add = rlx.compile(f)
a = np.ones((3, 16), np.float32)
got = add(a, a)
if not np.array_equal(got, a + a):
    failures.append("add of agreeing dims: wrong result")
expect_error("two dynamic dims that must agree", ValueError,
             ["argument #1", "dim 0", "size 5"],
             lambda: add(a, np.ones((5, 16), np.float32)))


class TwoInputs(nn.Module):
    def forward(self, x, y):
        return x + y


two = rlx.from_torch(TwoInputs(), (randn(2, 4), randn(2, 4)),
                     dynamic_dims={0: {0: "batch"}, 1: {0: "batch"}})
expect_error("inputs of one dynamic dim that disagree", ValueError,
             ["input #1", "dim 0", "'batch'"],
             lambda: two(np.ones((2, 4), np.float32),
                         np.ones((3, 4), np.float32)))

for failure in failures:
    print("FAIL", failure)
sys.exit(1 if failures else 0)
