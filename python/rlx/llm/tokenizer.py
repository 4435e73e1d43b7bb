# ===- tokenizer.py - LLM tokenizers: SentencePiece and byte-level BPE -=== #
#
# Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===-----------------------------------------------------------------=== #
"""Text <-> token ids for the LLMs that rlx runs end to end, in pure Python.

Two tokenizer kinds cover the GGUF models we load:

* `SentencePieceTokenizer`: llama-2 style (GGUF ``tokenizer.ggml.model =
  "llama"``). The SentencePiece model as GGUF stores it: pieces with '▁' for
  a space, a score per piece and a token type (normal, unknown, control,
  user-defined, unused, byte; the byte pieces are ``<0xNN>``). Encoding is
  SentencePiece's BPE: merge the adjacent pair whose concatenation is a piece
  with the highest score until none is left (llama.cpp's llm_tokenizer_spm
  and sentencepiece's bpe_model.cc), characters that are no piece become
  their UTF-8 byte pieces.
* `BPETokenizer`: byte-level BPE (GGUF ``tokenizer.ggml.model = "gpt2"``:
  GPT-2, llama-3, Qwen2): a regex pre-tokenizer splits the text into words,
  each word's UTF-8 bytes are spelled with GPT-2's bytes_to_unicode
  characters, and the merges are applied by rank.

`from_gguf_metadata` and `from_tokenizer_json` build the right one from a
GGUF file's ``tokenizer.ggml.*`` keys or a Hugging Face tokenizer.json.

The pre-tokenizer regexes use ``\\p{L}`` / ``\\p{N}`` (Unicode letters and
numbers), which Python's `re` lacks. Rather than hand-writing a matcher per
flavour, `_translate_regex` rewrites such a pattern into an equivalent `re`
pattern: each ``\\p{X}`` becomes a character class enumerating the code
points of general category X (built once from `unicodedata` and cached),
``\\s`` / ``\\S`` the Unicode White_Space property (Python's own ``\\s``
also takes U+001C..U+001F, which Oniguruma and Rust's regex do not). The
rest of the syntax these patterns use (alternation, ``(?i:...)``, ``(?!..)``,
greedy and possessive quantifiers) means the same in `re`, so the splits are
those of the original regex engines, up to the Unicode version of Python's
`unicodedata`.

This module needs only the standard library (and no part of rlx), so that
tokenizing works without the compiler's native library."""

import heapq
import json
import os
import re
import sys
import unicodedata

__all__ = [
    "SentencePieceTokenizer", "BPETokenizer", "from_gguf_metadata",
    "from_tokenizer_json", "bytes_to_unicode", "PRE_TOKENIZER_PATTERNS",
    "TOKEN_NORMAL", "TOKEN_UNKNOWN", "TOKEN_CONTROL", "TOKEN_USER_DEFINED",
    "TOKEN_UNUSED", "TOKEN_BYTE",
]

# GGUF's tokenizer.ggml.token_type values (llama.cpp's llama_token_type).
TOKEN_UNDEFINED = 0
TOKEN_NORMAL = 1
TOKEN_UNKNOWN = 2
TOKEN_CONTROL = 3
TOKEN_USER_DEFINED = 4
TOKEN_UNUSED = 5
TOKEN_BYTE = 6

SPACE = "\u2581"  # '▁', SentencePiece's visible space

# The pre-tokenizer regexes, as the models' tokenizer.json and llama.cpp
# write them.
PRE_TOKENIZER_PATTERNS = {
    "gpt2": (r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+"
             r"| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"),
    "llama3": (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+"
               r"|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"
               r"|\s+(?!\S)|\s+"),
    "qwen2": (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+"
              r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"
              r"|\s+(?!\S)|\s+"),
}

