# REQUIRES: target-cuda
# RUN: %python %s %rlx_lib_dir
# The CUDA runtime's collectives (NCCLCollectives.cpp) against stand-ins
# for the driver and NCCL (test/Runtime/FakeNCCL.cpp; no GPU in CI), in
# jobs started by rlx.distributed: the NCCL id that rank 0 publishes and
# the others read, the communicators (the world's non-blocking, then a
# blocking one split per group), the calls' arguments (types, reductions,
# all_to_all as sends and receives), the device of each process, the
# asynchronous calls' streams, and the failures: a
# peer that never joins (timeout, then ncclCommAbort, then the group's
# later calls fail at once), a rank 0 that never publishes the id, groups
# whose processes disagree, no NCCL at all.
import ctypes
import os
import sys
import tempfile
import time

LIB_DIR = sys.argv[-1]
F32, F64, BF16, F16, I32, I64 = range(6)
SUM, PRODUCT, MAX, MIN = range(4)


def child(scenario):
    lib = ctypes.CDLL(os.path.join(LIB_DIR, "librlx_cuda_runtime.so"))
    i32, i64, ptr = ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p
    for name in ("AllReduce", "ReduceScatter"):
        getattr(lib, "rlxCollective" + name).argtypes = [
            i32, i32, ptr, ptr, i64, i64, i64, i64, i64]
    for name in ("AllGather", "AllToAll"):
        getattr(lib, "rlxCollective" + name).argtypes = [
            i32, ptr, ptr, i64, i64, i64, i64, i64]
    lib.rlxCollectiveGetLastError.restype = ctypes.c_char_p
    lib.rlxCudaGetLastError.restype = ctypes.c_char_p
    rank = int(os.environ["RLX_RANK"])
    size = int(os.environ["RLX_WORLD_SIZE"])
    lines = []

    def error():
        e = lib.rlxCollectiveGetLastError()
        lines.append("error: %s" % (e.decode() if e else None))
        lib.rlxCollectiveClearError()

    if scenario == "calls":
        lib.rlxCollectiveAllReduce(F32, MAX, 0x1000, 0x2000, 7, 1, 0, rank,
                                   size)
        lines.append("id files left: %s" % [
            f for f in os.listdir(os.environ["RLX_COLLECTIVE_DIR"])
            if "nccl-id" in f])
        lib.rlxCollectiveAllReduce(BF16, SUM, 0x1000, 0x1000, 5, 1, 0, rank,
                                   size)
        lib.rlxCollectiveAllGather(F16, 0x1000, 0x2000, 4, 1, 0, rank, size)
        lib.rlxCollectiveReduceScatter(I32, PRODUCT, 0x1000, 0x2000, 2, 1, 0,
                                       rank, size)
        # Another group: the processes in the other order.
        lib.rlxCollectiveAllToAll(I64, 0x1000, 0x2000, 3, 2, 0,
                                  size - 1 - rank, size)
        lib.rlxCollectiveAllReduce(F64, MIN, 0x1000, 0x2000, 1, 2, 0,
                                   size - 1 - rank, size)
        # A group of one, in place: nothing to do, no NCCL.
        lib.rlxCollectiveAllReduce(F32, SUM, 0x1000, 0x1000, 9, 4, rank, 0,
                                   1)
        error()
    elif scenario == "async":
        # Started on the communication stream after the caller's work,
        # joined back by the wait; a wait for nothing started, and one
        # after a synchronous call (group of one), do nothing.
        for name in ("AllReduce", "ReduceScatter"):
            getattr(lib, "rlxCollective%sAsync" % name).argtypes = [
                i32, i32, ptr, ptr, i64, i64, i64, i64, i64]
        for name in ("AllGather", "AllToAll"):
            getattr(lib, "rlxCollective%sAsync" % name).argtypes = [
                i32, ptr, ptr, i64, i64, i64, i64, i64]
        lib.rlxCollectiveWait.argtypes = [ptr, ptr]
        lib.rlxCollectiveAllReduceAsync(F32, SUM, 0x1000, 0x2000, 7, 1, 0,
                                        rank, size)
        lib.rlxCollectiveAllGatherAsync(F16, 0x3000, 0x4000, 4, 1, 0, rank,
                                        size)
        lib.rlxCollectiveWait(0x4000, 0x3000)
        lib.rlxCollectiveWait(0x2000, 0x1000)
        lib.rlxCollectiveWait(0x2000, 0x1000)
        lib.rlxCollectiveAllReduceAsync(F32, SUM, 0x1000, 0x1000, 9, 4, rank,
                                        0, 1)
        lib.rlxCollectiveWait(0x1000, 0x1000)
        error()
    elif scenario == "again":
        # Two calls after a failure: the second fails at once.
        for _ in range(2):
            start = time.monotonic()
            lib.rlxCollectiveAllReduce(F32, SUM, 0x1000, 0x2000, 7, 1, 0,
                                       rank, size)
            # Whether the call waited out the timeout, not its time: the
            # machine may be loaded, so no upper bound beyond the job's.
            took = time.monotonic() - start
            timeout = float(os.environ.get("RLX_COLLECTIVE_TIMEOUT", "300"))
            lines.append("took %s" % ("the timeout" if took >= 0.95 * timeout
                                      else "less than the timeout"))
            error()
        e = lib.rlxCudaGetLastError()
        lines.append("cuda error: %s" % (e.decode() if e else None))
    elif scenario == "one":
        # A job of one: in place there is nothing to do; a copy is the
        # driver's (which the stand-in lacks).
        lib.rlxCollectiveAllReduce(F32, SUM, 0x1000, 0x1000, 9, 1, 0, 0, 1)
        error()
        lib.rlxCollectiveAllGather(F32, 0x1000, 0x2000, 9, 1, 0, 0, 1)
        error()
    elif scenario == "no-rank-0":
        if rank == 0:
            return 0
        lib.rlxCollectiveAllReduce(F32, SUM, 0x1000, 0x2000, 7, 1, 0, rank,
                                   size)
        error()
    nccl = ctypes.CDLL(os.environ["RLX_NCCL_LIBRARY"]) if os.path.exists(
        os.environ["RLX_NCCL_LIBRARY"]) else None
    if nccl:
        nccl.fakeNcclLog.restype = ctypes.c_char_p
        lines += nccl.fakeNcclLog().decode().splitlines()
    cuda = ctypes.CDLL(os.environ["RLX_CUDA_DRIVER"])
    cuda.fakeCudaLog.restype = ctypes.c_char_p
    lines += [line for line in cuda.fakeCudaLog().decode().splitlines()
              if "Ctx" in line or "Stream" in line]
    with open(os.path.join(os.environ["OUT_DIR"], "rank%d" % rank),
              "w") as f:
        f.write("\n".join(lines) + "\n")
    return 0


