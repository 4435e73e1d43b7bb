# RUN: %python %s
# rlx.llm.tokenizer against references: the SentencePiece tokenizer encodes
# as the sentencepiece library does (a BPE model with byte fallback trained
# here), the byte-level BPE tokenizer round-trips, its pre-tokenizer splits
# as the llama-3 / Qwen2 / GPT-2 regexes define (hand-worked cases and an
# independent hand-written matcher on random strings) and its merging equals
# a naive lowest-rank-first BPE; from_gguf_metadata / from_tokenizer_json
# build them and refuse what they do not support. Random seed printed.
import collections
import contextlib
import json
import os
import random
import tempfile
import time
import unicodedata

import sentencepiece as spm

from rlx.llm import tokenizer as T

start = time.time()
seed = random.SystemRandom().randrange(2**32)
print("seed", seed)
rng = random.Random(seed)

SYLLABLES = ["the", "an", "in", "on", "er", "re", "st", "ing", "ed", "ly",
             "pro", "con", "ta", "mo", "ri", "ka", "lu", "zen", "or", "al",
             "qu", "is", "th", "ch", "ou", "y", "a", "e", "o", "ion"]
FOREIGN = ["café", "über", "naïve", "Zürich", "straße", "garçon", "jalapeño",
           "中文", "東京", "Ελλάδα", "мир"]


def word():
    if rng.random() < 0.06:
        return rng.choice(FOREIGN)
    w = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 3)))
    if rng.random() < 0.1:
        w = w.capitalize()
    return w


def sentence():
    parts = []
    for _ in range(rng.randint(3, 12)):
        r = rng.random()
        if r < 0.05:
            parts.append(str(rng.randint(0, 99999)))
        elif r < 0.09:
            parts.append(word() + rng.choice(["'s", "'t", "'re", "'ll"]))
        else:
            parts.append(word())
    return " ".join(parts) + rng.choice([".", "!", "?", ",", ""])


corpus = [sentence() for _ in range(400)]

TESTS = [
    "", "Hello world", "Hello world's 12345  x\n\n y", " leading space",
    "trailing space ", "multiple   spaces\tand\ttabs", "café über naïve",
    "中文 and 東京", "emoji 😀🎉 here", "unseen xylophonic zqxj", "12345 678",
    "it's they're we'll I'D", "  ", " ", "a", "\n", "line1\nline2\r\n",
    "punct: (a, b) [c]; {d}! ?", "Ελλάδα мир ☃", "mixed123abc456",
    "e\u0301 combining", "nbsp\u00a0here", "\x1cfile separator",
]
lines = TESTS + corpus[:100] + [sentence() for _ in range(100)]


def random_text(n):
    alphabet = (list("abcdefghijklmnopqrstuvwxyzABCXYZ") * 3
                + list("0123456789") * 2 + list(" ") * 12
                + list("\n\r\t'.,!?-_()") + ["'s", "'T", "'re", "'LL", "'d"]
                + list("éüßÑ中文😀①Ⅻ\u0301\u00a0\u2003\x1c\u3000"))
    return "".join(rng.choice(alphabet) for _ in range(n))


# ----------------------------------------------------------------------
# SentencePiece (llama-2 style) against the sentencepiece library.
# ----------------------------------------------------------------------


@contextlib.contextmanager
def quiet_stderr():
    saved = os.dup(2)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


tmp = tempfile.TemporaryDirectory()
with open(os.path.join(tmp.name, "corpus.txt"), "w") as f:
    f.write("\n".join(corpus) + "\n")
with quiet_stderr():
    spm.SentencePieceTrainer.train(
        input=os.path.join(tmp.name, "corpus.txt"),
        model_prefix=os.path.join(tmp.name, "sp"), vocab_size=600,
        model_type="bpe", byte_fallback=True, hard_vocab_limit=False,
        normalization_rule_name="identity", remove_extra_whitespaces=False,
        add_dummy_prefix=True, character_coverage=0.9995)
sp = spm.SentencePieceProcessor(model_file=os.path.join(tmp.name, "sp.model"))


def sp_type(i):
    if sp.is_unknown(i):
        return T.TOKEN_UNKNOWN
    if sp.is_control(i):
        return T.TOKEN_CONTROL
    if sp.is_byte(i):
        return T.TOKEN_BYTE
    if sp.is_unused(i):
        return T.TOKEN_UNUSED
    return T.TOKEN_NORMAL


