#!/usr/bin/env bash
# CPU benchmark: RLX (rlx-run) against PyTorch on the CPU, same inputs, same
# run. Installs what the peer needs to be fair: Debian's PyTorch uses the
# BLAS it finds, and the reference BLAS is ~40x slower than OpenBLAS.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
missing=()
for p in libopenblas0-pthread python3-torch python3-numpy; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
bash "$ROOT/scripts/setup.sh" > /dev/null
# The same number of threads on each side (bench.py --threads=N, default 1):
# bench.py sets RLX_NUM_THREADS, torch.set_num_threads and, before torch
# loads, OPENBLAS_NUM_THREADS, which torch.set_num_threads does not reach.
# With two OpenBLAS threads PyTorch's 1024^3 matmul took 7.4-9.6 ms against
# 14.4-14.7 with one on a 2-core VM (2026-11-26).
# OpenBLAS 0.3.21 (Debian 12) falls back to its Prescott (SSE3) kernels on
# a CPU it does not know: on an Emerald Rapids VM (2026-11-26) PyTorch's
# 1024^3 matmul took 52-64 ms with them against 7.2-7.4 ms with its
# AVX-512 (SkylakeX) kernels (two threads). Name the core it should use there, for
# PyTorch and for rlx-run --blas alike, so the peer is not handicapped.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  core="$(OPENBLAS_VERBOSE=2 /usr/bin/python3 -c \
    'import torch; torch.ones(2, 2) @ torch.ones(2, 2)' 2>&1 |
    sed -n 's/^Core: //p' | head -n 1)"
  if [ "$core" = Prescott ]; then
    if grep -qw avx512f /proc/cpuinfo; then
      export OPENBLAS_CORETYPE=SkylakeX
    elif grep -qw avx2 /proc/cpuinfo; then
      export OPENBLAS_CORETYPE=Haswell
    fi
  fi
fi
# rlx-run keeps freed large buffers for reuse (as a framework's caching
# allocator does); glibc's malloc gives buffers above 32 MiB back to the OS
# on free, and on this kind of VM the page faults of a fresh 64 MiB buffer
# cost ~165 ms, more than any kernel here. These tunables make PyTorch's
# allocations reuse memory too, so both sides time kernels, not faults.
export GLIBC_TUNABLES="glibc.malloc.mmap_threshold=4294967296:glibc.malloc.trim_threshold=17179869184"
# rlx-run puts buffers of 2 MiB and more on transparent huge pages (the
# runtime's allocateHostMemory); PyTorch gets them only where THP is
# `always` or glibc is told to (glibc.malloc.hugetlb=1, glibc 2.35+).
# RLX_BENCH_HUGETLB=1 tells it, to compare with the peer on huge pages too.
if [ "${RLX_BENCH_HUGETLB:-0}" = 1 ]; then
  GLIBC_TUNABLES="$GLIBC_TUNABLES:glibc.malloc.hugetlb=1"
fi
exec /usr/bin/python3 "$ROOT/bench/cpu/bench.py" "$@"
