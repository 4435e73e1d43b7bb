# Models written in plain PyTorch for the importer tests (import_torch.py,
# import_onnx.py): an MLP, a small CNN, a 1-D convolutional sequence model,
# a BERT encoder layer, a small 2-layer BERT and a Llama decoder layer with
# grouped-query attention and rotary embeddings. No downloads: random
# weights from the test's seed.
import math
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, d_in=12, hidden=24, d_out=5):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.fc3 = nn.Linear(hidden, d_out)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        h = F.relu(self.fc1(x))
        h = self.drop(torch.tanh(self.fc2(h)))
        return torch.softmax(self.fc3(h), dim=-1)


class CNN(nn.Module):
    def __init__(self, classes=7):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2, padding=(1, 2))
        self.gn = nn.GroupNorm(4, 16)
        self.avg = nn.AvgPool2d(2, padding=1)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        h = self.pool(F.relu(self.bn(self.conv1(x))))
        h = F.silu(self.gn(self.conv2(h)))
        h = self.gap(self.avg(h))
        return self.fc(torch.flatten(h, 1))


class SeqConv(nn.Module):
    """Embedding, Conv1d, LayerNorm, mean pooling over the sequence."""

    def __init__(self, vocab=20, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.conv = nn.Conv1d(dim, dim, 3, padding=1, groups=2)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, 3)

    def forward(self, ids):
        h = self.emb(ids).transpose(1, 2)
        h = F.gelu(self.conv(h), approximate="tanh").permute(0, 2, 1)
        h = self.norm(h).mean(dim=1)
        return self.head(h)


class BertSelfAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads, self.d = heads, hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.dropout = nn.Dropout(0.1)

    def split(self, x):
        b, s, _ = x.size()
        return x.view(b, s, self.heads, self.d).transpose(1, 2)

    def forward(self, x, bias=None):
        q = self.split(self.query(x))
        k = self.split(self.key(x))
        v = self.split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d)
        if bias is not None:
            scores = scores + bias
        probs = self.dropout(F.softmax(scores, dim=-1))
        ctx = torch.matmul(probs, v).transpose(1, 2).contiguous()
        return ctx.view(x.shape[0], x.shape[1], -1)


class BertLayer(nn.Module):
    """A post-LN BERT encoder layer as HF's BertLayer writes it."""

    def __init__(self, hidden=64, heads=4, ffn=128, eps=1e-12):
        super().__init__()
        self.attention = BertSelfAttention(hidden, heads)
        self.attn_out = nn.Linear(hidden, hidden)
        self.ln1 = nn.LayerNorm(hidden, eps=eps)
        self.intermediate = nn.Linear(hidden, ffn)
        self.output = nn.Linear(ffn, hidden)
        self.ln2 = nn.LayerNorm(hidden, eps=eps)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x, bias=None):
        a = self.dropout(self.attn_out(self.attention(x, bias)))
        h = self.ln1(x + a)
        f = self.output(F.gelu(self.intermediate(h)))
        return self.ln2(h + self.dropout(f))


class Bert(nn.Module):
    """Embeddings, 2 encoder layers with a padding mask, a pooler."""

    def __init__(self, vocab=50, hidden=64, heads=4, ffn=128, layers=2,
                 max_len=16):
        super().__init__()
        self.word = nn.Embedding(vocab, hidden)
        self.position = nn.Embedding(max_len, hidden)
        self.token_type = nn.Embedding(2, hidden)
        self.ln = nn.LayerNorm(hidden, eps=1e-12)
        self.layers = nn.ModuleList(BertLayer(hidden, heads, ffn)
                                    for _ in range(layers))
        self.pooler = nn.Linear(hidden, hidden)
        self.register_buffer("position_ids", torch.arange(max_len)[None],
                             persistent=False)

    def forward(self, ids, token_types, mask):
        positions = self.position_ids[:, :ids.shape[1]]
        h = self.word(ids) + self.position(positions) + \
            self.token_type(token_types)
        h = self.ln(h)
        bias = (1.0 - mask[:, None, None, :].to(h.dtype)) * -10000.0
        for layer in self.layers:
            h = layer(h, bias)
        return h, torch.tanh(self.pooler(h[:, 0]))


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(variance + self.eps))


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(x, n_rep):
    b, h, s, d = x.shape
    if n_rep == 1:
        return x
    x = x[:, :, None, :, :].expand(b, h, n_rep, s, d)
    return x.reshape(b, h * n_rep, s, d)