# GGUF tokenizer.ggml.pre names (llama.cpp's) of the flavours above.
_PRE_ALIASES = {
    "gpt2": "gpt2", "gpt-2": "gpt2", "phi-2": "gpt2",
    "llama3": "llama3", "llama-v3": "llama3", "llama-bpe": "llama3",
    "smaug-bpe": "llama3",
    "qwen2": "qwen2", "deepseek-r1-qwen": "qwen2",
}

# ----------------------------------------------------------------------
# Unicode classes for the regex translation.
# ----------------------------------------------------------------------

# Unicode's White_Space property (PropList.txt).
_WHITE_SPACE = [(0x09, 0x0D), (0x20, 0x20), (0x85, 0x85), (0xA0, 0xA0),
                (0x1680, 0x1680), (0x2000, 0x200A), (0x2028, 0x2029),
                (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000)]

_category_ranges_cache = None


def _category_ranges():
    """{two-letter general category: [(first, last) code point ranges]} for
    all of Unicode, from `unicodedata` (computed once, ~0.5 s)."""
    global _category_ranges_cache
    if _category_ranges_cache is None:
        ranges = {}
        category = unicodedata.category
        start, current = 0, category("\0")
        for cp in range(1, sys.maxunicode + 1):
            c = category(chr(cp))
            if c != current:
                ranges.setdefault(current, []).append((start, cp - 1))
                start, current = cp, c
        ranges.setdefault(current, []).append((start, sys.maxunicode))
        _category_ranges_cache = ranges
    return _category_ranges_cache


def _property_ranges(name):
    """Code point ranges of the regex property \\p{name}: a general category
    (L, Lu, N, Nd, P, ...) or its long name (Letter, Number)."""
    long_names = {"Letter": "L", "Number": "N", "Punctuation": "P",
                  "Mark": "M", "Symbol": "S", "Separator": "Z",
                  "Other": "C"}
    name = long_names.get(name, name)
    table = _category_ranges()
    if len(name) == 1:
        cats = [c for c in table if c[0] == name]
    elif name in table or (len(name) == 2 and name[0] in "LMNPSZC"):
        cats = [name]
    else:
        raise ValueError(f"unsupported regex property \\p{{{name}}}")
    if not cats:
        raise ValueError(f"unsupported regex property \\p{{{name}}}")
    return sorted(r for c in cats for r in table.get(c, []))


def _class_body(ranges):
    """The inside of an `re` character class matching the ranges."""
    out = []
    for a, b in ranges:
        if a == b:
            out.append("\\U%08x" % a)
        else:
            out.append("\\U%08x-\\U%08x" % (a, b))
    return "".join(out)


def _translate_regex(pattern):
    """A pattern using \\p{X}, \\P{X}, \\s and \\S with Unicode meaning (as in
    Oniguruma, PCRE or Rust's regex) rewritten for Python's `re`: those
    escapes become explicit character classes; everything else is kept."""
    out = []
    i, n = 0, len(pattern)
    in_class = False
    while i < n:
        ch = pattern[i]
        if ch == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if nxt in "pP":
                if i + 2 < n and pattern[i + 2] == "{":
                    end = pattern.index("}", i + 3)
                    name = pattern[i + 3:end]
                    i = end + 1
                else:
                    name = pattern[i + 2]
                    i += 3
                body = _class_body(_property_ranges(name))
                negate = nxt == "P"
            elif nxt in "sS":
                body = _class_body(_WHITE_SPACE)
                negate = nxt == "S"
                i += 2
            else:
                out.append(pattern[i:i + 2])
                i += 2
                continue
            if in_class:
                if negate:
                    raise ValueError(
                        "unsupported negated class inside [...] in "
                        f"pre-tokenizer regex {pattern!r}")
                out.append(body)
            else:
                out.append(("[^" if negate else "[") + body + "]")
            continue
        if in_class:
            if ch == "]":
                in_class = False
            out.append(ch)
            i += 1
            continue
        if ch == "[":
            in_class = True
            out.append(ch)
            i += 1
            # A ']' right after '[' or '[^' is a literal.
            if i < n and pattern[i] == "^":
                out.append("^")
                i += 1
            if i < n and pattern[i] == "]":
                out.append("\\]")
                i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


