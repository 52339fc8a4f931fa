"""Modules 0 to 2: the small computations and tables the first three pages show.

Module 0 reads words as rows of numbers on named axes, Module 1 lets those rows
attend to each other with nothing learned, and Module 2 wires a head by hand.
Each ``section_*`` function returns ``(lines, data, show)`` for the experiment:
the lines of results.log, the raw numbers, and ready-formatted strings for pages.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .core import causal_mask, simple_attention, softmax
from .toy import AXES, SENT_MONEY, VOCAB, W_K_WIRED, W_Q_WIRED, WIRED_CHANNELS, embed

#: Module 1's counterexample: "vault" and "bank" point much the same way, and bank is the longer row.
SENT_LONGER: tuple[str, ...] = ("the", "vault", "bank")

__all__ = [
    "lean",
    "dot_terms",
    "simple_scores",
    "wired_head",
    "self_and_best_other",
    "longer_neighbour",
    "SENT_LONGER",
    "vocab_table",
    "sentence_table",
    "dot_table",
    "wired_matrices_table",
    "rows_table",
    "bank_moves_table",
    "section_softmax_shift",
    "section_simple_limits",
    "section_wired_parts",
]

_WATER, _MONEY = AXES.index("water"), AXES.index("money")


def _fmt(x: float, nd: int = 3) -> str:
    s = f"{float(x):.{nd}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def _signed(x: float, nd: int = 3) -> str:
    s = _fmt(x, nd)
    return s if s.startswith("-") or float(s) == 0 else "+" + s


def _minus(s: str) -> str:
    """A number as a page displays it: a true minus sign (U+2212), not a hyphen."""
    return s.replace("-", "\u2212")


# --------------------------------------------------------------------------- computations


def lean(X: np.ndarray) -> np.ndarray | float:
    """Which sense a row leans to: its water coordinate minus its money coordinate.

    Positive leans to water, negative to money. ``X``: ``(d_model,)`` or ``(T, d_model)``.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.shape[-1:] != (len(AXES),):
        raise ValueError(f"lean needs rows on the axes {', '.join(AXES)} (last size {len(AXES)}), got shape {X.shape}")
    d = X[..., _WATER] - X[..., _MONEY]
    return float(d) if d.ndim == 0 else d


def dot_terms(a: str, b: str) -> tuple[np.ndarray, float]:
    """The dot product of two words, axis by axis: ``(terms (d_model,), total)``."""
    x, y = embed([a, b])  # (2, d_model)
    terms = x * y  # (d_model,)
    return terms, math.fsum(terms)


def simple_scores(X: np.ndarray) -> np.ndarray:
    """Module 1's score table, before softmax: ``X X^T / sqrt(d_model)``, ``(T, T)``."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must have shape (T, d_model), got shape {X.shape}")
    return X @ X.T / math.sqrt(X.shape[1])  # (T, d) x (d, T) -> (T, T)


def wired_head(X: np.ndarray, causal: bool = False) -> dict[str, np.ndarray]:
    """Module 2's hand-wired head; each word hands over its own embedding (no ``W_v`` yet).

    Args:
        X: ``(T, d_model)`` rows of the toy embedding.
        causal: hide the future, as Module 3 does.

    Returns:
        ``{"Q": (T, 2), "K": (T, 2), "scores": (T, T), "weights": (T, T), "out": (T, d_model)}``.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != W_Q_WIRED.shape[0]:
        raise ValueError(f"X must have shape (T, {W_Q_WIRED.shape[0]}) for the wired head, got shape {X.shape}")
    Q = X @ W_Q_WIRED  # (T, 4) x (4, 2) -> (T, 2): what each word asks
    K = X @ W_K_WIRED  # (T, 4) x (4, 2) -> (T, 2): what each word advertises
    scores = Q @ K.T / math.sqrt(K.shape[1])  # (T, 2) x (2, T) -> (T, T)
    if causal:
        scores = np.where(causal_mask(len(X)), -np.inf, scores)
    weights = softmax(scores)  # (T, T)
    return {"Q": Q, "K": K, "scores": scores, "weights": weights, "out": weights @ X}  # (T, T) x (T, 4) -> (T, 4)


