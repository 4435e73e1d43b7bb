# RUN: %python %s %rlx_lib_dir/librlx_cpu_runtime.so
# The CPU runtime's collectives (Collectives.h) between processes started
# by rlx.distributed, called through ctypes, against NumPy: jobs of 2, 3
# and 4 processes run all_reduce (every type and reduction, counts 1 to
# 100003; bf16 and f16 reduce in f32 and round once), all_gather,
# reduce_scatter, all_to_all, in-place all_reduce and, on a 2x2 grid, the
# groups of either axis and of both (in both axis orders). Each process
# draws its inputs from a seed of its own and recomputes every peer's to
# check its results. Also: a job of one process (copies, no file), a
# peer that exits before the collective (the others give up after
# RLX_COLLECTIVE_TIMEOUT and name it), bad arguments (recorded errors),
# and the launcher's command line.
import ctypes
import os
import subprocess
import sys
import time

import numpy as np

LIB = sys.argv[-1]
SEED = int(os.environ.get("RLX_TEST_SEED") or
           int.from_bytes(os.urandom(4), "little"))

F32, F64, BF16, F16, I32, I64 = range(6)
SUM, PRODUCT, MAX, MIN = range(4)
TYPES = {F32: "f32", F64: "f64", BF16: "bf16", F16: "f16", I32: "i32",
         I64: "i64"}
STORAGE = {F32: np.float32, F64: np.float64, BF16: np.uint16,
           F16: np.float16, I32: np.int32, I64: np.int64}


def load(path):
    lib = ctypes.CDLL(path)
    i32, i64, ptr = ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p
    lib.rlxCollectiveAllReduce.argtypes = [i32, i32, ptr, ptr, i64, i64, i64,
                                           i64, i64]
    lib.rlxCollectiveReduceScatter.argtypes = [i32, i32, ptr, ptr, i64, i64,
                                               i64, i64, i64]
    lib.rlxCollectiveAllGather.argtypes = [i32, ptr, ptr, i64, i64, i64, i64,
                                           i64]
    lib.rlxCollectiveAllToAll.argtypes = [i32, ptr, ptr, i64, i64, i64, i64,
                                          i64]
    for f in (lib.rlxCollectiveAllReduce, lib.rlxCollectiveReduceScatter,
              lib.rlxCollectiveAllGather, lib.rlxCollectiveAllToAll,
              lib.rlxCollectiveClearError):
        f.restype = None
    lib.rlxCollectiveRank.restype = i64
    lib.rlxCollectiveWorldSize.restype = i64
    lib.rlxCollectiveGetLastError.restype = ctypes.c_char_p
    return lib


def to_bf16(x):
    """float32 -> bf16 bits, rounded to nearest even (no NaNs here)."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    bits = bits + 0x7FFF + ((bits >> 16) & 1)
    return (bits >> 16).astype(np.uint16)


def from_bf16(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def inputs(case, rank, type, n, reduction=SUM):
    """Rank `rank`'s input of case `case`: n elements, in storage form."""
    rng = np.random.default_rng([SEED, case, rank])
    if type in (I32, I64):
        info = np.iinfo(STORAGE[type])
        return rng.integers(info.min, info.max, n, dtype=STORAGE[type],
                            endpoint=True)
    # Products of a few factors near 1 neither overflow nor underflow.
    x = (rng.uniform(0.5, 1.5, n) if reduction == PRODUCT else
         rng.standard_normal(n) * 4)
    if type == BF16:
        return to_bf16(x)
    return x.astype(STORAGE[type])


def reference(type, reduction, blocks):
    """The reduction of `blocks` (storage form) in key order, as the
    runtime computes it: bf16 and f16 in float32, rounded once."""
    widen = {BF16: from_bf16, F16: lambda b: b.astype(np.float32)}.get(
        type, lambda b: b)
    op = {SUM: np.add, PRODUCT: np.multiply, MAX: np.maximum,
          MIN: np.minimum}[reduction]
    with np.errstate(over="ignore"):
        acc = widen(blocks[0])
        for b in blocks[1:]:
            acc = op(acc, widen(b))
    if type == BF16:
        return to_bf16(acc)
    return acc.astype(STORAGE[type])


