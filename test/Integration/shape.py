# RUN: %python %s
# Data movement: reshape, transpose, narrow, concat, expand, reverse on every
# element type, with negative axes, size-1 dims and dynamic dims. Results
# must match exactly.

import numpy as np

import rlxtest
from rlxtest import FLOATS, INTS, Case, Suite, rand
from rlxtest import tensor_type as T

KNOWN_FAILURES = []

suite = Suite("shape", KNOWN_FAILURES)
r = rlxtest.rng()
EXACT = (0, 0)
ALL = FLOATS + INTS + ["i1", "complex<f32>"]


def val(shape, elem):
    return rand(r, shape, elem, -100, 100)


# Every element type: reshape (consumed by a transpose), transpose, narrow,
# expand, reverse in one case; concat in another.
cases = []
for e in ALL:
    x, y, b = val((2, 3, 4), e), val((2, 5, 4), e), val((3, 1), e)
    tx, ty, tb = T((2, 3, 4), e), T((2, 5, 4), e), T((3, 1), e)
    args = [("%x", tx, x), ("%y", ty, y), ("%b", tb, b)]
    cases.append(Case("movement/" + e, args, """
        %r = rlx.reshape %x : {tx} -> {t64}
        %rt = rlx.transpose %r [1, 0] : {t64}
        %t = rlx.transpose %x [2, 0, 1] : {tx}
        %n = rlx.narrow %x axis = 1 start = 1 length = 2 : {tx}
        %e = rlx.expand %b : {tb} -> {te}
        %v = rlx.reverse %x axes = [0, 2] : {tx}""".format(
        tx=tx, tb=tb, t64=T((6, 4), e), te=T((2, 3, 5), e)),
        [("%rt", T((4, 6), e)), ("%t", T((4, 2, 3), e)),
         ("%n", T((2, 2, 4), e)), ("%e", T((2, 3, 5), e)), ("%v", tx)],
        [x.reshape(6, 4).T, x.transpose(2, 0, 1), x[:, 1:3],
         np.broadcast_to(b, (2, 3, 5)), x[::-1, :, ::-1]], EXACT))
    cases.append(Case("concat/" + e, args,
                      "%c = rlx.concat %x, %y axis = 1 : {}, {}".format(tx, ty),
                      [("%c", T((2, 8, 4), e))], [np.concatenate([x, y], 1)],
                      EXACT))
suite.run(cases)


def one(name, shapes, body, results, expected, types=None):
    """A case on f32 inputs of `shapes` named %a, %b, ... (types: their
    MLIR types, for dynamic dims)."""
    xs = [val(s, "f32") for s in shapes]
    types = types or [T(s, "f32") for s in shapes]
    args = [("%" + "abcd"[i], t, x) for i, (t, x) in enumerate(zip(types, xs))]
    return Case(name, args, body, results, [expected(*xs)], EXACT)


def matmul_after_reshape(name, ashape, rshape, bshape):
    a, b = rand(r, ashape, "f32"), rand(r, bshape, "f32")
    out = rshape[:-1] + bshape[-1:]
    return Case("reshape/%s_into_matmul" % name,
                [("%a", T(ashape, "f32"), a), ("%b", T(bshape, "f32"), b)],
                """
        %r = rlx.reshape %a : {0} -> {1}
        %y = rlx.matmul %r, %b : {1}, {2}""".format(
                    T(ashape, "f32"), T(rshape, "f32"), T(bshape, "f32")),
                [("%y", T(out, "f32"))],
                [a.astype(np.float64).reshape(rshape) @ b], (1e-5, 1e-5))


