"""What the causal page measures beyond the weights: the logit lens, weight beside norm,
Olsson et al.'s prefix-matching test and copying, as typed results.

- **logit lens** (nostalgebraist 2020): each layer's last hidden state through the final
  RMSNorm and the tied embeddings; the rank and probability there of the model's final top-1
  token (:func:`logit_lens`);
- **weight and norm** (Kobayashi et al. 2020): the last token's weight on each token beside the
  norm of that token's weighted value vector after ``W_O``, ``||a_j v_j W_O^h||`` (:func:`reads`);
- **prefix matching** (Olsson et al. 2022): a sequence of random tokens repeated once; in the
  second half, each token's weight on the token after its earlier copy (:func:`prefix_matching`);
- **copying**: how much a head's output alone, through the final norm and the embeddings
  (direct logit attribution), raises the logit of the token it attends to (:func:`copying`).

Everything is computed from the package's own forward pass (:mod:`attention_workshop.causal`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...causal import SmolLM, load_smollm, rms_norm, share_kv_heads
from ...core import matmul, softmax
from .sentences import SENTENCES

__all__ = [
    "SEEDS",
    "HALF",
    "LOW_ID",
    "TOP",
    "Lens",
    "Reads",
    "Copying",
    "CausalReads",
    "run_ids",
    "random_repeat",
    "logit_lens",
    "head_norms",
    "reads",
    "prefix_matching",
    "copying",
    "measure_reads",
    "causal_reads",
    "split",
    "rank_of",
]

#: The random sequences' seeds (``numpy.random.default_rng``), printed on the page.
SEEDS = (0, 1, 2)
#: How many random tokens each sequence holds before it is repeated once.
HALF = 25
#: Random tokens are drawn from the ids ``LOW_ID .. vocab_size - 1`` (the lowest are special).
LOW_ID = 100
#: How many of the strongest prefix-matching heads the copying test measures.
TOP = 3


@dataclass(frozen=True, eq=False)
class Lens:
    """One sentence through the logit lens.

    Attributes:
        key: the sentence's key.
        token: the final top-1 token's text.
        ranks: ``(L,)``, its rank (1 = first) after each layer, read through the final norm.
        probs: ``(L,)``, its probability there.
        first_top: the first layer (from 1) where it ranks first.
        n_top: at how many layers it ranks first.
    """

    key: str
    token: str
    ranks: np.ndarray
    probs: np.ndarray
    first_top: int
    n_top: int


@dataclass(frozen=True, eq=False)
class Reads:
    """The last token's reads of one sentence: weight beside norm, per layer and head.

    Attributes:
        key: the sentence's key.
        weights: ``(L, H, T)``, the last token's weights.
        norms: ``(L, H, T)``, ``||a_j v_j W_O^h||`` for each token ``j``.
    """

    key: str
    weights: np.ndarray
    norms: np.ndarray


@dataclass(frozen=True, eq=False)
class Copying:
    """A head's direct effect on the logit of the token it should copy, on the random sequences.

    Attributes:
        head: ``(layer, head)`` from 0.
        raise_: the mean over queries and seeds of the head's logit for the token after the
            earlier copy, minus its mean logit over the vocabulary.
        positive: the share of queries where that raise is above 0.
        median_rank: the median rank of that token among the head's logits (1 = raised most).
    """

    head: tuple[int, int]
    raise_: float
    positive: float
    median_rank: float


@dataclass(frozen=True, eq=False)
class CausalReads:
    """Everything :func:`measure_reads` measures.

    Attributes:
        lens: one :class:`Lens` per sentence, in page order.
        reads: one :class:`Reads` per sentence.
        prefix: ``(seeds, L, H)``, each head's prefix-matching score on each seed's sequence.
        seeds: the seeds.
        copying: the copying test of the :data:`TOP` heads with the largest mean prefix score.
        vocab: how many tokens the vocabulary holds.
    """

    lens: tuple[Lens, ...]
    reads: tuple[Reads, ...]
    prefix: np.ndarray
    seeds: tuple[int, ...]
    copying: tuple[Copying, ...]
    vocab: int

    @property
    def prefix_mean(self) -> np.ndarray:
        """``(L, H)``: the prefix-matching score averaged over the seeds."""
        return self.prefix.mean(axis=0)


def run_ids(model: SmolLM, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The forward pass on token ids: hidden states ``(L + 1, T, C)`` and weights ``(L, H, T, T)``."""
    x = model.weights["token_embd.weight"][ids]  # (T, C)
    hidden, attentions = [x], []
    for i in range(model.n_layer):
        x, att = model.layer(x, i)
        hidden.append(x)
        attentions.append(att)
    return np.stack(hidden), np.stack(attentions)


