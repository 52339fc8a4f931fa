"""toy.py: the embedding table, lean and the wired head, against the vocabulary's tuples and PyTorch float64."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from attention_workshop import (
    AXES,
    SENT_MONEY,
    SENT_RIVER,
    VOCAB,
    W_K_WIRED,
    W_Q_WIRED,
    embed,
)
from attention_workshop.toy import WIRED_CHANNELS, lean, parse_sentence, wired_head


def test_embed_looks_rows_up_in_order():
    X = embed(["the", "river", "bank"])
    assert X.shape == (3, len(AXES)) and X.dtype == np.float64
    for row, word in zip(X, ["the", "river", "bank"]):
        assert tuple(row) == VOCAB[word], word


def test_embed_accepts_a_string():
    np.testing.assert_array_equal(
        embed("savings bank"), [VOCAB["savings"], VOCAB["bank"]]
    )


def test_unknown_word_names_the_known_words():
    with pytest.raises(ValueError) as err:
        embed(["the", "volcano", "bank"])
    msg = str(err.value)
    assert "'volcano'" in msg
    for word in VOCAB:
        assert word in msg, f"the message should list {word!r}"


def test_no_words_is_an_error():
    with pytest.raises(ValueError, match="at least one word"):
        embed([])


def test_parse_sentence_lowercases_and_checks():
    assert parse_sentence("The River bank") == ("the", "river", "bank")
    with pytest.raises(ValueError, match="toy vocabulary knows"):
        parse_sentence("the river banks")


def test_wired_head_is_small_and_read_only():
    assert W_Q_WIRED.shape == (len(AXES), 2) and W_K_WIRED.shape == (len(AXES), 2)
    with pytest.raises(ValueError):
        W_Q_WIRED[0, 0] = 1.0


def test_axes_are_named_and_every_word_has_one_value_per_axis():
    assert len(set(AXES)) == len(AXES)
    assert all(len(v) == len(AXES) for v in VOCAB.values())


def test_embed_of_something_that_is_not_words():
    with pytest.raises(ValueError, match="list of words"):
        embed(None)


def test_the_sentences_and_axes():
    assert AXES == ("water", "money", "place", "grammar") and WIRED_CHANNELS == (
        "topic",
        "place",
    )
    assert SENT_RIVER == ("the", "river", "bank") and SENT_MONEY == (
        "the",
        "savings",
        "bank",
    )


# --------------------------------------------------------------------------- lean


def test_lean_is_water_minus_money():
    assert lean(np.array([0.5, 0.2, 9.0, 9.0])) == pytest.approx(0.3)
    assert isinstance(lean(np.array([0.5, 0.2, 9.0, 9.0])), float)
    np.testing.assert_allclose(
        lean(np.array([VOCAB[w] for w in ("the", "river", "savings", "bank")])),
        [0.0, 1.0, -1.0, 0.0],
    )
    with pytest.raises(ValueError, match=r"got shape \(3,\)"):
        lean(np.zeros(3))


# --------------------------------------------------------------------------- the wired head


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize(
    "sentence", [SENT_RIVER, SENT_MONEY, ("fish", "swam", "by", "the", "shore")]
)
def test_wired_head_against_torch(sentence, causal):
    x = torch.tensor([VOCAB[w] for w in sentence], dtype=torch.float64)
    q, k = (
        x @ torch.from_numpy(np.array(W_Q_WIRED)),
        x @ torch.from_numpy(np.array(W_K_WIRED)),
    )
    h = wired_head(x.numpy(), causal=causal)
    np.testing.assert_array_equal(h.Q, q.numpy())
    np.testing.assert_array_equal(h.K, k.numpy())
    scores = q @ k.T / math.sqrt(2)
    if causal:
        scores = scores.masked_fill(
            torch.ones(len(x), len(x)).triu(1).bool(), float("-inf")
        )
    np.testing.assert_allclose(h.scores, scores.numpy(), rtol=0, atol=1e-15)
    eye = torch.eye(len(x), dtype=torch.float64)
    np.testing.assert_allclose(
        h.weights,
        F.scaled_dot_product_attention(q, k, eye, is_causal=causal).numpy(),
        atol=1e-15,
    )
    np.testing.assert_allclose(
        h.out,
        F.scaled_dot_product_attention(q, k, x, is_causal=causal).numpy(),
        atol=1e-15,
    )


def test_wired_head_reads_as_designed():
    # By hand from the matrices: "the" (grammar 1) asks [0, 1] and advertises nothing; "bank" (place 1.0) asks
    # [2, 0]; "river" advertises topic 2 x (1 + 0) = 2 and place 0.3; "bank" advertises 2 x 0.8 and 1.0.
    h = wired_head(np.array([VOCAB[w] for w in SENT_RIVER]))
    assert h.Q.tolist() == [[0.0, 1.0], [0.6, 0.0], [2.0, 0.0]]
    assert h.K.tolist() == [[0.0, 0.0], [2.0, 0.3], [1.6, 1.0]]
    assert int(np.argmax(h.weights[0])) == 2 and int(np.argmax(h.weights[2])) == 1


def test_wired_head_needs_toy_rows():
    with pytest.raises(ValueError, match=r"shape \(T, 4\).*got shape \(3, 2\)"):
        wired_head(np.zeros((3, 2)))
