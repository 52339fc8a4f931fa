"""attention_workshop/experiment/md_tables.py: the Markdown tables of Modules 0 to 2 and Step by step,
against the vocabulary's tuples, seed 003's inputs and PyTorch."""

from __future__ import annotations

import re

import pytest

from attention_workshop.chapters import module_1
from attention_workshop.experiment import md_tables as tables
from attention_workshop.toy import AXES, SENT_MONEY, SENT_RIVER, VOCAB

from .references import simple

MINUS = "\u2212"


def test_vocab_table_has_every_word_and_value():
    table = tables.vocab_table()
    assert table.splitlines()[0] == "| word | " + " | ".join(AXES) + " |"
    assert len([line for line in table.splitlines() if line.startswith("| **")]) == len(
        VOCAB
    )
    for word, vec in VOCAB.items():
        assert (
            f"| **{word}** | " + " | ".join(f"{v:.1f}" for v in vec) + " |" in table
        ), word


def test_sentence_table():
    t = tables.sentence_table(SENT_RIVER)
    assert t.splitlines()[0] == "| position | word | water | money | place | grammar |"
    assert (
        "| 1 | **the** | 0.0 | 0.0 | 0.0 | 1.0 |" in t
        and "| 3 | **bank** | 0.4 | 0.4 | 1.0 | 0.0 |" in t
    )
    with pytest.raises(ValueError, match="the toy vocabulary knows"):
        tables.sentence_table(["the", "moon"])


def test_dot_table_multiplies_axis_by_axis():
    t = tables.dot_table([("river", "bank"), ("the", "bank")])
    # 1 x 0.4 + 0.3 x 1.0 = 0.7
    assert "| river · bank | **0.70** | 0.40 | 0.00 | 0.30 | 0.00 |" in t
    assert "| the · bank | **0.00** | 0.00 | 0.00 | 0.00 | 0.00 |" in t
    # the result second, its heading bold: a key column that stays in view (hooks/tables.py)
    assert (
        t.splitlines()[0]
        == "| pair | **dot product** | water × water | money × money | place × place | grammar × grammar |"
    )


def test_wired_matrices_table():
    t = tables.wired_matrices_table()
    assert (
        t.splitlines()[0] == "| axis | W_Q topic | W_Q place | W_K topic | W_K place |"
    )
    assert (
        "| **place** | 2.0 | 0.0 | 0.0 | 1.0 |" in t
        and "| **grammar** | 0.0 | 1.0 | 0.0 | 0.0 |" in t
    )
    assert "| **water** | 0.0 | 0.0 | 2.0 | 0.0 |" in t


def test_bank_moves_table(results):
    t = tables.bank_moves_table(results[module_1.SIMPLE])
    assert "| **bank, before attention** | 0.000 | 0.400 | 0.400 | 1.000 | 0.000 |" in t
    assert (
        t.splitlines()[0]
        == "| row | **lean (water − money)** | water | money | place | grammar |"
    )
    for words in (SENT_RIVER, SENT_MONEY):
        out = simple(words)[2][-1]
        cells = " | ".join(f"{v:.3f}" for v in out)
        lean = f"{out[0] - out[1]:+.3f}".replace("-", MINUS)
        assert f'| **bank in "{" ".join(words)}"** | {lean} | {cells} |' in t, words
    assert MINUS in t and not re.search(r"-\d", t), (
        "negative numbers use a true minus sign"
    )


def test_inputs_table_is_seed_003():
    assert tables.inputs_table() == (
        "| word | query $q$ | key $k$ | value $v$ |\n|:--|:-:|:-:|:-:|\n"
        "| **the** | [1, 0] | [1, 0] | [1, 0] |\n| **cat** | [0, 1] | [0, 1] | [0, 1] |\n"
        "| **sat** | [1, 1] | [1, 1] | [0.5, 0.5] |\n"
    )