class Child:
    """One process of a job: calls the collectives and checks them."""

    def __init__(self):
        self.lib = load(LIB)
        self.rank = int(self.lib.rlxCollectiveRank())
        self.size = int(self.lib.rlxCollectiveWorldSize())
        self.case = 0
        self.checks = 0
        self.failures = 0

    def check(self, what, got, want):
        self.checks += 1
        self.error_free(what)
        if got.dtype != want.dtype or not np.array_equal(
                got.view(np.uint8), want.view(np.uint8)):
            bad = np.flatnonzero(got != want)[:3]
            print("rank %d: %s: wrong at %s: %s, not %s (RLX_TEST_SEED=%d)" %
                  (self.rank, what, bad, got[bad], want[bad], SEED),
                  file=sys.stderr)
            self.failures += 1

    def error_free(self, what):
        error = self.lib.rlxCollectiveGetLastError()
        if error:
            print("rank %d: %s: %s" % (self.rank, what, error.decode()),
                  file=sys.stderr)
            self.failures += 1
            self.lib.rlxCollectiveClearError()

    def next_case(self):
        self.case += 1
        return self.case

    def all_reduce(self, type, reduction, n, group, color, key, ranks,
                   in_place=False):
        case = self.next_case()
        mine = inputs(case, self.rank, type, n, reduction)
        out = mine if in_place else np.empty_like(mine)
        self.lib.rlxCollectiveAllReduce(type, reduction, mine.ctypes.data,
                                        out.ctypes.data, n, group, color,
                                        key, len(ranks))
        want = reference(type, reduction,
                         [inputs(case, r, type, n, reduction) for r in ranks])
        self.check("all_reduce %s %d x%d group %d%s" %
                   (TYPES[type], reduction, n, group,
                    " in place" if in_place else ""), out, want)

    def all_gather(self, type, n, group, color, key, ranks):
        case = self.next_case()
        mine = inputs(case, self.rank, type, n)
        out = np.empty(n * len(ranks), mine.dtype)
        self.lib.rlxCollectiveAllGather(type, mine.ctypes.data,
                                        out.ctypes.data, n, group, color, key,
                                        len(ranks))
        want = np.concatenate([inputs(case, r, type, n) for r in ranks])
        self.check("all_gather %s x%d group %d" % (TYPES[type], n, group),
                   out, want)

    def reduce_scatter(self, type, reduction, n, group, color, key, ranks):
        case = self.next_case()
        g = len(ranks)
        mine = inputs(case, self.rank, type, n * g, reduction)
        out = np.empty(n, mine.dtype)
        self.lib.rlxCollectiveReduceScatter(type, reduction, mine.ctypes.data,
                                            out.ctypes.data, n, group, color,
                                            key, g)
        want = reference(type, reduction,
                         [inputs(case, r, type, n * g, reduction)
                          [key * n:(key + 1) * n] for r in ranks])
        self.check("reduce_scatter %s %d x%d group %d" %
                   (TYPES[type], reduction, n, group), out, want)

    def all_to_all(self, type, n, group, color, key, ranks):
        case = self.next_case()
        g = len(ranks)
        mine = inputs(case, self.rank, type, n * g)
        out = np.empty(n * g, mine.dtype)
        self.lib.rlxCollectiveAllToAll(type, mine.ctypes.data,
                                       out.ctypes.data, n, group, color, key,
                                       g)
        want = np.concatenate([inputs(case, r, type, n * g)
                               [key * n:(key + 1) * n] for r in ranks])
        self.check("all_to_all %s x%d group %d" % (TYPES[type], n, group),
                   out, want)

    def everything(self, group, color, key, ranks, counts):
        for type in TYPES:
            for reduction in (SUM, PRODUCT, MAX, MIN):
                for n in counts:
                    self.all_reduce(type, reduction, n, group, color, key,
                                    ranks)
        for type in (F32, BF16, F16, I64):
            for n in counts[:3]:
                self.all_gather(type, n, group, color, key, ranks)
                self.all_to_all(type, n, group, color, key, ranks)
                self.reduce_scatter(type, SUM, n, group, color, key, ranks)
                self.reduce_scatter(type, MAX, n, group, color, key, ranks)
        for type in (F32, BF16, I32):
            self.all_reduce(type, SUM, 1000, group, color, key, ranks,
                            in_place=True)