_compiled_patterns = {}


def _compile_pre_tokenizer(pattern):
    compiled = _compiled_patterns.get(pattern)
    if compiled is None:
        compiled = re.compile(_translate_regex(pattern))
        _compiled_patterns[pattern] = compiled
    return compiled


def bytes_to_unicode():
    """GPT-2's reversible byte -> printable character map: printable Latin-1
    bytes stand for themselves, the others for U+0100 upwards in order."""
    bs = (list(range(ord("!"), ord("~") + 1))
          + list(range(ord("\xa1"), ord("\xac") + 1))
          + list(range(ord("\xae"), ord("\xff") + 1)))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


def _as_str(x):
    if isinstance(x, (bytes, bytearray)):
        return bytes(x).decode("utf-8", errors="surrogateescape")
    return str(x)


def _as_list(x):
    if x is None:
        return None
    if hasattr(x, "tolist"):
        return x.tolist()
    return list(x)


def _merge_adjacent(sym, priority):
    """Merges adjacent symbols of the list `sym` (in place) while some pair
    has a priority, the lowest priority(a, b) first and the leftmost among
    equals; priority(a, b) is None for a pair that never merges. A doubly
    linked list of symbols and a heap of candidate pairs, as llama.cpp's
    tokenizers and sentencepiece's bpe_model.cc do: a candidate whose
    symbols changed since it was pushed is skipped. Returns the merged
    symbols in order."""
    n = len(sym)
    prev = list(range(-1, n - 1))
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    heap = []

    def add(left, right):
        if left < 0 or right < 0:
            return
        key = priority(sym[left], sym[right])
        if key is not None:
            heapq.heappush(heap, (key, left, right, sym[left], sym[right]))

    for i in range(1, n):
        add(i - 1, i)
    while heap:
        _, left, right, a, b = heapq.heappop(heap)
        if sym[left] != a or sym[right] != b or nxt[left] != right:
            continue
        sym[left] = a + b
        sym[right] = None
        nxt[left] = nxt[right]
        if nxt[right] >= 0:
            prev[nxt[right]] = left
        add(prev[left], left)
        add(left, nxt[left])
    out = []
    i = 0
    while i != -1:
        out.append(sym[i])
        i = nxt[i]
    return out


class _Tokenizer:
    """What both kinds share: the vocabulary, special tokens and the split of
    the input text at special tokens."""

    def __init__(self, tokens, token_types, bos_id, eos_id, add_bos):
        self.tokens = [_as_str(t) for t in tokens]
        if token_types is None:
            token_types = [TOKEN_NORMAL] * len(self.tokens)
        self.token_types = [int(t) for t in token_types]
        if len(self.token_types) != len(self.tokens):
            raise ValueError(f"{len(self.tokens)} tokens but "
                             f"{len(self.token_types)} token types")
        self.token_to_id = {}
        for i, t in enumerate(self.tokens):
            self.token_to_id.setdefault(t, i)
        self.bos_id = None if bos_id is None else int(bos_id)
        self.eos_id = None if eos_id is None else int(eos_id)
        self.add_bos = bool(add_bos) and self.bos_id is not None
        for i in (self.bos_id, self.eos_id):
            if i is not None and not 0 <= i < len(self.tokens):
                raise ValueError(f"special token id {i} is not in the "
                                 f"vocabulary of {len(self.tokens)}")
        self._special_re = {}

    @property
    def vocab_size(self):
        return len(self.tokens)

    def __len__(self):
        return len(self.tokens)

    def _is_special(self, i):
        return self.token_types[i] in (TOKEN_CONTROL, TOKEN_USER_DEFINED)

    def _fragments(self, text, parse_special):
        """Split text into raw text (str) and special token ids (int):
        user-defined tokens always, control tokens with parse_special (as
        llama.cpp's tokenizer_st_partition); longest match first."""
        key = bool(parse_special)
        if key not in self._special_re:
            kinds = (TOKEN_CONTROL, TOKEN_USER_DEFINED) if key else \
                (TOKEN_USER_DEFINED,)
            specials = sorted({t for t, k in zip(self.tokens,
                                                 self.token_types)
                               if k in kinds and t},
                              key=lambda t: (-len(t), t))
            self._special_re[key] = (
                re.compile("|".join(map(re.escape, specials)))
                if specials else None)
        pattern = self._special_re[key]
        if pattern is None:
            return [text] if text else []
        out, pos = [], 0
        for m in pattern.finditer(text):
            if m.start() > pos:
                out.append(text[pos:m.start()])
            out.append(self.token_to_id[m.group()])
            pos = m.end()
        if pos < len(text):
            out.append(text[pos:])
        return out

    def decode(self, ids, special=False):
        """The text of token ids: UTF-8 bytes of the pieces joined (invalid
        sequences become U+FFFD). Control tokens (bos, eos, ...) are left
        out unless special."""
        data = b"".join(self.token_to_bytes(i, special) for i in ids)
        return self._strip_decoded(ids, data.decode("utf-8",
                                                    errors="replace"))

    def _strip_decoded(self, ids, text):
        return text

    def __repr__(self):
        return (f"{type(self).__name__}(vocab_size={len(self.tokens)}, "
                f"bos_id={self.bos_id}, eos_id={self.eos_id})")


