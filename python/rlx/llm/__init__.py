# ===- __init__.py - rlx.llm: language models from files to text ---=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""Language models from GGUF and safetensors files to text.

    import rlx.llm
    llm = rlx.llm.load("model.gguf")           # or a Hugging Face folder
    print(llm.generate("Once upon a time", max_new_tokens=32))

`load` reads the architecture (llama, qwen2, qwen3) and its
hyper-parameters, the weights (GGUF's quantized matrices kept in their
blocks, which the program decodes as it multiplies; other tensors in
float32) and the tokenizer stored with the model, and compiles the
decoder (`rlx.llm.model`) for the CPU. `generate` prefills the prompt in
one step, then decodes one token per step over the KV caches; sampling
(temperature, top-k, top-p, seed) is `rlx.sample`, compiled once.
The command line is `python3 -m rlx.llm MODEL --prompt TEXT` (also
`build/bin/rlx-generate`).

The modules: `gguf` (GGUF and safetensors files), `tokenizer`
(SentencePiece and byte-level BPE), `model` (configs, the program,
`Model`). They need only NumPy; `load` and `Model` need RLX's C API.
"""

import json
import os
import time

import numpy as np

from . import gguf, model, tokenizer
from .model import LlamaConfig, Model

__all__ = ["load", "LLM", "DEFAULT_MAX_SEQ", "Sampler", "gguf", "model", "tokenizer",
           "LlamaConfig", "Model"]


class Sampler:
    """rlx.sample on [B, vocab] logits: greedy when temperature is 0,
    else a draw from the softmax of logits / temperature restricted to the
    top_k tokens and the top_p mass. Each call draws with seed, seed + 1,
    ... so a run from the same seed repeats. The program is compiled once
    per vocabulary size."""

    def __init__(self, temperature=0.0, top_k=0, top_p=1.0, seed=0):
        if temperature < 0:
            raise ValueError("temperature must be >= 0, got %r" % temperature)
        if top_k < 0:
            raise ValueError("top_k must be >= 0, got %r" % top_k)
        if not 0 < top_p <= 1:
            raise ValueError("top_p must be in (0, 1], got %r" % top_p)
        self.temperature, self.top_k, self.top_p = temperature, top_k, top_p
        self.seed = int(seed)
        self._programs = {}
        self._context = None

    def _program(self, batch, vocab):
        key = (batch, vocab)
        if key not in self._programs:
            import rlx
            if self._context is None:
                self._context = rlx.Context()
            text = """