n = sp.get_piece_size()
sp_tokens = [sp.id_to_piece(i) for i in range(n)]
sp_scores = [sp.get_score(i) for i in range(n)]
sp_types = [sp_type(i) for i in range(n)]
spt = T.SentencePieceTokenizer(sp_tokens, sp_scores, sp_types,
                               bos_id=sp.bos_id(), eos_id=sp.eos_id(),
                               unk_id=sp.unk_id(), add_bos=False)
print("sentencepiece vocab", n)
spm_lines = lines + [random_text(rng.randint(0, 40)) for _ in range(300)]
for text in spm_lines:
    ids = spt.encode(text)
    assert ids == sp.encode(text), (text, ids, sp.encode(text))
    assert spt.decode(ids) == text, (text, spt.decode(ids))
    assert spt.decode(ids) == sp.decode(ids), (text, sp.decode(ids))
assert spt.encode("") == []
assert spt.encode("hi", add_bos=True) == [sp.bos_id()] + sp.encode("hi")
assert spt.decode([sp.bos_id()] + sp.encode("hi") + [sp.eos_id()]) == "hi"
# Characters outside the vocabulary became byte pieces.
assert any(sp_types[i] == T.TOKEN_BYTE for i in spt.encode("😀"))
# Control tokens in the text with parse_special (a space prefix after).
assert spt.encode("<s>hi", parse_special=True) == \
    [sp.bos_id()] + sp.encode("hi")
print("sentencepiece: %d lines equal" % len(spm_lines))

# ----------------------------------------------------------------------
# Pre-tokenizer splits.
# ----------------------------------------------------------------------

SPLITS = {
    "Hello world's 12345  x\n\n y": {
        "llama3": ["Hello", " world", "'s", " ", "123", "45", " ", " x",
                   "\n\n", " y"],
        "qwen2": ["Hello", " world", "'s", " ", "1", "2", "3", "4", "5",
                  " ", " x", "\n\n", " y"],
        "gpt2": ["Hello", " world", "'s", " 12345", " ", " x", "\n\n",
                 " y"]},
    "I'M here,  ok?!\n": {
        # (?i:...) takes 'M in llama-3 and Qwen2; GPT-2's contractions are
        # lowercase only, so "'" is punctuation and "M" a word.
        "llama3": ["I", "'M", " here", ",", " ", " ok", "?!\n"],
        "qwen2": ["I", "'M", " here", ",", " ", " ok", "?!\n"],
        "gpt2": ["I", "'", "M", " here", ",", " ", " ok", "?!", "\n"]},
    "  \n\t x1234": {
        "llama3": ["  \n", "\t", " x", "123", "4"],
        "qwen2": ["  \n", "\t", " x", "1", "2", "3", "4"],
        "gpt2": ["  \n\t", " x", "1234"]},
    "(hi)-you  ": {
        # [^\r\n\p{L}\p{N}]?\p{L}+ takes one leading symbol in llama-3.
        "llama3": ["(hi", ")-", "you", "  "],
        "qwen2": ["(hi", ")-", "you", "  "],
        "gpt2": ["(", "hi", ")-", "you", "  "]},
    "café 中文😀 ①Ⅻ": {
        "llama3": ["café", " 中文", "😀", " ", "①Ⅻ"],
        "qwen2": ["café", " 中文", "😀", " ", "①", "Ⅻ"],
        "gpt2": ["café", " 中文", "😀", " ①Ⅻ"]},
    "a\x1cb\u00a0c": {
        # U+001C is no White_Space (Python's str.isspace says it is).
        "llama3": ["a", "\x1cb", "\u00a0c"],
        "qwen2": ["a", "\x1cb", "\u00a0c"],
        "gpt2": ["a", "\x1c", "b", "\u00a0", "c"]},
}
for flavour in ("llama3", "qwen2", "gpt2"):
    tok = T.BPETokenizer([], [], pre=flavour)
    for text, expected in SPLITS.items():
        got = tok.pre_tokenize(text)
        assert got == expected[flavour], (flavour, text, got)


def is_ws(c):
    return c.isspace() and c not in "\x1c\x1d\x1e\x1f"


def is_l(c):
    return unicodedata.category(c)[0] == "L"


def is_n(c):
    return unicodedata.category(c)[0] == "N"


def is_other(c):  # [^\s\p{L}\p{N}]
    return not (is_ws(c) or is_l(c) or is_n(c))


