# RUN: %python %s
# fft (forward and inverse, every norm, lengths 1 to 64 including odd and
# prime ones, ranks 1 to 3, dynamic dims), rfft (with and without n, n
# cropping and zero-padding the signal, odd n, every norm) and irfft (n even
# and odd, cropping and padding the spectrum, non-zero imaginary parts in
# the DC and Nyquist bins, which must be ignored), against numpy.fft in
# float64. The lowering is a direct DFT in the element type, so f32 results
# are compared with an absolute tolerance of 1e-5 max|ref| and the f64
# ones (complex<f64>, f64 signals) with 1e-12 max|ref|.

import numpy as np

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("fft", KNOWN_FAILURES)
r = rlxtest.rng()
C = "complex<f32>"
C64 = "complex<f64>"
NORMS = ["backward", "ortho", "forward"]


def tol(ref, rel=1e-5):
    """`rel` relative to the largest magnitude of the reference."""
    return (0.0, rel * max(float(np.max(np.abs(ref))), 1e-30))


def attrs(inverse=False, norm=None):
    a = []
    if inverse:
        a.append("inverse = true")
    if norm is not None:
        a.append('norm = "%s"' % norm)
    return " {%s}" % ", ".join(a) if a else ""


def fft_case(shape, inverse=False, norm=None, dims=None, tag="", elem=C):
    x = rand(r, shape, elem, -2, 2)
    t = T(dims or shape, elem)
    f = np.fft.ifft if inverse else np.fft.fft
    e = f(x.astype(np.complex128), axis=-1, norm=norm or "backward")
    name = "fft/%s/%s/%s%s" % ("inv" if inverse else "fwd", norm or "default",
                               "x".join(map(str, shape)), tag)
    return Case(name, [("%x", t, x)],
                "%y = rlx.fft %x{} : {}".format(attrs(inverse, norm), t),
                [("%y", t)], [e], tol(e, 1e-12 if elem == C64 else 1e-5))


def rfft_case(shape, n=None, norm=None, dims=None, tag="", elem="f32"):
    x = rand(r, shape, elem, -2, 2)
    t = T(dims or shape, elem)
    e = np.fft.rfft(x.astype(np.float64), n=n, axis=-1, norm=norm or "backward")
    out = list(dims or shape)[:-1] + [e.shape[-1]]
    name = "rfft/%s/%s%s%s" % (norm or "default", "x".join(map(str, shape)),
                               "" if n is None else "/n%d" % n, tag)
    body = "%y = rlx.rfft %x{}{} : {}".format(
        "" if n is None else " n = %d" % n, attrs(norm=norm), t)
    f64 = elem == "f64"
    return Case(name, [("%x", t, x)], body, [("%y", T(out, C64 if f64 else C))],
                [e], tol(e, 1e-12 if f64 else 1e-5))


def irfft_case(shape, n=None, norm=None, dims=None, tag="", elem=C):
    # Random spectra: the imaginary parts of the DC (and for even n the
    # Nyquist) bins are not zero and must be ignored, as numpy does.
    x = rand(r, shape, elem, -2, 2)
    t = T(dims or shape, elem)
    e = np.fft.irfft(x.astype(np.complex128), n=n, axis=-1,
                     norm=norm or "backward")
    out = list(dims or shape)[:-1] + [e.shape[-1]]
    name = "irfft/%s/%s%s%s" % (norm or "default", "x".join(map(str, shape)),
                                "" if n is None else "/n%d" % n, tag)
    body = "%y = rlx.irfft %x{}{} : {}".format(
        "" if n is None else " n = %d" % n, attrs(norm=norm), t)
    f64 = elem == C64
    return Case(name, [("%x", t, x)], body,
                [("%y", T(out, "f64" if f64 else "f32"))], [e],
                tol(e, 1e-12 if f64 else 1e-5))


# fft: both directions, every norm (and the default), several lengths.
cases = []
for inverse in (False, True):
    for norm in [None] + NORMS:
        for length in (7, 12, 17):
            cases.append(fft_case((3, length), inverse, norm))