def child_world():
    """Every collective over the whole job, then, on 4 processes, the
    groups of a 2x2 grid (rank = 2 * i + j)."""
    c = Child()
    world = list(range(c.size))
    # The whole job (say, the group of axes 0-2 of a 4x1x1 grid).
    c.everything(7, 0, c.rank, world, [1, 7, 1000, 100003])
    if c.size == 4:
        i, j = divmod(c.rank, 2)
        # Axis 0: the processes of one column j, ordered by i.
        c.everything(1, j, i, [j, 2 + j], [1, 7, 1000])
        # Axis 1: the processes of one row i, ordered by j.
        c.everything(2, i, j, [2 * i, 2 * i + 1], [1, 7, 1000])
        # Both axes, in order (0, 1) (key = the rank) and, under a group
        # id of its own, (1, 0).
        c.everything(3, 0, c.rank, [0, 1, 2, 3], [7])
        c.all_gather(F32, 5, 0x103, 0, 2 * j + i, [0, 2, 1, 3])
        c.all_to_all(I32, 5, 0x103, 0, 2 * j + i, [0, 2, 1, 3])
        c.reduce_scatter(F64, SUM, 5, 0x103, 0, 2 * j + i, [0, 2, 1, 3])
        # Interleaved axes, as a partitioned program alternates them.
        for _ in range(3):
            c.all_reduce(F32, SUM, 300, 1, j, i, [j, 2 + j])
            c.all_reduce(F64, MAX, 300, 2, i, j, [2 * i, 2 * i + 1])
    if c.rank == 0:
        print("rank 0 of %d: %d results checked" % (c.size, c.checks))
    return 1 if c.failures else 0


def child_single():
    """A job of one process: every collective is a copy, and no file."""
    c = Child()
    assert (c.rank, c.size) == (0, 1), (c.rank, c.size)
    c.everything(5, 0, 0, [0], [1, 7, 1000])
    left = os.listdir(os.environ["RLX_COLLECTIVE_DIR"])
    if left:
        print("a job of one process made files: %s" % left, file=sys.stderr)
        return 1
    return 1 if c.failures else 0


def expect_error(c, what, call, *words):
    c.lib.rlxCollectiveClearError()
    call()
    error = c.lib.rlxCollectiveGetLastError()
    error = error.decode() if error else ""
    if not all(w in error for w in words):
        print("%s: error %r, expected one naming %s" % (what, error, words),
              file=sys.stderr)
        c.failures += 1
    c.lib.rlxCollectiveClearError()
    if c.lib.rlxCollectiveGetLastError():
        print("%s: the error survived rlxCollectiveClearError" % what,
              file=sys.stderr)
        c.failures += 1


def child_bad_arguments():
    """Bad arguments are recorded, and nothing is written."""
    c = Child()
    x = np.arange(4, dtype=np.float32)
    y = np.full(4, -1, np.float32)
    lib = c.lib
    expect_error(c, "null buffer", lambda: lib.rlxCollectiveAllReduce(
        F32, SUM, None, y.ctypes.data, 4, 1, 0, 0, 1), "AllReduce", "null")
    expect_error(c, "bad type", lambda: lib.rlxCollectiveAllGather(
        9, x.ctypes.data, y.ctypes.data, 4, 1, 0, 0, 1), "AllGather",
        "type 9")
    expect_error(c, "bad reduction", lambda: lib.rlxCollectiveReduceScatter(
        F32, 7, x.ctypes.data, y.ctypes.data, 4, 1, 0, 0, 1),
        "ReduceScatter", "reduction 7")
    expect_error(c, "key too large", lambda: lib.rlxCollectiveAllToAll(
        F32, x.ctypes.data, y.ctypes.data, 4, 1, 0, 1, 1), "AllToAll",
        "key 1")
    expect_error(c, "empty group", lambda: lib.rlxCollectiveAllReduce(
        F32, SUM, x.ctypes.data, y.ctypes.data, 4, 1, 0, 0, 0), "AllReduce",
        "group of 0")
    expect_error(c, "group larger than the job",
                 lambda: lib.rlxCollectiveAllReduce(
                     F32, SUM, x.ctypes.data, y.ctypes.data, 4, 1, 0, 0,
                     c.size + 1), "AllReduce", "job of %d" % c.size)
    expect_error(c, "negative count", lambda: lib.rlxCollectiveAllReduce(
        F32, SUM, x.ctypes.data, y.ctypes.data, -1, 1, 0, 0, 1), "negative")
    if (y != -1).any():
        print("a rejected call wrote its output: %s" % y, file=sys.stderr)
        c.failures += 1
    # Nothing to do is not an error, even without buffers.
    lib.rlxCollectiveAllReduce(F32, SUM, None, None, 0, 1, 0, 0, c.size)
    c.error_free("count 0")
    return 1 if c.failures else 0