class SentencePieceTokenizer(_Tokenizer):
    """llama-2 style SentencePiece BPE over a GGUF vocabulary.

    tokens, scores, token_types: one per id (GGUF tokenizer.ggml.tokens,
    .scores, .token_type). encode prepends '▁' (add_dummy_prefix: GGUF
    tokenizer.ggml.add_space_prefix), writes spaces as '▁' and merges by
    score; decode undoes it."""

    def __init__(self, tokens, scores, token_types, bos_id=1, eos_id=2,
                 unk_id=0, add_bos=True, add_dummy_prefix=True):
        super().__init__(tokens, token_types, bos_id, eos_id, add_bos)
        scores = _as_list(scores)
        if scores is None:
            scores = [0.0] * len(self.tokens)
        self.scores = [float(s) for s in scores]
        if len(self.scores) != len(self.tokens):
            raise ValueError(f"{len(self.tokens)} tokens but "
                             f"{len(self.scores)} scores")
        self.unk_id = None if unk_id is None or unk_id < 0 else int(unk_id)
        self.add_dummy_prefix = bool(add_dummy_prefix)
        # The pieces merging may produce (sentencepiece's pieces_ map:
        # normal, user-defined and unused ones), and the byte pieces.
        self._pieces = {}
        self._byte_ids = {}
        for i, (t, k) in enumerate(zip(self.tokens, self.token_types)):
            if k in (TOKEN_NORMAL, TOKEN_USER_DEFINED, TOKEN_UNUSED,
                     TOKEN_UNDEFINED):
                self._pieces.setdefault(t, i)
            elif k == TOKEN_BYTE:
                m = re.fullmatch(r"<0x([0-9A-Fa-f]{2})>", t)
                if m:
                    self._byte_ids[int(m.group(1), 16)] = i

    def encode(self, text, add_bos=None, parse_special=False):
        """Token ids of text (bos first when add_bos, default the model's)."""
        add_bos = self.add_bos if add_bos is None else add_bos
        out = [self.bos_id] if add_bos and self.bos_id is not None else []
        prev_special = True  # a dummy prefix at the start and after specials
        for frag in self._fragments(text, parse_special):
            if isinstance(frag, int):
                out.append(frag)
                prev_special = True
                continue
            if self.add_dummy_prefix and prev_special:
                frag = " " + frag
            self._encode_piece(frag.replace(" ", SPACE), out)
            prev_special = False
        return out

    def _encode_piece(self, text, out):
        # llama.cpp's llm_tokenizer_spm / sentencepiece's bpe_model.cc:
        # from one symbol per character, the pair whose merged piece has the
        # highest score first, leftmost among equals; each merge's parts
        # are kept for _resegment.
        if not text:
            return
        pieces, scores = self._pieces, self.scores
        rev_merge = {}

        def priority(a, b):
            i = pieces.get(a + b)
            if i is None:
                return None
            rev_merge[a + b] = (a, b)
            return -scores[i]

        for piece in _merge_adjacent(list(text), priority):
            self._resegment(piece, rev_merge, out)

    def _resegment(self, piece, rev_merge, out):
        i = self._pieces.get(piece)
        if i is not None and self.token_types[i] != TOKEN_UNUSED:
            out.append(i)
            return
        parts = rev_merge.get(piece)
        if parts is not None:
            self._resegment(parts[0], rev_merge, out)
            self._resegment(parts[1], rev_merge, out)
            return
        # Not a piece: its UTF-8 bytes as byte pieces, else unknown.
        data = piece.encode("utf-8", errors="surrogatepass")
        if all(b in self._byte_ids for b in data):
            out.extend(self._byte_ids[b] for b in data)
        elif self.unk_id is not None:
            out.append(self.unk_id)
        else:
            raise ValueError(f"cannot tokenize {piece!r}: no piece, byte "
                             "pieces or unknown token for it")

    def token_to_bytes(self, i, special=False):
        """The UTF-8 bytes token i stands for (for streaming output)."""
        kind = self.token_types[i]
        t = self.tokens[i]
        if kind == TOKEN_BYTE:
            return bytes([int(t[3:5], 16)])
        if kind == TOKEN_CONTROL:
            return t.encode("utf-8") if special else b""
        if kind == TOKEN_UNKNOWN:
            return " \u2047 ".encode("utf-8")  # sentencepiece's ' ⁇ '
        return t.replace(SPACE, " ").encode("utf-8", errors="surrogatepass")

    def _strip_decoded(self, ids, text):
        # The dummy prefix's space: sentencepiece drops a leading '▁' of
        # the first piece (control tokens before it do not count).
        if not self.add_dummy_prefix:
            return text
        for i in ids:
            kind = self.token_types[i]
            if kind == TOKEN_CONTROL:
                continue
            if kind in (TOKEN_NORMAL, TOKEN_USER_DEFINED, TOKEN_UNUSED,
                        TOKEN_UNDEFINED) and self.tokens[i].startswith(SPACE):
                pos = text.find(" ")
                if pos >= 0:
                    text = text[:pos] + text[pos + 1:]
            break
        return text


