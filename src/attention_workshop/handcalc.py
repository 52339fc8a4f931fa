"""The chapter "the cat sat": self-attention by hand, one number at a time.

Three words, two dimensions, inputs small enough to check on paper. :func:`by_hand`
walks one query through the five steps (score, scale, softmax, weighted sum, and the
causal mask) with plain Python arithmetic, keeping every intermediate number, so the
chapter can print each one. :func:`attend` is the chapter's practice function: the
package's softmax and causal mask, with a switch that removes the scaling.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .core import causal_mask, softmax

__all__ = [
    "WORDS",
    "Q_CAT",
    "K_CAT",
    "V_CAT",
    "HandCalc",
    "by_hand",
    "allowed_grid",
    "attend",
    "practice_runs",
    "num",
    "vec",
    "inputs_table",
]

#: The chapter's sentence and its fixed inputs: one row per word, d_k = d_v = 2.
WORDS: tuple[str, ...] = ("the", "cat", "sat")
Q_CAT: np.ndarray = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # (3, 2)
K_CAT: np.ndarray = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # (3, 2)
V_CAT: np.ndarray = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])  # (3, 2)
for _a in (Q_CAT, K_CAT, V_CAT):
    _a.setflags(write=False)


@dataclass(frozen=True)
class HandCalc:
    """Every intermediate number of one query's attention, in the order a person computes them.

    Attributes:
        query: the row of ``Q`` that is asking (0-based).
        q: that query, ``(d_k,)``.
        products: ``(S, d_k)``, ``q[a] * K[j, a]``: the terms of each dot product.
        raw: ``(S,)``, the dot products ``q . K[j]`` (step 1).
        sqrt_dk: the square root of ``d_k`` (step 2).
        scaled: ``(S,)``, ``raw / sqrt_dk``, ``-inf`` where blocked (steps 2 and 5).
        blocked: ``(S,)`` bool, the keys the causal mask hides from this query.
        exps: ``(S,)``, ``exp(scaled)``; exactly 0 where blocked (step 3).
        total: the sum of ``exps``.
        weights: ``(S,)``, ``exps / total`` (step 3).
        terms: ``(S, d_v)``, ``weights[j] * V[j]`` (step 4).
        out: ``(d_v,)``, the sum of ``terms`` (step 4).
    """

    query: int
    q: np.ndarray
    products: np.ndarray
    raw: np.ndarray
    sqrt_dk: float
    scaled: np.ndarray
    blocked: np.ndarray
    exps: np.ndarray
    total: float
    weights: np.ndarray
    terms: np.ndarray
    out: np.ndarray


def _matrix(name: str, a: object) -> np.ndarray:
    arr = np.asarray(a, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError(f"{name} must have one row per word, shape (T, d), got shape {arr.shape}")
    return arr


def by_hand(Q: np.ndarray, K: np.ndarray, V: np.ndarray, query: int, causal: bool = False) -> HandCalc:
    """One query's attention, step by step, in plain Python arithmetic (no matrix products).

    Args:
        Q: ``(T, d_k)`` queries.
        K: ``(S, d_k)`` keys.
        V: ``(S, d_v)`` values.
        query: which row of ``Q`` asks (0-based).
        causal: hide the keys after the query (``j > query``), as step 5 does.

    Returns:
        A :class:`HandCalc` with every intermediate number.
    """
    Q, K, V = _matrix("Q", Q), _matrix("K", K), _matrix("V", V)
    if Q.shape[1] != K.shape[1]:
        raise ValueError(f"Q and K must share their width d_k: Q has shape {Q.shape}, K has shape {K.shape}")
    if K.shape[0] != V.shape[0]:
        raise ValueError(f"K and V need one row per word: K has shape {K.shape}, V has shape {V.shape}")
    if isinstance(query, bool) or not isinstance(query, (int, np.integer)) or not 0 <= query < len(Q):
        raise ValueError(f"query must be a row of Q, 0 to {len(Q) - 1}, got {query!r}")
    S, d_k = K.shape
    q = Q[query]
    products = np.array([[q[a] * K[j, a] for a in range(d_k)] for j in range(S)])  # (S, d_k)
    raw = np.array([math.fsum(row) for row in products])  # (S,)
    sqrt_dk = math.sqrt(d_k)
    blocked = np.array([causal and j > query for j in range(S)])
    scaled = np.array([-math.inf if blocked[j] else raw[j] / sqrt_dk for j in range(S)])
    exps = np.array([0.0 if blocked[j] else math.exp(scaled[j]) for j in range(S)])
    total = math.fsum(exps)
    weights = exps / total
    terms = np.array([weights[j] * V[j] for j in range(S)])  # (S, d_v)
    out = np.array([math.fsum(terms[:, c]) for c in range(V.shape[1])])  # (d_v,)
    return HandCalc(query, q.copy(), products, raw, sqrt_dk, scaled, blocked, exps, total, weights, terms, out)


def allowed_grid(T: int) -> np.ndarray:
    """Step 5's picture: ``"X"`` where query ``i`` may look at key ``j`` (``j <= i``), ``"."`` where blocked.

    Returns:
        ``(T, T)`` array of one-character strings.
    """
    return np.where(causal_mask(T), ".", "X")


def attend(
    Q: np.ndarray, K: np.ndarray, V: np.ndarray, causal: bool = True, scaled: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """The chapter's practice function: attention with switches for the mask and the scaling.

    ``scaled=False`` leaves out the division by ``sqrt(d_k)`` (practice experiment 3).

    Args:
        Q: ``(T, d_k)``; K: ``(T, d_k)``; V: ``(T, d_v)``.

    Returns:
        ``(out, weights)``: ``out`` is ``(T, d_v)``, ``weights`` is ``(T, T)``.
    """
    Q, K, V = _matrix("Q", Q), _matrix("K", K), _matrix("V", V)
    if Q.shape[1] != K.shape[1] or len(Q) != len(K) or len(K) != len(V) or 0 in (*Q.shape, *V.shape):
        raise ValueError(f"attend needs Q (T, d_k), K (T, d_k), V (T, d_v) with T, d_k, d_v at least 1: "
                         f"got Q {Q.shape}, K {K.shape}, V {V.shape}")
    scores = Q @ K.T  # (T, d_k) x (d_k, T) -> (T, T): step 1
    if scaled:
        scores = scores / math.sqrt(K.shape[1])  # step 2
    if causal:
        scores = np.where(causal_mask(len(Q)), -np.inf, scores)  # step 5
    weights = softmax(scores)  # step 3
    return weights @ V, weights  # (T, T) x (T, d_v) -> (T, d_v): step 4


def practice_runs(rng: np.random.Generator) -> dict[str, dict[str, np.ndarray]]:
    """The chapter's starting run and its four practice experiments, each as ``{"Q", "V", "out", "weights"}``.

    - ``base``: the inputs as given, causal.
    - ``no_mask``: experiment 1, ``causal=False``.
    - ``strong_q3``: experiment 2, the third query set to ``[5, 0]``.
    - ``unscaled_x10``: experiment 3, ``Q * 10`` and no division by ``sqrt(d_k)``;
      ``scaled_x10`` is the same ``Q * 10`` with the division kept, for comparison.
    - ``random_v4``: experiment 4, ``V`` drawn from ``rng``, four numbers per word.
    """
    q3 = Q_CAT.copy()
    q3[2] = [5.0, 0.0]
    v4 = rng.standard_normal((len(WORDS), 4))  # (3, 4)
    cases = {
        "base": (Q_CAT, V_CAT, True, True),
        "no_mask": (Q_CAT, V_CAT, False, True),
        "strong_q3": (q3, V_CAT, True, True),
        "unscaled_x10": (Q_CAT * 10, V_CAT, True, False),
        "scaled_x10": (Q_CAT * 10, V_CAT, True, True),
        "random_v4": (Q_CAT, v4, True, True),
    }
    runs = {}
    for name, (Q, V, causal, scaled) in cases.items():
        out, w = attend(Q, K_CAT, V, causal=causal, scaled=scaled)
        runs[name] = {"Q": np.array(Q), "V": np.array(V), "out": out, "weights": w}
    return runs


# --------------------------------------------------------------------------- how numbers are written


def num(x: float, nd: int = 3) -> str:
    """A number as the chapter writes it: whole numbers bare, others to ``nd`` decimals, -inf spelled out."""
    x = float(x)
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    if x == round(x) and abs(x) < 1e15:
        return str(int(round(x)))
    s = f"{x:.{nd}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def vec(v: np.ndarray, nd: int = 3, fixed: bool = False) -> str:
    """A vector as ``[a, b, c]``: inputs as given (``0.5``), ``fixed`` writes every entry with ``nd`` decimals."""
    if fixed:
        return "[" + ", ".join(_fixed(x, nd) for x in v) + "]"
    return "[" + ", ".join(num(x, nd) if math.isinf(x) or len(f"{float(x):g}") > nd + 2 else f"{float(x):g}" for x in v) + "]"


def _fixed(x: float, nd: int) -> str:
    x = float(x)
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    s = f"{x:.{nd}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def inputs_table() -> str:
    """The chapter's inputs, one word a row: its query, key and value (Markdown)."""
    lines = ["| word | query $q$ | key $k$ | value $v$ |", "|:--|:-:|:-:|:-:|"]
    lines += [f"| **{w}** | {vec(q)} | {vec(k)} | {vec(v)} |" for w, q, k, v in zip(WORDS, Q_CAT, K_CAT, V_CAT)]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- the chapter's log sections
