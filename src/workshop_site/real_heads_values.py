"""The numbers the "Real heads" page's prose quotes as ``{{ real_heads.name }}``.

Each is written with the one formatter from :func:`attention_workshop.chapters.real_heads.facts`;
:func:`workshop_site.site.context` adds them to the values every page may quote.
Shares and weights get two decimals, cosines three. A bound the prose states as "at least"
is rounded down (:func:`_at_least`), so it stays a bound.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np

from attention_workshop.chapters import real_heads as rh
from attention_workshop.chapters.real_heads import RealHeads
from attention_workshop.experiment import cache, fmt
from attention_workshop.experiment.real_heads_page import facts, head_name

__all__ = ["values"]


def _two(x: float) -> str:
    return fmt.fixed(float(x), 2)


def _at_least(x: float, nd: int) -> str:
    """``x`` rounded down to ``nd`` decimals: "at least" that number is true of ``x``."""
    return fmt.fixed(math.floor(float(x) * 10**nd) / 10**nd, nd)


def _heads(f: RealHeads) -> dict[str, str]:
    """The model's sizes, the thresholds, and the two steady heads."""
    prev = [h.scores[(*f.previous, 0)] for h in f.heads]
    nxt = [h.scores[(*f.following, 1)] for h in f.heads]
    cls = [h.count("cls") for h in f.heads]
    long = f.sentence(rh.LONG)
    river = f.sentence(rh.BANK[0])
    return {
        "n_layer": str(f.n_layer),
        "n_head": str(f.n_head),
        "n_heads": str(f.n_layer * f.n_head),
        "d_model": str(f.heads[0].hidden.shape[-1]),
        "n_sentences": str(len(f.heads)),
        "share": fmt.num(rh.SHARE, 2),
        "broad": fmt.num(rh.BROAD, 2),
        "previous_head": head_name(f.previous),
        "previous_min": _at_least(min(prev), 3),
        "previous_token_min": fmt.fixed(
            min(float(h.shares(f.previous, "previous").min()) for h in f.heads), 3
        ),
        "previous_river": fmt.fixed(river.scores[(*f.previous, 0)], 3),
        "next_head": head_name(f.following),
        "next_min": _at_least(min(nxt), 2),
        "cls_min": str(min(cls)),
        "cls_max": str(max(cls)),
        "cls_long": str(long.count("cls")),
        "broad_long": str(long.count("broad")),
        "self_max": _two(max(float(h.scores[..., 2].max()) for h in f.heads)),
        "sep_max": _two(max(float(h.scores[..., 4].max()) for h in f.heads)),
    }


def _bank(f: RealHeads) -> dict[str, str]:
    b = f.bank
    words = [w for _, w in rh.UNRELATED]
    return {
        "unrelated_n": str(len(words)),
        "unrelated_words": ", ".join(words[:-1]) + " and " + words[-1],
        "unrelated_pairs": str(b.unrelated.shape[1]),
        "unrelated_mean_1": fmt.fixed(b.unrelated[1].mean(), 3),
        "unrelated_mean_last": fmt.fixed(b.unrelated[-1].mean(), 3),
        "unrelated_max": fmt.fixed(b.unrelated[1:].max(), 3),
        "bank_token": str(b.position + 1),
        "bank_in": fmt.fixed(b.senses[0], 3),
        "bank_senses_1": fmt.fixed(b.senses[1], 3),
        "bank_same_1": fmt.fixed(b.same[1], 3),
        "bank_senses_last": fmt.fixed(b.senses[-1], 3),
        "bank_same_last": fmt.fixed(b.same[-1], 3),
    }


def _it(f: RealHeads) -> dict[str, str]:
    tired, wide = f.it.endings
    animal, street = rh.NOUNS
    to = f.it.to_noun
    head = f.it.top(tired, animal)
    best = rh.best_head(f.it.margin)
    return {
        "it_animal_head": head_name(head),
        "it_animal_tired": _two(to[tired][animal][head]),
        "it_street_tired": _two(to[tired][street][head]),
        "it_animal_wide": _two(to[wide][animal][head]),
        "it_street_wide": _two(to[wide][street][head]),
        "margin": fmt.num(rh.MARGIN, 2),
        "it_best_head": head_name(best),
        "it_best_margin": fmt.minus(_two(f.it.margin[best])),
    }


def _copies(f: RealHeads) -> dict[str, str]:
    share = f.copies.share
    order = np.argsort(share, axis=None)[::-1]
    return {
        "copy_head": head_name(rh.best_head(share)),
        "copy_share": _two(share.flat[order[0]]),
        "copy_runner_up": _two(share.flat[order[1]]),
        "copy_tokens": str(len(f.copies.rows)),
    }


def weights_file_facts() -> tuple[int, str]:
    """The run box's model file's size in bytes and the SHA-256 of its bytes, kept on disk apart
    (the file is 45 MB): the page quotes the size, and the site's copy of the file is checked
    against the hash (hooks/experiment.py)."""
    from attention_workshop.trained import browser

    data = cache.call(browser.weights_file)
    return len(data), hashlib.sha256(data).hexdigest()


def _browser(f: RealHeads) -> dict[str, str]:
    """The run box: the model file's size and type, and what float16 costs in accuracy."""
    from attention_workshop.causal import SmolLM
    from attention_workshop.trained import MiniLM, browser

    # kept on disk, as the build keeps the file (computing it asks tokenizers of every code point)
    size = cache.call(weights_file_facts)[0]
    gap = max(rh.half_gaps(f))
    return {
        "file_mb": fmt.fixed(size / 1e6, 1),
        "file_dtype": browser.DTYPE,
        "half_bound": fmt.num(rh.HALF_BOUND, 3),
        "half_gap": fmt.fixed(gap, 4),
        "max_tokens": str(MiniLM.MAX_TOKENS),
        "smollm_max_tokens": str(SmolLM.MAX_TOKENS),
    }


def values(f: RealHeads | None = None) -> dict[str, str]:
    """Every value the page quotes, by name (without the ``real_heads.`` prefix)."""
    f = facts() if f is None else f
    return {**_heads(f), **_bank(f), **_it(f), **_copies(f), **_browser(f)}
