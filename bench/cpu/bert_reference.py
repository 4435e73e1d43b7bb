"""The BERT-base layer of examples/bert_encoder_layer.mlir in PyTorch, and
its inputs: the peer and the reference of the CPU benchmarks."""
import os

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
F = torch.nn.functional


def bert_program(batch):
    """examples/bert_encoder_layer.mlir at `batch` sequences, as @main."""
    text = open(os.path.join(ROOT, "examples", "bert_encoder_layer.mlir")).read()
    return text.replace("tensor<1x", "tensor<%dx" % batch).replace("@bert_layer", "@main")


def bert_layer(x, w):
    """x [B, 128, 768] and the 12 parameters `w` in the example's order."""
    batch = x.shape[0]
    qkv = x @ w[0] + w[1]
    q, k, v = (t.reshape(batch, 128, 12, 64).transpose(1, 2)
               for t in qkv.split(768, -1))
    s = q @ k.transpose(-1, -2) / 8.0
    a = torch.softmax(s, -1) @ v
    a = a.transpose(1, 2).reshape(batch, 128, 768) @ w[2] + w[3]
    h = F.layer_norm(x + a, (768,), w[4], w[5], 1e-12)
    f = F.gelu(h @ w[6] + w[7]) @ w[8] + w[9]
    return F.layer_norm(h + f, (768,), w[10], w[11], 1e-12)


def bert_arguments(batch, seed=0):
    g = torch.Generator().manual_seed(seed)
    r = lambda *s: torch.randn(*s, generator=g)
    return r(batch, 128, 768), [
        r(768, 2304), r(2304), r(768, 768), r(768), r(768), r(768),
        r(768, 3072), r(3072), r(3072, 768), r(768), r(768), r(768)]
