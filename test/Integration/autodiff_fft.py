# RUN: %python %s
# Derivatives through the fft family against PyTorch autograd in float64,
# on fresh random inputs: rlx.grad of real losses of complex signals
# z = a + i b (fft / ifft with every norm, complex mul, div, exp and log
# after them, irfft of a complex spectrum with n cropping and padding it,
# rfft with n cropping and padding the signal), whose gradients with
# respect to a and b are the real and imaginary parts of torch's z.grad
# (PyTorch's complex convention); and rlx.jvp of complex-valued functions
# against torch's forward-mode AD. The lowering is a direct O(n^2) DFT, so results
# match to rtol 1e-10 (atol 1e-12 |max|).

import numpy as np
import torch
import torch.autograd.forward_ad as fwAD

import rlxtest
from rlxtest import Suite, assert_close, rand
from rlxtest import tensor_type as T

suite = Suite("autodiff_fft")
r = rlxtest.rng()
C = "complex<f64>"


def f64(shape):
    return T(shape, "f64")


def c128(shape):
    return T(shape, C)


# Prologue building z = a + i b from the real arguments %a, %b and the
# complex unit %j.
SIGNAL = """  %%ca = rlx.cast %%a : %(r)s -> %(c)s
  %%cb = rlx.cast %%b : %(r)s -> %(c)s
  %%ib = rlx.mul %%cb, %%j : %(c)s, tensor<complex<f64>>
  %%z = rlx.add %%ca, %%ib : %(c)s
"""


def real_sum(value, shape):
    """Lines that return sum(Re(value)) of a complex value of `shape`."""
    axes = ", ".join(str(i) for i in range(len(shape)))
    return ("  %%re = rlx.cast %s : %s -> %s\n"
            "  %%l = rlx.reduce sum %%re axes = [%s] : %s\n"
            "  return %%l : tensor<f64>\n" %
            (value, c128(shape), f64(shape), axes, f64(shape)))


class GradCase:
    """L(a, b, consts) -> real scalar; gradients wrt a and b (or a alone
    when `signal` is False: a real input)."""

    def __init__(self, name, shape, consts, body, ref, signal=True):
        self.name, self.shape, self.consts = name, shape, consts
        self.body, self.ref, self.signal = body, ref, signal


def fft_attrs(inverse, norm):
    return '{inverse = %s, norm = "%s"}' % ("true" if inverse else "false",
                                           norm)


def torch_fft(inverse):
    return torch.fft.ifft if inverse else torch.fft.fft


def fft_linear(m, inverse, norm):
    s = (3, m)
    body = (SIGNAL % dict(r=f64(s), c=c128(s)) +
            "  %%f = rlx.fft %%z %s : %s\n"
            "  %%p = rlx.mul %%f, %%w : %s\n" % (fft_attrs(inverse, norm),
                                                c128(s), c128(s)) +
            real_sum("%p", s))
    return GradCase("grad/fft_linear/%s/m%d/%s" %
                    ("inv" if inverse else "fwd", m, norm), s,
                    [("w", c128(s), rand(r, s, C))], body,
                    lambda z, w: (torch_fft(inverse)(z, norm=norm) *
                                  w).real.sum())


def fft_square(m, inverse, norm):
    # Re(sum(F(z)^2 w)): the cotangent of F(z) involves conj(F(z)).
    s = (2, m)
    body = (SIGNAL % dict(r=f64(s), c=c128(s)) +
            "  %%f = rlx.fft %%z %s : %s\n"
            "  %%q = rlx.mul %%f, %%f : %s\n"
            "  %%p = rlx.mul %%q, %%w : %s\n" % (fft_attrs(inverse, norm),
                                                c128(s), c128(s), c128(s)) +
            real_sum("%p", s))
    return GradCase("grad/fft_square/%s/m%d/%s" %
                    ("inv" if inverse else "fwd", m, norm), s,
                    [("w", c128(s), rand(r, s, C))], body,
                    lambda z, w: (torch_fft(inverse)(z, norm=norm) ** 2 *
                                  w).real.sum())