class BPETokenizer(_Tokenizer):
    """Byte-level BPE (GPT-2, llama-3, Qwen2).

    tokens: the vocabulary, normal tokens spelled in bytes_to_unicode
    characters; merges: "a b" strings (or (a, b) pairs), rank = position;
    pre: the pre-tokenizer flavour ("llama3", "qwen2", "gpt2" or a GGUF
    tokenizer.ggml.pre name of one), or pattern: the regex itself.
    ignore_merges (llama-3's tokenizer.json): a word that is a token is that
    token without merging. Control and user-defined tokens are written as
    plain text."""

    def __init__(self, tokens, merges, pre="llama3", bos_id=None,
                 eos_id=None, add_bos=None, token_types=None, pattern=None,
                 ignore_merges=None):
        if pattern is None:
            flavour = _PRE_ALIASES.get(pre)
            if flavour is None:
                raise ValueError(f"unsupported pre-tokenizer {pre!r}")
            pattern = PRE_TOKENIZER_PATTERNS[flavour]
            self.pre = flavour
        else:
            self.pre = pre
        if add_bos is None:
            add_bos = self.pre == "llama3"
        if token_types is None:
            tokens = list(tokens)
            token_types = [TOKEN_NORMAL] * len(tokens)
            for i in (bos_id, eos_id):
                if i is not None:
                    token_types[int(i)] = TOKEN_CONTROL
        super().__init__(tokens, token_types, bos_id, eos_id, add_bos)
        self.pattern = pattern
        self._regex = _compile_pre_tokenizer(pattern)
        self.ignore_merges = (self.pre == "llama3" if ignore_merges is None
                              else bool(ignore_merges))
        self.ranks = {}
        for rank, m in enumerate(merges):
            if isinstance(m, (str, bytes)):
                a, b = _as_str(m).split(" ", 1)
            else:
                a, b = m
            self.ranks.setdefault((a, b), rank)
        self.byte_encoder = bytes_to_unicode()
        self.byte_decoder = {c: b for b, c in self.byte_encoder.items()}
        self._cache = {}

    def pre_tokenize(self, text):
        """The words the pre-tokenizer regex splits text into."""
        return self._regex.findall(text)

    def encode(self, text, add_bos=None, parse_special=False):
        """Token ids of text (bos first when add_bos, default the model's)."""
        add_bos = self.add_bos if add_bos is None else add_bos
        out = [self.bos_id] if add_bos and self.bos_id is not None else []
        for frag in self._fragments(text, parse_special):
            if isinstance(frag, int):
                out.append(frag)
                continue
            for word in self._regex.findall(frag):
                out.extend(self._encode_word(word))
        return out

    def _encode_word(self, word):
        ids = self._cache.get(word)
        if ids is not None:
            return ids
        enc = self.byte_encoder
        symbols = [enc[b] for b in word.encode("utf-8",
                                               errors="surrogatepass")]
        whole = "".join(symbols)
        if self.ignore_merges and whole in self.token_to_id:
            ids = [self.token_to_id[whole]]
        else:
            ids = []
            for s in self._merge(symbols):
                i = self.token_to_id.get(s)
                if i is not None:
                    ids.append(i)
                else:
                    # llama.cpp: a symbol without a token, by its bytes.
                    ids.extend(self.token_to_id[c] for c in s
                               if c in self.token_to_id)
        if len(self._cache) > 65536:
            self._cache.clear()
        self._cache[word] = ids
        return ids

    def _merge(self, symbols):
        # Lowest rank first, leftmost among equals (llama.cpp's
        # llm_tokenizer_bpe, HF tokenizers' BPE).
        if len(symbols) < 2:
            return symbols
        ranks = self.ranks
        return _merge_adjacent(list(symbols),
                               lambda a, b: ranks.get((a, b)))

    def token_to_bytes(self, i, special=False):
        """The bytes token i stands for (for streaming output)."""
        kind = self.token_types[i]
        t = self.tokens[i]
        if kind == TOKEN_CONTROL:
            return t.encode("utf-8") if special else b""
        if kind == TOKEN_USER_DEFINED:
            return t.encode("utf-8")
        dec = self.byte_decoder
        return b"".join(bytes([dec[c]]) if c in dec else c.encode("utf-8")
                        for c in t)