for inverse in (False, True):
    cases += [fft_case((1,), inverse, "backward"),
              fft_case((2,), inverse, "ortho"),
              fft_case((5, 2, 13), inverse, "forward"),
              fft_case((64,), inverse, "backward"),
              fft_case((2, 31), inverse, "ortho"),
              fft_case((4, 16), inverse, None, dims=(None, 16), tag="/dyn0"),
              fft_case((3, 11), inverse, "forward", dims=(None, None),
                       tag="/dyn")]
suite.run(cases)

# rfft: no n, n cropping (< signal) and zero-padding (> signal), odd n,
# odd signals, every norm.
cases = []
for norm in [None] + NORMS:
    cases += [rfft_case((4, 16), norm=norm),
              rfft_case((4, 16), n=10, norm=norm),
              rfft_case((4, 16), n=20, norm=norm),
              rfft_case((3, 15), n=7, norm=norm),
              rfft_case((3, 17), norm=norm)]
cases += [rfft_case((12,)),
          rfft_case((1,)),
          rfft_case((9,), n=1, tag="/crop_to_1"),
          rfft_case((2, 3, 12), n=13),
          rfft_case((5, 8), n=8),
          rfft_case((6, 16), dims=(None, 16), tag="/dyn0"),
          rfft_case((6, 14), n=9, dims=(None, 14), tag="/dyn0")]
suite.run(cases)

# irfft: default n = 2 (m - 1), explicit even and odd n, n cropping the
# spectrum (n/2 + 1 < m) and zero-padding it (n/2 + 1 > m), every norm.
cases = []
for norm in [None] + NORMS:
    cases += [irfft_case((4, 9), norm=norm),
              irfft_case((4, 9), n=17, norm=norm),
              irfft_case((4, 9), n=16, norm=norm),
              irfft_case((3, 8), n=15, norm=norm)]
cases += [irfft_case((4, 9), n=6, tag="/crop"),
          irfft_case((4, 9), n=7, tag="/crop"),
          irfft_case((4, 9), n=24, tag="/pad"),
          irfft_case((4, 9), n=23, tag="/pad"),
          irfft_case((2,), tag="/n2"),
          irfft_case((1,), n=1),
          irfft_case((3,), n=5),
          irfft_case((2, 3, 7), n=12),
          irfft_case((5, 9), dims=(None, 9), tag="/dyn0"),
          irfft_case((5, 9), n=13, dims=(None, 9), tag="/dyn0")]
suite.run(cases)

# The same transforms in double precision.
suite.run([fft_case((3, 13), False, "backward", elem=C64, tag="/c64"),
           fft_case((2, 16), True, "ortho", elem=C64, tag="/c64"),
           fft_case((4, 9), True, None, dims=(None, 9), elem=C64,
                    tag="/c64_dyn0"),
           rfft_case((3, 15), n=12, norm="forward", elem="f64", tag="/f64"),
           rfft_case((2, 10), n=13, elem="f64", tag="/f64"),
           irfft_case((3, 9), n=17, norm="ortho", elem=C64, tag="/c64"),
           irfft_case((2, 6), n=8, elem=C64, tag="/c64")])

# rfft then irfft with the signal's n restores it (odd and even lengths);
# two ops in one function.
rt = []
for length, norm in ((15, "backward"), (16, "ortho"), (21, "forward")):
    x = rand(r, (3, length), "f32", -2, 2)
    m = length // 2 + 1
    tx, tf = T((3, length), "f32"), T((3, m), C)
    body = """
%f = rlx.rfft %x{a} : {tx}
%y = rlx.irfft %f n = {n}{a} : {tf}
""".format(a=attrs(norm=norm), tx=tx, tf=tf, n=length)
    e = x.astype(np.float64)
    rt.append(Case("rfft_irfft/%s/n%d" % (norm, length), [("%x", tx, x)],
                   body, [("%y", tx)], [e], tol(e)))
# fft then inverse fft of the same norm.
for length, norm in ((7, "backward"), (12, "ortho"), (17, "forward")):
    x = rand(r, (2, length), C, -2, 2)
    t = T((2, length), C)
    body = """
%f = rlx.fft %x{a} : {t}
%y = rlx.fft %f{b} : {t}
""".format(a=attrs(norm=norm), b=attrs(True, norm), t=t)
    e = x.astype(np.complex128)
    rt.append(Case("fft_ifft/%s/n%d" % (norm, length), [("%x", t, x)], body,
                   [("%y", t)], [e], tol(e)))
suite.run(rt)

suite.finish()