def job(nprocs, scenario, **env):
    """Runs `scenario` on `nprocs` processes; their logs, by rank."""
    from rlx import distributed
    out = tempfile.mkdtemp()
    env = dict({"RLX_CUDA_DRIVER": os.path.join(LIB_DIR,
                                                "librlx_fake_cuda.so"),
                "RLX_NCCL_LIBRARY": os.path.join(LIB_DIR,
                                                 "librlx_fake_nccl.so"),
                "OUT_DIR": out}, **env)
    codes = distributed.launch(nprocs, [sys.executable, __file__, "--child",
                                        scenario, LIB_DIR], env=env,
                               timeout=60)
    assert codes == [0] * nprocs, codes
    logs = []
    for r in range(nprocs):
        path = os.path.join(out, "rank%d" % r)
        logs.append(open(path).read() if os.path.exists(path) else "")
    return logs


failures = 0


def expect(what, log, *lines):
    """Each of `lines` is in `log`, in order (a line may be a prefix)."""
    global failures
    at = 0
    got = log.splitlines()
    for want in lines:
        while at < len(got) and not got[at].startswith(want):
            at += 1
        if at == len(got):
            print("%s: no line %r (in order) in:\n%s" % (what, want, log),
                  file=sys.stderr)
            failures += 1
            return
        at += 1


def absent(what, log, text):
    global failures
    if text in log:
        print("%s: %r in:\n%s" % (what, text, log), file=sys.stderr)
        failures += 1


