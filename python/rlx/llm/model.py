# ===- llm/model.py - Llama / Qwen2 / Qwen3 decoders as RLX programs --=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""Decoder-only LLMs (Llama, Qwen2, Qwen3) written as RLX MIR programs.

- `LlamaConfig`: the architecture's hyperparameters, read from GGUF
  metadata (`config_from_gguf`) or a Hugging Face config.json
  (`config_from_hf`).
- Weights are a dict of float32 arrays under GGUF tensor names
  (`token_embd.weight`, `blk.{i}.attn_q.weight`, ...), matrices in
  PyTorch [out, in] order; `weights_from_hf` renames a Hugging Face state
  dict to them.
- `build_program(config, n)` gives the MLIR text of `@decode_step`: n new
  tokens per sequence at a run-time position, the per-layer KV caches in
  and out, the logits of the last position out.
- `Model` compiles `@decode_step` once per n, keeps the KV caches between
  calls and generates tokens.

Rope. Hugging Face checkpoints (and every Qwen GGUF file) rotate halves
of each head ("neox": pairs (i, i + D/2)). llama.cpp's convert script
permutes the rows of a *Llama* model's q and k projections per head
(`permute` in convert_hf_to_gguf.py) so that llama.cpp can rotate
adjacent pairs ("gptj", LLAMA_ROPE_TYPE_NORM): a GGUF Llama file needs
rope_style "gptj", the same weights from Hugging Face need "neox".
`config_from_gguf` and `config_from_hf` set `rope_style` accordingly;
`permute_qk_for_gguf` applies llama.cpp's permutation (then use "gptj").
"""

import dataclasses
import math

import numpy as np

from .gguf import GGML_TYPES

__all__ = ["LlamaConfig", "config_from_gguf", "config_from_hf",
           "weights_from_hf", "permute_qk_for_gguf", "unpermute_qk_from_gguf",
           "weight_names", "build_program", "rope_tables", "greedy",
           "Model", "ARCHITECTURES"]

ARCHITECTURES = ("llama", "qwen2", "qwen3")

_HF_ARCHITECTURES = {"LlamaForCausalLM": "llama",
                     "Qwen2ForCausalLM": "qwen2",
                     "Qwen3ForCausalLM": "qwen3"}


@dataclasses.dataclass
class LlamaConfig:
    """The hyperparameters of a Llama-family decoder.

    architecture: 'llama', 'qwen2' or 'qwen3'. attention_bias: q/k/v
    projections have biases (qwen2). qk_norm: an RMSNorm (weights of size
    head_dim) over each head of q and k before rope (qwen3). rope_style:
    'neox' (rotate halves) or 'gptj' (adjacent pairs; GGUF Llama files).
    rope_scaling: Hugging Face's `rope_scaling` dict ("llama3" type is
    applied; None for plain rope)."""
    architecture: str
    vocab: int
    hidden: int
    n_layers: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    ffn: int
    rope_theta: float = 10000.0
    rms_eps: float = 1e-5
    max_seq: int = 2048
    tie_embeddings: bool = False
    attention_bias: bool = False
    qk_norm: bool = False
    rope_style: str = "neox"
    rope_scaling: dict = None

    def __post_init__(self):
        if self.architecture not in ARCHITECTURES:
            raise ValueError("unsupported architecture %r (supported: %s)" %
                             (self.architecture, ", ".join(ARCHITECTURES)))
        if self.rope_style not in ("neox", "gptj"):
            raise ValueError("rope_style must be 'neox' or 'gptj', got %r" %
                             (self.rope_style,))
        if self.n_heads % self.n_kv_heads:
            raise ValueError("n_heads (%d) is not a multiple of n_kv_heads "
                             "(%d)" % (self.n_heads, self.n_kv_heads))
        if self.head_dim % 2:
            raise ValueError("head_dim must be even, got %d" % self.head_dim)


def _scalar(value):
    """A GGUF metadata value as a Python scalar (readers may give 1-element
    arrays or lists)."""
    if isinstance(value, (list, tuple)) and len(value) == 1:
        value = value[0]
    if isinstance(value, np.ndarray):
        value = value.reshape(-1)[0] if value.size == 1 else value
    if isinstance(value, np.generic):
        value = value.item()
    return value


def config_from_gguf(metadata, max_seq=None):
    """A LlamaConfig from a GGUF file's metadata (a dict key -> value).
    GGUF Llama files carry llama.cpp's q/k permutation, so their
    rope_style is 'gptj'; Qwen files use 'neox'. Whether the embeddings
    are tied is not in the metadata: `Model` ties them when the weights
    have no `output.weight`."""
    arch = _scalar(metadata.get("general.architecture"))
    if isinstance(arch, bytes):
        arch = arch.decode()
    if arch not in ARCHITECTURES:
        raise ValueError("unsupported GGUF architecture %r (supported: %s)"
                         % (arch, ", ".join(ARCHITECTURES)))

    def get(key, default=None):
        full = "%s.%s" % (arch, key)
        if full in metadata:
            return _scalar(metadata[full])
        if default is None:
            raise ValueError("GGUF metadata lacks %s" % full)
        return default

    hidden = int(get("embedding_length"))
    n_heads = int(get("attention.head_count"))
    n_kv = int(get("attention.head_count_kv", n_heads))
    head_dim = int(get("attention.key_length", hidden // n_heads))
    tokens = metadata.get("tokenizer.ggml.tokens")
    if tokens is not None:
        vocab = len(tokens)
    else:
        vocab = int(get("vocab_size"))
    context = int(get("context_length", 2048))
    rope_scaling = None
    return LlamaConfig(
        architecture=arch, vocab=vocab, hidden=hidden,
        n_layers=int(get("block_count")), n_heads=n_heads, n_kv_heads=n_kv,
        head_dim=head_dim, ffn=int(get("feed_forward_length")),
        rope_theta=float(get("rope.freq_base", 10000.0)),
        rms_eps=float(get("attention.layer_norm_rms_epsilon", 1e-5)),
        max_seq=min(context, max_seq) if max_seq else context,
        tie_embeddings=False, attention_bias=(arch == "qwen2"),
        qk_norm=(arch == "qwen3"),
        rope_style="gptj" if arch == "llama" else "neox",
        rope_scaling=rope_scaling)


def config_from_hf(config, max_seq=None):
    """A LlamaConfig from a Hugging Face config.json (a dict) of a
    LlamaForCausalLM, Qwen2ForCausalLM or Qwen3ForCausalLM. Hugging Face
    weights rotate halves: rope_style 'neox'."""
    names = config.get("architectures") or []
    arch = None
    for name in names:
        if name in _HF_ARCHITECTURES:
            arch = _HF_ARCHITECTURES[name]
            break
    if arch is None:
        model_type = config.get("model_type")
        if model_type in ARCHITECTURES and not names:
            arch = model_type
        else:
            raise ValueError(
                "unsupported Hugging Face architecture %r (supported: %s)" %
                (names[0] if names else model_type,
                 ", ".join(sorted(_HF_ARCHITECTURES))))
    hidden = int(config["hidden_size"])
    n_heads = int(config["num_attention_heads"])
    n_kv = int(config.get("num_key_value_heads") or n_heads)
    head_dim = int(config.get("head_dim") or hidden // n_heads)
    context = int(config.get("max_position_embeddings", 2048))
    scaling = config.get("rope_scaling")
    if scaling:
        kind = scaling.get("rope_type", scaling.get("type"))
        if kind not in ("llama3", "default"):
            raise ValueError("unsupported rope_scaling type %r" % (kind,))
        if kind == "default":
            scaling = None
    if arch == "qwen2":
        bias = True  # Qwen2Attention: q/k/v always have biases
    else:
        bias = bool(config.get("attention_bias", False))
    default_eps = 1e-6 if arch != "llama" else 1e-5
    return LlamaConfig(
        architecture=arch, vocab=int(config["vocab_size"]), hidden=hidden,
        n_layers=int(config["num_hidden_layers"]), n_heads=n_heads,
        n_kv_heads=n_kv, head_dim=head_dim,
        ffn=int(config["intermediate_size"]),
        rope_theta=float(config.get("rope_theta", 10000.0)),
        rms_eps=float(config.get("rms_norm_eps", default_eps)),
        max_seq=min(context, max_seq) if max_seq else context,
        tie_embeddings=bool(config.get("tie_word_embeddings", False)),
        attention_bias=bias, qk_norm=(arch == "qwen3"), rope_style="neox",
        rope_scaling=dict(scaling) if scaling else None)


_HF_LAYER_NAMES = {
    "input_layernorm.weight": "attn_norm.weight",
    "self_attn.q_proj.weight": "attn_q.weight",
    "self_attn.k_proj.weight": "attn_k.weight",
    "self_attn.v_proj.weight": "attn_v.weight",
    "self_attn.o_proj.weight": "attn_output.weight",
    "self_attn.q_proj.bias": "attn_q.bias",
    "self_attn.k_proj.bias": "attn_k.bias",
    "self_attn.v_proj.bias": "attn_v.bias",
    "self_attn.o_proj.bias": "attn_output.bias",
    "self_attn.q_norm.weight": "attn_q_norm.weight",
    "self_attn.k_norm.weight": "attn_k_norm.weight",
    "post_attention_layernorm.weight": "ffn_norm.weight",
    "mlp.gate_proj.weight": "ffn_gate.weight",
    "mlp.up_proj.weight": "ffn_up.weight",
    "mlp.down_proj.weight": "ffn_down.weight",
}
_HF_GLOBAL_NAMES = {"model.embed_tokens.weight": "token_embd.weight",
                    "model.norm.weight": "output_norm.weight",
                    "lm_head.weight": "output.weight"}


def _as_f32(value):
    """A tensor (NumPy array, or anything with .numpy(), e.g. a CPU torch
    tensor) as a C-contiguous float32 array."""
    if not isinstance(value, np.ndarray):
        if hasattr(value, "detach"):
            value = value.detach().float().cpu().numpy()
        else:
            value = np.asarray(value)
    return np.ascontiguousarray(value, dtype=np.float32)


def weights_from_hf(state_dict, config=None):
    """A Hugging Face state dict (model.layers.{i}.self_attn.q_proj.weight,
    ...) renamed to GGUF tensor names, as float32 arrays in the same
    ([out, in]) layout. The q/k rows are NOT permuted: use these weights
    with rope_style 'neox' (what config_from_hf gives), or pass them
    through permute_qk_for_gguf for 'gptj'. `config` (optional): drop
    `output.weight` when it equals the tied embeddings. Unknown names
    (e.g. rotary_emb.inv_freq) are skipped."""
    out = {}
    for name, value in state_dict.items():
        if name in _HF_GLOBAL_NAMES:
            out[_HF_GLOBAL_NAMES[name]] = _as_f32(value)
            continue
        parts = name.split(".")
        if len(parts) > 3 and parts[0] == "model" and parts[1] == "layers":
            rest = ".".join(parts[3:])
            if rest in _HF_LAYER_NAMES:
                out["blk.%s.%s" % (parts[2], _HF_LAYER_NAMES[rest])] = \
                    _as_f32(value)
    if config is not None and config.tie_embeddings:
        out.pop("output.weight", None)
    return out


def _permute_rows(w, n_head):
    """llama.cpp convert_hf_to_gguf.py LlamaModel.permute: within each
    head, row s * D/2 + i moves to 2 i + s (rotate-half order to
    adjacent-pairs order). Works on [rows, in] matrices and [rows]
    vectors."""
    return (w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:])
            .swapaxes(1, 2).reshape(w.shape))


def _unpermute_rows(w, n_head):
    """The inverse of _permute_rows (llama.cpp's reverse_hf_permute)."""
    return (w.reshape(n_head, w.shape[0] // n_head // 2, 2, *w.shape[1:])
            .swapaxes(1, 2).reshape(w.shape))


def _map_qk(weights, config, rows):
    out = dict(weights)
    for i in range(config.n_layers):
        for part, heads in (("attn_q", config.n_heads),
                            ("attn_k", config.n_kv_heads)):
            for suffix in ("weight", "bias"):
                key = "blk.%d.%s.%s" % (i, part, suffix)
                if key in out:
                    out[key] = np.ascontiguousarray(rows(out[key], heads))
            key = "blk.%d.%s_norm.weight" % (i, part)
            if key in out:  # per-head norm weights [head_dim]
                out[key] = np.ascontiguousarray(rows(out[key], 1))
    return out


def permute_qk_for_gguf(weights, config):
    """The weights (GGUF names, Hugging Face row order) with llama.cpp's
    rope permutation applied to each layer's q and k rows (and biases
    and per-head norms, if any), and the config with rope_style 'gptj':
    what a GGUF Llama file holds. Returns (weights, config)."""
    if config.rope_style != "neox":
        raise ValueError("permute_qk_for_gguf expects neox-ordered weights")
    return (_map_qk(weights, config, _permute_rows),
            dataclasses.replace(config, rope_style="gptj"))


def unpermute_qk_from_gguf(weights, config):
    """The inverse of permute_qk_for_gguf: GGUF Llama weights in Hugging
    Face row order, and the config with rope_style 'neox'."""
    if config.rope_style != "gptj":
        raise ValueError("unpermute_qk_from_gguf expects gptj weights")
    return (_map_qk(weights, config, _unpermute_rows),
            dataclasses.replace(config, rope_style="neox"))


def _has_output(config, weights):
    """Whether the lm head has its own matrix (else the embeddings)."""
    if weights is not None:
        return "output.weight" in weights
    return not config.tie_embeddings


def weight_names(config, weights=None):
    """The weights @decode_step takes, in argument order (GGUF names).
    `output.weight` is left out when the embeddings are tied (by the
    config, or by its absence from `weights`)."""
    names = ["token_embd.weight"]
    for i in range(config.n_layers):
        b = "blk.%d." % i
        names += [b + "attn_norm.weight", b + "attn_q.weight",
                  b + "attn_k.weight", b + "attn_v.weight"]
        if config.attention_bias:
            names += [b + "attn_q.bias", b + "attn_k.bias", b + "attn_v.bias"]
        if config.qk_norm:
            names += [b + "attn_q_norm.weight", b + "attn_k_norm.weight"]
        names += [b + "attn_output.weight", b + "ffn_norm.weight",
                  b + "ffn_gate.weight", b + "ffn_up.weight",
                  b + "ffn_down.weight"]
    names.append("output_norm.weight")
    if _has_output(config, weights):
        names.append("output.weight")
    return names


def _weight_shape(config, name):
    c = config
    q, kv = c.n_heads * c.head_dim, c.n_kv_heads * c.head_dim
    tail = name.split(".", 2)[-1] if name.startswith("blk.") else name
    return {"token_embd.weight": (c.vocab, c.hidden),
            "output.weight": (c.vocab, c.hidden),
            "output_norm.weight": (c.hidden,),
            "attn_norm.weight": (c.hidden,),
            "ffn_norm.weight": (c.hidden,),
            "attn_q.weight": (q, c.hidden), "attn_k.weight": (kv, c.hidden),
            "attn_v.weight": (kv, c.hidden), "attn_q.bias": (q,),
            "attn_k.bias": (kv,), "attn_v.bias": (kv,),
            "attn_q_norm.weight": (c.head_dim,),
            "attn_k_norm.weight": (c.head_dim,),
            "attn_output.weight": (c.hidden, q),
            "ffn_gate.weight": (c.ffn, c.hidden),
            "ffn_up.weight": (c.ffn, c.hidden),
            "ffn_down.weight": (c.hidden, c.ffn)}[tail]


def _tensor(shape, dtype="f32"):
    return "tensor<%s>" % "".join(["%dx" % d for d in shape] + [dtype])


#: The GGUF block types a matrix can stay in: the program multiplies by it
#: with rlx.dequant_matmul, which decodes the blocks as it reads them.
PACKED_TYPES = ("Q4_0", "Q8_0", "Q4_K", "Q5_K", "Q6_K")
# Weights and bytes per block of each packed type, as the GGUF reader has
# them.
_BLOCKS = {name: (weights, size)
           for name, weights, size in GGML_TYPES.values()
           if name in PACKED_TYPES}
_MATRICES = ("attn_q.weight", "attn_k.weight", "attn_v.weight",
             "attn_output.weight", "ffn_gate.weight", "ffn_up.weight",
             "ffn_down.weight", "output.weight")


def is_matrix(name):
    """Whether weight `name` is only multiplied by (so it can stay packed;
    the embeddings are gathered from)."""
    return name.split(".", 2)[-1] in _MATRICES if name.startswith("blk.") \
        else name in _MATRICES


@dataclasses.dataclass(frozen=True)
class PackedWeight:
    """A matrix [out, in] kept in its GGUF blocks: `data` is uint8 [out,
    in / block * block bytes] (each row's blocks, as the file stores
    them), `ggml_type` one of PACKED_TYPES."""
    data: np.ndarray
    ggml_type: str

    @property
    def scheme(self):
        """The #rlx.quant kind of the blocks."""
        return "gguf_" + self.ggml_type.lower()

    def check(self, name, shape):
        weights, size = _BLOCKS[self.ggml_type]
        rows, cols = shape
        if cols % weights or self.data.shape != (rows, cols // weights * size):
            raise ValueError("weight %s (%s) has packed shape %s, expected "
                             "%s for %s" % (name, self.ggml_type,
                                            self.data.shape,
                                            (rows, cols // weights * size),
                                            shape))


class _Emitter:
    """Builds the body of a func.func: one SSA value per emitted op, each
    remembered with its shape and element type (`float_type` unless
    given)."""

    def __init__(self, float_type="f32"):
        self.float = float_type
        self.lines = []
        self.shapes = {}
        self.dtypes = {}
        self.schemes = {}
        self.count = 0

    def value(self, name, shape, dtype=None):
        self.shapes[name] = tuple(shape)
        self.dtypes[name] = dtype or self.float
        return name

    def op(self, text, shape, hint="v", dtype=None):
        name = "%%%s%d" % (hint, self.count)
        self.count += 1
        self.lines.append("    %s = %s" % (name, text))
        return self.value(name, shape, dtype)

    def T(self, v):
        return _tensor(self.shapes[v], self.dtypes[v])

    def matmul_t(self, x, w):
        """x [.., K] times w [N, K] transposed: [.., N]; a packed w
        (self.schemes) through rlx.dequant_matmul."""
        shape = self.shapes[x][:-1] + (self.shapes[w][0],)
        if w in self.schemes:
            return self.op("rlx.dequant_matmul #rlx.quant<%s> %s, %s : %s, %s"
                           % (self.schemes[w], x, w, self.T(x), self.T(w)),
                           shape, "dq")
        return self.op("rlx.matmul %s, %s transpose_b true : %s, %s" %
                       (x, w, self.T(x), self.T(w)), shape, "mm")

    def binary(self, kind, a, b):
        sa, sb = self.shapes[a], self.shapes[b]
        shape = tuple(np.broadcast_shapes(sa, sb))
        return self.op("rlx.%s %s, %s : %s, %s" % (kind, a, b, self.T(a),
                                                   self.T(b)), shape, kind,
                       self.dtypes[a])

    def rms_norm(self, x, g, eps):
        return self.op("rlx.rms_norm %s, %s {epsilon = %.9e : f32} : %s, %s" %
                       (x, g, float(eps), self.T(x), self.T(g)),
                       self.shapes[x], "norm")

    def reshape(self, x, shape):
        return self.op("rlx.reshape %s : %s -> %s" % (
            x, self.T(x), _tensor(shape, self.dtypes[x])), shape, "rs",
            self.dtypes[x])

    def transpose(self, x, perm):
        shape = tuple(self.shapes[x][p] for p in perm)
        return self.op("rlx.transpose %s [%s] : %s" % (
            x, ", ".join(str(p) for p in perm), self.T(x)), shape, "tr")

    def rope(self, x, cos, sin, style):
        return self.op('rlx.rope %s, %s, %s {style = "%s"} : %s, %s' % (
            x, cos, sin, style, self.T(x), self.T(cos)), self.shapes[x],
            "rope")


def build_program(config, n=1, batch=1, weights=None,
                  weights_as_args=True, max_seq=None, caches_in_place=True,
                  dtype="f32"):
    """The MLIR text of a module with `@decode_step`, which runs n new
    tokens of each of `batch` sequences through the decoder:

      @decode_step(%tokens: tensor<B x n x i64>, %pos: tensor<i64>,
                   %cos: tensor<n x D/2 x f32>, %sin: (same),
                   %k0 .. %k{L-1}, %v0 .. %v{L-1}:
                       tensor<B x max_seq x n_kv_heads x D x f32>,
                   weights in weight_names(config) order)
          -> (logits of the last new position: tensor<B x vocab x f32>,
              k caches, v caches (updated))

    The new tokens sit at positions pos .. pos + n - 1 (the same for every
    sequence); cos/sin are rope_tables(config, pos, n). Matrices are in
    [out, in] order (rlx.matmul transpose_b). With weights_as_args=False
    the weights are `rlx.param`s named by their GGUF names instead of
    arguments (rlx.compile's Program then takes them after the other
    arguments, in its param_names order). A weight given as a
    PackedWeight is a ui8 tensor of its blocks, multiplied by with
    rlx.dequant_matmul. With caches_in_place each cache
    argument holds its updated cache (`rlx.in_place_result`): a step
    writes the n new rows into the arrays passed and returns them, with
    no copy of the caches. `dtype` ("f32", "bf16", "f16") is the element
    type of the activations, caches, rope tables, float weights and
    logits (norms and attention scores accumulate in f32 whatever it
    is)."""
    c = config
    B, D, H, Hkv = batch, c.head_dim, c.n_heads, c.n_kv_heads
    M = max_seq or c.max_seq
    e = _Emitter(dtype)
    args = []

    def arg(name, shape, dtype=dtype, result=None):
        attrs = ""
        if result is not None and caches_in_place:
            attrs = " {rlx.in_place_result = %d : i64}" % result
        args.append("%%%s: %s%s" % (name, _tensor(shape, dtype), attrs))
        return e.value("%" + name, shape, dtype)

    tokens = arg("tokens", (B, n), "i64")
    pos = arg("pos", (), "i64")
    cos = arg("cos", (n, D // 2))
    sin = arg("sin", (n, D // 2))
    cache_shape = (B, M, Hkv, D)
    # Results: the logits, then the k caches, then the v caches.
    kcache = [arg("k%d" % i, cache_shape, result=1 + i)
              for i in range(c.n_layers)]
    vcache = [arg("v%d" % i, cache_shape, result=1 + c.n_layers + i)
              for i in range(c.n_layers)]
    W = {}
    for name in weight_names(c, weights):
        shape, wtype = _weight_shape(c, name), dtype
        packed = weights.get(name) if weights is not None else None
        ident = "w_" + name.replace(".", "_")
        if isinstance(packed, PackedWeight):
            shape, wtype = packed.data.shape, "ui8"
            e.schemes["%" + ident] = packed.scheme
        if weights_as_args:
            W[name] = arg(ident, shape, wtype)
        else:
            W[name] = e.value("%" + ident, shape, wtype)
            e.lines.append('    %%%s = rlx.param "%s" : %s' %
                           (ident, name, _tensor(shape, wtype)))
    i64 = _tensor((), "i64")
    n_const = e.op("rlx.constant dense<%d> : %s" % (n, i64), (), "n",
                   "i64")
    length = e.binary("add", pos, n_const)

    emb = W["token_embd.weight"]
    x = e.op("rlx.gather %s, %s axis = 0 : %s, %s" %
             (emb, tokens, e.T(emb), e.T(tokens)), (B, n, c.hidden), "emb")
    k_out, v_out = [], []
    for i in range(c.n_layers):
        w = lambda s: W["blk.%d.%s" % (i, s)]  # noqa: E731
        h = e.rms_norm(x, w("attn_norm.weight"), c.rms_eps)
        q = e.matmul_t(h, w("attn_q.weight"))
        k = e.matmul_t(h, w("attn_k.weight"))
        v = e.matmul_t(h, w("attn_v.weight"))
        if c.attention_bias:
            q = e.binary("add", q, w("attn_q.bias"))
            k = e.binary("add", k, w("attn_k.bias"))
            v = e.binary("add", v, w("attn_v.bias"))
        q = e.reshape(q, (B, n, H, D))
        k = e.reshape(k, (B, n, Hkv, D))
        v = e.reshape(v, (B, n, Hkv, D))
        if c.qk_norm:
            q = e.rms_norm(q, w("attn_q_norm.weight"), c.rms_eps)
            k = e.rms_norm(k, w("attn_k_norm.weight"), c.rms_eps)
        q = e.rope(e.transpose(q, (0, 2, 1, 3)), cos, sin, c.rope_style)
        k = e.rope(e.transpose(k, (0, 2, 1, 3)), cos, sin, c.rope_style)
        k = e.transpose(k, (0, 2, 1, 3))  # back to [B, n, Hkv, D]
        kc = e.op("rlx.kv_cache_write %s, %s, %s : %s, %s, %s" % (
            kcache[i], k, pos, e.T(kcache[i]), e.T(k), i64), cache_shape,
            "kc")
        vc = e.op("rlx.kv_cache_write %s, %s, %s : %s, %s, %s" % (
            vcache[i], v, pos, e.T(vcache[i]), e.T(v), i64), cache_shape,
            "vc")
        k_out.append(kc)
        v_out.append(vc)
        a = e.op("rlx.decode_attention %s, %s, %s, %s {num_kv_heads = %d : "
                 "i64} : %s, %s, %s, %s" % (q, kc, vc, length, Hkv, e.T(q),
                                             e.T(kc), e.T(vc), i64),
                 (B, H, n, D), "attn")
        a = e.reshape(e.transpose(a, (0, 2, 1, 3)), (B, n, H * D))
        x = e.binary("add", x, e.matmul_t(a, w("attn_output.weight")))
        h = e.rms_norm(x, w("ffn_norm.weight"), c.rms_eps)
        gate = e.matmul_t(h, w("ffn_gate.weight"))
        up = e.matmul_t(h, w("ffn_up.weight"))
        g = e.op("rlx.silu %s : %s" % (gate, e.T(gate)), e.shapes[gate],
                 "silu")
        f = e.binary("mul", g, up)
        x = e.binary("add", x, e.matmul_t(f, w("ffn_down.weight")))
    last = x
    if n > 1:
        last = e.op("rlx.narrow %s axis = 1 start = %d length = 1 : %s" %
                    (x, n - 1, e.T(x)), (B, 1, c.hidden), "last")
    last = e.reshape(last, (B, c.hidden))
    last = e.rms_norm(last, W["output_norm.weight"], c.rms_eps)
    head = W.get("output.weight", W["token_embd.weight"])
    logits = e.matmul_t(last, head)
    results = [logits] + k_out + v_out
    rtypes = ", ".join(e.T(r) for r in results)
    return ("module {\n  func.func @decode_step(%s) -> (%s) {\n%s\n"
            "    return %s : %s\n  }\n}\n" % (
                ", ".join(args), rtypes, "\n".join(e.lines),
                ", ".join(results), rtypes))


def _inv_freq(config):
    """rope's inverse frequencies theta^(-2i/D), i < D/2, with Llama 3's
    frequency scaling when the config asks for it."""
    D = config.head_dim
    inv = 1.0 / (config.rope_theta **
                 (np.arange(0, D, 2, dtype=np.float64) / D))
    s = config.rope_scaling
    if s:
        factor = float(s["factor"])
        low = float(s.get("low_freq_factor", 1.0))
        high = float(s.get("high_freq_factor", 4.0))
        old = float(s.get("original_max_position_embeddings", 8192))
        wavelen = 2 * math.pi / inv
        low_wl, high_wl = old / low, old / high
        smooth = (old / wavelen - low) / (high - low)
        scaled = np.where(wavelen > low_wl, inv / factor, inv)
        mid = (wavelen <= low_wl) & (wavelen >= high_wl)
        inv = np.where(mid, (1 - smooth) * inv / factor + smooth * inv,
                       scaled)
    return inv


def rope_tables(config, pos, n, inv_freq=None):
    """cos and sin [n, head_dim / 2] (float32) for positions pos .. pos +
    n - 1: the angle of pair i at position p is p * theta^(-2i/D)."""
    inv = _inv_freq(config) if inv_freq is None else inv_freq
    angles = np.arange(pos, pos + n, dtype=np.float64)[:, None] * inv[None]
    return (np.cos(angles).astype(np.float32),
            np.sin(angles).astype(np.float32))


def greedy(logits):
    """The greedy sampler: argmax of each row of [B, vocab] logits."""
    return np.argmax(logits, axis=-1).astype(np.int64)


class Model:
    """A decoder compiled with rlx.compile (CPU), with its KV caches.

    Model(config, weights, tokenizer=None, max_seq=None, batch=1): weights
    under GGUF names (float32, [out, in] matrices, or PackedWeight for a
    matrix kept in its GGUF blocks); `max_seq` caps the
    cache length (default config.max_seq). `step(tokens, pos)` runs n
    new tokens [B, n] at `pos` and returns the logits [B, vocab] of the
    last one; `generate(prompt_ids, n_new)` decodes. The compiled
    programs are cached per n; `sample_fn` (logits [B, vocab] -> ids [B])
    is the sampler generate uses by default."""

    def __init__(self, config, weights, tokenizer=None, max_seq=None,
                 batch=1, sample_fn=greedy, compile_options=""):
        self.config = config
        self.tokenizer = tokenizer
        self.batch = batch
        self.max_seq = min(max_seq or config.max_seq, config.max_seq)
        self.sample_fn = sample_fn
        self.compile_options = compile_options
        self.names = weight_names(config, weights)
        missing = [n for n in self.names if n not in weights]
        if missing:
            raise ValueError("the model has no tensor %s (a %s model "
                             "needs them)" % (", ".join(missing),
                                              config.architecture))
        self.weights = []
        self._packed = {}
        for name in self.names:
            w = weights[name]
            if isinstance(w, PackedWeight):
                if not is_matrix(name):
                    raise ValueError("weight %s cannot stay packed (it is "
                                     "not only multiplied by)" % name)
                w.check(name, _weight_shape(config, name))
                self._packed[name] = w
                self.weights.append(np.ascontiguousarray(w.data, np.uint8))
                continue
            w = np.ascontiguousarray(w, dtype=np.float32)
            if w.shape != _weight_shape(config, name):
                raise ValueError("weight %s has shape %s, expected %s" % (
                    name, w.shape, _weight_shape(config, name)))
            self.weights.append(w)
        inv = _inv_freq(config)
        if "rope_freqs.weight" in weights:  # GGUF Llama 3 freq factors
            inv = inv / np.asarray(weights["rope_freqs.weight"], np.float64)
        self._inv_freq = inv
        self._programs = {}
        self._context = None
        self.reset()

    def reset(self):
        """Empties the KV caches (position 0)."""
        c = self.config
        shape = (self.batch, self.max_seq, c.n_kv_heads, c.head_dim)
        self.k_cache = [np.zeros(shape, np.float32)
                        for _ in range(c.n_layers)]
        self.v_cache = [np.zeros(shape, np.float32)
                        for _ in range(c.n_layers)]
        self.pos = 0

    def program(self, n):
        """The compiled @decode_step for n new tokens (compiled once)."""
        if n not in self._programs:
            import rlx
            if self._context is None:
                self._context = rlx.Context()
            weights = dict(zip(self.names, self.weights))
            weights.update(self._packed)
            text = build_program(self.config, n, self.batch,
                                 weights=weights, max_seq=self.max_seq)
            module = rlx.Module.parse(text, self._context)
            self._programs[n] = rlx.compile(module, function="decode_step",
                                            options=self.compile_options)
        return self._programs[n]

    def step(self, tokens, pos=None):
        """Runs tokens [B, n] (or [n] for batch 1) at position `pos`
        (default: where the last step ended); updates the caches and
        returns the logits [B, vocab] of the last new token."""
        tokens = np.asarray(tokens, dtype=np.int64)
        if tokens.ndim == 1:
            tokens = tokens[None]
        if tokens.shape[0] != self.batch:
            raise ValueError("tokens have batch %d, the model %d" %
                             (tokens.shape[0], self.batch))
        n = tokens.shape[1]
        pos = self.pos if pos is None else int(pos)
        if pos < 0 or pos + n > self.max_seq:
            raise ValueError("positions %d..%d outside the cache (max_seq "
                             "%d)" % (pos, pos + n - 1, self.max_seq))
        cos, sin = rope_tables(self.config, pos, n, self._inv_freq)
        L = self.config.n_layers
        out = self.program(n)(np.ascontiguousarray(tokens),
                              np.array(pos, np.int64), cos, sin,
                              *self.k_cache, *self.v_cache, *self.weights)
        logits = out[0]
        self.k_cache = list(out[1:1 + L])
        self.v_cache = list(out[1 + L:1 + 2 * L])
        self.pos = pos + n
        return logits

    def generate(self, prompt_ids, n_new, sampler=None, on_logits=None,
                 stop_ids=()):
        """Greedy (or `sampler`, default self.sample_fn) decoding: the
        whole prompt in one step from position 0, then one token per
        step. Returns the n_new new ids (a list; a list of lists for
        batch > 1). `on_logits(step, logits)` sees each step's logits;
        decoding stops early after a token in `stop_ids` (batch 1)."""
        sampler = sampler or self.sample_fn
        prompt = np.asarray(prompt_ids, dtype=np.int64)
        if prompt.ndim == 1:
            prompt = prompt[None]
        self.reset()
        logits = self.step(prompt, 0)
        new = []
        for i in range(n_new):
            if on_logits is not None:
                on_logits(i, logits)
            ids = np.asarray(sampler(logits), dtype=np.int64).reshape(-1)
            new.append(ids)
            if self.batch == 1 and int(ids[0]) in stop_ids:
                break
            if i + 1 < n_new:
                logits = self.step(ids[:, None])
        if self.batch == 1:
            return [int(t[0]) for t in new]
        return [[int(t[b]) for t in new] for b in range(self.batch)]
