"""Helpers for the RLX integration tests.

A test builds `Case`s (one small RLX function body, its inputs and the
float64 NumPy reference of its results), hands them to a `Suite`, which
compiles and runs them with rlx-run (several cases share one function, so one
JIT compile), compares the results with `assert_close`, and exits non-zero on
any failure. Cases named in the script's KNOWN_FAILURES (compiler bugs not
fixed yet) still run and print, but do not fail the script.

Inputs are fresh random numbers on every run; the seed is printed with every
failure and can be fixed with RLX_TEST_SEED=N.
"""

import math
import types
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

RLX_RUN = os.environ.get("RLX_RUN", "rlx-run")
SEED = int(os.environ.get("RLX_TEST_SEED") or
           int.from_bytes(os.urandom(4), "little"))

# The target the cases run on: RLX_RUN names its runner (rlx-run for the
# CPU; test/Integration/Metal/Inputs/metal-run for Metal,
# test/Integration/Vulkan/Inputs/vulkan-run for Vulkan). Metal has no
# double or complex type, its kernels take static shapes and its host
# description no loops, so there a case that needs them is a known failure
# (it still runs, and must fail). Vulkan kernels take static shapes, no
# complex values, and f64 only in arithmetic (GLSL.std.450's math
# functions are 16- and 32-bit).
TARGET = os.environ.get("RLX_TEST_TARGET", "cpu")

# What f64 kernels compute with a GLSL.std.450 function (exp, log, tanh,
# sin, pow... and erf's polynomial of exp) that Vulkan has only for 16- and
# 32-bit floats: the ops, the activations of fused and rlx_hir ops, and
# the softmax inside attention and cross-entropy.
F64_MATH = re.compile(r"\brlx\.(exp|log|sin|cos|tan|atan|pow)\b|gelu|silu|"
                      r"sigmoid|tanh|softmax|attention|swiglu|mlp|"
                      r"transformer_layer")


def target_limit(case):
    """Why `case` cannot pass on TARGET, or None."""
    if TARGET == "vulkan":
        return vulkan_limit(function_text([case]))
    if TARGET != "metal":
        return None
    text = function_text([case])
    if "f64" in text or "complex" in text:
        return "Metal has no double or complex type"
    if "?" in text:
        return "Metal kernels take static shapes"
    if "rlx.cumsum" in text:
        return "cumsum is a host loop over kernels, which Metal's host " \
               "description has not"
    return gpu_front_limit(text)


def vulkan_limit(text):
    """Why the function `text` cannot pass on Vulkan, or None."""
    if "?" in text:
        return "Vulkan kernels take static shapes"
    if "complex" in text:
        return "the SPIR-V lowering takes no complex values"
    if "f64" in text and F64_MATH.search(text):
        return "GLSL.std.450 has no f64 math functions"
    if "rlx.cumsum" in text:
        return "cumsum is a host loop passing views at dynamic offsets, " \
               "which bare kernel pointers cannot carry (not claimed)"
    return gpu_front_limit(text)


def gpu_front_limit(text):
    """The ops of `text` that the shared GPU front does not take, or
    None."""
    for op in ("rlx.scatter_add", "rlx.topk"):
        if op in text:
            return "the GPU front does not take %s (not claimed)" % op
    return None


FLOATS = ["f32", "f64", "f16", "bf16"]
SIGNED = ["i8", "i16", "i32", "i64"]
INTS = SIGNED + ["ui8", "ui32"]

# The .npy dtype that holds each element type (bf16 travels as f32).
NPY = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
       "bf16": np.float32, "i8": np.int8, "i16": np.int16, "i32": np.int32,
       "i64": np.int64, "ui8": np.uint8, "ui32": np.uint32, "i1": np.bool_,
       "complex<f32>": np.complex64, "complex<f64>": np.complex128}