def fft_exp_log_div(m):
    # exp, log and div of complex values after an ortho fft; the shift c
    # (real part 6) keeps log and div away from zero.
    s = (2, m)
    body = (SIGNAL % dict(r=f64(s), c=c128(s)) +
            '  %%f = rlx.fft %%z {norm = "ortho"} : %(c)s\n'
            "  %%g = rlx.mul %%f, %%k : %(c)s\n"
            "  %%e = rlx.exp %%g : %(c)s\n"
            "  %%h = rlx.add %%f, %%c : %(c)s\n"
            "  %%lg = rlx.log %%h : %(c)s\n"
            "  %%d = rlx.div %%w, %%h : %(c)s\n"
            "  %%s1 = rlx.add %%e, %%lg : %(c)s\n"
            "  %%s2 = rlx.add %%s1, %%d : %(c)s\n"
            "  %%p = rlx.mul %%s2, %%w : %(c)s\n" % dict(c=c128(s)) +
            real_sum("%p", s))
    k = 0.3 * rand(r, s, C)
    c = rand(r, s, C, -0.5, 0.5) + 6.0
    w = rand(r, s, C)

    def ref(z, k, c, w):
        f = torch.fft.fft(z, norm="ortho")
        h = f + c
        return ((torch.exp(f * k) + torch.log(h) + w / h) * w).real.sum()

    return GradCase("grad/fft_exp_log_div/m%d" % m, s,
                    [("k", c128(s), k), ("c", c128(s), c),
                     ("w", c128(s), w)], body, ref)


def irfft_case(m, n, norm):
    # A complex spectrum X = a + i b of m bins to a signal of length n.
    s, o = (3, m), (3, n)
    body = (SIGNAL % dict(r=f64(s), c=c128(s)) +
            '  %%y = rlx.irfft %%z n = %d {norm = "%s"} : %s\n'
            "  %%p = rlx.mul %%y, %%w : %s\n"
            "  %%l = rlx.reduce sum %%p axes = [0, 1] : %s\n"
            "  return %%l : tensor<f64>\n" % (n, norm, c128(s), f64(o), f64(o)))
    return GradCase("grad/irfft/m%d_n%d/%s" % (m, n, norm), s,
                    [("w", f64(o), rand(r, o, "f64"))], body,
                    lambda z, w: (torch.fft.irfft(z, n=n, norm=norm) *
                                  w).sum())


def rfft_case(m, n, norm):
    # A real signal; Re(sum(rfft(x)^2 w)).
    s, bins = (3, m), n // 2 + 1
    o = (3, bins)
    body = ('  %%f = rlx.rfft %%a n = %d {norm = "%s"} : %s\n'
            "  %%q = rlx.mul %%f, %%f : %s\n"
            "  %%p = rlx.mul %%q, %%w : %s\n" % (n, norm, f64(s), c128(o),
                                                c128(o)) +
            real_sum("%p", o))
    return GradCase("grad/rfft/m%d_n%d/%s" % (m, n, norm), s,
                    [("w", c128(o), rand(r, o, C))], body,
                    lambda x, w: (torch.fft.rfft(x, n=n, norm=norm) ** 2 *
                                  w).real.sum(), signal=False)


grad_cases = [fft_linear(m, inv, norm)
              for m, inv, norm in ((7, False, "backward"), (12, True,
                                                            "backward"),
                                   (10, False, "ortho"), (9, True, "ortho"),
                                   (6, False, "forward"), (13, True,
                                                           "forward"))]
grad_cases += [fft_square(m, inv, norm)
               for m, inv, norm in ((8, False, "backward"), (11, True,
                                                             "ortho"),
                                    (15, False, "forward"))]
grad_cases += [fft_exp_log_div(m) for m in (5, 8)]
grad_cases += [irfft_case(m, n, norm)
               for m, n, norm in ((5, 8, "backward"), (5, 9, "ortho"),
                                  (6, 7, "forward"), (4, 12, "backward"),
                                  (9, 6, "ortho"), (1, 1, "backward"))]
