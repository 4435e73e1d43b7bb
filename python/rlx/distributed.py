# ===- distributed.py - one process per device, as torchrun starts them -=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""Starts the processes of a partitioned RLX program: one per device, each
told its place in the job through the environment that the runtimes'
collectives read (include/RLX/Runtime/Common/Collectives.h):

    codes = rlx.distributed.launch(4, ["python3", "step.py"])

or from the shell, as torchrun:

    python3 -m rlx.distributed -n 4 [--timeout S] -- python3 step.py ...

Each process gets RLX_RANK, RLX_WORLD_SIZE, RLX_LOCAL_RANK (its GPU: one
machine), RLX_JOB_ID (new for every launch, so that two jobs never meet)
and RLX_COLLECTIVE_DIR (a fresh folder, removed when the job ends, where
the CPU runtime's shared segments and the NCCL id file live), and
RLX_NCCL_LIBRARY where PyTorch's pip package ships libnccl.so.2 and the
variable is not set already. If a process fails, the others get a grace
period to end by themselves (a collective waiting for the dead process
gives up after RLX_COLLECTIVE_TIMEOUT seconds and reports it), then are
stopped; the launcher says which rank failed.
"""

import argparse
import importlib.util
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time

_POLL_SECONDS = 0.02


def nccl_library():
    """The libnccl.so.2 of the `nvidia-nccl-cu*` pip package that PyTorch
    depends on, or None. Looks the package up without importing torch."""
    try:
        spec = importlib.util.find_spec("nvidia.nccl")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(folder, "lib", "libnccl.so.2")
        if os.path.isfile(path):
            return path
    return None


def _stop(processes, grace):
    """SIGTERM to the processes still running, SIGKILL to those that do not
    end within `grace` seconds."""
    for p in processes:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for p in processes:
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def launch(nprocs, argv, env=None, timeout=None, grace=5.0):
    """Runs `argv` as `nprocs` processes of one job and returns their exit
    codes in rank order (negative: killed by that signal).

    `env` holds variables to set in every process on top of this process's
    environment. `timeout` (seconds) bounds the whole job: past it every
    process still running is stopped. When a process fails, the others may
    run `grace` more seconds (to report the collective that lost its peer)
    before they are stopped."""
    if nprocs < 1:
        raise ValueError("nprocs must be at least 1, not %d" % nprocs)
    base = dict(os.environ)
    base.update(env or {})
    if not base.get("RLX_NCCL_LIBRARY"):
        library = nccl_library()
        if library:
            base["RLX_NCCL_LIBRARY"] = library
    folder = tempfile.mkdtemp(prefix="rlx-job-")
    base["RLX_JOB_ID"] = "%d-%s" % (os.getpid(), secrets.token_hex(6))
    base["RLX_COLLECTIVE_DIR"] = folder
    base["RLX_WORLD_SIZE"] = str(nprocs)

    processes = []
    try:
        for rank in range(nprocs):
            child = dict(base, RLX_RANK=str(rank), RLX_LOCAL_RANK=str(rank))
            processes.append(subprocess.Popen(list(argv), env=child))
        started = time.monotonic()
        stop_at = None
        while True:
            running = [r for r, p in enumerate(processes)
                       if p.poll() is None]
            now = time.monotonic()
            if stop_at is None:
                # The first to fail, by the time it is seen (a process
                # that lost its peer fails later, naming it).
                failed = [r for r, p in enumerate(processes)
                          if p.returncode not in (None, 0)]
                if failed:
                    rank = failed[0]
                    print("rlx.distributed: rank %d failed (%s)%s" %
                          (rank, _describe(processes[rank].returncode),
                           "; stopping the others in %g s" % grace
                           if running else ""), file=sys.stderr)
                    stop_at = now + grace
            if not running:
                break
            if timeout is not None and now - started > timeout:
                print("rlx.distributed: the job ran past %g s; stopping "
                      "ranks %s" % (timeout, _ranks(running)),
                      file=sys.stderr)
                break
            if stop_at is not None and now > stop_at:
                print("rlx.distributed: stopping ranks %s" %
                      _ranks(running), file=sys.stderr)
                break
            time.sleep(_POLL_SECONDS)
    finally:
        _stop(processes, grace=2.0)
        shutil.rmtree(folder, ignore_errors=True)
    return [p.returncode for p in processes]


def _ranks(ranks):
    return ", ".join(str(r) for r in ranks)


def _describe(code):
    if code < 0:
        try:
            return "killed by " + signal.Signals(-code).name
        except ValueError:
            return "killed by signal %d" % -code
    return "exit code %d" % code


def main(args=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m rlx.distributed",
        description="Runs a program as the processes of one RLX job (one "
                    "per device), as torchrun does.")
    parser.add_argument("-n", "--nprocs", type=int, required=True,
                        help="processes to start")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds after which the whole job is stopped")
    parser.add_argument("--grace", type=float, default=5.0,
                        help="seconds the others may run after one fails")
    parser.add_argument("program", nargs=argparse.REMAINDER,
                        help="-- PROGRAM ARGS...")
    options = parser.parse_args(args)
    program = options.program
    if program and program[0] == "--":
        program = program[1:]
    if not program:
        parser.error("no program to run (after --)")
    codes = launch(options.nprocs, program, timeout=options.timeout,
                   grace=options.grace)
    failed = [c for c in codes if c != 0]
    if not failed:
        return 0
    # A shell's convention for a process killed by a signal.
    return failed[0] if failed[0] > 0 else 128 - failed[0]


if __name__ == "__main__":
    sys.exit(main())