# Each returns (lines, data, show): the lines for results.log, the raw numbers, and strings for pages.

SAT, CAT = 2, 1  # the rows the chapter computes by hand: "sat" in full, "cat" under the mask


def _calc_sat() -> HandCalc:
    return by_hand(Q_CAT, K_CAT, V_CAT, SAT)


def _calc_cat() -> HandCalc:
    return by_hand(Q_CAT, K_CAT, V_CAT, CAT, causal=True)


def _dot_line(c: HandCalc, j: int) -> str:
    q, k = c.q, K_CAT[j]
    terms = " + ".join(f"({num(a)} x {num(b)})" for a, b in zip(q, k))
    return f"q{c.query + 1} . k{j + 1} = {terms} = {num(c.raw[j])}"


def _rounding_note(values: np.ndarray, exact_total: float, what: str) -> list[str]:
    """A line saying so when values rounded to 3 decimals do not add up to the rounded total."""
    shown = math.fsum(round(float(v), 3) for v in values)
    if f"{shown:.3f}" == f"{exact_total:.3f}":
        return []
    return [f"note: rounded to 3 decimals, these {what} add to {shown:.3f};",
            f"      unrounded, they sum to {exact_total:.6f}",
            "      (the gap is rounding, no share is lost)"]


def section_score() -> tuple[list[str], dict, dict]:
    c = _calc_sat()
    keys = ", ".join(f'k{j + 1} = {vec(k)} ("{w}")' for j, (k, w) in enumerate(zip(K_CAT, WORDS)))
    lines = [f'"{WORDS[SAT]}" asks with q{SAT + 1} = {vec(c.q)}', f"keys: {keys}"]
    for j in range(len(WORDS)):
        lines.append(f'{_dot_line(c, j)}    fit of "{WORDS[j]}"')
    lines.append(f"raw scores: {vec(c.raw)}")
    return lines, {"calc": c}, {"raw": vec(c.raw), "q": vec(c.q)}