class LlamaLayer(nn.Module):
    """A Llama decoder layer as HF's LlamaDecoderLayer writes it: pre
    RMSNorm, grouped-query attention with rotary embeddings (rotate-half
    tensor math) and a causal mask, SwiGLU feed-forward."""

    def __init__(self, hidden=64, heads=4, kv_heads=2, ffn=96, max_len=16,
                 theta=10000.0):
        super().__init__()
        self.heads, self.kv_heads = heads, kv_heads
        self.d = hidden // heads
        self.input_layernorm = RMSNorm(hidden)
        self.q_proj = nn.Linear(hidden, heads * self.d, bias=False)
        self.k_proj = nn.Linear(hidden, kv_heads * self.d, bias=False)
        self.v_proj = nn.Linear(hidden, kv_heads * self.d, bias=False)
        self.o_proj = nn.Linear(heads * self.d, hidden, bias=False)
        self.post_attention_layernorm = RMSNorm(hidden)
        self.gate_proj = nn.Linear(hidden, ffn, bias=False)
        self.up_proj = nn.Linear(hidden, ffn, bias=False)
        self.down_proj = nn.Linear(ffn, hidden, bias=False)
        inv_freq = 1.0 / (theta ** (torch.arange(0, self.d, 2).double() /
                                    self.d))
        freqs = torch.outer(torch.arange(max_len).double(), inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)
        self.register_buffer("causal", torch.full((max_len, max_len),
                                                  float("-inf")).triu(1),
                             persistent=False)

    def forward(self, x):
        b, s, _ = x.shape
        residual = x
        h = self.input_layernorm(x)
        q = self.q_proj(h).view(b, s, self.heads, self.d).transpose(1, 2)
        k = self.k_proj(h).view(b, s, self.kv_heads, self.d).transpose(1, 2)
        v = self.v_proj(h).view(b, s, self.kv_heads, self.d).transpose(1, 2)
        cos = self.cos_cached[:s].to(x.dtype)[None, None]
        sin = self.sin_cached[:s].to(x.dtype)[None, None]
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        n_rep = self.heads // self.kv_heads
        k, v = repeat_kv(k, n_rep), repeat_kv(v, n_rep)
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.d)
        scores = scores + self.causal[:s, :s].to(x.dtype)
        probs = F.softmax(scores, dim=-1)
        a = torch.matmul(probs, v).transpose(1, 2).reshape(b, s, -1)
        h = residual + self.o_proj(a)
        residual = h
        n = self.post_attention_layernorm(h)
        f = self.down_proj(F.silu(self.gate_proj(n)) * self.up_proj(n))
        return residual + f


def randomize(model, generator):
    """Random weights (and norms' gains, BatchNorm statistics) from
    `generator`, so that no check passes on zeros or ones."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            scale = 1.0 / math.sqrt(p.shape[-1]) if p.dim() > 1 else 0.5
            p.copy_(torch.randn(p.shape, generator=generator,
                                dtype=torch.float64) * scale +
                    (1.0 if name.endswith("weight") and p.dim() == 1
                     else 0.0))
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.copy_(torch.randn(m.running_mean.shape,
                                                 generator=generator))
                m.running_var.copy_(torch.rand(m.running_var.shape,
                                               generator=generator) + 0.5)
    return model.eval()


class WeightedSum(nn.Module):
    """sum(model(x) * r): a scalar whose gradient is r pulled back through
    the model."""

    def __init__(self, model, r):
        super().__init__()
        self.model = model
        self.register_buffer("r", r)

    def forward(self, x):
        return (self.model(x) * self.r).sum()


def fused_ops(report):
    """The fused ops a fusion report names, sorted."""
    return sorted({f["op"] for f in report["fusions"]})


def compare_fusions(root, bert, llama, label, failures):
    """Appends to `failures` where the imported BERT and Llama layers
    (`bert`, `llama`: rlx modules) fuse into other ops than the
    hand-written layers of examples/ (the same architectures)."""
    import rlx
    with open(os.path.join(root, "examples", "bert_encoder_layer.mlir")) as f:
        bert_want = fused_ops(rlx.Module.parse(f.read()).fusion_report())
    with open(os.path.join(root, "examples", "llama_layer_hir.mlir")) as f:
        hand = rlx.Module.parse(f.read())
    hand.run_pipeline("rlx-lower-hir")
    llama_want = fused_ops(hand.fusion_report())
    for name, module, want in (("BertLayer", bert, bert_want),
                               ("LlamaLayer", llama, llama_want)):
        got = fused_ops(module.fusion_report())
        print("%s%s fusions:" % (name, label), got, "hand-written:", want)
        if got != want or not got:
            failures.append("%s%s fuses into %s, the hand-written layer "
                            "into %s" % (name, label, got, want))


def example_inputs(generator):
    """Fresh random inputs of each test model (float64 activations), by
    model name."""
    def randn(*shape):
        return torch.randn(*shape, dtype=torch.float64, generator=generator)

    mask = torch.ones(2, 8, dtype=torch.int64)
    mask[1, 5:] = 0
    return {"MLP": (randn(4, 12),), "CNN": (randn(2, 3, 16, 16),),
            "SeqConv": (torch.randint(0, 20, (2, 10), generator=generator),),
            "BertLayer": (randn(2, 8, 64),),
            "Bert": (torch.randint(0, 50, (2, 8), generator=generator),
                     torch.randint(0, 2, (2, 8), generator=generator), mask),
            "LlamaLayer": (randn(2, 8, 64),)}


def close(what, got, want, rtol, failures):
    """Appends to `failures` unless |got - want| <= rtol * max|want|
    (elementwise) with equal shapes."""
    want = np.asarray(want)
    scale = max(np.abs(want).max(), 1e-30) if want.size else 1.0
    err = np.abs(np.asarray(got, np.float64) - want).max() / scale \
        if want.size else 0.0
    if np.shape(got) != want.shape or not err <= rtol:
        failures.append("%s: relative error %.3g (> %g), shapes %s %s" % (
            what, err, rtol, np.shape(got), want.shape))
    else:
        print("ok %s (relative error %.2g)" % (what, err))