def self_and_best_other(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each row of a square weight table: the weight on itself, and the largest weight on another word."""
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 2 or w.shape[0] != w.shape[1] or len(w) < 2:
        raise ValueError(f"weights must be a square table of at least 2 words, got shape {w.shape}")
    others = np.where(np.eye(len(w), dtype=bool), -np.inf, w)
    return np.diag(w).copy(), others.max(axis=1)


def longer_neighbour(sentence: Sequence[str] = SENT_LONGER, word: int = 1) -> dict[str, object]:
    """Simple attention of one word: its own score and weight against its strongest neighbour's.

    The raw dot product rewards length as well as direction: ``x . x`` is the squared
    length of ``x``, so a longer neighbour pointing much the same way can outscore it.

    Args:
        sentence: words of the toy vocabulary (``T`` of them).
        word: the row that looks (0-based).

    Returns:
        ``{"word", "neighbour", "self_dot", "other_dot", "self_w", "other_w", "len_self", "len_other"}``:
        the neighbour is the other word with the largest weight; dots are unscaled ``x . y``.
    """
    words = tuple(sentence)
    if not 0 <= word < len(words) or len(words) < 2:
        raise ValueError(f"word must be a row of a sentence of at least 2 words, got {word} for {len(words)} words")
    X = embed(words)  # (T, d_model)
    _, w = simple_attention(X)  # (T, T)
    dots = X @ X[word]  # (T, d_model) x (d_model,) -> (T,)
    others = [j for j in range(len(words)) if j != word]
    j = max(others, key=lambda k: w[word, k])
    return {"word": words[word], "neighbour": words[j], "self_dot": float(dots[word]), "other_dot": float(dots[j]),
            "self_w": float(w[word, word]), "other_w": float(w[word, j]),
            "len_self": float(np.linalg.norm(X[word])), "len_other": float(np.linalg.norm(X[j]))}


# --------------------------------------------------------------------------- Markdown tables


def _md(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|:--|" + "--:|" * (len(header) - 1)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def vocab_table() -> str:
    """The whole toy vocabulary, one word a row, one named axis a column (Markdown)."""
    return _md(["word", *AXES], [[f"**{w}**", *(_fmt(v, 1) for v in vec)] for w, vec in VOCAB.items()])


def sentence_table(words: Sequence[str]) -> str:
    """A sentence as its matrix ``X``: one row per word, in order (Markdown)."""
    X = embed(words)
    return _md(["position", "word", *AXES], [[str(i + 1), f"**{w}**", *(_fmt(v, 1) for v in row)]
                                            for i, (w, row) in enumerate(zip(words, X))])


def dot_table(pairs: Sequence[tuple[str, str]]) -> str:
    """Dot products of word pairs, with the product on every axis and their sum (Markdown)."""
    rows = []
    for a, b in pairs:
        terms, total = dot_terms(a, b)
        rows.append([f"{a} · {b}", *(_fmt(t, 2) for t in terms), f"**{_fmt(total, 2)}**"])
    return _md(["pair", *(f"{ax} × {ax}" for ax in AXES), "dot product"], rows)


def wired_matrices_table() -> str:
    """``W_Q_WIRED`` and ``W_K_WIRED`` side by side: one embedding axis a row, one channel a column (Markdown)."""
    header = ["axis", *(f"W_Q {c}" for c in WIRED_CHANNELS), *(f"W_K {c}" for c in WIRED_CHANNELS)]
    rows = [[f"**{ax}**", *(_fmt(v, 1) for v in q), *(_fmt(v, 1) for v in k)]
            for ax, q, k in zip(AXES, W_Q_WIRED, W_K_WIRED)]
    return _md(header, rows)


def rows_table(M: np.ndarray, rows: Sequence[str], cols: Sequence[str], corner: str = "", nd: int = 3) -> str:
    """Any matrix with labelled rows and columns (Markdown)."""
    return _md([corner, *cols], [[f"**{r}**", *(_fmt(v, nd) for v in row)] for r, row in zip(rows, np.asarray(M))])


def bank_moves_table(simple: dict) -> str:
    """The last word before attention and its output row in both sentences, with its lean (Markdown).

    ``simple``: the experiment's Module 1 data, ``{"first": {...}, "contrast": {...}}``, each with
    ``sentence``, ``X`` ``(T, d_model)`` and ``out`` ``(T, d_model)``.
    """
    first, contrast = simple["first"], simple["contrast"]
    rows = [(f"{first['sentence'][-1]}, before attention", first["X"][-1])]
    rows += [(f'{d["sentence"][-1]} in "{" ".join(d["sentence"])}"', d["out"][-1]) for d in (first, contrast)]
    return _md(["row", *AXES, "lean (water − money)"],
               [[f"**{name}**", *(_minus(_fmt(v)) for v in x), _minus(_signed(lean(x)))] for name, x in rows])


def _text_table(M: np.ndarray, rows: Sequence[str], cols: Sequence[str], nd: int = 3) -> list[str]:
    w = max(7, nd + 4, *(len(c) + 1 for c in cols))
    lw = max(len(r) for r in rows) + 2
    out = [" " * lw + "".join(c.rjust(w) for c in cols)]
    out += [r.ljust(lw) + "".join(_fmt(v, nd).rjust(w) for v in row) for r, row in zip(rows, np.asarray(M))]
    return out


# --------------------------------------------------------------------------- results.log sections


def section_softmax_shift() -> tuple[list[str], dict, dict]:
    """Module 0: equal scores share equally, adding a constant changes nothing, and where exp overflows."""
    equal = softmax(np.zeros(3))
    small, big = softmax(np.array([2.0, 1.0, 0.0])), softmax(np.array([1000.0, 999.0, 998.0]))
    identical = bool(np.array_equal(small, big))
    largest = math.log(np.finfo(np.float64).max)  # the largest x with a finite exp(x)
    with np.errstate(over="ignore"):
        e1000 = float(np.exp(np.float64(1000.0)))
    lines = [
        f"scores [0, 0, 0] -> weights [{', '.join(_fmt(x) for x in equal)}]  (equal shares)",
        "minus its maximum, [1000, 999, 998] is [0, -1, -2]; so is [2, 1, 0]",
        f"softmax([1000, 999, 998]) == softmax([2, 1, 0]), bit for bit: {identical}",
        f"exp(1000) in float64 = {e1000}; the largest finite exp(x) is at x = {largest:.2f}",
    ]
    show = {"equal_share": _fmt(equal[0]), "identical": str(identical), "exp_1000": str(e1000),
            "largest_x": f"{largest:.2f}"}
    return lines, {"equal": equal, "identical": identical, "exp_1000": e1000, "largest_x": largest}, show


def section_simple_limits(sentence: Sequence[str]) -> tuple[list[str], dict, dict]:
    """Module 1's limits: symmetric scores, the outputs, what each word keeps, bank's lean, a longer neighbour."""
    words = tuple(sentence)
    T = len(words)
    X = embed(words)
    S = simple_scores(X)
    out, w = simple_attention(X)
    own, other = self_and_best_other(w) if T > 1 else (np.ones(1), np.zeros(1))
    D = X @ X.T  # (T, d_model) x (d_model, T) -> (T, T): unscaled; the diagonal holds squared lengths
    own_dot = np.diag(D).copy()
    other_dot = np.where(np.eye(T, dtype=bool), -np.inf, D).max(axis=1) if T > 1 else np.full(1, -np.inf)
    asym = float(np.max(np.abs(S - S.T)))
    lines = [f"largest |score[i, j] - score[j, i]| = {asym:.1f}  (the table is symmetric)",
             "output rows on the axes (weights x the same rows X):",
             *("  " + x for x in _text_table(out, words, AXES)),
             "each word: x.x (its squared length), its largest x.y with another",
             "word, its weight on itself, and the most it gives another word:",
             f"  {'':<8}{'x.x':>7}{'max x.y':>9}{'self':>8}{'max other':>11}"]
    lines += [f"  {wd:<8}{_fmt(a):>7}{_fmt(b) if np.isfinite(b) else 'none':>9}{_fmt(c):>8}"
              f"{_fmt(d) if T > 1 else 'none':>11}"
              for wd, a, b, c, d in zip(words, own_dot, other_dot, own, other)]
    data = {"scores": S, "out": out, "weights": w, "self": own, "best_other": other, "asymmetry": asym,
            "self_dot": own_dot, "best_other_dot": other_dot, "lean": {}}
    show = {"asymmetry": f"{asym:.1f}", "self_wins": str(int(np.sum(own > other))), "T": str(T),
            "self_max": _fmt(own.max()), "self_min": _fmt(own.min())}
    for i, wd in enumerate(words):
        show[f"self_{i}"], show[f"other_{i}"] = _fmt(own[i]), _fmt(other[i])
        show[f"self_dot_{i}"], show[f"other_dot_{i}"] = _fmt(own_dot[i]), _fmt(other_dot[i])
    last = words[-1]
    for name, sent in (("first", words), ("contrast", SENT_MONEY)):
        Xs = embed(sent)
        o, _ = simple_attention(Xs)
        before, after = lean(Xs[-1]), lean(o[-1])
        lines.append(f'{sent[-1]} in "{" ".join(sent)}", water - money: {_signed(before)} before, '
                     f"{_signed(after)} after")
        data["lean"][name] = (before, after)
        show[f"{name}_lean_before"], show[f"{name}_lean_after"] = _minus(_signed(before)), _minus(_signed(after))
    show["last"] = last
    ln = longer_neighbour()
    a, b = ln["word"], ln["neighbour"]
    lines += [f'a longer neighbour can win, in "{" ".join(SENT_LONGER)}":',
              f"  {a} . {a} = {_fmt(ln['self_dot'])} (its squared length), {a} . {b} = {_fmt(ln['other_dot'])}",
              f"  lengths: |{a}| = {_fmt(ln['len_self'])}, |{b}| = {_fmt(ln['len_other'])}",
              f"  {a}'s weights: on itself {_fmt(ln['self_w'])}, on {b} {_fmt(ln['other_w'])}"]
    data["longer"] = ln
    show.update({"long_sentence": " ".join(SENT_LONGER), "long_word": a, "long_neighbour": b,
                 "long_self_dot": _fmt(ln["self_dot"]), "long_other_dot": _fmt(ln["other_dot"]),
                 "long_self": _fmt(ln["self_w"]), "long_other": _fmt(ln["other_w"]),
                 "long_len_self": _fmt(ln["len_self"]), "long_len_other": _fmt(ln["len_other"])})
    return lines, data, show


def section_wired_parts(sentence: Sequence[str]) -> tuple[list[str], dict, dict]:
    """Module 2: what each word asks and advertises, the scores, and where the last word's sense goes."""
    words = tuple(sentence)
    X = embed(words)
    h = wired_head(X)
    lines = [f"Q = X W_Q (what each word asks), channels {', '.join(WIRED_CHANNELS)}:",
             *("  " + x for x in _text_table(h["Q"], words, WIRED_CHANNELS, 1)),
             "K = X W_K (what each word advertises):",
             *("  " + x for x in _text_table(h["K"], words, WIRED_CHANNELS, 1)),
             f"scores Q K^T / sqrt({h['K'].shape[1]}):",
             *("  " + x for x in _text_table(h["scores"], words, words))]
    data = {"wired": h, "lean": {}}
    show = {"top_of_first": words[int(np.argmax(h["weights"][0]))]}
    for i, wd in enumerate(words):
        show[f"q_{i}"] = "[" + ", ".join(_fmt(v, 1) for v in h["Q"][i]) + "]"
        show[f"k_{i}"] = "[" + ", ".join(_fmt(v, 1) for v in h["K"][i]) + "]"
    simple = {}
    for name, sent in (("first", words), ("contrast", SENT_MONEY)):
        Xs = embed(sent)
        hs = wired_head(Xs)
        after, plain = lean(hs["out"][-1]), lean(simple_attention(Xs)[0][-1])
        lines += [f'{sent[-1]} in "{" ".join(sent)}", water - money:',
                  f"  wired head {_signed(after)}, Module 1 {_signed(plain)}"]
        data["lean"][name] = after
        simple[name] = plain
        show[f"{name}_lean"], show[f"{name}_lean_simple"] = _minus(_signed(after)), _minus(_signed(plain))
    data["lean_simple"] = simple
    return lines, data, show