def section_scale() -> tuple[list[str], dict, dict]:
    c = _calc_sat()
    d_k = len(c.q)
    parts = ", ".join(f"{num(s)} / {num(c.sqrt_dk)}" for s in c.raw)
    lines = [f"d_k = {d_k}, so sqrt(d_k) = {num(c.sqrt_dk)}",
             f"scaled scores: [{parts}]", f"             = {vec(c.scaled, fixed=True)}"]
    return lines, {"calc": c}, {"sqrt_dk": num(c.sqrt_dk), "scaled": vec(c.scaled, fixed=True), "d_k": str(d_k)}


def section_softmax() -> tuple[list[str], dict, dict]:
    c = _calc_sat()
    lines = [f"exp({num(s)}) = {num(e)}    (\"{w}\")" for s, e, w in zip(c.scaled, c.exps, WORDS)]
    lines.append(f"sum = {num(c.total)}")
    parts = ", ".join(f"{num(e)} / {num(c.total)}" for e in c.exps)
    lines += [f"weights = [{parts}]", f"        = {vec(c.weights, fixed=True)}"]
    note = _rounding_note(c.weights, math.fsum(c.weights), "weights")
    lines += note
    shown_sum = math.fsum(round(float(w), 3) for w in c.weights)
    show = {"exps": vec(c.exps, fixed=True), "total": num(c.total), "weights": vec(c.weights, fixed=True),
            "shown_sum": f"{shown_sum:.3f}", "exact_sum": f"{math.fsum(c.weights):.6f}",
            "pct_self": f"{100 * c.weights[SAT]:.0f}", "pct_other": f"{100 * c.weights[0]:.0f}"}
    for j, w in enumerate(WORDS):
        show[f"exp_{w}"] = num(c.exps[j])
        show[f"w_{w}"] = num(c.weights[j])
    return lines, {"calc": c, "rounded_sum": shown_sum, "rounding_note": bool(note)}, show


