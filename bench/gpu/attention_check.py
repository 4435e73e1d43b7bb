"""rlxFlashAttention on the GPU machine against float64, every path.

Calls the runtime's flash-attention kernels (librlx_cuda_runtime.so, as
bench/gpu/build.sh copies it) through ctypes on fresh random q, k, v: bf16
and f16; head dims 64 and 128; no mask, causal and sliding windows; as many
k/v heads as q heads and grouped-query ratios of 2, 4 and 8; sequence
lengths that are not multiples of the kernel's tiles, more keys than
queries and fewer (rows that see no key must be zero); each on contiguous
[batch, heads, seq, dim] tensors and, read and written in place through
strides, on [batch, seq, heads, dim] slices of wider buffers (as BERT's q,
k and v come out of one projection; the output's neighbouring slice must
stay untouched). Outputs are poisoned
with NaN first. The reference is rlx.attention's definition in float64
(the causal diagonal aligned at the end). Passes when every relative error
is below 1e-2 (bf16) / 2e-3 (f16) and no output is NaN; exits non-zero
otherwise. Run: `python3 attention_check.py` in the artifacts directory.
"""
import ctypes
import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
MASKS = {"none": 0, "causal": 1, "sliding_window": 2}
TYPES = {torch.bfloat16: 0, torch.float16: 1}
TOL = {torch.bfloat16: 1e-2, torch.float16: 2e-3}

# (batch, heads, kvHeads, seqQ, seqK, mask, window)
CASES = [(2, 4, 4, 256, 256, "none", 0),
         (1, 2, 2, 77, 300, "none", 0),
         (1, 4, 1, 300, 170, "none", 0),
         (2, 4, 4, 1000, 1000, "causal", 0),
         (1, 8, 2, 300, 777, "causal", 0),
         (1, 4, 4, 300, 200, "causal", 0),
         (2, 4, 1, 513, 513, "sliding_window", 100),
         (1, 8, 8, 1024, 1024, "sliding_window", 256),
         (1, 8, 2, 200, 328, "sliding_window", 77),
         (1, 16, 2, 129, 129, "sliding_window", 1)]


def reference(q, k, v, mask, window, scale):
    heads, kv_heads = q.shape[1], k.shape[1]
    q, k, v = q.double(), k.double(), v.double()
    k = k.repeat_interleave(heads // kv_heads, 1)
    v = v.repeat_interleave(heads // kv_heads, 1)
    s = q @ k.transpose(-1, -2) * scale
    seq_q, seq_k = q.shape[2], k.shape[2]
    i = torch.arange(seq_q, device=q.device)[:, None]
    j = torch.arange(seq_k, device=q.device)[None, :]
    visible = torch.ones(seq_q, seq_k, dtype=torch.bool, device=q.device)
    if mask != "none":
        visible = j <= i + seq_k - seq_q
    if mask == "sliding_window":
        visible &= j > i + seq_k - seq_q - window
    s = s.masked_fill(~visible, float("-inf"))
    return torch.softmax(s, -1).nan_to_num(0.0) @ v


def strides(t, in_place):
    """Batch, head and row element strides of a [b, h, s, d] tensor, or of
    a [b, s, h, d] one read in place."""
    st = t.stride()
    return (st[0], st[2], st[1]) if in_place else (st[0], st[1], st[2])


def run_case(rt, gen, dtype, dim, case, in_place):
    """One attention through rlxFlashAttention; prints and returns whether
    it passed."""
    b, h, hkv, sq, sk, mask, window = case

    def rand(*shape):
        return torch.randn(*shape, device="cuda", generator=gen,
                           dtype=torch.float32).to(dtype)
    if in_place:
        # q is heads 1..h of a [b, sq, h + 1, dim] buffer, k and v the two
        # halves of a [b, sk, 2 hkv, dim] one, the output heads 0..h-1 of a
        # [b, sq, h + 1, dim] one whose last head must stay NaN.
        qbuf, kvbuf = rand(b, sq, h + 1, dim), rand(b, sk, 2 * hkv, dim)
        q, k, v = qbuf[:, :, 1:], kvbuf[:, :, :hkv], kvbuf[:, :, hkv:]
        obuf = torch.full((b, sq, h + 1, dim), float("nan"), dtype=dtype,
                          device="cuda")
        out = obuf[:, :, :h]
        qr, kr, vr = (t.transpose(1, 2) for t in (q, k, v))
    else:
        q, k, v = rand(b, h, sq, dim), rand(b, hkv, sk, dim), rand(
            b, hkv, sk, dim)
        out = torch.full_like(q, float("nan"))
        qr, kr, vr = q, k, v
    scale = 1 / math.sqrt(dim)
    args = []
    for t in (q, k, v, out):
        args += [t.data_ptr(), *strides(t, in_place)]
    rt.rlxFlashAttention(TYPES[dtype], MASKS[mask], b, h, hkv, sq, sk, dim,
                         window, scale, *args)
    torch.cuda.synchronize()
    err_text = rt.rlxCudaGetLastError()
    ref = reference(qr, kr, vr, mask, window, scale)
    got = out.transpose(1, 2) if in_place else out
    err = ((got.double() - ref).norm() / ref.norm()).item()
    untouched = not in_place or torch.isnan(obuf[:, :, h:]).all().item()
    ok = (not err_text and not torch.isnan(got).any().item() and untouched
          and err < TOL[dtype])
    print(f"{'ok  ' if ok else 'FAIL'} {str(dtype)[6:]:8s} d{dim} "
          f"b{b} h{h}/{hkv} s{sq} k{sk} {mask} {window or ''}"
          f"{' in place' if in_place else ''}: rel err {err:.1e}"
          + ("" if untouched else " (wrote outside its slice)")
          + (f" ({err_text.decode()})" if err_text else ""), flush=True)
    return ok


def main():
    torch.empty(1, device="cuda")  # PyTorch's primary context, current here
    rt = ctypes.CDLL(os.path.join(HERE, "librlx_cuda_runtime.so"))
    rt.rlxCudaGetLastError.restype = ctypes.c_char_p
    rt.rlxCudaSetStream.argtypes = [ctypes.c_void_p]
    rt.rlxFlashAttention.argtypes = (
        [ctypes.c_int32] * 2 + [ctypes.c_int64] * 7 + [ctypes.c_float] +
        ([ctypes.c_void_p] + [ctypes.c_int64] * 3) * 4)
    rt.rlxFlashAttention.restype = None
    stream = torch.cuda.Stream()
    torch.cuda.set_stream(stream)
    rt.rlxCudaSetStream(ctypes.c_void_p(stream.cuda_stream))
    seed = int.from_bytes(os.urandom(4), "little")
    gen = torch.Generator(device="cuda").manual_seed(seed)
    print(f"{torch.cuda.get_device_name(0)}, seed {seed}")
    failures = 0
    for dtype in TYPES:
        for dim in (64, 128):
            for case in CASES:
                for in_place in (False, True):
                    failures += not run_case(rt, gen, dtype, dim, case,
                                             in_place)
    print(f"attention_check: {failures} of "
          f"{len(TYPES) * 2 * len(CASES) * 2} cases failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