def run(t, j, pred):
    while j < len(t) and pred(t[j]):
        j += 1
    return j


def hand_split(text, flavour):
    """The regexes' alternatives worked out by hand, one by one."""
    out, i, t = [], 0, text
    while i < len(t):
        c = t[i]
        j = None
        # Contractions.
        if c == "'":
            rest = t[i + 1:i + 3]
            low = rest.lower() if flavour != "gpt2" else rest
            if low[:1] in ("s", "t", "m", "d"):
                j = i + 2
            elif low in ("re", "ve", "ll"):
                j = i + 3
        if j is None and flavour != "gpt2":
            # [^\r\n\p{L}\p{N}]?\p{L}+
            k = i + 1 if c not in "\r\n" and not is_l(c) and not is_n(c) \
                else i
            if k < len(t) and is_l(t[k]):
                j = run(t, k, is_l)
            elif is_n(c):  # \p{N}{1,3} or \p{N}
                j = min(run(t, i, is_n), i + (3 if flavour == "llama3"
                                              else 1))
            else:
                # ' ?[^\s\p{L}\p{N}]+[\r\n]*'
                k = i + 1 if c == " " else i
                if k < len(t) and is_other(t[k]):
                    j = run(t, run(t, k, is_other), lambda x: x in "\r\n")
                elif is_ws(c):
                    end = run(t, i, is_ws)
                    nl = [p for p in range(i, end) if t[p] in "\r\n"]
                    if nl:  # \s*[\r\n]+
                        j = nl[-1] + 1
                    elif end == len(t) or end - 1 == i:  # \s+(?!\S), \s+
                        j = end
                    else:
                        j = end - 1
        elif j is None:
            k = i + 1 if c == " " else i
            if k < len(t) and is_l(t[k]):
                j = run(t, k, is_l)
            elif k < len(t) and is_n(t[k]):
                j = run(t, k, is_n)
            elif k < len(t) and is_other(t[k]):
                j = run(t, k, is_other)
            else:
                end = run(t, i, is_ws)
                j = end if end == len(t) or end - 1 == i else end - 1
        out.append(t[i:j])
        i = j
    return out


for flavour in ("llama3", "qwen2", "gpt2"):
    tok = T.BPETokenizer([], [], pre=flavour)
    for text in list(SPLITS) + TESTS:
        assert tok.pre_tokenize(text) == hand_split(text, flavour), \
            (flavour, text)
    for _ in range(400):
        text = random_text(rng.randint(0, 50))
        assert tok.pre_tokenize(text) == hand_split(text, flavour), \
            (flavour, text, tok.pre_tokenize(text), hand_split(text, flavour))
print("pre-tokenizer splits equal")

# ----------------------------------------------------------------------
# Byte-level BPE: a vocabulary trained here.
# ----------------------------------------------------------------------

B2U = T.bytes_to_unicode()
assert sorted(B2U) == list(range(256)) and len(set(B2U.values())) == 256


def train_bpe(texts, pre_tok, n_merges):
    """Plain BPE training: the most frequent adjacent pair (ties: the
    largest pair) merged everywhere, n_merges times."""
    words = collections.Counter()
    for text in texts:
        for w in pre_tok.pre_tokenize(text):
            words[tuple(B2U[b] for b in w.encode("utf-8"))] += 1
    merges = []
    for _ in range(n_merges):
        pairs = collections.Counter()
        for w, f in words.items():
            for p in zip(w, w[1:]):
                pairs[p] += f
        if not pairs:
            break
        best = max(pairs, key=lambda p: (pairs[p], p))
        merges.append(best)
        merged = collections.Counter()
        for w, f in words.items():
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and (w[i], w[i + 1]) == best:
                    out.append(w[i] + w[i + 1])
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            merged[tuple(out)] += f
        words = merged
    tokens = [B2U[b] for b in range(256)]
    for a, b in merges:
        if a + b not in tokens:
            tokens.append(a + b)
    return tokens, [f"{a} {b}" for a, b in merges]