def random_repeat(seed: int, vocab: int, half: int = HALF) -> np.ndarray:
    """``half`` distinct random token ids from ``LOW_ID .. vocab - 1``, then the same again."""
    rng = np.random.default_rng(seed)
    r = rng.choice(np.arange(LOW_ID, vocab), size=half, replace=False).astype(np.int64)
    return np.concatenate([r, r])


def _logits(model: SmolLM, h: np.ndarray) -> np.ndarray:
    """Hidden states ``(N, C)`` through the final RMSNorm and the tied embeddings: ``(N, V)``."""
    return np.asarray(model.unembed(h), dtype=np.float64)


def logit_lens(model: SmolLM, key: str, hidden: np.ndarray) -> Lens:
    """The final top-1 token's rank and probability after each layer (hidden ``(L + 1, T, C)``)."""
    logits = _logits(model, hidden[1:, -1, :])  # (L, V): each layer's last token
    target = int(np.argmax(logits[-1]))
    ranks = 1 + (logits > logits[:, [target]]).sum(axis=1)  # (L,)
    probs = softmax(logits, axis=-1)[:, target]
    top = np.nonzero(ranks == 1)[
        0
    ]  # never empty: the last layer's is the target itself
    token = model.tokenizer.decode([target], skip_special_tokens=False)
    return Lens(
        key, token, ranks.astype(np.int64), probs, int(top[0]) + 1, int(top.size)
    )


def _values_out(model: SmolLM, x: np.ndarray, i: int) -> np.ndarray:
    """Layer ``i``'s value vectors after each head's slice of ``W_O``: ``(H, T, C)``."""
    T, nh, nkv, hs = x.shape[0], model.n_head, model.n_kv_head, model.head_size
    w = model.weights
    xn = rms_norm(x, w[f"blk.{i}.attn_norm.weight"], model.config.eps)  # (T, C)
    v = matmul(xn, w[f"blk.{i}.attn_v.weight"].T).reshape(T, nkv, hs).transpose(1, 0, 2)
    v = share_kv_heads(v, nh)  # (nh, T, hs)
    w_o = (
        w[f"blk.{i}.attn_output.weight"].reshape(-1, nh, hs).transpose(1, 2, 0)
    )  # (nh, hs, C)
    return np.asarray(matmul(v, w_o))  # (nh, T, hs) x (nh, hs, C) -> (nh, T, C)


def head_norms(
    model: SmolLM, hidden: np.ndarray, att: np.ndarray, q: int
) -> np.ndarray:
    """``(L, H, T)``: ``||a[q, j] v_j W_O^h||`` for query ``q``, every layer, head and token."""
    out = []
    for i in range(model.n_layer):
        vo = _values_out(model, hidden[i], i).astype(np.float64)  # (H, T, C)
        out.append(att[i, :, q, :, None] * vo)  # (H, T, C)
    return np.linalg.norm(np.stack(out), axis=-1)  # (L, H, T)


def reads(model: SmolLM, key: str, hidden: np.ndarray, att: np.ndarray) -> Reads:
    """The last token's weights and weighted-value norms in every head."""
    q = att.shape[-1] - 1
    return Reads(
        key, att[:, :, q, :].astype(np.float64), head_norms(model, hidden, att, q)
    )


def _prefix_pairs(half: int) -> tuple[np.ndarray, np.ndarray]:
    """Second-half queries and the token after each one's earlier copy."""
    i = np.arange(half - 1)
    return half + i, i + 1


def prefix_matching(att: np.ndarray, half: int = HALF) -> np.ndarray:
    """``(L, H, T, T)`` weights of a repeated sequence -> ``(L, H)`` mean prefix-matching weight."""
    q, t = _prefix_pairs(half)
    return att[..., q, t].mean(axis=-1)


