# RUN: %python %s
# Sharded programs run as one process per device on the CPU runtime's
# collectives (shared memory), against float64 NumPy on fresh random
# inputs: a program annotated with shardings on its weights (Megatron
# tensor parallelism as rlx.megatron.llama_layers writes it: q/k/v, gate
# and up split by columns, the output and down projections by rows) is
# partitioned by rlx-partition inside rlx.compile, each process runs its
# shard of the weights, and every process's result must equal the
# unsharded layer. Cases: a 2-layer Llama
# (grouped-query attention with rope and a causal mask, SwiGLU) on 2
# processes; 12 such layers in one function on a 2 x 2 grid (data parallel
# over the batch on axis 0, tensor parallel on axis 1: 4 processes); an
# f64 MLP on 4 processes; a data-parallel training step (rlx-data-parallel:
# each of 4 processes takes a quarter of the batch, rlx.grad's loss and
# gradients are averaged in buckets) against the full batch's loss and
# gradients in NumPy. Also: a process that dies makes the others fail with
# the collective's timeout error instead of hanging.
import os
import subprocess
import sys
import tempfile

import numpy as np

import rlx
import rlxtest  # noqa: F401  (the seed)
from rlx import distributed, megatron

HERE = os.path.abspath(__file__)


def llama_weights(rng, layers, E, H, Hkv, D, F, S):
    ws = []
    for _ in range(layers):
        theta = rng.uniform(-np.pi, np.pi, (S, D // 2))
        ws += [rng.uniform(0.5, 1.5, E),
               rng.standard_normal((E, H * D)) / np.sqrt(E),
               rng.standard_normal((E, Hkv * D)) / np.sqrt(E),
               rng.standard_normal((E, Hkv * D)) / np.sqrt(E),
               rng.standard_normal((H * D, E)) / np.sqrt(H * D),
               rng.uniform(0.5, 1.5, E),
               rng.standard_normal((E, F)) / np.sqrt(E),
               rng.standard_normal((E, F)) / np.sqrt(E),
               rng.standard_normal((F, E)) / np.sqrt(F),
               np.cos(theta), np.sin(theta)]
    return ws


def llama_reference(x, ws, H, Hkv, D):
    """float64 NumPy from rlx.rms_norm, rlx.rope (neox), rlx.attention and
    the SwiGLU's definitions."""
    def rms(v, g):
        return v / np.sqrt((v * v).mean(-1, keepdims=True) + 1e-6) * g

    def rope(v, cos, sin):
        h = v.shape[-1] // 2
        a, b = v[..., :h], v[..., h:]
        return np.concatenate([a * cos - b * sin, b * cos + a * sin], -1)

    B, S, E = x.shape
    h = x
    for l in range(len(ws) // 11):
        an, wq, wk, wv, wo, fn, wg, wu, wd, cos, sin = ws[11 * l:11 * l + 11]
        n = rms(h, an)
        heads = lambda m, k: m.reshape(B, S, k, D).transpose(0, 2, 1, 3)
        q, k, v = heads(n @ wq, H), heads(n @ wk, Hkv), heads(n @ wv, Hkv)
        q, k = rope(q, cos, sin), rope(k, cos, sin)
        k, v = np.repeat(k, H // Hkv, 1), np.repeat(v, H // Hkv, 1)
        s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D)
        s = np.where(np.tril(np.ones((S, S), bool)), s, -np.inf)
        p = np.exp(s - s.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        a = (p @ v).transpose(0, 2, 1, 3).reshape(B, S, H * D)
        h = h + a @ wo
        n2 = rms(h, fn)
        g = n2 @ wg
        h = h + (g / (1 + np.exp(-g)) * (n2 @ wu)) @ wd
    return h


def mlp_program(grid):
    return """shard.grid @g(shape = %d)
func.func @mlp(%%x: tensor<6x32xf64>, %%w1: tensor<32x64xf64>,
               %%b1: tensor<64xf64>, %%w2: tensor<64x32xf64>)
    -> tensor<6x32xf64> {
  %%col = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %%bias = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %%w1s = shard.shard %%w1 to %%col annotate_for_users : tensor<32x64xf64>
  %%b1s = shard.shard %%b1 to %%bias annotate_for_users : tensor<64xf64>
  %%w2s = shard.shard %%w2 to %%bias annotate_for_users : tensor<64x32xf64>
  %%h = rlx.matmul %%x, %%w1s : tensor<6x32xf64>, tensor<32x64xf64>
  %%hb = rlx.add %%h, %%b1s : tensor<6x64xf64>, tensor<64xf64>
  %%a = rlx.tanh %%hb : tensor<6x64xf64>
  %%y = rlx.matmul %%a, %%w2s : tensor<6x64xf64>, tensor<64x32xf64>
  %%s = rlx.reduce sum %%y axes = [1] keepdim true : tensor<6x32xf64>
  %%r = rlx.sub %%y, %%s : tensor<6x32xf64>, tensor<6x1xf64>
  return %%r : tensor<6x32xf64>
}
""" % grid


TRAIN_STEP = """
func.func @loss(%w1: tensor<8x32xf64>, %b1: tensor<32xf64>,
                %w2: tensor<32x4xf64>, %b2: tensor<4xf64>,
                %x: tensor<16x8xf64>, %labels: tensor<16xi64>) -> tensor<f64> {
  %h0 = rlx.matmul %x, %w1 : tensor<16x8xf64>, tensor<8x32xf64>
  %h1 = rlx.add %h0, %b1 : tensor<16x32xf64>, tensor<32xf64>
  %h = rlx.tanh %h1 : tensor<16x32xf64>
  %o0 = rlx.matmul %h, %w2 : tensor<16x32xf64>, tensor<32x4xf64>
  %o = rlx.add %o0, %b2 : tensor<16x4xf64>, tensor<4xf64>
  %l = rlx.softmax_cross_entropy %o, %labels : tensor<16x4xf64>, tensor<16xi64>
  return %l : tensor<f64>
}
func.func @step(%x: tensor<16x8xf64>, %labels: tensor<16xi64>,
                %w1: tensor<8x32xf64>, %b1: tensor<32xf64>,
                %w2: tensor<32x4xf64>, %b2: tensor<4xf64>)
    -> (tensor<f64>, tensor<8x32xf64>, tensor<32xf64>, tensor<32x4xf64>,
        tensor<4xf64>) {
  %l, %g1, %gb1, %g2, %gb2 = rlx.grad @loss(%w1, %b1, %w2, %b2, %x, %labels)
      wrt [0, 1, 2, 3]
      : (tensor<8x32xf64>, tensor<32xf64>, tensor<32x4xf64>, tensor<4xf64>,
         tensor<16x8xf64>, tensor<16xi64>)
      -> (tensor<f64>, tensor<8x32xf64>, tensor<32xf64>, tensor<32x4xf64>,
          tensor<4xf64>)
  return %l, %g1, %gb1, %g2, %gb2 : tensor<f64>, tensor<8x32xf64>,
      tensor<32xf64>, tensor<32x4xf64>, tensor<4xf64>
}
"""


def train_reference(x, labels, w1, b1, w2, b2):
    """Mean cross-entropy of the MLP over the whole batch and its gradients,
    in float64 NumPy."""
    h = np.tanh(x @ w1 + b1)
    o = h @ w2 + b2
    p = np.exp(o - o.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    n = len(x)
    loss = -np.log(p[np.arange(n), labels]).mean()
    do = p.copy()
    do[np.arange(n), labels] -= 1
    do /= n
    dh = do @ w2.T * (1 - h * h)
    return [np.array(loss), x.T @ dh, dh.sum(0), h.T @ do, do.sum(0)]


def train_child(folder):
    """One process of the data-parallel step: its quarter of the batch."""
    rank = int(os.environ["RLX_RANK"])
    case = np.load(os.path.join(folder, "train.npz"))
    module = rlx.Module.parse(TRAIN_STEP, rlx.Context())
    # Small buckets: the loss and the first gradient alone, the rest in one.
    module.run_pipeline("rlx-data-parallel{grid-size=4 bucket-bytes=2048}")
    # Ordered for overlap: each bucket's all-reduce starts once its
    # gradients exist, amid the rest of the backward.
    step = rlx.compile(module, function="step",
                       options="overlap-collectives=true")
    rows = slice(16 * rank, 16 * (rank + 1))
    out = step(case["x"][rows], case["labels"][rows], case["w1"],
               case["b1"], case["w2"], case["b2"])
    np.savez(os.path.join(folder, "out%d.npz" % rank), *out)


def child(folder):
    """One process of a case: its shard of the saved inputs, the compiled
    program, its result saved beside them."""
    rank = int(os.environ["RLX_RANK"])
    case = np.load(os.path.join(folder, "case.npz"), allow_pickle=True)
    grid = [int(g) for g in case["grid"]]
    tp, dp = rank % grid[-1], rank // grid[-1]
    text = str(case["text"])
    if os.environ.get("RLX_TEST_DIE") == str(rank):
        sys.exit(3)
    program = rlx.compile(rlx.Module.parse(text, rlx.Context()),
                          options=str(case["options"]))
    elem = np.float64 if "xf64>" in text else np.float32
    x = case["x"].astype(elem)
    if len(grid) == 2:
        x = megatron.shard_of(x, 0, dp, grid[0])
    splits = list(case["splits"])
    ws = [megatron.shard_of(w, splits[i % len(splits)], tp,
                            grid[-1]).astype(elem)
          for i, w in enumerate(case["weights"])]
    y = program(x, *ws)
    np.save(os.path.join(folder, "out%d.npy" % rank), y)


def run_case(name, text, grid, x, weights, splits, reference, rtol,
             timeout=600, options=""):
    with tempfile.TemporaryDirectory() as folder:
        np.savez(os.path.join(folder, "case.npz"), text=text,
                 grid=np.array(grid), x=x, splits=np.array(splits, object),
                 weights=np.array(weights, object), options=options)
        n = int(np.prod(grid))
        codes = distributed.launch(n, [sys.executable, HERE, "child", folder],
                                   timeout=timeout)
        assert codes == [0] * n, (name, codes)
        worst = 0.0
        for rank in range(n):
            y = np.load(os.path.join(folder, "out%d.npy" % rank))
            ref = reference
            if len(grid) == 2:
                ref = megatron.shard_of(reference, 0, rank // grid[-1],
                                        grid[0])
            err = np.abs(y - ref).max() / np.abs(ref).max()
            worst = max(worst, err)
            assert err < rtol, (name, rank, err)
        print("%s: %d processes, max error %.2e of max |ref|" %
              (name, n, worst))


def main():
    seed = int.from_bytes(os.urandom(4), "little")
    print("seed", seed)
    rng = np.random.default_rng(seed)

    # Two Llama layers on 2 processes (tensor parallel).
    B, S, E, H, Hkv, D, F = 2, 16, 128, 8, 2, 16, 176
    ws = llama_weights(rng, 2, E, H, Hkv, D, F, S)
    x = rng.standard_normal((B, S, E))
    run_case("llama 2 layers, tp 2",
             megatron.llama_layers(B, S, E, H, Hkv, D, F, 2, grid=[2]), [2],
             x, ws, megatron.LAYER_SPLITS, llama_reference(x, ws, H, Hkv, D),
             2e-5)

    # The same in 2 micro-batches (sliced and joined along the batch),
    # compiled for overlapped collectives: the schedule interleaves the
    # micro-batches' stages and each all-reduce is started and waited for
    # apart (completed at once by the CPU runtime).
    run_case("llama 2 layers, tp 2, 2 micro-batches, overlap order",
             megatron.llama_layers(B, S, E, H, Hkv, D, F, 2, grid=[2],
                                   micro_batches=2), [2],
             x, ws, megatron.LAYER_SPLITS, llama_reference(x, ws, H, Hkv, D),
             2e-5, options="overlap-collectives=true")

    for bad, why in [(dict(micro_batches=3), "must divide the batch"),
                     (dict(micro_batches=2, grid=[2, 1]), "2-D grid")]:
        try:
            megatron.llama_layers(B, S, E, H, Hkv, D, F, **bad)
            raise AssertionError("llama_layers took %r" % bad)
        except ValueError as e:
            assert why in str(e), e

    # Twelve layers in one function on a 2 x 2 grid: data parallel over the
    # batch (axis 0), tensor parallel (axis 1).
    B, S, E, H, Hkv, D, F = 4, 8, 64, 4, 2, 16, 96
    ws = llama_weights(rng, 12, E, H, Hkv, D, F, S)
    x = rng.standard_normal((B, S, E))
    run_case("llama 12 layers, dp 2 x tp 2",
             megatron.llama_layers(B, S, E, H, Hkv, D, F, 12, grid=[2, 2]),
             [2, 2], x, ws, megatron.LAYER_SPLITS,
             llama_reference(x, ws, H, Hkv, D), 1e-4)

    # An f64 MLP on 4 processes: column-split hidden (with its bias), a
    # row-split output all-reduced, then a row sum on the replicated result.
    x = rng.standard_normal((6, 32))
    w1 = rng.standard_normal((32, 64)) / 6
    b1 = rng.standard_normal(64)
    w2 = rng.standard_normal((64, 32)) / 8
    y = np.tanh(x @ w1 + b1) @ w2
    run_case("f64 mlp, tp 4", mlp_program(4), [4], x, [w1, b1, w2],
             [1, 0, 0], y - y.sum(1, keepdims=True), 1e-12)

    # Data-parallel training step on 4 processes against the full batch.
    with tempfile.TemporaryDirectory() as folder:
        case = dict(x=rng.standard_normal((64, 8)),
                    labels=rng.integers(0, 4, 64),
                    w1=rng.standard_normal((8, 32)) / 3,
                    b1=rng.standard_normal(32) / 3,
                    w2=rng.standard_normal((32, 4)) / 6,
                    b2=rng.standard_normal(4) / 3)
        np.savez(os.path.join(folder, "train.npz"), **case)
        codes = distributed.launch(
            4, [sys.executable, HERE, "train", folder], timeout=600)
        assert codes == [0] * 4, codes
        want = train_reference(**case)
        worst = 0.0
        for rank in range(4):
            got = np.load(os.path.join(folder, "out%d.npz" % rank))
            for i, ref in enumerate(want):
                err = np.abs(got["arr_%d" % i] - ref).max() / \
                    np.abs(ref).max()
                worst = max(worst, err)
                assert err < 1e-12, (rank, i, err)
        print("data-parallel step, 4 processes: loss and 4 gradients, max "
              "error %.2e of max |ref|" % worst)

    # A process that dies before its first collective: the others give up
    # after RLX_COLLECTIVE_TIMEOUT and fail with the runtime's error.
    text = mlp_program(2)
    with tempfile.TemporaryDirectory() as folder:
        np.savez(os.path.join(folder, "case.npz"), text=text,
                 grid=np.array([2]), x=x, splits=np.array([1, 0, 0], object),
                 weights=np.array([w1, b1, w2], object), options="")
        env = dict(os.environ, RLX_TEST_DIE="1", RLX_COLLECTIVE_TIMEOUT="3")
        proc = subprocess.run(
            [sys.executable, "-m", "rlx.distributed", "-n", "2", "--",
             sys.executable, HERE, "child", folder],
            env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode != 0, proc
        assert "timed out after 3 s waiting for key 1" in proc.stderr, \
            proc.stderr
        assert "rank 1 failed (exit code 3)" in proc.stderr, proc.stderr


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "child":
        child(sys.argv[2])
    elif len(sys.argv) > 1 and sys.argv[1] == "train":
        train_child(sys.argv[2])
    else:
        main()