# Default (rtol, atol) of a result of each element type against a float64
# reference, for ops with a few roundings; integers compare exactly.
TOL = {"f32": (1e-5, 1e-6), "f64": (1e-12, 1e-13), "f16": (1e-2, 1e-3),
       "bf16": (1e-2, 1e-2), "complex<f32>": (1e-5, 1e-6),
       "complex<f64>": (1e-12, 1e-13)}


# Unit roundoff of each float type: one rounding errs by at most this
# fraction of the rounded value.
UNIT_ROUNDOFF = {"f16": 2.0 ** -11, "bf16": 2.0 ** -8, "f32": 2.0 ** -24,
                 "f64": 2.0 ** -53, "complex<f32>": 2.0 ** -24,
                 "complex<f64>": 2.0 ** -53}


def sum_tolerance(elem, magnitude, roundings):
    """(rtol, atol) of a sum computed in `elem` with up to `roundings`
    roundings of partial sums no larger than `magnitude` (the sum of the
    terms' absolute values): atol covers them all, so a sum that cancels
    to near zero is not held to a relative bound its rounding cannot
    meet. Never tighter than TOL."""
    rtol, atol = TOL.get(elem, (0, 0))
    u = UNIT_ROUNDOFF.get(elem, 0.0)
    return rtol, max(atol, 1.01 * roundings * u * magnitude)


def matmul_tolerance(elem, k):
    """(rtol, atol) of a product of operands in [-1, 1) over a reduction
    of length k, against float64: rounding grows as sqrt(k); f16 and bf16
    results are rounded to their type (f32 accumulation)."""
    s = max(1.0, k ** 0.5)
    return {"f32": (1e-5 * s, 1e-5 * s), "f64": (1e-12 * s, 1e-12 * s),
            "f16": (1e-2, 1e-2 * s), "bf16": (1.5e-2, 2e-2 * s),
            "complex<f32>": (1e-5 * s, 1e-5 * s)}.get(elem, (0, 0))


def rng():
    return np.random.default_rng(SEED)


def parse_type(t):
    """'tensor<?x8xf32>' -> ([None, 8], 'f32')."""
    m = re.fullmatch(r"tensor<((?:(?:\d+|\?)x)*)(.+)>", t.strip())
    assert m, "not a tensor type: " + t
    dims = [None if d == "?" else int(d) for d in m.group(1).split("x")[:-1]]
    return dims, m.group(2)


def tensor_type(shape, elem):
    return "tensor<" + "".join("%sx" % ("?" if d is None else d)
                               for d in shape) + elem + ">"


def broadcast_dims(*shapes):
    """The broadcast of shapes whose dims may be None (dynamic), as the
    type inference does: a static dim other than 1 wins, else a dynamic."""
    rank = max(len(s) for s in shapes)
    out = []
    for i in range(rank):
        dims = [s[i - rank + len(s)] for s in shapes if i - rank + len(s) >= 0]
        static = [d for d in dims if d is not None and d != 1]
        out.append(static[0] if static else None if None in dims else 1)
    return out


def round_bf16(x):
    """Rounds float32 values to bf16 (nearest even); returns float32."""
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.int64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16 << 16
    return b.astype(np.uint32).view(np.float32)


def as_elem(x, elem):
    """x as the values an `elem` tensor holds, in the .npy dtype."""
    x = np.asarray(x)
    if elem == "bf16":
        return round_bf16(x.astype(np.float32))
    return x.astype(NPY[elem])


def rand(r, shape, elem, lo=-2.0, hi=2.0, nonzero=False):
    """Random values of `elem` in [lo, hi) (integers: [lo, hi) as ints).
    With nonzero, floats keep |x| >= 0.25 and integers skip 0."""
    shape = tuple(shape)
    if elem == "i1":
        return r.random(shape) < 0.5
    if elem.startswith("complex"):
        return (r.uniform(lo, hi, shape) +
                1j * r.uniform(lo, hi, shape)).astype(NPY[elem])
    if elem in INTS:
        x = r.integers(int(lo), int(hi), shape)
        if nonzero:
            x = np.where(x == 0, 1 if hi > 1 else -1, x)
        return as_elem(x, elem)
    x = r.uniform(lo, hi, shape)
    if nonzero:
        x = np.where(np.abs(x) < 0.25, np.copysign(0.25, x) + x, x)
    return as_elem(x, elem)


