# RUN: %python %s
# conv 1-D and 2-D (strides, symmetric and asymmetric padding [lo0, hi0,
# lo1, hi1], dilations, groups up to depthwise, with and without bias, every
# float type, a dynamic batch) against F.pad then F.conv1d / F.conv2d in
# float64; pool max and avg (kernel, strides, symmetric and asymmetric
# padding, 1-D and 2-D, dynamic batch and channels) against
# F.max_pool / F.avg_pool (count_include_pad=True) in float64, through
# F.pad (-inf or 0) where the padding is asymmetric or over half the kernel.

import numpy as np
import torch
import torch.nn.functional as F

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("conv_pool", KNOWN_FAILURES)
r = rlxtest.rng()
CHUNK = 24


def f64(x):
    return torch.from_numpy(np.asarray(x, np.float64))


def torch_pad(padding):
    """rlx [lo0, hi0, lo1, hi1] -> F.pad's (lo_last, hi_last, ...)."""
    pairs = [padding[i:i + 2] for i in range(0, len(padding), 2)]
    return tuple(p for pair in reversed(pairs) for p in pair)


def window_attrs(strides, padding, dilations=None, groups=None):
    a = ""
    if strides is not None:
        a += " strides = [%s]" % ", ".join(map(str, strides))
    if padding is not None:
        a += " padding = [%s]" % ", ".join(map(str, padding))
    if dilations is not None:
        a += " dilations = [%s]" % ", ".join(map(str, dilations))
    if groups is not None:
        a += " groups = %d" % groups
    return a


def conv_tol(elem, red):
    """A reduction of `red` products: f32/f64 absolute error grows with it;
    f16/bf16 accumulate in f32 and round the result once."""
    return {"f32": (1e-5, 1e-6 * red), "f64": (1e-12, 1e-13 * red),
            "f16": (2e-3, 1e-3), "bf16": (1e-2, 1e-2)}[elem]


# --------------------------------------------------------------------------
# conv
# --------------------------------------------------------------------------


def conv_case(name, elem, xshape, wshape, strides=None, padding=None,
              dilations=None, groups=None, bias=True, dyn_batch=False):
    spatial = len(xshape) - 2
    x = rand(r, xshape, elem, -1.5, 1.5)
    w = rand(r, wshape, elem, -1, 1)
    b = rand(r, (wshape[0],), elem, -1, 1) if bias else None
    st = strides or [1] * spatial
    pd = padding or [0] * (2 * spatial)
    dl = dilations or [1] * spatial
    g = groups or 1
    conv = F.conv1d if spatial == 1 else F.conv2d
    e = conv(F.pad(f64(x), torch_pad(pd)), f64(w),
             None if b is None else f64(b), stride=st, dilation=dl,
             groups=g).numpy()
    tx = T((None,) + tuple(xshape[1:]) if dyn_batch else xshape, elem)
    tw = T(wshape, elem)
    args = [("%x", tx, x), ("%w", tw, w)]
    types = [tx, tw]
    if b is not None:
        args.append(("%b", T(b.shape, elem), b))
        types.append(T(b.shape, elem))
    body = "%y = rlx.conv {}{} : {}".format(
        ", ".join(n for n, _, _ in args),
        window_attrs(strides, padding, dilations, groups), ", ".join(types))
    ty = T((None,) + e.shape[1:] if dyn_batch else e.shape, elem)
    red = int(np.prod(wshape[1:]))
    return Case("conv%dd/%s/%s" % (spatial, elem, name), args, body,
                [("%y", ty)], [e], conv_tol(elem, red))


def conv2d_cases(elem):
    return [
        conv_case("basic", elem, (2, 3, 8, 8), (4, 3, 3, 3)),
        conv_case("nobias", elem, (2, 3, 7, 6), (5, 3, 3, 3), bias=False),
        conv_case("s2_p1", elem, (1, 3, 9, 9), (4, 3, 3, 3), strides=[2, 2],
                  padding=[1, 1, 1, 1]),
        conv_case("asym_pad", elem, (2, 2, 6, 7), (3, 2, 3, 3),
                  strides=[2, 1], padding=[0, 2, 1, 0]),
        conv_case("dil", elem, (1, 2, 10, 11), (3, 2, 3, 2),
                  dilations=[2, 3]),
        conv_case("groups2", elem, (2, 4, 7, 7), (6, 2, 3, 3), groups=2),
        conv_case("all", elem, (2, 4, 11, 12), (6, 2, 3, 3),
                  strides=[2, 3], padding=[1, 2, 0, 1], dilations=[2, 1],
                  groups=2),
    ]


