# RUN: %python %s
# rlx.grad, rlx.jvp and rlx.vmap from Python, in float64 against central
# finite differences and a Python loop, on fresh random inputs.
import sys

import numpy as np

import rlx
import rlxtest

ctx = rlx.Context()
r = rlxtest.rng()
print("seed", rlxtest.SEED)
failures = []
x_t, w_t = ctx.tensor((3, 5), "f64"), ctx.tensor((5, 4), "f64")

# loss(x, w) = sum(tanh(x w) * sigmoid(x w)) / 12
with rlx.Function("loss", [x_t, w_t]) as loss:
    x, w = loss.args
    h = rlx.matmul(x, w)
    y = rlx.mul(rlx.tanh(h), rlx.sigmoid(h))
    loss.returns(rlx.reduce(y, kind="mean", axes=[0, 1]))


def f64_loss(x, w):
    h = x @ w
    return np.mean(np.tanh(h) / (1 + np.exp(-h)))


xv, wv = r.standard_normal((3, 5)), r.standard_normal((5, 4))
grad = rlx.grad(loss, wrt=[0, 1])
value, dx, dw = rlx.compile(grad)(xv, wv)


def finite_difference(fn, args, i, eps=1e-6):
    out = np.zeros_like(args[i])
    for k in np.ndindex(*args[i].shape):
        plus = [a.copy() for a in args]
        minus = [a.copy() for a in args]
        plus[i][k] += eps
        minus[i][k] -= eps
        out[k] = (fn(*plus) - fn(*minus)) / (2 * eps)
    return out


def check(what, got, want, rtol=1e-6, atol=1e-8):
    if np.shape(got) != np.shape(want) or not np.allclose(got, want, rtol,
                                                         atol):
        failures.append("%s: max error %s" % (what, np.max(np.abs(
            np.asarray(got) - want)) if np.shape(got) == np.shape(want)
            else "shape %s vs %s" % (np.shape(got), np.shape(want))))
    else:
        print("ok", what)


check("grad value", value, f64_loss(xv, wv))
check("grad wrt x", dx, finite_difference(f64_loss, [xv, wv], 0))
check("grad wrt w", dw, finite_difference(f64_loss, [xv, wv], 1))

# jvp of f(x, w) = tanh(x w): its tangent is a directional derivative.
with rlx.Function("layer", [x_t, w_t]) as layer:
    x, w = layer.args
    layer.returns(rlx.tanh(rlx.matmul(x, w)))
tx, tw = r.standard_normal((3, 5)), r.standard_normal((5, 4))
y, dy = rlx.compile(rlx.jvp(layer))(xv, wv, tx, tw)
eps = 1e-6
want = (np.tanh((xv + eps * tx) @ (wv + eps * tw)) -
        np.tanh((xv - eps * tx) @ (wv - eps * tw))) / (2 * eps)
check("jvp primal", y, np.tanh(xv @ wv))
check("jvp tangent", dy, want, rtol=1e-6, atol=1e-7)

# vmap over a batch of 7 x's (w shared) equals a Python loop.
batched = rlx.vmap(layer, 7, in_axes=[0, -1], out_axes=[1])
xs = r.standard_normal((7, 3, 5))
ys = rlx.compile(batched)(xs, wv)
check("vmap", ys, np.stack([np.tanh(xi @ wv) for xi in xs], axis=1))

# The transform ops themselves, as built.
text = str(loss.module) + str(layer.module)
for op in ["rlx.grad @loss", "rlx.jvp @layer", "rlx.vmap @layer"]:
    if op not in text:
        failures.append("%s not in the module" % op)

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
