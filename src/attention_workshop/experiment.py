"""The workshop's experiment: every section, in teaching order, written to results.log.

Run it alone with ``python -m attention_workshop.experiment [--out DIR] [--sentence "..."]``
(or the ``attention-workshop-experiment`` command). It is deterministic: seed 0,
no clocks, no randomness that is not seeded, so the same environment writes the
same bytes.

Each section is one function that appends lines to the log and returns the raw
numbers it printed (``data``) together with ready-formatted strings for pages
(``show``). The site quotes the log by section key, never by hand-typed line numbers.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

# PyTorch picks CPU kernels by processor (AVX-512, AVX2, ...), and their rounding differs in the
# last bit. The cross-checks print differences of that size, so the experiment asks for the portable
# kernels: the same log on every x86 processor. (Read when torch is first imported; make, the build
# hook and the tests set it too. An explicit setting wins, and is stamped in the log.)
os.environ.setdefault("ATEN_CPU_CAPABILITY", "default")

from . import figures, handcalc, lessons  # noqa: E402
from .core import attention, causal_mask, scaled_dot_product_attention, simple_attention, softmax, multi_head_attention
from .gpt2 import GPT2, attention_params, attention_params_with_bias, head_params, total_params
from .toy import AXES, SENT_MONEY, SENT_RIVER, W_K_WIRED, W_Q_WIRED, embed, parse_sentence

__all__ = ["Section", "Results", "run", "write", "main", "SEED", "versions", "compare_with_torch", "torch_gpt2_attention", "softmax_naive"]

SEED = 0


@dataclass(frozen=True)
class Section:
    """Where a section stands in results.log: lines ``start`` to ``end`` (1-based, inclusive)."""

    key: str
    label: str
    title: str
    start: int
    end: int


@dataclass
class Results:
    """Everything one run produced: the log's lines, where each section stands, and its numbers."""

    sentence: tuple[str, ...]
    lines: list[str] = field(default_factory=list)
    sections: dict[str, Section] = field(default_factory=dict)
    data: dict[str, dict] = field(default_factory=dict)
    show: dict[str, dict[str, str]] = field(default_factory=dict)
    figures: dict[str, str] = field(default_factory=dict)  # file name -> SVG text
    tables: dict[str, str] = field(default_factory=dict)  # file name -> CSV text

    @property
    def text(self) -> str:
        """The whole results.log, as written to disk."""
        return "\n".join(self.lines) + "\n"

    def section(self, key: str) -> Section:
        """The section with this key; a ``KeyError`` names the keys there are."""
        try:
            return self.sections[key]
        except KeyError:
            raise KeyError(f"no section {key!r} in results.log; sections: {', '.join(self.sections)}") from None

    def excerpt(self, key: str) -> list[str]:
        """The lines of one section, exactly as they stand in results.log."""
        s = self.section(key)
        return self.lines[s.start - 1 : s.end]


# --------------------------------------------------------------------------- helpers


def _f(x: float, nd: int = 3) -> str:
    """Fixed decimals, and never "-0.000"."""
    s = f"{float(x):.{nd}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def _e(x: float) -> str:
    """Scientific notation with 3 significant digits, as 2.22e-16."""
    return f"{float(x):.2e}"


def _sci(x: float) -> str:
    """Scientific notation for prose: 2.22 × 10<sup>−16</sup> (the log keeps 2.22e-16)."""
    mantissa, exponent = f"{float(x):.2e}".split("e")
    return f"{mantissa} × 10<sup>{int(exponent)}</sup>".replace("<sup>-", "<sup>\u2212")


def _int(n: int) -> str:
    return f"{int(n):,}"


def _table(rows: Sequence[str], cols: Sequence[str], M: np.ndarray, nd: int = 3, corner: str = "") -> list[str]:
    w = max(7, nd + 4, *(len(c) + 1 for c in cols))
    lw = max(len(corner), *(len(r) for r in rows)) + 2
    out = [corner.ljust(lw) + "".join(c.rjust(w) for c in cols)]
    for r, vals in zip(rows, M):
        out.append(r.ljust(lw) + "".join(_f(v, nd).rjust(w) for v in vals))
    return out


