# RUN: %python %s
# rlx.conv_transpose2d against torch.nn.functional.conv_transpose2d in
# float64: strides, dilations, groups, bias, output_padding, and asymmetric
# padding [lo_h, hi_h, lo_w, hi_w] (the reference pads nothing and crops lo
# rows/columns at the start and hi at the end).

import numpy as np
import torch

import rlxtest
from rlxtest import Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("conv_transpose", KNOWN_FAILURES)
r = rlxtest.rng()
F = torch.nn.functional
TOL = {"f32": (1e-5, 1e-5), "f64": (1e-12, 1e-12), "bf16": (2e-2, 2e-2)}


def case(name, elem, x_shape, w_shape, strides=(1, 1), padding=(0, 0, 0, 0),
         dilations=(1, 1), output_padding=(0, 0), groups=1, bias=False):
    x = rand(r, x_shape, elem)
    w = rand(r, w_shape, elem)
    args = [("%x", T(x_shape, elem), x), ("%w", T(w_shape, elem), w)]
    b = None
    if bias:
        b = rand(r, (w_shape[1] * groups,), elem)
        args.append(("%b", T(b.shape, elem), b))
    t = lambda a: torch.from_numpy(np.asarray(a, np.float64))
    full = F.conv_transpose2d(t(x), t(w), None if b is None else t(b),
                              stride=strides, dilation=dilations,
                              groups=groups, output_padding=output_padding)
    lo_h, hi_h, lo_w, hi_w = padding
    ref = full[:, :, lo_h:full.shape[2] - hi_h,
               lo_w:full.shape[3] - hi_w].numpy()
    attrs = " strides = [%d, %d] padding = [%d, %d, %d, %d] " \
            "dilations = [%d, %d] output_padding = [%d, %d] groups = %d" % (
                strides + padding + dilations + output_padding + (groups,))
    body = "%y = rlx.conv_transpose2d {}{} : {}".format(
        ", ".join(n for n, _, _ in args), attrs,
        ", ".join(ty for _, ty, _ in args))
    return Case("conv_transpose2d/%s/%s" % (elem, name), args, body,
                [("%y", T(ref.shape, elem))], [ref], TOL[elem])


cases = [
    case("plain", "f32", (2, 3, 5, 4), (3, 4, 3, 3)),
    case("stride2", "f32", (1, 2, 4, 5), (2, 3, 3, 3), strides=(2, 2)),
    case("stride_pad", "f32", (2, 4, 5, 6), (4, 3, 3, 3), strides=(2, 2),
         padding=(1, 0, 1, 1), output_padding=(1, 1), groups=2, bias=True),
    case("dilation", "f32", (1, 2, 4, 4), (2, 3, 2, 2), dilations=(2, 2)),
    case("stride3_op2", "f32", (1, 1, 3, 3), (1, 2, 2, 2), strides=(3, 3),
         output_padding=(2, 1)),
    case("groups3", "f64", (2, 6, 3, 4), (6, 2, 3, 2), groups=3, bias=True),
    case("bf16", "bf16", (1, 2, 4, 4), (2, 2, 3, 3), strides=(2, 2)),
]
suite.run(cases)
suite.finish()