def child_dead_peer():
    """The last rank exits before the collective; the others give up after
    RLX_COLLECTIVE_TIMEOUT (2 s) with an error naming it, and the group's
    later calls fail at once."""
    c = Child()
    last = c.size - 1
    if c.rank == last:
        return 3
    x = np.ones(10, np.float32)
    start = time.monotonic()
    expect_error(c, "dead peer", lambda: c.lib.rlxCollectiveAllReduce(
        F32, SUM, x.ctypes.data, x.ctypes.data, 10, 1, 0, c.rank, c.size),
        "rlxCollectiveAllReduce", "group 1", "timed out after 2 s",
        "key %d" % last)
    # Only whether it waited out the timeout: a loaded machine may take
    # longer, and the job's own timeout catches a hang.
    took = time.monotonic() - start
    if took < 1.9:
        print("the collective gave up after %.1f s, not 2" % took,
              file=sys.stderr)
        c.failures += 1
    start = time.monotonic()
    expect_error(c, "after a timeout", lambda: c.lib.rlxCollectiveAllReduce(
        F32, SUM, x.ctypes.data, x.ctypes.data, 10, 1, 0, c.rank, c.size),
        "earlier collective")
    if time.monotonic() - start >= 1.9:
        print("the call after a timeout waited again", file=sys.stderr)
        c.failures += 1
    return 1 if c.failures else 0


def run_job(nprocs, scenario, env=None, expect=None, grace=5.0):
    from rlx import distributed
    start = time.monotonic()
    codes = distributed.launch(
        nprocs, [sys.executable, __file__, "--child", scenario, LIB],
        env=dict(env or {}, RLX_TEST_SEED=str(SEED)), timeout=60,
        grace=grace)
    expect = expect or [0] * nprocs
    print("%s on %d processes: exit codes %s, %.1f s" %
          (scenario, nprocs, codes, time.monotonic() - start))
    return 0 if codes == expect else 1


def command_line():
    """`python3 -m rlx.distributed -n 2 -- PROGRAM`: the environment each
    process gets, and the exit code of a failing job."""
    show = ("import os; print('rank', os.environ['RLX_RANK'], 'of', "
            "os.environ['RLX_WORLD_SIZE'], 'local', "
            "os.environ['RLX_LOCAL_RANK'], os.environ['RLX_JOB_ID'] != '', "
            "os.path.isdir(os.environ['RLX_COLLECTIVE_DIR']))")
    run = subprocess.run([sys.executable, "-m", "rlx.distributed", "-n", "2",
                          "--", sys.executable, "-c", show],
                         capture_output=True, text=True)
    lines = sorted(run.stdout.splitlines())
    failures = 0
    if run.returncode != 0 or lines != ["rank 0 of 2 local 0 True True",
                                        "rank 1 of 2 local 1 True True"]:
        print("launcher: %d %r %s" % (run.returncode, lines, run.stderr),
              file=sys.stderr)
        failures += 1
    fail = "import os, sys; sys.exit(int(os.environ['RLX_RANK']) * 7)"
    run = subprocess.run([sys.executable, "-m", "rlx.distributed", "-n", "2",
                          "--grace", "0.5", "--", sys.executable, "-c",
                          fail], capture_output=True, text=True)
    if run.returncode != 7 or "rank 1 failed (exit code 7)" not in run.stderr:
        print("failing launch: %d %s" % (run.returncode, run.stderr),
              file=sys.stderr)
        failures += 1
    return failures


def main():
    if "--child" in sys.argv:
        scenario = sys.argv[sys.argv.index("--child") + 1]
        sys.exit(globals()["child_" + scenario]())
    print("seed", SEED)
    start = time.monotonic()
    failures = 0
    for n in (2, 3, 4):
        failures += run_job(n, "world")
    failures += run_job(1, "single")
    failures += run_job(2, "bad_arguments")
    # The failed rank's exit code is its own; the others pass their checks.
    failures += run_job(3, "dead_peer", {"RLX_COLLECTIVE_TIMEOUT": "2"},
                        expect=[0, 0, 3], grace=10)
    failures += command_line()
    print("%d failures, %.1f s" % (failures, time.monotonic() - start))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