def _sum_lines(c: HandCalc, who: str) -> list[str]:
    terms = " + ".join(f"{num(w)} x v{j + 1}" for j, w in enumerate(c.weights))
    lines = [f'output for "{who}" = {terms}']
    width = max(len(f"{num(w)} x {vec(v)}") for w, v in zip(c.weights, V_CAT))
    for w, v, t in zip(c.weights, V_CAT, c.terms):
        lines.append(f"  {f'{num(w)} x {vec(v)}':<{width}} = {vec(t, fixed=True)}")
    lines.append(f"  {'sum':<{width}} = {vec(c.out, fixed=True)}")
    return lines


def section_weighted_sum() -> tuple[list[str], dict, dict]:
    c = _calc_sat()
    lines = _sum_lines(c, WORDS[SAT])
    # Where a term's third decimal comes from the unrounded weight, say so.
    for w, v, t in zip(c.weights, V_CAT, c.terms):
        for x, y in zip(v, t):
            if x and f"{round(float(w), 3) * x:.3f}" != f"{y:.3f}":
                lines.append(f"(each term uses the unrounded weight: {w:.5f} x {num(x)} = {y:.5f}, "
                             f"shown as {y:.3f})")
                break
        else:
            continue
        break
    show = {"out": vec(c.out, fixed=True), "terms": "; ".join(vec(t, fixed=True) for t in c.terms)}
    return lines, {"calc": c}, show