def weight(r, shape, fan_in, elem):
    """Uniform weights of variance 1 / fan_in (activations stay O(1))."""
    a = math.sqrt(3.0 / fan_in)
    return rand(r, shape, elem, -a, a)


def attention_block_operands(r, elem, B, S, E, H, Hkv, D, qkv_bias=False,
                             out_bias=False, rope=False, kind="none",
                             mshape=None):
    """Random operands of an attention block (rlx_hir.attention_block and
    rlx.fused_attention_block take the same ones): x [B, S, E], w_qkv
    [E, (H + 2 Hkv) D], w_out [H D, E], and as asked the biases, rope's cos
    and sin [S, D / 2] (of random angles) and the custom (i1) or bias mask
    of shape `mshape`. Returns a namespace of the arrays (None where not
    asked), `args` ((name, type, value) in operand order) and `syntax`, the
    ops' clauses for the optional operands (" qkv_bias %bq" ...)."""
    cols = (H + 2 * Hkv) * D
    x = rand(r, (B, S, E), elem, -1.5, 1.5)
    wqkv = weight(r, (E, cols), E, elem)
    wout = weight(r, (H * D, E), H * D, elem)
    ops = types.SimpleNamespace(x=x, wqkv=wqkv, wout=wout, bq=None, bo=None,
                                cos=None, sin=None, mask=None, syntax="")
    ops.args = [("%x", tensor_type(x.shape, elem), x),
                ("%wqkv", tensor_type(wqkv.shape, elem), wqkv),
                ("%wo", tensor_type(wout.shape, elem), wout)]

    def add(name, value, elem_type, clause):
        ops.args.append((name, tensor_type(value.shape, elem_type), value))
        ops.syntax += clause

    if qkv_bias:
        ops.bq = rand(r, (cols,), elem, -0.5, 0.5)
        add("%bq", ops.bq, elem, " qkv_bias %bq")
    if out_bias:
        ops.bo = rand(r, (E,), elem, -0.5, 0.5)
        add("%bo", ops.bo, elem, " out_bias %bo")
    if rope:
        theta = r.uniform(-np.pi, np.pi, (S, D // 2))
        ops.cos = as_elem(np.cos(theta), elem)
        ops.sin = as_elem(np.sin(theta), elem)
        add("%cos", ops.cos, elem, "")
        add("%sin", ops.sin, elem, " rope(%cos, %sin)")
    if kind in ("custom", "bias"):
        ops.mask = (r.random(mshape) < 0.7 if kind == "custom"
                    else rand(r, mshape, elem, -2, 2))
        add("%m", ops.mask, "i1" if kind == "custom" else elem,
            " attn_mask %m")
    return ops


def assert_close(actual, expected, rtol, atol, what, dtype=None):
    """Fails (AssertionError) unless `actual` has `expected`'s shape, the
    dtype `dtype` (default: expected's) and |actual - expected| <= atol +
    rtol |expected| everywhere, NaN nowhere unless expected there."""
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    want = np.dtype(dtype if dtype is not None else expected.dtype)
    if actual.dtype != want:
        raise AssertionError("%s: dtype %s, expected %s" %
                             (what, actual.dtype, want))
    if actual.shape != expected.shape:
        raise AssertionError("%s: shape %s, expected %s" %
                             (what, actual.shape, expected.shape))
    if actual.size == 0:
        return
    cplx = np.iscomplexobj(actual) or np.iscomplexobj(expected)
    a = actual.astype(np.complex128 if cplx else np.float64)
    e = expected.astype(np.complex128 if cplx else np.float64)
    nan_a, nan_e = np.isnan(a), np.isnan(e)
    with np.errstate(invalid="ignore"):
        err = np.abs(a - e)
        err = np.where(a == e, 0.0, err)  # equal infinities
        bad = ~(err <= atol + rtol * np.abs(e))
    bad = np.where(nan_e, ~nan_a, bad)
    if not bad.any():
        return
    score = np.where(nan_a | np.isnan(err), np.inf,
                     np.nan_to_num(err / (atol + rtol * np.abs(e) + 1e-300)))
    score = np.where(bad, score, -1)
    i = np.unravel_index(np.argmax(score), a.shape)
    raise AssertionError(
        "%s: %d of %d elements differ (rtol=%g, atol=%g); worst at %s: got "
        "%r, expected %r (abs err %.3g)%s" %
        (what, bad.sum(), bad.size, rtol, atol, list(i), actual[i].item(),
         expected[i].item(), err[i],
         "; NaN in result" if (nan_a & ~nan_e).any() else ""))


def run(source, inputs, n_outputs, entry=None, extra=()):
    """Runs `source` (MLIR text) with rlx-run on `inputs` (arrays, saved as
    .npy as they are); returns (exit code, stdout + stderr, outputs). The
    exit code is negative for a signal, -999 for a timeout and -998 when
    rlx-run cannot be started."""
    with tempfile.TemporaryDirectory(prefix="rlxtest-") as d:
        path = os.path.join(d, "prog.mlir")
        with open(path, "w") as f:
            f.write(source)
        cmd = [RLX_RUN, path] + (["--entry=" + entry] if entry else [])
        for i, x in enumerate(inputs):
            cmd.append("--input=%s/in%d.npy" % (d, i))
            np.save(cmd[-1][8:], x)
        outs = ["%s/out%d.npy" % (d, i) for i in range(n_outputs)]
        cmd += ["--output=" + o for o in outs] + list(extra)
        try:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=300)
        except subprocess.TimeoutExpired:
            return -999, "timed out after 300 s", []
        except OSError as err:
            return -998, "cannot run %s: %s" % (RLX_RUN, err), []
        log = p.stdout + p.stderr
        if p.returncode != 0:
            return p.returncode, log, []
        return 0, log, [np.load(o) for o in outs]


def opt(source, *passes):
    """`source` after `rlx-opt PASSES...` (RLX_OPT names rlx-opt); raises
    AssertionError with rlx-opt's diagnostics when it fails."""
    p = subprocess.run([os.environ.get("RLX_OPT", "rlx-opt")] + list(passes),
                       input=source, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, "rlx-opt %s failed:\n%s" % (
        " ".join(passes), p.stderr)
    return p.stdout


class Case:
    """One checked computation.

    args: [(ssa name, tensor type, array)]; body: MLIR ops using them;
    results: [(ssa name, tensor type)]; expected: float64 (or int/bool)
    references, one per result. tol: (rtol, atol) or a list of them per
    result; default TOL by the result's element type."""

    def __init__(self, name, args, body, results, expected, tol=None):
        self.name, self.args, self.body = name, args, body
        self.results, self.expected = results, expected
        assert len(results) == len(expected), name
        tols = tol if isinstance(tol, list) else [tol] * len(results)
        self.tols = [t or TOL.get(parse_type(ty)[1], (0, 0))
                     for t, (_, ty) in zip(tols, results)]
        self.inputs = []
        for _, ty, x in args:
            dims, elem = parse_type(ty)
            x = np.asarray(x)
            assert x.dtype == NPY[elem], (name, ty, x.dtype)
            assert len(dims) == x.ndim and all(
                d is None or d == s for d, s in zip(dims, x.shape)), (name, ty)
            self.inputs.append(x)


def function_text(cases, name="main"):
    """One func.func running every case (SSA names prefixed per case)."""
    args, body, rets = [], [], []
    for i, c in enumerate(cases):
        pre = "c%d_" % i if len(cases) > 1 else ""

        def ren(s):
            return re.sub(r"%([A-Za-z_0-9$.]+)",
                          lambda m: "%" + pre + m.group(1), s)
        args += ["%s: %s" % (ren(n), t) for n, t, _ in c.args]
        body += ["  " + ren(l.strip()) for l in c.body.strip().splitlines()]
        rets += [(ren(n), t) for n, t in c.results]
    return ("func.func @%s(%s) -> (%s) {\n%s\n  return %s : %s\n}\n" %
            (name, ", ".join(args), ", ".join(t for _, t in rets),
             "\n".join(body), ", ".join(n for n, _ in rets),
             ", ".join(t for _, t in rets)))


def describe(c):
    """The case's program and inputs, for a failure message."""
    lines = ["    " + l for l in function_text([c]).splitlines()]
    for (n, t, _), x in zip(c.args, c.inputs):
        if x.size <= 64:
            v = np.array2string(x.ravel(), threshold=24, precision=6)
        elif np.iscomplexobj(x):
            v = "%d complex values" % x.size
        else:
            v = "%d values in [%s, %s]" % (x.size, x.min(), x.max())
        lines.append("    input %s %s shape %s: %s" % (n, t, x.shape, v))
    return "\n".join(lines)


class Suite:
    def __init__(self, name, known_failures=(), flags=()):
        """flags: extra rlx-run options for every case (e.g. --blas).
        RLX_TEST_KNOWN_FAILURES (comma-separated case names) adds known
        failures of the target the cases run on (a lit RUN line says why)."""
        extra = os.environ.get("RLX_TEST_KNOWN_FAILURES", "")
        known = list(known_failures) + [n for n in extra.split(",") if n]
        self.name, self.known = name, dict.fromkeys(known)
        self.flags = list(flags)
        self.passed, self.failed, self.known_failed, self.fixed = [], [], [], []
        self.names = set()

    def _report(self, name, msg, detail=""):
        if msg is None:
            (self.fixed if name in self.known else self.passed).append(name)
            return
        if name in self.known:
            self.known_failed.append(name)
            print("KNOWN FAILURE %s (seed %d)\n  %s" % (name, SEED, msg))
        else:
            self.failed.append(name)
            print("FAIL %s (seed %d, rerun with RLX_TEST_SEED=%d)\n  %s" %
                  (name, SEED, SEED, msg))
        if detail:
            print(detail)
        sys.stdout.flush()

    def _check(self, c, outs):
        for k, ((_, ty), a, e, (rtol, atol)) in enumerate(
                zip(c.results, outs, c.expected, c.tols)):
            try:
                assert_close(a, e, rtol, atol, "%s result #%d" % (c.name, k),
                             dtype=NPY[parse_type(ty)[1]])
            except AssertionError as err:
                return str(err)
        return None

    def run(self, cases, chunk=24):
        """Runs the cases, up to `chunk` in one function. A function that
        fails to compile or run is split in halves until the failing cases
        are alone; known failures run alone from the start."""
        for c in cases:
            assert c.name not in self.names, "duplicate case " + c.name
            self.names.add(c.name)
            if target_limit(c):
                self.known.setdefault(c.name)
        for c in cases:
            if c.name in self.known:
                self._run_group([c])
        rest = [c for c in cases if c.name not in self.known]
        for i in range(0, len(rest), chunk):
            self._run_group(rest[i:i + chunk])

    def _run_group(self, cases):
        if not cases:
            return
        inputs = [x for c in cases for x in c.inputs]
        n = sum(len(c.results) for c in cases)
        rc, log, outs = run(function_text(cases), inputs, n,
                            extra=self.flags)
        if rc != 0 and len(cases) > 1:
            self._run_group(cases[:len(cases) // 2])
            self._run_group(cases[len(cases) // 2:])
            return
        for c in cases:
            if rc != 0:
                msg = "rlx-run exited with %d:\n%s" % (
                    rc, "\n".join("    | " + l
                                  for l in log.strip().splitlines()[:12]))
            else:
                msg = self._check(c, outs[:len(c.results)])
                outs = outs[len(c.results):]
            self._report(c.name, msg, msg and describe(c))

    def check(self, name, fn):
        """A free-form check: fn() raises AssertionError on failure."""
        assert name not in self.names, "duplicate case " + name
        self.names.add(name)
        try:
            fn()
            self._report(name, None)
        except AssertionError as err:
            self._report(name, str(err))

    def finish(self, exit=True):
        """Prints the summary; exits 1 if a case failed (0 otherwise), or
        with exit=False returns whether one did."""
        for n in self.known:
            assert n in self.names, "KNOWN_FAILURES names no case: " + n
        for n in self.fixed:
            print("NOTE: %s passes; remove it from KNOWN_FAILURES" % n)
        print("%s: %d cases, %d passed, %d failed, %d known failures "
              "(seed %d)" % (self.name, len(self.names), len(self.passed) +
                             len(self.fixed), len(self.failed),
                             len(self.known_failed), SEED))
        if self.failed:
            print("FAILED: " + ", ".join(self.failed))
        if not exit:
            return bool(self.failed)
        sys.exit(1 if self.failed else 0)


def layer_norm_reference(x, g, b, eps):
    """rlx.layer_norm over the last axis in float64 (two passes: the mean,
    then the mean of the centered squares)."""
    x, g, b = (np.asarray(v, np.float64) for v in (x, g, b))
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


def rms_norm_reference(x, g, eps):
    """rlx.rms_norm over the last axis in float64."""
    x, g = np.asarray(x, np.float64), np.asarray(g, np.float64)
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * g


def rope_reference(x, cos, sin, style):
    """rlx.rope in float64: pairs (x[i], x[i + D/2]) for neox, (x[2i],
    x[2i + 1]) otherwise; each pair (a, b) becomes (a cos - b sin,
    a sin + b cos)."""
    x, cos, sin = (a.astype(np.float64) for a in (x, cos, sin))
    D = x.shape[-1]
    if style == "neox":
        first = np.arange(D // 2)
        second = first + D // 2
    else:
        first = np.arange(0, D, 2)
        second = first + 1
    a, b = x[..., first], x[..., second]
    y = np.empty_like(x)
    y[..., first] = a * cos - b * sin
    y[..., second] = a * sin + b * cos
    return y


def selective_scan_reference(u, dt, a, b, c, d, softplus, xp=np):
    """rlx.selective_scan written out as its loop over time, on NumPy
    arrays or (xp=torch) on tensors that autograd follows:
    h = exp(dt a) h + dt u b, y = h . c + d u, dt = softplus(dt) if asked."""
    if softplus:
        dt = xp.log1p(xp.exp(dt))
    h = xp.zeros((u.shape[0], u.shape[1], a.shape[1]), dtype=u.dtype)
    ys = []
    for t in range(u.shape[2]):
        h = (xp.exp(dt[:, :, t, None] * a) * h +
             (dt[:, :, t] * u[:, :, t])[:, :, None] * b[:, None, :, t])
        ys.append((h * c[:, None, :, t]).sum(-1) + d * u[:, :, t])
    return xp.stack(ys, -1)


def attention_reference(q, k, v, kind, window=None, mask=None, scale=None):
    """rlx.attention in float64: softmax(scale q k^T (+ bias) masked by
    `kind`) v, query head h reading kv head h // (H / Hkv); a row with no
    visible key gives zeros."""
    q, k, v = (a.astype(np.float64) for a in (q, k, v))
    B, H, S, D = q.shape
    Skv = k.shape[2]
    rep = H // k.shape[1]  # query head h reads kv head h // rep
    k, v = np.repeat(k, rep, axis=1), np.repeat(v, rep, axis=1)
    s = q @ k.swapaxes(-1, -2) * (1 / math.sqrt(D) if scale is None
                                  else np.float32(scale))
    i, j = np.arange(S)[:, None], np.arange(Skv)[None, :]
    off = Skv - S
    visible = np.ones((S, Skv), bool)
    if kind == "causal":
        visible = j <= i + off
    elif kind == "sliding_window":
        visible = (j <= i + off) & (j > i + off - window)
    elif kind == "custom":
        visible = mask
    elif kind == "bias":
        s = s + mask.astype(np.float64)
    visible = np.broadcast_to(visible, s.shape)
    s = np.where(visible, s, -np.inf)
    m = np.max(s, -1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    p = np.exp(s - m)
    total = p.sum(-1, keepdims=True)
    p = np.where(total > 0, p / np.where(total > 0, total, 1), 0)
    return p @ v  # rows with no visible key: zeros


def attention_torch(q, k, v, kind, window=None, mask=None, scale=None):
    """attention_reference on PyTorch tensors (for torch.autograd): fully
    masked rows give zeros."""
    import torch
    B, H, S, D = q.shape
    Skv = k.shape[2]
    rep = H // k.shape[1]
    k, v = k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1)
    s = q @ k.transpose(-1, -2) * (1 / math.sqrt(D) if scale is None
                                   else float(np.float32(scale)))
    i, j = torch.arange(S)[:, None], torch.arange(Skv)[None, :]
    off = Skv - S
    visible = torch.ones(S, Skv, dtype=torch.bool)
    if kind == "causal":
        visible = j <= i + off
    elif kind == "sliding_window":
        visible = (j <= i + off) & (j > i + off - window)
    elif kind == "custom":
        visible = torch.from_numpy(mask)
    elif kind == "bias":
        s = s + torch.from_numpy(mask.astype(np.float64))
    visible = visible.expand(s.shape)
    s = torch.where(visible, s, torch.tensor(-math.inf, dtype=s.dtype))
    m = s.max(-1, keepdim=True).values.detach()
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    e = torch.where(visible, torch.exp(s - m), torch.zeros_like(s))
    total = e.sum(-1, keepdim=True)
    p = e / torch.where(total > 0, total, torch.ones_like(total))
    return p @ v


def kv_cache_write_reference(cache, update, position):
    """rlx.kv_cache_write: `cache` with `update`'s n rows written at
    sequence positions [position, position + n) (the axis third from the
    end), in the cache's dtype."""
    out = np.array(cache, copy=True)
    n = update.shape[-3]
    out[..., position:position + n, :, :] = update
    return out


def decode_attention_reference(q, k_cache, v_cache, length, window=0,
                               scale=None):
    """rlx.decode_attention in float64: q [B, H, S, D] over the first
    `length` positions of the caches [B, max_seq, Hkv, D(v)]; query i sits
    at position length - S + i and sees keys j <= it (and, with a window,
    j > it - window); query head h reads kv head h // (H / Hkv); a row that
    sees no key gives zeros."""
    q = np.asarray(q, np.float64)
    B, H, S, D = q.shape
    k = np.asarray(k_cache, np.float64)[:, :length].transpose(0, 2, 1, 3)
    v = np.asarray(v_cache, np.float64)[:, :length].transpose(0, 2, 1, 3)
    rep = H // k.shape[1]
    k, v = np.repeat(k, rep, axis=1), np.repeat(v, rep, axis=1)
    s = q @ k.swapaxes(-1, -2) * (1 / math.sqrt(D) if scale is None
                                  else float(np.float32(scale)))
    at = length - S + np.arange(S)[:, None]
    j = np.arange(k.shape[2])[None, :]
    visible = j <= at
    if window:
        visible &= j > at - window
    s = np.where(np.broadcast_to(visible, s.shape), s, -np.inf)
    m = np.max(s, -1, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0)
    p = np.exp(s - m)
    total = p.sum(-1, keepdims=True)
    p = np.where(total > 0, p / np.where(total > 0, total, 1), 0)
    return p @ v