grad_cases += [rfft_case(m, n, norm)
               for m, n, norm in ((8, 8, "backward"), (9, 9, "ortho"),
                                  (12, 7, "forward"), (6, 11, "backward"),
                                  (10, 16, "ortho"))]


class JvpCase:
    """A complex-valued g(a, b) and its tangent along (va, vb)."""

    def __init__(self, name, shape, out, body, ref, signal=True):
        self.name, self.shape, self.out = name, shape, out
        self.body, self.ref, self.signal = body, ref, signal


def jvp_fft(m, inverse, norm):
    s = (2, m)
    body = (SIGNAL % dict(r=f64(s), c=c128(s)) +
            "  %%y = rlx.fft %%z %s : %s\n"
            "  return %%y : %s\n" % (fft_attrs(inverse, norm), c128(s),
                                    c128(s)))
    return JvpCase("jvp/fft/%s/m%d/%s" % ("inv" if inverse else "fwd", m,
                                          norm), s, c128(s), body,
                   lambda z: torch_fft(inverse)(z, norm=norm))


def jvp_rfft(m, n, norm):
    s = (2, m)
    o = (2, n // 2 + 1)
    body = ('  %%y = rlx.rfft %%a n = %d {norm = "%s"} : %s\n'
            "  %%q = rlx.mul %%y, %%y : %s\n"
            "  return %%q : %s\n" % (n, norm, f64(s), c128(o), c128(o)))
    return JvpCase("jvp/rfft_square/m%d_n%d/%s" % (m, n, norm), s, c128(o),
                   body, lambda x: torch.fft.rfft(x, n=n, norm=norm) ** 2,
                   signal=False)


def jvp_irfft(m, n, norm):
    s, o = (2, m), (2, n)
    body = (SIGNAL % dict(r=f64(s), c=c128(s)) +
            '  %%y = rlx.irfft %%z n = %d {norm = "%s"} : %s\n'
            "  return %%y : %s\n" % (n, norm, c128(s), f64(o)))
    return JvpCase("jvp/irfft/m%d_n%d/%s" % (m, n, norm), s, f64(o), body,
                   lambda z: torch.fft.irfft(z, n=n, norm=norm))


jvp_cases = [jvp_fft(7, False, "backward"), jvp_fft(10, True, "ortho"),
             jvp_fft(9, False, "forward"), jvp_rfft(9, 9, "backward"),
             jvp_rfft(8, 13, "forward"), jvp_irfft(5, 9, "ortho"),
             jvp_irfft(6, 8, "backward")]

# One program: a function per case, @main computing every grad and jvp.
fns, calls, rets, rtypes, inputs, main_args = [], [], [], [], [], []
J = np.array(1j)
checks = []
for i, c in enumerate(grad_cases):
    s = f64(c.shape)
    args = ["%a: " + s] + (["%b: " + s, "%j: " + c128(())] if c.signal
                           else [])
    args += ["%%%s: %s" % (n, t) for n, t, _ in c.consts]
    fns.append("func.func @g%d(%s) -> tensor<f64> {\n%s}\n" %
               (i, ", ".join(args), c.body))
    a, b = rand(r, c.shape, "f64"), rand(r, c.shape, "f64")
    vals = [a] + ([b, J] if c.signal else []) + [v for _, _, v in c.consts]
    types = [s] + ([s, c128(())] if c.signal else []) + [
        t for _, t, _ in c.consts]
    names = []
    for v, t in zip(vals, types):
        names.append("%%i%d" % len(inputs))
        main_args.append("%s: %s" % (names[-1], t))
        inputs.append(v)
    wrt = "[0, 1]" if c.signal else "[0]"
    nres = 2 if c.signal else 1
    calls.append("  %%l%d, %%d%d:%d = rlx.grad @g%d(%s) wrt %s : (%s) -> "
                 "(tensor<f64>, %s)" %
                 (i, i, nres, i, ", ".join(names), wrt, ", ".join(types),
                  ", ".join([s] * nres)))
    rets += ["%%l%d" % i] + ["%%d%d#%d" % (i, k) for k in range(nres)]
    rtypes += ["tensor<f64>"] + [s] * nres
    checks.append((c, vals, 1 + nres))
for i, c in enumerate(jvp_cases):
    s = f64(c.shape)
    args = ["%a: " + s] + (["%b: " + s, "%j: " + c128(())] if c.signal
                           else [])
    fns.append("func.func @t%d(%s) -> %s {\n%s}\n" %
               (i, ", ".join(args), c.out, c.body))
    nx = 2 if c.signal else 1
    xs = [rand(r, c.shape, "f64") for _ in range(nx)]
    vs = [rand(r, c.shape, "f64", -1, 1) for _ in range(nx)]
    vals = xs + ([J] if c.signal else [])
    tvals = vs + ([np.zeros_like(J)] if c.signal else [])
    types = [s] * nx + ([c128(())] if c.signal else [])
    names = []
    for v, t in zip(vals + tvals, types + types):
        names.append("%%i%d" % len(inputs))
        main_args.append("%s: %s" % (names[-1], t))
        inputs.append(v)
    k = len(vals)
    calls.append("  %%y%d, %%dy%d = rlx.jvp @t%d(%s) tangents(%s) : (%s, %s) "
                 "-> (%s, %s)" %
                 (i, i, i, ", ".join(names[:k]), ", ".join(names[k:]),
                  ", ".join(types), ", ".join(types), c.out, c.out))
    rets += ["%%y%d" % i, "%%dy%d" % i]
    rtypes += [c.out, c.out]
    checks.append((c, xs + vs, 2))

src = "".join(fns) + "func.func @main(%s) -> (%s) {\n%s\n  return %s : %s\n}\n" \
    % (", ".join(main_args), ", ".join(rtypes), "\n".join(calls),
       ", ".join(rets), ", ".join(rtypes))
rc, log, outs = rlxtest.run(src, inputs, len(rets))


def close(actual, expected, what):
    expected = np.asarray(expected)
    atol = 1e-12 * max(float(np.max(np.abs(expected))), 1.0)
    assert_close(actual, expected, 1e-10, atol, what)


def check_grad(c, vals, mine):
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log[-3000:])
    a = torch.tensor(vals[0], requires_grad=True)
    leaves = [a]
    if c.signal:
        b = torch.tensor(vals[1], requires_grad=True)
        leaves.append(b)
        x = torch.complex(a, b)
        consts = vals[3:]
    else:
        x = a
        consts = vals[1:]
    loss = c.ref(x, *[torch.tensor(v) for v in consts])
    loss.backward()
    close(mine[0], loss.detach().numpy(), c.name + " loss")
    # d/da and d/db are the real and imaginary parts of torch's z.grad.
    for leaf, g, part in zip(leaves, mine[1:], "ab"):
        close(g, leaf.grad.numpy(), "%s d/d%s" % (c.name, part))


def check_jvp(c, vals, mine):
    assert rc == 0, "rlx-run exited with %d:\n%s" % (rc, log[-3000:])
    t = [torch.tensor(v) for v in vals]
    n = len(t) // 2
    # torch's forward-mode AD: dual tensors carrying the directions.
    with fwAD.dual_level():
        duals = [fwAD.make_dual(x, v) for x, v in zip(t[:n], t[n:])]
        out = c.ref(torch.complex(*duals) if c.signal else duals[0])
        y, dy = fwAD.unpack_dual(out)
    close(mine[0], y.numpy(), c.name + " value")
    close(mine[1], dy.numpy(), c.name + " tangent")


k = 0
for c, vals, n in checks:
    mine = outs[k:k + n] if rc == 0 else []
    k += n
    fn = check_grad if isinstance(c, GradCase) else check_jvp
    suite.check(c.name, lambda c=c, v=vals, m=mine, fn=fn: fn(c, v, m))
suite.finish()