cases = []
for elem in ("f32", "f64", "f16", "bf16"):
    cases += conv2d_cases(elem)
cases += [
    conv_case("depthwise", "f32", (2, 4, 6, 6), (4, 1, 3, 3), groups=4,
              padding=[1, 1, 1, 1]),
    conv_case("depthwise_x2", "f32", (1, 4, 6, 5), (8, 1, 3, 3), groups=4,
              bias=False),
    conv_case("groups3_nobias", "f32", (1, 6, 5, 5), (9, 2, 2, 2), groups=3,
              bias=False, strides=[1, 2]),
    conv_case("1x1", "f32", (2, 8, 5, 5), (6, 8, 1, 1)),
    conv_case("1x1_s2", "f32", (2, 8, 5, 5), (6, 8, 1, 1), strides=[2, 2],
              bias=False),
    conv_case("rect_kernel", "f32", (1, 3, 8, 9), (2, 3, 2, 4),
              padding=[1, 0, 2, 1]),
    conv_case("stride_gt_kernel", "f32", (1, 2, 10, 10), (3, 2, 2, 2),
              strides=[3, 3]),
    conv_case("pad_only_lo", "f32", (1, 2, 5, 5), (2, 2, 3, 3),
              padding=[2, 0, 0, 2]),
    conv_case("big_pad", "f32", (1, 2, 4, 4), (2, 2, 3, 3),
              padding=[3, 3, 2, 4]),
    conv_case("kernel_eq_input", "f32", (2, 3, 4, 5), (4, 3, 4, 5)),
    conv_case("resnet_stem", "f32", (1, 3, 16, 16), (8, 3, 7, 7),
              strides=[2, 2], padding=[3, 3, 3, 3], bias=False),
    conv_case("c64", "f32", (1, 64, 5, 5), (16, 64, 3, 3),
              padding=[1, 1, 1, 1]),
    conv_case("dyn_batch", "f32", (3, 3, 6, 6), (4, 3, 3, 3),
              padding=[1, 1, 1, 1], dyn_batch=True),
    conv_case("dyn_batch_all", "f32", (2, 4, 9, 8), (4, 2, 3, 2),
              strides=[2, 2], padding=[0, 1, 1, 0], dilations=[1, 2],
              groups=2, dyn_batch=True),
]
suite.run(cases, chunk=CHUNK)

cases = []
for elem in ("f32", "f64", "f16", "bf16"):
    cases += [
        conv_case("basic", elem, (2, 4, 20), (8, 4, 5)),
        conv_case("s2_p2", elem, (2, 3, 17), (4, 3, 5), strides=[2],
                  padding=[2, 2]),
        conv_case("asym_pad", elem, (1, 2, 9), (3, 2, 3), padding=[0, 3],
                  bias=False),
        conv_case("dil3_groups", elem, (2, 4, 15), (4, 1, 3),
                  dilations=[3], groups=4),
    ]
cases += [
    conv_case("all", "f32", (2, 6, 23), (9, 2, 4), strides=[3],
              padding=[2, 1], dilations=[2], groups=3),
    conv_case("1", "f32", (3, 5, 7), (2, 5, 1), bias=False),
    conv_case("dyn_batch", "f32", (3, 2, 12), (5, 2, 3), strides=[2],
              padding=[1, 0], dyn_batch=True),
]
suite.run(cases, chunk=CHUNK)

# --------------------------------------------------------------------------
# pool
# --------------------------------------------------------------------------