def from_gguf_metadata(metadata):
    """The tokenizer a GGUF file's tokenizer.ggml.* metadata describes."""
    def get(key, default=None):
        v = metadata.get("tokenizer.ggml." + key, default)
        return _as_str(v) if isinstance(v, (bytes, bytearray)) else v

    model = get("model")
    tokens = _as_list(get("tokens"))
    if model in ("llama", "gpt2") and tokens is None:
        raise ValueError("GGUF metadata has no tokenizer.ggml.tokens")
    types = _as_list(get("token_type"))
    unk = get("unknown_token_id")
    if model == "llama":
        bos = get("bos_token_id", 1)
        eos = get("eos_token_id", 2)
        return SentencePieceTokenizer(
            tokens, _as_list(get("scores")), types, bos_id=bos, eos_id=eos,
            unk_id=0 if unk is None else unk,
            add_bos=bool(get("add_bos_token", True)),
            add_dummy_prefix=bool(get("add_space_prefix", True)))
    if model == "gpt2":
        merges = _as_list(get("merges"))
        if merges is None:
            raise ValueError("GGUF metadata has no tokenizer.ggml.merges")
        # No tokenizer.ggml.pre (older files) or "default": GPT-2's regex
        # (llama.cpp's "default" is a close variant of it).
        pre = get("pre", "gpt2")
        pre = "gpt2" if pre in (None, "default") else _as_str(pre)
        bos = get("bos_token_id")
        add_bos = get("add_bos_token")
        if add_bos is None:  # llama-3 starts with <|begin_of_text|>
            add_bos = _PRE_ALIASES.get(pre) == "llama3"
        return BPETokenizer(
            tokens, merges, pre=pre, bos_id=bos,
            eos_id=get("eos_token_id"),
            add_bos=bool(add_bos) and bos is not None, token_types=types)
    raise ValueError(f"unsupported tokenizer model {model!r} "
                     "(tokenizer.ggml.model; supported: 'llama', 'gpt2')")


