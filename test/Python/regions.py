# RUN: %python %s
# Ops with regions built from Python (regions=[(arg_types, fn), ...]),
# params and constants, run on the CPU against NumPy.
import sys

import numpy as np

import rlx
import rlxtest

ctx = rlx.Context()
r = rlxtest.rng()
print("seed", rlxtest.SEED)
t4, scalar, flag = ctx.tensor((4,)), ctx.tensor(()), ctx.tensor((), "i1")
failures = []


def check(what, got, want, rtol=1e-5, atol=1e-6):
    if np.shape(got) != np.shape(want) or not np.allclose(got, want, rtol,
                                                         atol):
        failures.append("%s: got %s, want %s" % (what, got, want))
    else:
        print("ok", what)


# rlx.if on a predicate computed in the function.
with rlx.Function("branch", [t4, scalar]) as f:
    x, s = f.args
    zero = rlx.constant(value=np.zeros((), np.float32))
    p = rlx.cmp(s, zero, predicate="gt")
    f.returns(rlx.if_(p, result_types=[t4], regions=[
        ((), lambda: rlx.exp(x)), ((), lambda: rlx.neg(x))]))
x = r.standard_normal(4).astype(np.float32)
branch = rlx.compile(f)
check("if then", branch(x, np.float32(1.5)), np.exp(x.astype(np.float64)))
check("if else", branch(x, np.float32(-0.5)), -x)

# rlx.while: double until the sum passes a limit.
with rlx.Function("doubling", [t4, scalar]) as f:
    x, limit = f.args

    def cond(a):
        total = rlx.reduce(a, kind="sum", axes=[0])
        return rlx.cmp(total, limit, predicate="lt")

    f.returns(rlx.while_([x], max_iterations=64, regions=[
        ([t4], cond), ([t4], lambda a: rlx.add(a, a))]))
x = r.uniform(0.1, 1.0, 4).astype(np.float32)
want = x.astype(np.float64)
while want.sum() < 50:
    want = want * 2
check("while", rlx.compile(f)(x, np.float32(50)), want)

# rlx.scan: a running sum, with the per-step outputs stacked.
xs_t = ctx.tensor((6, 4))
with rlx.Function("running", [t4, xs_t]) as f:
    h0, xs = f.args
    f.returns(*rlx.scan([h0], [xs], result_types=[t4, xs_t], regions=[
        ([t4, t4], lambda c, xt: [rlx.add(c, xt), rlx.add(c, xt)])]))
h0, xs = r.standard_normal(4).astype(np.float32), \
    r.standard_normal((6, 4)).astype(np.float32)
final, steps = rlx.compile(f)(h0, xs)
want_steps = h0 + np.cumsum(xs.astype(np.float64), axis=0)
check("scan carry", final, want_steps[-1])
check("scan outputs", steps, want_steps)

# rlx.custom_fn: its vjp rule, not the derivative of fwd, gives the
# gradient (a straight-through rule: d/dx = 1 where exp' would be exp).
with rlx.Function("loss", [t4]) as f:
    (v,) = f.args
    (y,) = rlx.custom_fn([v], result_types=[t4], regions=[
        ([t4], lambda a: rlx.exp(a)),
        ([t4, t4, t4], lambda a, e, g: g),
        None])
    f.returns(rlx.reduce(y, kind="sum", axes=[0]))
g = rlx.grad(f, wrt=[0])
loss, dx = rlx.compile(g)(x)
check("custom_fn forward", loss, np.exp(x.astype(np.float64)).sum())
check("custom_fn vjp rule", dx, np.ones(4))

# rlx.param: params become trailing arguments, named.
with rlx.Function("affine", [t4]) as f:
    (v,) = f.args
    w = rlx.param(name="scale", result_types=[t4])
    b = rlx.param(name="shift", result_types=[t4])
    f.returns(rlx.fma(v, w, b))
program = rlx.compile(f)
assert program.param_names == ["scale", "shift"], program.param_names
w, b = r.standard_normal(4).astype(np.float32), \
    r.standard_normal(4).astype(np.float32)
check("param", program(x, w, b), x.astype(np.float64) * w + b)

# rlx.constant from NumPy arrays of several dtypes.
for dtype in [np.float32, np.float64, np.int32, np.bool_]:
    c = (r.standard_normal((2, 3)) * 4).astype(dtype)
    with rlx.Function("const", []) as f:
        f.returns(rlx.constant(value=c))
    got = rlx.compile(f)()
    if got.dtype != c.dtype or not np.array_equal(got, c):
        failures.append("constant %s: got %s, want %s" % (dtype, got, c))
    else:
        print("ok constant", np.dtype(dtype))

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