func.func @sample(%logits: tensor<{b}x{v}xf32>, %seed: tensor<i64>) -> tensor<{b}xi64> {{
  %ids = rlx.sample %logits, %seed {{temperature = {t:e} : f32, top_k = {k} : i64, top_p = {p:e} : f32}} : tensor<{b}x{v}xf32>, tensor<i64>
  return %ids : tensor<{b}xi64>
}}
""".format(b=batch, v=vocab, t=self.temperature, k=self.top_k, p=self.top_p)
            module = rlx.Module.parse(text, self._context)
            self._programs[key] = rlx.compile(module, function="sample")
        return self._programs[key]

    def __call__(self, logits):
        logits = np.ascontiguousarray(logits, dtype=np.float32)
        ids = self._program(*logits.shape)(logits,
                                           np.array(self.seed, np.int64))
        self.seed += 1
        return np.asarray(ids, dtype=np.int64)


class LLM:
    """A loaded model: `model` (rlx.llm.Model), `tokenizer`, `config`."""

    def __init__(self, model_, tokenizer_):
        self.model = model_
        self.tokenizer = tokenizer_
        self.config = model_.config
        # One Sampler (so one compiled rlx.sample) per setting.
        self._samplers = {}
        #: Tokens per second of the last generate call's decode steps (the
        #: prompt's step excluded), the prompt step's seconds, and the
        #: seconds spent compiling the programs it needed first.
        self.decode_tokens_per_second = None
        self.prefill_seconds = None
        self.compile_seconds = None

    def encode(self, text):
        return self.tokenizer.encode(text)

    def decode(self, ids):
        return self.tokenizer.decode(ids)

    def generate_ids(self, prompt_ids, max_new_tokens=32, temperature=0.0,
                     top_k=0, top_p=1.0, seed=0, stop_at_eos=True):
        """The new token ids after `prompt_ids` (a list of ints)."""
        if not prompt_ids:
            raise ValueError("generate: the prompt has no tokens")
        if len(prompt_ids) + max_new_tokens > self.model.max_seq:
            raise ValueError(
                "generate: %d prompt tokens + %d new exceed the cache of %d "
                "positions (load(..., max_seq=N))" %
                (len(prompt_ids), max_new_tokens, self.model.max_seq))
        key = (temperature, top_k, top_p)
        if key not in self._samplers:
            self._samplers[key] = Sampler(temperature, top_k, top_p)
        sampler = self._samplers[key]
        sampler.seed = int(seed)
        eos = getattr(self.tokenizer, "eos_id", None)
        stops = (eos,) if stop_at_eos and eos is not None else ()
        times = []

        def timed(step, logits):
            times.append(time.perf_counter())

        start = time.perf_counter()
        self.model.program(len(prompt_ids))
        if max_new_tokens > 1:
            self.model.program(1)
        sampler._program(self.model.batch, self.config.vocab)
        self.compile_seconds = time.perf_counter() - start
        start = time.perf_counter()
        ids = self.model.generate(prompt_ids, max_new_tokens, sampler=sampler,
                                  on_logits=timed, stop_ids=stops)
        if times:
            self.prefill_seconds = times[0] - start
            decoded = len(times) - 1
            if decoded > 0:
                self.decode_tokens_per_second = decoded / (times[-1] -
                                                            times[0])
        return ids

    def generate(self, prompt, max_new_tokens=32, **options):
        """The text generated after `prompt` (the prompt not included);
        options as generate_ids."""
        ids = self.generate_ids(self.encode(prompt), max_new_tokens,
                                **options)
        return self.decode(ids)


def _load_gguf(path, max_seq, packed):
    f = gguf.GGUFFile(path)
    config = model.config_from_gguf(f.metadata, max_seq=max_seq)
    weights = {}
    for name, info in f.tensors.items():
        if packed and info.ggml_type in model.PACKED_TYPES and \
                model.is_matrix(name) and len(info.shape) == 2:
            # A view of the mapped file: the blocks are not copied.
            data = np.asarray(f.raw(name)).reshape(info.shape[0], -1)
            weights[name] = model.PackedWeight(data, info.ggml_type)
        else:
            weights[name] = f.tensor(name)
    embd = f.tensors.get("token_embd.weight")
    if packed and "output.weight" not in f.tensors and embd is not None and \
            embd.ggml_type in model.PACKED_TYPES:
        # Tied embeddings: the lm head multiplies by the packed blocks (read
        # every token) while the embedding gathers from the float32 copy.
        data = np.asarray(f.raw("token_embd.weight")).reshape(embd.shape[0],
                                                               -1)
        weights["output.weight"] = model.PackedWeight(data, embd.ggml_type)
    tok = tokenizer.from_gguf_metadata(f.metadata)
    return config, weights, tok


def _load_hf(folder, max_seq):
    config_path = os.path.join(folder, "config.json")
    if not os.path.exists(config_path):
        raise ValueError("%s: no config.json (a Hugging Face model folder "
                         "has config.json, *.safetensors and "
                         "tokenizer.json)" % folder)
    with open(config_path) as f:
        config = model.config_from_hf(json.load(f), max_seq=max_seq)
    state = {}
    files = sorted(n for n in os.listdir(folder)
                   if n.endswith(".safetensors"))
    if not files:
        raise ValueError("%s: no .safetensors file" % folder)
    for name in files:
        state.update(gguf.read_safetensors(os.path.join(folder, name)))
    weights = model.weights_from_hf(state, config)
    tok_path = os.path.join(folder, "tokenizer.json")
    if not os.path.exists(tok_path):
        raise ValueError("%s: no tokenizer.json" % folder)
    return config, weights, tokenizer.from_tokenizer_json(tok_path)


#: The KV cache length `load` gives a model whose context is longer: the
#: caches are allocated whole (layers x max_seq x kv_heads x head_dim x 2).
DEFAULT_MAX_SEQ = 4096


def load(path, max_seq=None, compile_options="", packed=True):
    """A model from a .gguf file or a Hugging Face folder (config.json,
    *.safetensors, tokenizer.json), compiled for the CPU. `max_seq` is
    the KV cache length (default: the model's context length, at most
    DEFAULT_MAX_SEQ). `packed`: a GGUF file's Q4_0, Q8_0, Q4_K, Q5_K and
    Q6_K matrices stay in their blocks (False: dequantized to float32 at
    load, 4 bytes a weight)."""
    path = os.fspath(path)
    max_seq = max_seq or DEFAULT_MAX_SEQ
    if os.path.isdir(path):
        config, weights, tok = _load_hf(path, max_seq)
    else:
        config, weights, tok = _load_gguf(path, max_seq, packed)
    return LLM(Model(config, weights, tokenizer=tok,
                     compile_options=compile_options), tok)