def pool_ref(x, kind, kernel, strides, padding):
    spatial = len(kernel)
    st = strides or kernel
    pd = padding or [0] * (2 * spatial)
    t = f64(x)
    lo, hi = pd[0::2], pd[1::2]
    native = lo == hi and all(2 * p <= k for p, k in zip(lo, kernel))
    if kind == "max":
        fn = F.max_pool1d if spatial == 1 else F.max_pool2d
        if native:
            return fn(t, kernel, st, padding=lo).numpy()
        return fn(F.pad(t, torch_pad(pd), value=-np.inf), kernel,
                  st).numpy()
    fn = F.avg_pool1d if spatial == 1 else F.avg_pool2d
    if native:
        return fn(t, kernel, st, padding=lo, count_include_pad=True).numpy()
    return fn(F.pad(t, torch_pad(pd), value=0.0), kernel, st).numpy()


def pool_case(name, kind, elem, xshape, kernel, strides=None, padding=None,
              dims=None):
    x = rand(r, xshape, elem, -3, 3)
    e = pool_ref(x, kind, kernel, strides, padding)
    tx = T(dims or xshape, elem)
    ty = T(tuple(dims[:2]) + e.shape[2:] if dims else e.shape, elem)
    body = "%y = rlx.pool {} %x kernel = [{}]{} : {}".format(
        kind, ", ".join(map(str, kernel)), window_attrs(strides, padding), tx)
    tol = (0, 0) if kind == "max" else {
        "f32": (1e-6, 1e-6), "f64": (1e-14, 1e-14), "f16": (1e-3, 1e-3),
        "bf16": (8e-3, 8e-3)}[elem]
    return Case("pool%dd/%s/%s/%s" % (len(kernel), kind, elem, name),
                [("%x", tx, x)], body, [("%y", ty)], [e], tol)


cases = []
for kind in ("max", "avg"):
    for elem in ("f32", "f64", "f16", "bf16"):
        cases += [
            pool_case("k2", kind, elem, (2, 3, 8, 8), [2, 2]),
            pool_case("k3_s1_p1", kind, elem, (1, 2, 6, 7), [3, 3], [1, 1],
                      [1, 1, 1, 1]),
            pool_case("mixed", kind, elem, (1, 3, 11, 10), [4, 3], [2, 2],
                      [0, 0, 1, 0]),
        ]
    cases += [
        pool_case("k3_s2_p1", kind, "f32", (2, 4, 9, 9), [3, 3], [2, 2],
                  [1, 1, 1, 1]),
        pool_case("k5_s3", kind, "f32", (1, 2, 14, 13), [5, 5], [3, 3]),
        pool_case("pad_only", kind, "f32", (1, 1, 8, 8), [2, 2], None,
                  [1, 1, 1, 1]),
        pool_case("asym_pad", kind, "f32", (2, 2, 7, 6), [4, 2], [1, 2],
                  [2, 0, 0, 1]),
        pool_case("k1", kind, "f32", (1, 3, 4, 5), [1, 1]),
        pool_case("global", kind, "f32", (2, 5, 6, 7), [6, 7]),
        pool_case("rect_stride", kind, "f32", (1, 2, 9, 12), [2, 3], [3, 2]),
        pool_case("overlap", kind, "f32", (1, 2, 7, 7), [3, 3], [1, 1]),
        pool_case("dyn", kind, "f32", (3, 4, 8, 6), [2, 2], None, None,
                  dims=(None, None, 8, 6)),
        pool_case("dyn_pad", kind, "f32", (2, 3, 7, 7), [3, 3], [2, 2],
                  [1, 1, 1, 1], dims=(None, 3, 7, 7)),
        # 1-D
        pool_case("k3_s2", kind, "f32", (2, 4, 10), [3], [2]),
        pool_case("k2", kind, "f32", (1, 3, 9), [2]),
        pool_case("k3_s1_p1", kind, "f32", (2, 2, 8), [3], [1], [1, 1]),
        pool_case("asym_pad", kind, "f32", (1, 2, 11), [4], [2], [0, 1]),
        pool_case("k2", kind, "bf16", (1, 1, 6), [2]),
        pool_case("k3_s2_p1", kind, "f16", (2, 3, 9), [3], [2], [1, 1]),
        pool_case("dyn", kind, "f32", (3, 2, 9), [3], [3], None,
                  dims=(None, None, 9)),
    ]
suite.run(cases, chunk=CHUNK)

suite.finish()