def _oneline(v: np.ndarray, nd: int = 3) -> str:
    return "[" + ", ".join(_f(x, nd) for x in v) + "]"


def versions() -> dict[str, str]:
    """The versions this run depends on, as stamped at the top of results.log."""
    import matplotlib
    import torch

    os_name = f"{platform.system()} {platform.machine()}"
    try:
        for line in Path("/etc/os-release").read_text(encoding="utf-8").splitlines():
            if line.startswith("PRETTY_NAME="):
                os_name += f" ({line.split('=', 1)[1].strip(chr(34))})"
    except OSError:
        pass
    return {
        "os": os_name,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "torch": f"{torch.__version__} (CPU kernels: {torch.backends.cpu.get_cpu_capability().lower()})",
        "matplotlib": matplotlib.__version__,
    }


class _Log:
    def __init__(self, results: Results) -> None:
        self.r = results
        self.n = 0

    def raw(self, line: str) -> None:
        self.r.lines.append(line)

    def __call__(self, *lines: str) -> None:
        for line in lines:
            self.r.lines.append(("  " + line).rstrip())

    def section(self, key: str, title: str, fn: Callable[["_Log", Results], tuple[dict, dict]]) -> None:
        self.n += 1
        label = f"S{self.n}"
        start = len(self.r.lines) + 1
        self.raw(f"[{label}] {title}")
        data, show = fn(self, self.r)
        self.r.sections[key] = Section(key, label, title, start, len(self.r.lines))
        self.r.data[key] = data
        self.r.show[key] = {"label": label, **show}


# --------------------------------------------------------------------------- Module 0


def _vocabulary(log: _Log, r: Results):
    pairs = [("river", "bank"), ("savings", "bank"), ("river", "savings"), ("water", "fish"), ("the", "bank")]
    dots = {f"{a}.{b}": float(embed([a])[0] @ embed([b])[0]) for a, b in pairs}
    log("dot products (how much two words point the same way):")
    for a, b in pairs:
        log(f"  {a:>8} . {b:<8} = {_f(dots[f'{a}.{b}'], 2)}")
    show = {f"dot_{a}_{b}": _f(dots[f"{a}.{b}"], 2) for a, b in pairs}
    return {"pairs": pairs, "dots": dots}, show