def section_causal() -> tuple[list[str], dict, dict]:
    grid = allowed_grid(len(WORDS))
    lines = ["allowed (X) and blocked (.): row = query, column = key"]
    lines.append(" " * 8 + "".join(f"{w:>5}" for w in WORDS))
    for w, row in zip(WORDS, grid):
        lines.append(f"{w:<8}" + "".join(f"{x:>5}" for x in row))
    c = _calc_cat()
    lines.append(f'"{WORDS[CAT]}" again, under the mask (q{CAT + 1} = {vec(c.q)}):')
    dots = [f"q{CAT + 1} . k{j + 1} = {'blocked' if c.blocked[j] else num(c.raw[j])}" for j in range(len(WORDS))]
    lines.append(", ".join(dots))
    parts = ", ".join("-inf" if b else f"{num(r)} / {num(c.sqrt_dk)}" for r, b in zip(c.raw, c.blocked))
    lines.append(f"scaled: [{parts}] = {vec(c.scaled)}")
    lines.append(", ".join(f"exp({num(s)}) = {_fixed(e, 3)}" for s, e in zip(c.scaled, c.exps))
                 + f"; sum = {num(c.total)}")
    lines.append(f"weights = {vec(c.weights, fixed=True)}")
    lines += _sum_lines(c, WORDS[CAT])
    sat = by_hand(Q_CAT, K_CAT, V_CAT, SAT, causal=True)
    stands = bool(np.array_equal(sat.weights, _calc_sat().weights))
    lines.append(f'"{WORDS[SAT]}" under the mask blocks nothing: weights {vec(sat.weights, fixed=True)}')
    lines.append(f"(the same as step 3: {stands})")
    T = len(WORDS)
    show = {"weights": vec(c.weights, fixed=True), "out": vec(c.out, fixed=True), "total": num(c.total),
            "blocked": str(int(causal_mask(T).sum())), "allowed": str(int((~causal_mask(T)).sum())),
            "pct_the": f"{100 * c.weights[0]:.0f}", "pct_self": f"{100 * c.weights[CAT]:.0f}"}
    return lines, {"calc": c, "grid": grid, "sat": sat, "sat_stands": stands}, show


def _rows(w: np.ndarray) -> list[str]:
    lines = [" " * 8 + "".join(f"{x:>7}" for x in WORDS)]
    lines += [f"{word:<8}" + "".join(f"{_fixed(v, 3):>7}" for v in row) for word, row in zip(WORDS, w)]
    return lines


def section_practice(rng: np.random.Generator) -> tuple[list[str], dict, dict]:
    runs = practice_runs(rng)
    base, nm, sq, ux, sx, rv = (runs[k] for k in ("base", "no_mask", "strong_q3", "unscaled_x10", "scaled_x10", "random_v4"))
    lines = ["the starting run (causal): weights, row = who is looking", *("  " + x for x in _rows(base["weights"]))]
    lines += ["1. causal=False: weights", *("  " + x for x in _rows(nm["weights"]))]
    lines.append(f'   "{WORDS[0]}" now sees {vec(nm["weights"][0], fixed=True)} (it was {vec(base["weights"][0], fixed=True)})')
    lines.append(f'2. q3 = {vec(sq["Q"][SAT])}: "{WORDS[SAT]}" row {vec(sq["weights"][SAT], fixed=True)}')
    lines.append(f'   (it was {vec(base["weights"][SAT], fixed=True)})')
    lines += ["3. Q x 10, no division by sqrt(d_k): weights", *("  " + x for x in _rows(ux["weights"]))]
    top = ux["weights"].max(axis=1)
    lines.append(f"   largest weight in each row: {', '.join(f'{x:.5f}' for x in top)}")
    lines.append(f"   the same Q x 10 with the division kept: {', '.join(f'{x:.5f}' for x in sx['weights'].max(axis=1))}")
    same = bool(np.array_equal(rv["weights"], base["weights"]))
    lines.append(f"4. V random (seed-drawn), {rv['V'].shape[1]} numbers per word:")
    lines.append(f"   V {rv['V'].shape}, weights {rv['weights'].shape}, out {rv['out'].shape}")
    lines.append(f"   the weights are the same as with the first V: {same}")
    show = {
        "the_sees": vec(nm["weights"][0], fixed=True), "the_sees_future": _fixed(nm["weights"][0, 2], 3),
        "sat_strong": vec(sq["weights"][SAT], fixed=True), "cat_share_strong": _fixed(sq["weights"][SAT, 1], 3),
        "top_min_unscaled": f"{top.min():.5f}", "top_min_scaled_x10": f"{sx['weights'].max(axis=1).min():.5f}",
        "sat_unscaled": f"{top[SAT]:.5f}", "sat_scaled_x10": f"{sx['weights'][SAT].max():.5f}",
        "out_shape": str(rv["out"].shape), "v_shape": str(rv["V"].shape), "w_shape": str(rv["weights"].shape),
        "weights_same": str(same),
    }
    return lines, {"runs": runs, "weights_same": same}, show