def main():
    global failures
    if "--child" in sys.argv:
        sys.exit(child(sys.argv[sys.argv.index("--child") + 1]))

    logs = job(2, "calls")
    ids = [line.split(" id ")[1].split()[0] for log in logs
           for line in log.splitlines() if "InitRankConfig" in line]
    if len(ids) != 2 or ids[0] != ids[1] or not ids[0].startswith(
            "fake-id-of-"):
        print("the ranks did not get rank 0's id: %s" % ids,
              file=sys.stderr)
        failures += 1
    for rank, log in enumerate(logs):
        what = "rank %d" % rank
        other = 1 - rank
        expect(what, log,
               "id files left: []" if rank == 0 else "id files left:",
               "error: None",
               *(["ncclGetUniqueId"] if rank == 0 else []),
               "ncclCommInitRankConfig 0x100 ranks 2 rank %d id fake-id-of-"
               % rank,
               "ncclCommSplit 0x100 color 0 key %d -> 0x200 blocking 1" % rank,
               # f32 max, bf16 sum (in place), f16, i32 product.
               "ncclAllReduce 0x1000 -> 0x2000 count 7 type 7 op 2 comm 0x200 "
               "stream (nil)",
               "ncclAllReduce 0x1000 -> 0x1000 count 5 type 9 op 0 comm 0x200",
               "ncclAllGather 0x1000 -> 0x2000 count 4 type 6 comm 0x200",
               "ncclReduceScatter 0x1000 -> 0x2000 count 2 type 2 op 1 comm "
               "0x200",
               # Group 2, keys reversed: its own communicator.
               "ncclCommSplit 0x100 color 0 key %d -> 0x300" % other,
               "ncclGroupStart",
               "ncclSend 0x1000 count 3 type 4 peer 0 comm 0x300",
               "ncclRecv 0x2000 count 3 type 4 peer 0 comm 0x300",
               "ncclSend 0x1018 count 3 type 4 peer 1 comm 0x300",
               "ncclRecv 0x2018 count 3 type 4 peer 1 comm 0x300",
               "ncclGroupEnd",
               "ncclAllReduce 0x1000 -> 0x2000 count 1 type 8 op 3 comm 0x300",
               # The device of the process, and the legacy stream waited.
               "cuDevicePrimaryCtxRetain %d" % rank,
               "cuCtxSetCurrent",
               "cuStreamSynchronize (nil)")
        if "magic cafebeef version 21800 size 48" not in log:
            print("%s: config not as NCCL 2.18's:\n%s" % (what, log),
                  file=sys.stderr)
            failures += 1
        absent(what, log, "ncclCommAbort")
        absent(what, log, "ncclCommSplit 0x100 color 0 key %d -> 0x400" %
               rank)
        if rank == 1:
            absent(what, log, "ncclGetUniqueId")

    for rank, log in enumerate(job(2, "async")):
        what = "async, rank %d" % rank
        expect(what, log, "error: None",
               "ncclAllReduce 0x1000 -> 0x2000 count 7 type 7 op 0 comm 0x200 "
               "stream 0x",
               "ncclAllGather 0x3000 -> 0x4000 count 4 type 6 comm 0x200 "
               "stream 0x",
               "cuStreamCreate 0x",
               "cuStreamWaitEvent 0x",
               "cuStreamWaitEvent (nil) for 0x",
               "cuStreamWaitEvent (nil) for 0x")
        # The comm stream once; each collective after the caller's stream
        # (two waits on the comm stream), each wait once on the caller's.
        waits = [l for l in log.splitlines() if "cuStreamWaitEvent" in l]
        if (sum("(nil)" in l for l in waits) != 2 or len(waits) != 4 or
                log.count("cuStreamCreate") != 1):
            print("%s: stream ordering not as expected:\n%s" % (what, log),
                  file=sys.stderr)
            failures += 1

    # A peer that never joins: the world's creation times out and is
    # aborted; the next call fails at once.
    for rank, log in enumerate(job(2, "again", FAKE_NCCL_HANG="init",
                                   RLX_COLLECTIVE_TIMEOUT="2")):
        expect("hung init, rank %d" % rank, log, "took the timeout",
               "error: rlxCollectiveAllReduce (group 1, color 0, key %d of "
               "2): ncclCommInitRankConfig: timed out after 2 s waiting for "
               "the job's 2 processes to join" % rank,
               "took less than the timeout",
               "error: rlxCollectiveAllReduce (group 1, color 0, "
               "key %d of 2): ncclCommInitRankConfig: timed out" % rank,
               "cuda error: rlxCollectiveAllReduce", "ncclCommAbort 0x100")

    # A collective that never completes: the group's communicator is
    # aborted, the group's next call fails at once.
    for rank, log in enumerate(job(2, "again", FAKE_NCCL_HANG="call",
                                   RLX_COLLECTIVE_TIMEOUT="2")):
        expect("hung call, rank %d" % rank, log, "took the timeout",
               "error: rlxCollectiveAllReduce (group 1, color 0, key %d of "
               "2): enqueueing: timed out after 2 s" % rank,
               "took less than the timeout",
               "error: rlxCollectiveAllReduce (group 1, color 0, "
               "key %d of 2): an earlier collective of the group failed: "
               "enqueueing: timed out" % rank,
               "ncclCommSplit", "ncclAllReduce", "ncclCommAbort 0x200")

    # Rank 0 never publishes the id.
    log = job(2, "no-rank-0", RLX_COLLECTIVE_TIMEOUT="2")[1]
    expect("no rank 0", log, "error: rlxCollectiveAllReduce (group 1, color "
           "0, key 1 of 2): timed out after 2 s waiting for rank 0 to "
           "publish the NCCL id in ")
    absent("no rank 0", log, "ncclCommInitRankConfig")

    # The processes disagree on the group.
    for rank, log in enumerate(job(2, "again", FAKE_NCCL_SPLIT_COUNT="3")):
        expect("disagreeing group, rank %d" % rank, log,
               "error: rlxCollectiveAllReduce (group 1, color 0, key %d of "
               "2): ncclCommSplit made a group of 3: the processes disagree"
               % rank, "took less than the timeout",
               "error: rlxCollectiveAllReduce (group 1, "
               "color 0, key %d of 2): an earlier collective of the group "
               "failed" % rank, "ncclCommAbort 0x200")

    # No NCCL: an error, not a crash; a job of one needs none.
    for rank, log in enumerate(job(2, "again",
                                   RLX_NCCL_LIBRARY="/nonexistent/nccl.so")):
        expect("no NCCL, rank %d" % rank, log,
               "error: rlxCollectiveAllReduce (group 1, color 0, key %d of "
               "2): cannot load NCCL /nonexistent/nccl.so" % rank)
    log = job(1, "one", RLX_NCCL_LIBRARY="/nonexistent/nccl.so")[0]
    expect("job of one", log, "error: None",
           "error: rlxCollectiveAllGather (group 1, color 0, key 0 of 1): the "
           "CUDA driver lacks cuMemcpyAsync")
    print("%d failures" % failures)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