F = lambda *dims: T(dims, "f32")
x234, x64 = val((2, 3, 4), "f32"), val((6, 4), "f32")
suite.run([
    # reshape: split, merge, to rank 1, to rank 0, dynamic dims; first each
    # consumed by a neg, then each returned as it is (a view of the argument).
    Case("reshape/chained", [("%a", F(2, 3, 4), x234), ("%d", F(None, 4), x64)],
         """
        %r0 = rlx.reshape %a : {0} -> {1}
        %r1 = rlx.reshape %a : {0} -> {2}
        %r2 = rlx.reshape %r1 : {2} -> {3}
        %r3 = rlx.reshape %d : {4} -> {5}
        %r4 = rlx.reshape %d : {4} -> {6}
        %n0 = rlx.neg %r0 : {1}
        %n2 = rlx.neg %r2 : {3}
        %n3 = rlx.neg %r3 : {5}
        %n4 = rlx.neg %r4 : {6}""".format(F(2, 3, 4), F(2, 12), F(24),
                                          F(1, 4, 1, 3, 2), F(None, 4),
                                          F(None, 2, 2), F(None)),
         [("%n0", F(2, 12)), ("%n2", F(1, 4, 1, 3, 2)),
          ("%n3", F(None, 2, 2)), ("%n4", F(None))],
         [-x234.reshape(2, 12), -x234.reshape(1, 4, 1, 3, 2),
          -x64.reshape(6, 2, 2), -x64.reshape(24)], EXACT),
    one("reshape/merge", [(2, 3, 4)], "%y = rlx.reshape %a : {} -> {}".format(
        F(2, 3, 4), F(2, 12)), [("%y", F(2, 12))], lambda a: a.reshape(2, 12)),
    # No common refinement of the shapes: through one dim.
    one("reshape/no_refinement", [(4, 6)],
        "%y = rlx.reshape %a : {} -> {}".format(F(4, 6), F(6, 4)),
        [("%y", F(6, 4))], lambda a: a.reshape(6, 4)),
    one("reshape/no_refinement_consumed", [(64, 48)],
        "%r = rlx.reshape %a : {} -> {}\n%y = rlx.neg %r : {}".format(
            F(64, 48), F(48, 64), F(48, 64)),
        [("%y", F(48, 64))], lambda a: -a.reshape(48, 64)),
    one("reshape/no_refinement_rank3", [(3, 4, 5)],
        "%y = rlx.reshape %a : {} -> {}".format(F(3, 4, 5), F(2, 6, 5)),
        [("%y", F(2, 6, 5))], lambda a: a.reshape(2, 6, 5)),
    # Reshaped views read by a vectorized matmul (A through an
    # expand_shape, whose column blocks do not fold into the buffer): a
    # split, no common refinement, and unit dims apart (attention's
    # grouped-query heads, 2x4x16x8 -> 2x1x64x8).
    matmul_after_reshape("split", (1536,), (48, 32), (32, 64)),
    matmul_after_reshape("no_refinement", (32, 48), (48, 32), (32, 64)),
    matmul_after_reshape("unit_dims", (2, 4, 16, 8), (2, 1, 64, 8),
                         (2, 1, 8, 32)),
    one("reshape/flat", [(2, 3, 4)], "%y = rlx.reshape %a : {} -> {}".format(
        F(2, 3, 4), F(24)), [("%y", F(24))], lambda a: a.reshape(24)),
    one("reshape/split", [(24,)], "%y = rlx.reshape %a : {} -> {}".format(
        F(24), F(4, 3, 2)), [("%y", F(4, 3, 2))], lambda a: a.reshape(4, 3, 2)),
    one("reshape/unit_dims", [(6, 4)], "%y = rlx.reshape %a : {} -> {}".format(
        F(6, 4), F(1, 6, 1, 4)), [("%y", F(1, 6, 1, 4))],
        lambda a: a.reshape(1, 6, 1, 4)),
    one("reshape/rank0", [(1, 1)], "%y = rlx.reshape %a : {} -> {}".format(
        F(1, 1), F()), [("%y", F())], lambda a: a.reshape(())),
    one("reshape/dyn_split", [(6, 4)], "%y = rlx.reshape %a : {} -> {}".format(
        F(None, 4), F(None, 2, 2)), [("%y", F(None, 2, 2))],
        lambda a: a.reshape(6, 2, 2), types=[F(None, 4)]),
    one("reshape/dyn_flat", [(3, 5)], "%y = rlx.reshape %a : {} -> {}".format(
        F(3, None), F(None)), [("%y", F(None))], lambda a: a.reshape(15),
        types=[F(3, None)]),
    one("reshape/static_to_dyn", [(6, 4)],
        "%y = rlx.reshape %a : {} -> {}".format(F(6, 4), F(None, 8)),
        [("%y", F(None, 8))], lambda a: a.reshape(3, 8)),
    # transpose: 2-D, 4-D permutations, dynamic.
    one("transpose/2d", [(3, 5)], "%y = rlx.transpose %a [1, 0] : " + F(3, 5),
        [("%y", F(5, 3))], lambda a: a.T),
    one("transpose/4d", [(2, 3, 4, 5)],
        "%y = rlx.transpose %a [0, 2, 1, 3] : " + F(2, 3, 4, 5),
        [("%y", F(2, 4, 3, 5))], lambda a: a.transpose(0, 2, 1, 3)),
    one("transpose/4d_rev", [(2, 3, 4, 5)],
        "%y = rlx.transpose %a [3, 2, 1, 0] : " + F(2, 3, 4, 5),
        [("%y", F(5, 4, 3, 2))], lambda a: a.transpose(3, 2, 1, 0)),
    one("transpose/4d_cycle", [(2, 3, 4, 5)],
        "%y = rlx.transpose %a [1, 3, 0, 2] : " + F(2, 3, 4, 5),
        [("%y", F(3, 5, 2, 4))], lambda a: a.transpose(1, 3, 0, 2)),
    one("transpose/dyn", [(4, 6)], "%y = rlx.transpose %a [1, 0] : " +
        F(None, 6), [("%y", F(6, None))], lambda a: a.T, types=[F(None, 6)]),
    # narrow: first, last and middle slices, negative axis, dynamic.
    one("narrow/axis0", [(5, 4)],
        "%y = rlx.narrow %a axis = 0 start = 0 length = 2 : " + F(5, 4),
        [("%y", F(2, 4))], lambda a: a[0:2]),
    one("narrow/end", [(3, 7)],
        "%y = rlx.narrow %a axis = 1 start = 4 length = 3 : " + F(3, 7),
        [("%y", F(3, 3))], lambda a: a[:, 4:7]),
    one("narrow/neg_axis", [(2, 3, 8)],
        "%y = rlx.narrow %a axis = -1 start = 3 length = 4 : " + F(2, 3, 8),
        [("%y", F(2, 3, 4))], lambda a: a[..., 3:7]),
    one("narrow/neg_axis_mid", [(2, 6, 3)],
        "%y = rlx.narrow %a axis = -2 start = 5 length = 1 : " + F(2, 6, 3),
        [("%y", F(2, 1, 3))], lambda a: a[:, 5:6]),
    one("narrow/dyn", [(5, 8)],
        "%y = rlx.narrow %a axis = 1 start = 2 length = 5 : " + F(None, 8),
        [("%y", F(None, 5))], lambda a: a[:, 2:7], types=[F(None, 8)]),
    one("narrow/dyn_axis", [(9, 3)],
        "%y = rlx.narrow %a axis = 0 start = 3 length = 4 : " + F(None, 3),
        [("%y", F(4, 3))], lambda a: a[3:7], types=[F(None, 3)]),
    # An empty slice at the end of the axis (its offset is the axis' size).
    one("narrow/empty_at_end", [(4, 5)],
        "%y = rlx.narrow %a axis = 1 start = 5 length = 0 : " + F(None, 5),
        [("%y", F(None, 0))], lambda a: a[:, 5:5], types=[F(None, 5)]),
    # concat: three inputs, axis 0 and -1, dynamic.
    one("concat/three_axis0", [(2, 4), (1, 4), (3, 4)],
        "%y = rlx.concat %a, %b, %c axis = 0 : {}, {}, {}".format(
            F(2, 4), F(1, 4), F(3, 4)),
        [("%y", F(6, 4))], lambda a, b, c: np.concatenate([a, b, c], 0)),
    one("concat/neg_axis", [(2, 3, 1), (2, 3, 4)],
        "%y = rlx.concat %a, %b axis = -1 : {}, {}".format(
            F(2, 3, 1), F(2, 3, 4)),
        [("%y", F(2, 3, 5))], lambda a, b: np.concatenate([a, b], -1)),
    one("concat/same", [(2, 3)],
        "%y = rlx.concat %a, %a axis = 0 : {}, {}".format(F(2, 3), F(2, 3)),
        [("%y", F(4, 3))], lambda a: np.concatenate([a, a], 0)),
    one("concat/dyn", [(3, 4), (5, 4)],
        "%y = rlx.concat %a, %b axis = 0 : {}, {}".format(
            F(None, 4), F(None, 4)),
        [("%y", F(None, 4))], lambda a, b: np.concatenate([a, b], 0),
        types=[F(None, 4), F(None, 4)]),
    one("concat/dyn_other", [(3, 4), (3, 2)],
        "%y = rlx.concat %a, %b axis = 1 : {}, {}".format(
            F(None, 4), F(None, 2)),
        [("%y", F(None, 6))], lambda a, b: np.concatenate([a, b], 1),
        types=[F(None, 4), F(None, 2)]),
    # expand: new leading dims, size-1 dims stretched, rank 0.
    one("expand/leading", [(8,)], "%y = rlx.expand %a : {} -> {}".format(
        F(8), F(3, 4, 8)), [("%y", F(3, 4, 8))],
        lambda a: np.broadcast_to(a, (3, 4, 8))),
    one("expand/ones", [(4, 1, 6)], "%y = rlx.expand %a : {} -> {}".format(
        F(4, 1, 6), F(2, 4, 5, 6)), [("%y", F(2, 4, 5, 6))],
        lambda a: np.broadcast_to(a, (2, 4, 5, 6))),
    one("expand/all_ones", [(1, 1)], "%y = rlx.expand %a : {} -> {}".format(
        F(1, 1), F(2, 3, 4)), [("%y", F(2, 3, 4))],
        lambda a: np.broadcast_to(a, (2, 3, 4))),
    one("expand/rank0", [()], "%y = rlx.expand %a : {} -> {}".format(
        F(), F(3, 2)), [("%y", F(3, 2))], lambda a: np.broadcast_to(a, (3, 2))),
    one("expand/dyn", [(5, 1)], "%y = rlx.expand %a : {} -> {}".format(
        F(None, 1), F(None, 7)), [("%y", F(None, 7))],
        lambda a: np.broadcast_to(a, (5, 7)), types=[F(None, 1)]),
    # reverse: one axis, negative axis, every axis, dynamic.
    one("reverse/axis0", [(4, 5)], "%y = rlx.reverse %a axes = [0] : " +
        F(4, 5), [("%y", F(4, 5))], lambda a: a[::-1]),
    one("reverse/neg", [(2, 3, 4)], "%y = rlx.reverse %a axes = [-1] : " +
        F(2, 3, 4), [("%y", F(2, 3, 4))], lambda a: a[..., ::-1]),
    one("reverse/all", [(2, 3, 4)],
        "%y = rlx.reverse %a axes = [2, 0, 1] : " + F(2, 3, 4),
        [("%y", F(2, 3, 4))], lambda a: a[::-1, ::-1, ::-1]),
    one("reverse/dyn", [(7, 3)], "%y = rlx.reverse %a axes = [0] : " +
        F(None, 3), [("%y", F(None, 3))], lambda a: a[::-1],
        types=[F(None, 3)]),
    # A chain: transpose of a narrow of a reshape, then concat with itself.
    one("chain", [(4, 6)], """
        %r = rlx.reshape %a : {} -> {}
        %n = rlx.narrow %r axis = 2 start = 1 length = 2 : {}
        %t = rlx.transpose %n [2, 0, 1] : {}
        %c = rlx.concat %t, %t axis = -2 : {}, {}""".format(
        F(4, 6), F(4, 2, 3), F(4, 2, 3), F(4, 2, 2), F(2, 4, 2), F(2, 4, 2)),
        [("%c", F(2, 8, 2))], lambda a: np.concatenate(
            [a.reshape(4, 2, 3)[:, :, 1:3].transpose(2, 0, 1)] * 2, 1)),
])

suite.finish()