def naive_encode(tok, text):
    """Reference: per word, merge every occurrence of the lowest-rank pair
    left to right until no pair has a rank (GPT-2's encoder.py)."""
    ranks = {tuple(m.split(" ")): r for r, m in enumerate(merges)}
    vocab = {t: i for i, t in enumerate(tok.tokens)}
    ids = []
    for w in tok.pre_tokenize(text):
        s = [B2U[b] for b in w.encode("utf-8")]
        if tok.ignore_merges and "".join(s) in vocab:
            ids.append(vocab["".join(s)])
            continue
        while len(s) > 1:
            best = min(zip(s, s[1:]),
                       key=lambda p: ranks.get(p, float("inf")))
            if best not in ranks:
                break
            out, i = [], 0
            while i < len(s):
                if i + 1 < len(s) and (s[i], s[i + 1]) == best:
                    out.append(s[i] + s[i + 1])
                    i += 2
                else:
                    out.append(s[i])
                    i += 1
            s = out
        ids.extend(vocab[x] for x in s)
    return ids


SPECIALS = ["<|begin_of_text|>", "<|end_of_text|>", "<|eot_id|>"]
for flavour in ("llama3", "qwen2", "gpt2"):
    trainer = T.BPETokenizer([], [], pre=flavour)
    tokens, merges = train_bpe(corpus, trainer, 300)
    bos, eos = len(tokens), len(tokens) + 1
    tokens = tokens + SPECIALS
    types = [T.TOKEN_NORMAL] * (len(tokens) - 3) + [T.TOKEN_CONTROL] * 3
    for ignore in (False, True):
        tok = T.BPETokenizer(tokens, merges, pre=flavour, bos_id=bos,
                             eos_id=eos, add_bos=True, token_types=types,
                             ignore_merges=ignore)
        texts = lines + [random_text(rng.randint(0, 60)) for _ in range(300)]
        for text in texts:
            ids = tok.encode(text, add_bos=False)
            assert tok.decode(ids) == text, (flavour, text)
            assert ids == naive_encode(tok, text), (flavour, text)
        # Merging shortened the corpus.
        n_ids = sum(len(tok.encode(t, add_bos=False)) for t in corpus)
        n_bytes = sum(len(t.encode("utf-8")) for t in corpus)
        assert n_ids < 0.7 * n_bytes, (n_ids, n_bytes)
    # Digits: groups of up to 3 in llama-3, single digits in Qwen2.
    digits = [tok.decode([i]) for i in tok.encode("12345", add_bos=False)]
    expect = {"llama3": 2, "qwen2": 5, "gpt2": 1}[flavour]
    assert "".join(digits) == "12345"
    assert len(tok.pre_tokenize("12345")) == expect, digits
    # Special tokens: ids with parse_special, plain text without.
    text = "<|begin_of_text|>Hi there<|eot_id|>"
    ids = tok.encode(text, add_bos=False, parse_special=True)
    assert ids[0] == bos and ids[-1] == len(tokens) - 1, ids
    assert tok.decode(ids, special=True) == text
    assert tok.decode(ids) == "Hi there"
    plain = tok.encode(text, add_bos=False)
    assert bos not in plain and tok.decode(plain) == text
    assert tok.encode("Hi")[0] == bos
    print(f"bpe {flavour}: {len(merges)} merges, {len(texts)} texts equal")

    if flavour == "llama3":
        # from_gguf_metadata on this vocabulary.
        meta = {"tokenizer.ggml.model": "gpt2",
                "tokenizer.ggml.pre": "llama-bpe",
                "tokenizer.ggml.tokens": tokens,
                "tokenizer.ggml.token_type": types,
                "tokenizer.ggml.merges": merges,
                "tokenizer.ggml.bos_token_id": bos,
                "tokenizer.ggml.eos_token_id": eos,
                "tokenizer.ggml.add_bos_token": True}
        g = T.from_gguf_metadata(meta)
        assert isinstance(g, T.BPETokenizer) and g.pre == "llama3"
        for text in lines[:50]:
            assert g.encode(text) == [bos] + tok.encode(text, add_bos=False)
        # from_tokenizer_json: the Hugging Face layout of llama-3.
        spec = {
            "added_tokens": [{"id": bos + k, "content": s, "special": True}
                             for k, s in enumerate(SPECIALS)],
            "normalizer": None,
            "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                {"type": "Split", "pattern": {
                    "Regex": T.PRE_TOKENIZER_PATTERNS["llama3"]},
                 "behavior": "Isolated", "invert": False},
                {"type": "ByteLevel", "add_prefix_space": False,
                 "trim_offsets": True, "use_regex": False}]},
            "post_processor": {"type": "TemplateProcessing", "single": [
                {"SpecialToken": {"id": "<|begin_of_text|>",
                                  "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}}]},
            "model": {"type": "BPE", "ignore_merges": True,
                      "vocab": {t: i for i, t in enumerate(tokens[:-3])},
                      "merges": [m.split(" ") for m in merges]}}
        path = os.path.join(tmp.name, "tokenizer.json")
        with open(path, "w") as f:
            json.dump(spec, f)
        h = T.from_tokenizer_json(path)
        assert isinstance(h, T.BPETokenizer) and h.pre == "llama3"
        assert h.bos_id == bos and h.eos_id == eos and h.add_bos
        assert h.ignore_merges
        for text in lines[:50]:
            assert h.encode(text) == [bos] + naive_encode(h, text)
        os.remove(path)

# ----------------------------------------------------------------------
# from_gguf_metadata (llama), from_tokenizer_json (llama-2 layout) and
# what they refuse.
# ----------------------------------------------------------------------

meta = {"tokenizer.ggml.model": "llama",
        "tokenizer.ggml.tokens": sp_tokens,
        "tokenizer.ggml.scores": sp_scores,
        "tokenizer.ggml.token_type": sp_types,
        "tokenizer.ggml.bos_token_id": sp.bos_id(),
        "tokenizer.ggml.eos_token_id": sp.eos_id(),
        "tokenizer.ggml.unknown_token_id": sp.unk_id()}
g = T.from_gguf_metadata(meta)
assert isinstance(g, T.SentencePieceTokenizer) and g.add_bos
for text in lines[:100]:
    assert g.encode(text) == [sp.bos_id()] + sp.encode(text), text

# A llama-2 style tokenizer.json: merges made from the pieces (as HF's
# LlamaConverter does), in piece order.
vocab = {t: i for i, t in enumerate(sp_tokens)}
hf_merges = []
for i in sorted(range(n), key=lambda i: -sp_scores[i]):
    piece = sp_tokens[i]
    if sp_types[i] != T.TOKEN_NORMAL or len(piece) < 2:
        continue
    for k in range(1, len(piece)):
        if piece[:k] in vocab and piece[k:] in vocab:
            hf_merges.append(f"{piece[:k]} {piece[k:]}")
spec = {
    "added_tokens": [{"id": i, "content": sp_tokens[i], "special": True}
                     for i in range(n) if sp_types[i] in
                     (T.TOKEN_CONTROL, T.TOKEN_UNKNOWN)],
    "normalizer": {"type": "Sequence", "normalizers": [
        {"type": "Prepend", "prepend": "\u2581"},
        {"type": "Replace", "pattern": {"String": " "},
         "content": "\u2581"}]},
    "pre_tokenizer": None,
    "post_processor": {"type": "TemplateProcessing", "single": [
        {"SpecialToken": {"id": "<s>", "type_id": 0}},
        {"Sequence": {"id": "A", "type_id": 0}}]},
    "model": {"type": "BPE", "byte_fallback": True, "unk_token": "<unk>",
              "vocab": vocab, "merges": hf_merges}}
path = os.path.join(tmp.name, "tokenizer.json")
with open(path, "w") as f:
    json.dump(spec, f)
h = T.from_tokenizer_json(path)
assert isinstance(h, T.SentencePieceTokenizer), h
assert h.bos_id == sp.bos_id() and h.eos_id == sp.eos_id() and h.add_bos
for text in lines:
    assert h.encode(text) == [sp.bos_id()] + sp.encode(text), text

for model in ("bert", "t5", "rwkv"):
    try:
        T.from_gguf_metadata({"tokenizer.ggml.model": model,
                              "tokenizer.ggml.tokens": ["a"]})
    except ValueError as e:
        assert repr(model) in str(e), e
    else:
        raise AssertionError(model)
for bad in ({"type": "Unigram", "vocab": [["a", 0.0]]},
            {"type": "WordPiece", "vocab": {"a": 0}}):
    with open(path, "w") as f:
        json.dump({"model": bad}, f)
    try:
        T.from_tokenizer_json(path)
    except ValueError as e:
        assert repr(bad["type"]) in str(e), e
    else:
        raise AssertionError(bad["type"])
try:
    T.BPETokenizer([], [], pre="falcon")
except ValueError as e:
    assert "'falcon'" in str(e), e
else:
    raise AssertionError("falcon")
tmp.cleanup()
print("ok in %.1f s" % (time.time() - start))