def softmax_naive(x: np.ndarray) -> np.ndarray:
    """Softmax straight from the formula, without subtracting the maximum (overflows)."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(np.asarray(x, dtype=np.float64))
        return e / e.sum()


def _softmax(log: _Log, r: Results):
    small = np.array([2.0, 1.0, 0.0])
    w_small = softmax(small)
    zero = np.array([2.0, 0.0, 0.0])
    w_zero = softmax(zero)
    silenced = np.array([2.0, 0.0, -np.inf])
    w_sil = softmax(silenced)
    big = np.array([1000.0, 999.0, 998.0])
    naive_big = softmax_naive(big)
    w_big = softmax(big)
    same_small = float(np.max(np.abs(softmax_naive(small) - w_small)))
    log(f"scores [2, 1, 0]    -> {_oneline(w_small)}  sum {_f(w_small.sum(), 6)}")
    log(f"scores [2, 0, 0]    -> {_oneline(w_zero)}  a 0 still gets a share")
    log(f"scores [2, 0, -inf] -> {_oneline(w_sil)}  -inf gets exactly 0")
    log(f"naive vs max-subtracted on [2, 1, 0]: max |difference| = {_e(same_small)}")
    log(f"[1000, 999, 998], naive formula  -> {_oneline(naive_big)}  exp overflows")
    log(f"[1000, 999, 998], max subtracted -> {_oneline(w_big)}")
    data = {"w_small": w_small, "w_zero": w_zero, "w_silenced": w_sil, "naive_big": naive_big,
            "w_big": w_big, "naive_vs_stable_small": same_small}
    show = {"w_small": _oneline(w_small), "zero_share": _f(w_zero[1]), "w_big": _oneline(w_big),
            "naive_vs_stable_small": _e(same_small), "exp_1000": "inf"}
    return data, show


# --------------------------------------------------------------------------- Module 1


def _simple(log: _Log, r: Results):
    data, show = {}, {}
    for name, sent in (("first", r.sentence), ("contrast", SENT_MONEY)):
        X = embed(sent)
        out, w = simple_attention(X)
        S = lessons.simple_scores(X)  # (T, T), before softmax
        log(f'simple attention on "{" ".join(sent)}" (row = who is looking)')
        log(f"  scores X X^T / sqrt({X.shape[1]}), before softmax:")
        log(*("    " + line for line in _table(sent, sent, S)))
        log("  weights, softmax of each row:")
        log(*("    " + line for line in _table(sent, sent, w)))
        last = sent[-1]
        log(f"  {last}'s output ({', '.join(AXES)}):", f"    {_oneline(out[-1])}")
        data[name] = {"sentence": sent, "weights": w, "out": out, "X": X, "scores": S}
        show[f"{name}_last_out"] = _oneline(out[-1])
        for a, ax in enumerate(AXES):
            show[f"{name}_last_{ax}"] = _f(out[-1, a])
            show[f"{name}_last_{ax}_before"] = _f(X[-1, a])
        show[f"{name}_self_min"] = _f(np.min(np.diag(w)))
    return data, show


# --------------------------------------------------------------------------- Module 2


def _wired(log: _Log, r: Results):
    X = embed(r.sentence)
    Q = X @ W_Q_WIRED  # (T, 4) x (4, 2) -> (T, 2)
    K = X @ W_K_WIRED  # (T, 4) x (4, 2) -> (T, 2)
    scores = Q @ K.T / np.sqrt(W_K_WIRED.shape[1])  # (T, 2) x (2, T) -> (T, T)
    w = softmax(scores)
    log(f'hand-wired head on "{" ".join(r.sentence)}" (no mask):')
    log(*("  " + line for line in _table(r.sentence, r.sentence, w)))
    log("  row sums: " + ", ".join(_f(s, 6) for s in w.sum(axis=1)))
    r.figures["wired-weights.svg"] = figures.heatmap_svg(
        w, r.sentence, r.sentence, f'Wired head, "{" ".join(r.sentence)}", no mask')
    r.tables["wired-weights.csv"] = figures.table_csv(["query", *r.sentence], [[q, *row] for q, row in zip(r.sentence, w)])
    show = {f"w_{i}_{j}": _f(w[i, j]) for i in range(len(w)) for j in range(len(w))}
    return {"X": X, "scores": scores, "weights": w}, show


DK_VALUES: tuple[int, ...] = (4, 16, 64, 256, 1024)
DK_KEYS = 8  # keys per query in the saturation test
DK_TRIALS = 400


def _sqrt_dk(log: _Log, r: Results):
    rng = np.random.default_rng(SEED)
    rows = []
    for d in DK_VALUES:
        q = rng.standard_normal((DK_TRIALS, d))
        k = rng.standard_normal((DK_TRIALS, DK_KEYS, d))
        raw = np.einsum("nd,nkd->nk", q, k)  # (N, d) . (N, keys, d) -> (N, keys)
        scaled = raw / np.sqrt(d)
        rows.append((d, raw.var(), scaled.var(), softmax(raw).max(axis=1).mean(), softmax(scaled).max(axis=1).mean()))
    log(f"random queries and keys, standard normal (seed {SEED}):",
        f"{DK_TRIALS} queries x {DK_KEYS} keys each, for every d_k")
    log(f"  {'':>5}   {'variance of q.k':^21}   {'mean largest weight':^21}",
        f"  {'d_k':>5}   {'raw':>9} {'/ sqrt(d_k)':>11}   {'raw':>9} {'/ sqrt(d_k)':>11}")
    for d, vr, vs, mr, ms in rows:
        log(f"  {d:>5}   {_f(vr, 1):>9} {_f(vs, 3):>11}   {_f(mr, 3):>9} {_f(ms, 3):>11}")
    arr = np.array(rows)
    r.figures["sqrt-dk.svg"] = figures.lines_svg(
        DK_VALUES, {"without scaling": arr[:, 3], "divided by sqrt(d_k)": arr[:, 4]},
        f"Largest softmax weight among {DK_KEYS} keys, averaged", "d_k (log scale)", "mean largest weight")
    r.tables["sqrt-dk.csv"] = figures.table_csv(
        ["d_k", "var_raw", "var_scaled", "max_weight_raw", "max_weight_scaled"], [list(x) for x in rows])
    check = DK_VALUES[-2]  # the size the self-check asks about
    show = {"seed": str(SEED), "trials": str(DK_TRIALS), "keys": str(DK_KEYS), "n_sizes": str(len(DK_VALUES)),
            "dk_first": str(DK_VALUES[0]), "dk_last": str(DK_VALUES[-1]), "dk_check": str(check),
            "sqrt_check": f"{np.sqrt(check):g}",
            "var_raw_last": _f(arr[-1, 1], 1), "var_scaled_last": _f(arr[-1, 2]),
            "max_raw_first": _f(arr[0, 3]), "max_raw_last": _f(arr[-1, 3]), "max_scaled_last": _f(arr[-1, 4]),
            "var_raw_check": _f(arr[-2, 1], 1), "var_scaled_check": _f(arr[-2, 2]),
            "var_ratio_min": _f(np.min(arr[:, 1] / arr[:, 0])), "var_ratio_max": _f(np.max(arr[:, 1] / arr[:, 0]))}
    for d, vr, vs, mr, ms in rows:
        show.update({f"var_raw_{d}": _f(vr, 1), f"var_scaled_{d}": _f(vs), f"max_raw_{d}": _f(mr), f"max_scaled_{d}": _f(ms)})
    return {"dk": np.array(DK_VALUES), "var_raw": arr[:, 1], "var_scaled": arr[:, 2],
            "max_raw": arr[:, 3], "max_scaled": arr[:, 4], "keys": DK_KEYS, "trials": DK_TRIALS}, show


# --------------------------------------------------------------------------- Module 3


def compare_with_torch(
    X: np.ndarray, W_q: np.ndarray, W_k: np.ndarray, W_v: np.ndarray, causal: bool
) -> float:
    """Largest |difference| between our head and PyTorch's fused attention.

    PyTorch's function takes Q, K, V already projected, so both sides start from the
    same projections and the comparison tests the attention core itself.
    """
    import torch
    import torch.nn.functional as F

    ours, _ = attention(X, W_q, W_k, W_v, causal=causal)
    tQ = torch.from_numpy(X @ W_q)  # (T, d_k), float64
    tK = torch.from_numpy(X @ W_k)  # (T, d_k)
    tV = torch.from_numpy(X @ W_v)  # (T, d_v)
    theirs = F.scaled_dot_product_attention(tQ, tK, tV, is_causal=causal).numpy()
    return float(np.max(np.abs(ours - theirs)))


def _general_head(log: _Log, r: Results):
    # A general head: random learned-looking projections, d_model 4 -> 3.
    rng = np.random.default_rng(SEED)
    X = embed(r.sentence)
    d_model, d_k = X.shape[1], 3
    W_q = rng.standard_normal((d_model, d_k))
    W_k = rng.standard_normal((d_model, d_k))
    W_v = rng.standard_normal((d_model, d_k))
    diffs = {causal: compare_with_torch(X, W_q, W_k, W_v, causal) for causal in (False, True)}
    eps = float(np.finfo(np.float64).eps)
    log(f"random W_q, W_k, W_v (seed {SEED}), d_model {d_model} -> d_k {d_k}, float64")
    log("ours vs torch.nn.functional.scaled_dot_product_attention:")
    log(f"  max |difference| = {_e(diffs[False])}")
    log("same comparison with the causal mask on both sides:")
    log(f"  max |difference| = {_e(diffs[True])}")
    log(f"machine epsilon 2^-52 = {_e(eps)}; largest difference = {_f(max(diffs.values()) / eps, 2)} x epsilon")
    from .claims import EPS_UNITS

    show = {"diff": _e(diffs[False]), "diff_causal": _e(diffs[True]), "eps": _e(eps), "seed": str(SEED),
            "diff_sci": _sci(diffs[False]), "diff_causal_sci": _sci(diffs[True]), "eps_sci": _sci(eps),
            "eps_units": str(EPS_UNITS),
            "ulps": _f(max(diffs.values()) / eps, 2), "d_k": str(d_k)}
    return {"diff": diffs[False], "diff_causal": diffs[True], "eps": eps, "W_q": W_q, "W_k": W_k, "W_v": W_v}, show


def _causal(log: _Log, r: Results):
    X = embed(r.sentence)
    Q, K = X @ W_Q_WIRED, X @ W_K_WIRED  # (T, 2) each
    scores = Q @ K.T / np.sqrt(W_K_WIRED.shape[1])  # (T, T)
    future = causal_mask(len(r.sentence))
    w = softmax(np.where(future, -np.inf, scores))
    unmasked = r.data["wired_head"]["weights"]
    log("wired head with a causal mask (upper right forced to 0):")
    log(*("  " + line for line in _table(r.sentence, r.sentence, w)))
    log("every row still sums to 1: " + ", ".join(_f(s, 6) for s in w.sum(axis=1)))
    r.figures["wired-weights-causal.svg"] = figures.heatmap_svg(
        w, r.sentence, r.sentence, f'Wired head, "{" ".join(r.sentence)}", causal mask', masked=future)
    r.tables["wired-weights-causal.csv"] = figures.table_csv(
        ["query", *r.sentence], [[q, *row] for q, row in zip(r.sentence, w)])
    T = len(r.sentence)
    show = {f"w_{i}_{j}": _f(w[i, j]) for i in range(T) for j in range(T)}
    show["last_row"] = _oneline(w[-1])
    show["last_row_unmasked"] = _oneline(unmasked[-1])
    return {"weights": w, "unmasked": unmasked, "future": future}, show


def _order(log: _Log, r: Results):
    sent = r.sentence
    rev = tuple(reversed(sent))
    out_fwd, _ = simple_attention(embed(sent))
    out_rev, _ = simple_attention(embed(rev))
    diff = float(np.max(np.abs(out_fwd - out_rev[::-1])))
    same = bool(np.allclose(out_fwd[-1], out_rev[0], rtol=0, atol=1e-12))
    last = sent[-1]
    log(f'order-blindness: {last}\'s output in "{" ".join(sent)}" equals its')
    log(f'output in "{" ".join(rev)}" to within 1e-12 -> {same}',
        f"(largest difference over all rows: {_e(diff)})")
    return {"same": same, "diff": diff, "out_fwd": out_fwd, "out_rev": out_rev}, {"same": str(same), "diff": _e(diff), "reversed": " ".join(rev)}


def _price(log: _Log, r: Results):
    cfg = GPT2
    per_head, attn, attn_b, total = head_params(cfg), attention_params(cfg), attention_params_with_bias(cfg), total_params(cfg)
    share = attn / total
    log(f"one GPT-2 sized head: d_model = {cfg.n_embd}, d_k = {cfg.head_size}")
    log(f"  -> W_q + W_k + W_v = {_int(per_head)} numbers")
    log(f"{cfg.n_head} heads x {cfg.n_layer} layers (+ output projections)",
        f"  -> {_int(attn)} attention parameters")
    log(f"with biases: {_int(attn_b)}; GPT-2 in all: {_int(total)}",
        f"attention's share: {_f(100 * share, 1)}%")
    show = {"per_head": _int(per_head), "attention": _int(attn), "attention_millions": _f(attn / 1e6, 1),
            "with_bias": _int(attn_b), "total": _int(total), "total_millions": str(round(total / 1e6)),
            "share_pct": _f(100 * share, 1), "toy_wired": str(W_Q_WIRED.size + W_K_WIRED.size)}
    return {"per_head": per_head, "attention": attn, "with_bias": attn_b, "total": total, "share": share}, show


def torch_gpt2_attention(x, c_attn_weight, c_attn_bias, c_proj_weight, c_proj_bias,
                         n_head):
    """GPT-2's causal self-attention in PyTorch, written the way nanoGPT writes it.

    x: (B, T, C) float64 tensor; weights in GPT-2's (in, out) layout.
    Returns y: (B, T, C).
    """
    import math

    import torch

    B, T, C = x.size()
    qkv = x @ c_attn_weight + c_attn_bias  # c_attn: (B, T, C) -> (B, T, 3C)
    q, k, v = qkv.split(C, dim=2)  # 3 x (B, T, C)
    q = q.view(B, T, n_head, C // n_head).transpose(1, 2)  # (B, nh, T, hs)
    k = k.view(B, T, n_head, C // n_head).transpose(1, 2)  # (B, nh, T, hs)
    v = v.view(B, T, n_head, C // n_head).transpose(1, 2)  # (B, nh, T, hs)
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))  # (B, nh, T, T)
    bias = torch.tril(torch.ones(T, T, dtype=torch.bool))
    att = att.masked_fill(~bias, float("-inf"))
    att = torch.softmax(att, dim=-1)
    y = att @ v  # (B, nh, T, T) x (B, nh, T, hs) -> (B, nh, T, hs)
    y = y.transpose(1, 2).contiguous().view(B, T, C)  # (B, T, C)
    return y @ c_proj_weight + c_proj_bias  # c_proj


def _multi_head(log: _Log, r: Results):
    import torch

    rng = np.random.default_rng(SEED)
    B, T, C, nh = 2, 5, 8, 2
    x = rng.standard_normal((B, T, C))
    w_attn, b_attn = rng.standard_normal((C, 3 * C)) / np.sqrt(C), rng.standard_normal(3 * C) * 0.1
    w_proj, b_proj = rng.standard_normal((C, C)) / np.sqrt(C), rng.standard_normal(C) * 0.1
    ours, _ = multi_head_attention(x, w_attn, b_attn, w_proj, b_proj, n_head=nh)
    with torch.no_grad():
        theirs = torch_gpt2_attention(*(torch.from_numpy(a) for a in (x, w_attn, b_attn, w_proj, b_proj)), nh).numpy()
    diff = float(np.max(np.abs(ours - theirs)))
    log("multi_head_attention vs GPT-2's causal self-attention, re-implemented")
    log("in PyTorch (c_attn, split, view/transpose into heads, masked softmax,")
    log("c_proj), float64; B = {B}, T = {T}, C = {C}, n_head = {nh}:".format(B=B, T=T, C=C, nh=nh))
    log(f"  max |difference| = {_e(diff)}")
    return {"diff": diff, "B": B, "T": T, "C": C, "n_head": nh,
            "inputs": (x, w_attn, b_attn, w_proj, b_proj)}, {"diff": _e(diff), "shape": f"({B}, {T}, {C})", "n_head": str(nh)}


# --------------------------------------------------------------------------- Modules 0-2 details, and the chapter "the cat sat"


def _lines(make: Callable[[Results], tuple[list[str], dict, dict]]) -> Callable[[_Log, Results], tuple[dict, dict]]:
    """A section whose lines and numbers come from another module (lessons, handcalc)."""

    def section(log: _Log, r: Results) -> tuple[dict, dict]:
        lines, data, show = make(r)
        log(*lines)
        return data, show

    return section


#: The sections in teaching order: (key, title, function). Labels S1, S2, ... follow this order.
SECTIONS: tuple[tuple[str, str, Callable], ...] = (
    ("vocabulary", "Module 0: words as vectors, and the dot product", _vocabulary),
    ("softmax", "Module 0: softmax, and why the maximum is subtracted first", _softmax),
    ("softmax_shift", "Module 0: equal shares, the shift, and where exp overflows",
     _lines(lambda r: lessons.section_softmax_shift())),
    ("simple", "Module 1: attention with nothing learned", _simple),
    ("simple_limits", "Module 1: the outputs, and the limits", _lines(lambda r: lessons.section_simple_limits(r.sentence))),
    ("wired_parts", "Module 2: what the wired head asks and advertises", _lines(lambda r: lessons.section_wired_parts(r.sentence))),
    ("wired_head", "Module 2: the hand-wired head's weights", _wired),
    ("sqrt_dk", "Module 2: why divide by sqrt(d_k)", _sqrt_dk),
    ("general_head", "Module 3: the general head, checked against PyTorch", _general_head),
    ("causal", "Module 3: the causal mask on the wired head", _causal),
    ("order", "Module 3: what attention alone cannot see", _order),
    ("price", "Module 3: the price tag at GPT-2 size", _price),
    ("multi_head", "Module 3: multi-head attention (GPT-2 layout) vs PyTorch", _multi_head),
    ("step_score", 'Step by step, "the cat sat", 1: score', _lines(lambda r: handcalc.section_score())),
    ("step_scale", 'Step by step, "the cat sat", 2: scale', _lines(lambda r: handcalc.section_scale())),
    ("step_softmax", 'Step by step, "the cat sat", 3: softmax', _lines(lambda r: handcalc.section_softmax())),
    ("step_sum", 'Step by step, "the cat sat", 4: weighted sum', _lines(lambda r: handcalc.section_weighted_sum())),
    ("step_causal", 'Step by step, "the cat sat", 5: the causal mask', _lines(lambda r: handcalc.section_causal())),
    ("practice", 'Step by step, "the cat sat": the four practice experiments',
     _lines(lambda r: handcalc.section_practice(np.random.default_rng(SEED)))),
)


def run(sentence: Sequence[str] | str = SENT_RIVER) -> Results:
    """Run every section in order and return the results (nothing is written to disk).

    Args:
        sentence: words of the toy vocabulary (a list, or one string).

    Raises:
        ValueError: a word is not in the toy vocabulary; the message lists the known words.
    """
    words = parse_sentence(sentence) if isinstance(sentence, str) else parse_sentence(" ".join(sentence))
    r = Results(sentence=words)
    log = _Log(r)
    v = versions()
    log.raw("# attention-workshop results.log")
    for name in ("os", "python", "numpy", "torch", "matplotlib"):
        log.raw(f"# {name}: {v[name]}")
    log.raw(f'# seed: {SEED}; sentence: "{" ".join(words)}"')
    for key, title, fn in SECTIONS:
        log.raw("")
        log.section(key, title, fn)
    return r


def write(results: Results, out_dir: str | os.PathLike[str]) -> list[Path]:
    """Write results.log, the figures and their CSVs into ``out_dir``, all or nothing.

    Files are first written to a temporary folder beside ``out_dir``, then moved in
    one by one with atomic renames, so an error never leaves a half-written file.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = {"results.log": results.text, **results.figures, **results.tables}
    written = []
    with tempfile.TemporaryDirectory(dir=out, prefix=".tmp-") as tmp:
        for name, text in files.items():
            (Path(tmp) / name).write_text(text, encoding="utf-8", newline="\n")
        for name in files:
            os.replace(Path(tmp) / name, out / name)
            written.append(out / name)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run the experiment and write its captures."""
    invoked = Path(sys.argv[0]).name
    parser = argparse.ArgumentParser(
        prog="python -m attention_workshop.experiment" if invoked in ("experiment.py", "__main__.py") else invoked,
        description="Run the attention workshop's experiment and write results.log and figures.",
    )
    parser.add_argument("--out", default="captures", help="folder to write into (default: captures)")
    parser.add_argument("--sentence", default=" ".join(SENT_RIVER),
                        help='words of the toy vocabulary, e.g. "the river bank" (the default)')
    args = parser.parse_args(argv)
    from .claims import ClaimError, verify

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        parser.exit(2, f"error: --out {args.out} is a file, not a folder; name a folder to write into\n")
    try:
        results = run(args.sentence)
        checked = verify(results)
    except ValueError as err:
        parser.exit(2, f"error: {err}\n")
    except ClaimError as err:
        parser.exit(1, f"error: nothing was written: {err}\n")
    except ModuleNotFoundError as err:
        parser.exit(2, f"error: {err}. The experiment needs PyTorch and Matplotlib: "
                       "pip install 'attention-workshop[docs]' (or run make site).\n")
    try:
        written = write(results, out)
    except OSError as err:
        parser.exit(2, f"error: cannot write into {args.out}: {err.strerror or err}\n")
    for path in written:
        print(path)
    print(f"{checked} claims the pages make hold for this run", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