def _json_steps(node):
    """The steps of a tokenizer.json normalizer / pre_tokenizer / decoder
    (a Sequence flattened)."""
    if not node:
        return []
    if node.get("type") == "Sequence":
        key = next((k for k in ("normalizers", "pretokenizers", "decoders",
                                "processors") if k in node), None)
        return [s for sub in node.get(key, []) for s in _json_steps(sub)]
    return [node]


def from_tokenizer_json(path):
    """The tokenizer of a Hugging Face tokenizer.json: a BPE model with a
    ByteLevel pre-tokenizer (GPT-2, llama-3, Qwen2) -> BPETokenizer; a BPE
    model over '▁'-spelled SentencePiece pieces (llama-2's, a Metaspace
    pre-tokenizer or a normalizer replacing ' ' by '▁') ->
    SentencePieceTokenizer. A tokenizer_config.json beside it may give
    bos_token, eos_token and add_bos_token."""
    with open(path, encoding="utf-8") as f:
        spec = json.load(f)
    model = spec.get("model") or {}
    kind = model.get("type")
    if kind is None and "merges" in model:
        kind = "BPE"
    if kind != "BPE":
        raise ValueError(f"unsupported tokenizer.json model type {kind!r} "
                         "(supported: 'BPE')")
    vocab = dict(model.get("vocab") or {})
    added = spec.get("added_tokens") or []
    for t in added:
        vocab.setdefault(t["content"], t["id"])
    size = max(vocab.values()) + 1 if vocab else 0
    tokens = [f"[PAD{i}]" for i in range(size)]
    types = [TOKEN_UNUSED] * size
    for t, i in vocab.items():
        tokens[i] = t
        types[i] = TOKEN_NORMAL
    for t in added:
        types[t["id"]] = (TOKEN_CONTROL if t.get("special")
                          else TOKEN_USER_DEFINED)
    merges = [m if isinstance(m, str) else " ".join(m)
              for m in model.get("merges") or []]

    # bos / eos: TemplateProcessing's leading special token, a
    # tokenizer_config.json beside it, else the usual names.
    config = {}
    config_path = os.path.join(os.path.dirname(os.path.abspath(path)),
                               "tokenizer_config.json")
    if os.path.exists(config_path):
        with open(config_path, encoding="utf-8") as f:
            config = json.load(f)

    def token_name(v):
        return v.get("content") if isinstance(v, dict) else v

    bos_name = token_name(config.get("bos_token"))
    eos_name = token_name(config.get("eos_token"))
    add_bos = config.get("add_bos_token")
    for proc in _json_steps(spec.get("post_processor")):
        if proc.get("type") == "TemplateProcessing":
            single = proc.get("single") or []
            first = single[0] if single else {}
            if "SpecialToken" in first:
                bos_name = bos_name or first["SpecialToken"]["id"]
                add_bos = True if add_bos is None else add_bos
            elif add_bos is None:
                add_bos = False
    for name in ("<|begin_of_text|>", "<s>", "<|startoftext|>"):
        if bos_name is None and name in vocab:
            bos_name = name
    for name in ("<|end_of_text|>", "</s>", "<|endoftext|>"):
        if eos_name is None and name in vocab:
            eos_name = name
    bos_id = vocab.get(bos_name) if bos_name else None
    eos_id = vocab.get(eos_name) if eos_name else None

    pre_steps = _json_steps(spec.get("pre_tokenizer"))
    norm_steps = _json_steps(spec.get("normalizer"))
    byte_level = [s for s in pre_steps if s.get("type") == "ByteLevel"]
    if byte_level:
        pattern = None
        for s in pre_steps:
            if s.get("type") == "Split":
                regex = (s.get("pattern") or {}).get("Regex")
                if regex is None:
                    raise ValueError("unsupported Split pre-tokenizer "
                                     f"{s.get('pattern')!r}")
                if pattern is not None:
                    raise ValueError("unsupported pre-tokenizer: more "
                                     "than one Split")
                pattern = regex
            elif s.get("type") not in ("ByteLevel",):
                raise ValueError(
                    f"unsupported pre-tokenizer step {s.get('type')!r}")
        if pattern is None:
            if not byte_level[0].get("use_regex", True):
                raise ValueError("unsupported pre-tokenizer: ByteLevel "
                                 "without a regex")
            pattern = PRE_TOKENIZER_PATTERNS["gpt2"]
        if byte_level[0].get("add_prefix_space"):
            raise ValueError("unsupported pre-tokenizer: ByteLevel with "
                             "add_prefix_space")
        flavour = next((k for k, v in PRE_TOKENIZER_PATTERNS.items()
                        if v == pattern), "custom")
        return BPETokenizer(
            tokens, merges, pre=flavour, pattern=pattern, bos_id=bos_id,
            eos_id=eos_id, add_bos=bool(add_bos), token_types=types,
            ignore_merges=bool(model.get("ignore_merges", False)))

    metaspace = [s for s in pre_steps if s.get("type") == "Metaspace"]
    replaces_space = any(
        s.get("type") == "Replace" and (s.get("pattern") or {}).get(
            "String") == " " and s.get("content") == SPACE
        for s in norm_steps)
    if metaspace or replaces_space or model.get("byte_fallback"):
        if metaspace:
            m = metaspace[0]
            prefix = m.get("prepend_scheme", "always") != "never" and \
                m.get("add_prefix_space", True)
        else:
            prefix = any(s.get("type") == "Prepend" and
                         s.get("prepend") == SPACE for s in norm_steps)
        # Scores from the merge ranks: a piece made by an earlier merge
        # scores higher (what llama.cpp's converter does without a
        # tokenizer.model).
        scores = [0.0] * size
        for rank, m in enumerate(merges):
            a, b = m.split(" ", 1)
            i = vocab.get(a + b)
            if i is not None and scores[i] == 0.0:
                scores[i] = -float(rank + 1)
        for t, i in vocab.items():
            if types[i] == TOKEN_NORMAL and re.fullmatch(
                    r"<0x[0-9A-F]{2}>", t):
                types[i] = TOKEN_BYTE
        unk = model.get("unk_token")
        unk_id = vocab.get(unk) if unk else None
        if unk_id is not None:
            types[unk_id] = TOKEN_UNKNOWN
        return SentencePieceTokenizer(
            tokens, scores, types, bos_id=bos_id, eos_id=eos_id,
            unk_id=unk_id, add_bos=True if add_bos is None else add_bos,
            add_dummy_prefix=prefix)
    names = [s.get("type") for s in pre_steps] or [None]
    raise ValueError(f"unsupported BPE tokenizer.json pre-tokenizer "
                     f"{names!r} (supported: ByteLevel, Metaspace)")
