# RLX from Python: build an MLP and its loss, optimize them for the CPU,
# train a few steps with rlx.grad on NumPy arrays, and run the model.
#   PYTHONPATH=build/python python3 docs/examples/python_mlp.py
import numpy as np

import rlx

ctx = rlx.Context()
x_t, y_t = ctx.tensor((32, 16)), ctx.tensor((32,), "i64")
weight_types = [ctx.tensor((16, 64)), ctx.tensor((64,)),
                ctx.tensor((64, 10)), ctx.tensor((10,))]

# The model: every rlx op has a builder, generated from the op definitions.
with rlx.Function("mlp", [x_t] + weight_types) as mlp:
    x, w1, b1, w2, b2 = mlp.args
    h = rlx.gelu(x @ w1 + b1)
    mlp.returns(h @ w2 + b2)

# Its loss, in the same module, and the gradient with respect to the
# weights (arguments 2 to 5): loss_grad returns the loss, then the grads.
with rlx.Function("loss", [x_t, y_t] + weight_types,
                  module=mlp.module) as loss:
    x, y, w1, b1, w2, b2 = loss.args
    logits = rlx.gelu(x @ w1 + b1) @ w2 + b2
    loss.returns(rlx.softmax_cross_entropy(logits, y))
rlx.grad(loss, wrt=[2, 3, 4, 5])

module = mlp.module
print("fusions:", len(module.fusion_report(target="cpu")["fusions"]))
module.run_pipeline("rlx-optimize{target=cpu}")

rng = np.random.default_rng(0)
data = rng.standard_normal((32, 16)).astype(np.float32)
labels = rng.integers(0, 10, 32)
params = [rng.standard_normal((16, 64)).astype(np.float32) / 4,
          np.zeros(64, np.float32),
          rng.standard_normal((64, 10)).astype(np.float32) / 8,
          np.zeros(10, np.float32)]

step = rlx.compile(module, function="loss_grad")  # compiled once, cached
for i in range(5):
    value, *grads = step(data, labels, *params)
    params = [p - 0.5 * g for p, g in zip(params, grads)]
    print("step %d: loss %.4f" % (i, value))

logits = rlx.compile(module, function="mlp")(data, *params)
print("accuracy on the batch: %.2f" % np.mean(logits.argmax(1) == labels))