def _dla(
    model: SmolLM, hidden: np.ndarray, att: np.ndarray, head: tuple[int, int]
) -> np.ndarray:
    """A head's output through the final norm (its scale from the final residual) and the
    embeddings, at each second-half query: ``(queries, V)``."""
    layer, h = head
    q, _ = _prefix_pairs((hidden.shape[1]) // 2)
    vo = _values_out(model, hidden[layer], layer)[h].astype(np.float64)  # (T, C)
    o = matmul(att[layer, h][q].astype(np.float64), vo)  # (queries, C)
    final = hidden[-1][q].astype(np.float64)
    scale = 1 / np.sqrt(np.mean(final**2, axis=-1, keepdims=True) + model.config.eps)
    g = np.asarray(model.weights["output_norm.weight"], dtype=np.float64)
    return _times_embeddings(model, o * scale * g)  # (queries, V)


#: Embedding rows widened to float64 at a time by :func:`_times_embeddings` (9 MB)
ROWS = 2048


def _times_embeddings(model: SmolLM, x: np.ndarray) -> np.ndarray:
    """``x`` ``(N, C)`` times the tied embeddings in float64: ``(N, V)``.

    The embeddings are widened ``ROWS`` rows at a time into one buffer rather than all 49 152
    at once (226 MB of new memory, the most of this function's time): each column of the
    product is the same sum either way, so the bits are the same."""
    emb = model.weights["token_embd.weight"]  # (V, C), float32
    out = np.empty((x.shape[0], emb.shape[0]), dtype=np.float64)
    buf = np.empty((ROWS, emb.shape[1]), dtype=np.float64)
    for start in range(0, emb.shape[0], ROWS):
        rows = buf[: min(ROWS, emb.shape[0] - start)]
        rows[...] = emb[start : start + len(rows)]  # float32 to float64: exact
        out[:, start : start + len(rows)] = matmul(x, rows.T)
    return out


def copying(
    model: SmolLM,
    runs: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
    head: tuple[int, int],
) -> Copying:
    """The copying test of ``head`` on ``runs``: ``(ids, hidden, att)`` per random sequence."""
    raises, ranks = [], []
    for ids, hidden, att in runs:
        dla = _dla(model, hidden, att, head)  # (queries, V)
        _, t = _prefix_pairs(len(ids) // 2)
        target = dla[np.arange(len(t)), ids[t]]  # (queries,)
        raises.append(target - dla.mean(axis=1))
        ranks.append(1 + (dla > target[:, None]).sum(axis=1))
    r = np.concatenate(raises)
    return Copying(
        head,
        float(r.mean()),
        float((r > 0).mean()),
        float(np.median(np.concatenate(ranks))),
    )


def measure_reads(
    model: SmolLM,
    seeds: tuple[int, ...] = SEEDS,
    forwards: Mapping[str, tuple[np.ndarray, np.ndarray]] | None = None,
) -> CausalReads:
    """Run the page's sentences and the random sequences through ``model`` and measure them.
    ``forwards``: a sentence's ``(hidden, att)`` by key, when the caller has run it already
    through ``model`` (the same forward pass as :func:`run_ids`)."""
    lens, rd = [], []
    for s in SENTENCES:
        if forwards is not None and s.key in forwards:
            hidden, att = forwards[s.key]
        else:
            hidden, att = run_ids(model, model.tokenize(s.text)[1])
        lens.append(logit_lens(model, s.key, hidden))
        rd.append(reads(model, s.key, hidden, att))
    runs = []
    for seed in seeds:
        ids = random_repeat(seed, model.config.vocab_size)
        runs.append((ids, *run_ids(model, ids)))
    prefix = np.stack([prefix_matching(att) for _, _, att in runs])  # (seeds, L, H)
    order = np.argsort(-prefix.mean(axis=0), axis=None, kind="stable")[:TOP]
    heads = [
        tuple(int(x) for x in np.unravel_index(int(k), prefix.shape[1:])) for k in order
    ]
    cp = tuple(copying(model, runs, (h[0], h[1])) for h in heads)
    return CausalReads(
        tuple(lens), tuple(rd), prefix, tuple(seeds), cp, int(model.config.vocab_size)
    )


@lru_cache(maxsize=1)
def causal_reads() -> CausalReads:
    """The page's reads: SmolLM2-135M-Instruct in float32 (once)."""
    return measure_reads(load_smollm(np.float32))


def split(rd: Reads, layers: int | None = None) -> np.ndarray:
    """``(2, 3)``: the last token's weight (row 0) and norm share (row 1) on the first token, on
    the tokens in between (summed) and on itself, averaged over every head of the last
    ``layers`` layers (all of them when ``None``). A head's norm share of a token is its norm
    over the sum of its norms."""
    w, n = rd.weights, rd.norms
    if layers is not None:
        w, n = w[-layers:], n[-layers:]
    shares = n / n.sum(axis=-1, keepdims=True)

    def three(a: np.ndarray) -> list[float]:
        return [
            float(a[..., 0].mean()),
            float(a[..., 1:-1].sum(-1).mean()),
            float(a[..., -1].mean()),
        ]

    return np.array([three(w), three(shares)])


def rank_of(scores: np.ndarray, head: tuple[int, int]) -> int:
    """Where ``head`` stands among the ``(L, H)`` scores, largest first (1 = the largest)."""
    return 1 + int((scores > scores[head]).sum())
