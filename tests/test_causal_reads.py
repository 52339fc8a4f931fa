"""chapters/causal_heads/reads: the logit lens, weight and norm, prefix matching and copying.

Expected values come from outside the module: transformers' LlamaForCausalLM on the same GGUF
file (its hidden states, attentions, final norm, ``lm_head``, and its ``v_proj`` outputs caught
with a hook, ``o_proj``'s weight), computed here with PyTorch and loops, and hand-made arrays
whose answers are worked out in the comments. :data:`READ_BREAKS` breaks each of the reads'
claims for ``test_causal_heads``'s claims runner test.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from attention_workshop.chapters import causal_heads as ch
from attention_workshop.chapters.causal_heads import reads as rd

from . import causal_reference
from .conftest import causal_facts

# the package reads SmolLM2's measures as a site build does, where the session's run kept them
pytestmark = pytest.mark.usefixtures("disk_cache")


@pytest.fixture(scope="module")
def facts() -> ch.CausalHeads:
    return causal_facts()


# ---------------------------------------------------------------- hand-made cases


def test_prefix_matching_of_a_hand_made_grid():
    # half 3: queries 3, 4 look at 1, 2; weights there 0.5 and 0.25 -> mean 0.375
    att = np.zeros((1, 1, 6, 6))
    att[0, 0, 3, 1], att[0, 0, 4, 2] = 0.5, 0.25
    assert rd.prefix_matching(att, half=3)[0, 0] == pytest.approx(0.375)


def test_split_of_a_hand_made_row():
    # one head, 4 tokens: weights .5 .2 .1 .2; norms 1 2 1 0 -> shares .25 .5 .25 0
    w = np.array([[[0.5, 0.2, 0.1, 0.2]]])
    n = np.array([[[1.0, 2.0, 1.0, 0.0]]])
    got = rd.split(rd.Reads("x", w, n))
    np.testing.assert_allclose(got, [[0.5, 0.3, 0.2], [0.25, 0.75, 0.0]])


def test_rank_of_counts_the_larger_ones():
    s = np.array([[0.1, 0.9], [0.5, 0.9]])
    assert rd.rank_of(s, (0, 1)) == 1 and rd.rank_of(s, (1, 0)) == 3


def test_random_repeat_is_distinct_tokens_repeated_once():
    ids = rd.random_repeat(0, 1000, half=10)
    assert len(ids) == 20 and (ids[:10] == ids[10:]).all()
    assert len(set(ids[:10].tolist())) == 10 and ids.min() >= rd.LOW_ID


def test_seeds_are_printed_and_the_sequences_differ(facts):
    assert facts.reads.seeds == rd.SEEDS and len(rd.SEEDS) >= 2
    seqs = {tuple(rd.random_repeat(s, facts.reads.vocab).tolist()) for s in rd.SEEDS}
    assert len(seqs) == len(rd.SEEDS)


# ---------------------------------------------------------------- against transformers


def _ref(ids: list[int]) -> tuple[dict[str, np.ndarray], list[np.ndarray]]:
    """transformers' run on ``ids`` (float32) and every layer's ``v_proj`` output ``(T, nkv*hs)``."""
    model = causal_reference.llama(np.float32)
    caught: list[np.ndarray] = []
    hooks = [
        layer.self_attn.v_proj.register_forward_hook(
            lambda _m, _i, out: caught.append(out[0].detach().numpy().copy())
        )
        for layer in model.model.layers
    ]
    try:
        out = causal_reference.run(model, ids)
    finally:
        for h in hooks:
            h.remove()
    return out, caught


def _head_out(model, v: np.ndarray, layer: int, head: int) -> np.ndarray:
    """``(T, C)``: each token's value vector of ``head`` through its slice of ``o_proj``."""
    cfg = model.config
    hs = cfg.hidden_size // cfg.num_attention_heads
    group = cfg.num_attention_heads // cfg.num_key_value_heads
    kv = head // group
    w_o = model.model.layers[layer].self_attn.o_proj.weight.detach().numpy()
    return v[:, kv * hs : (kv + 1) * hs].astype(np.float64) @ w_o[
        :, head * hs : (head + 1) * hs
    ].T.astype(np.float64)


@pytest.mark.reference
@pytest.mark.parametrize("key", [s.key for s in ch.SENTENCES])
def test_the_logit_lens_and_the_norms_are_transformers(facts, key):
    model = causal_reference.llama(np.float32)
    text = next(s.text for s in ch.SENTENCES if s.key == key)
    ids = causal_reference.tokenizer()(text, add_special_tokens=False)["input_ids"]
    ref, vs = _ref(ids)
    with torch.no_grad():
        h = torch.tensor(ref["hidden"][1:, -1, :])  # (L, C)
        logits = model.lm_head(model.model.norm(h)).double().numpy()  # (L, V)
    target = int(np.argmax(ref["logits"][-1]))
    ranks = [1 + int((row > row[target]).sum()) for row in logits]
    probs = torch.softmax(torch.tensor(logits), -1)[:, target].numpy()
    lens = next(x for x in facts.reads.lens if x.key == key)
    assert lens.ranks.tolist() == ranks
    np.testing.assert_allclose(lens.probs, probs, rtol=0, atol=1e-4)
    reads = next(x for x in facts.reads.reads if x.key == key)
    att, T = ref["attentions"].astype(np.float64), len(ids)
    for layer in range(model.config.num_hidden_layers):
        for head in range(model.config.num_attention_heads):
            vo = _head_out(model, vs[layer], layer, head)  # (T, C)
            want = [
                np.linalg.norm(att[layer, head, T - 1, j] * vo[j]) for j in range(T)
            ]
            np.testing.assert_allclose(
                reads.norms[layer, head], want, rtol=1e-3, atol=1e-5
            )


def _copy_by_hand(model, ref, vs, ids, head) -> tuple[np.ndarray, np.ndarray]:
    """Each second-half query's logit raise and rank of the token after the earlier copy."""
    layer, h = head
    half = len(ids) // 2
    vo = _head_out(model, vs[layer], layer, h)
    g = model.model.norm.weight.detach().double().numpy()
    emb = model.lm_head.weight.detach().double().numpy()
    eps = model.config.rms_norm_eps
    raises, ranks = [], []
    for i in range(half - 1):
        q, t = half + i, i + 1
        o = ref["attentions"][layer, h, q].astype(np.float64) @ vo
        final = ref["hidden"][-1][q].astype(np.float64)
        logit = emb @ (o / np.sqrt((final**2).mean() + eps) * g)
        raises.append(logit[ids[t]] - logit.mean())
        ranks.append(1 + int((logit > logit[ids[t]]).sum()))
    return np.array(raises), np.array(ranks)


@pytest.mark.reference
def test_prefix_matching_and_copying_are_transformers(facts):
    model = causal_reference.llama(np.float32)
    prefix, raises, ranks = [], {}, {}
    for s in facts.reads.seeds:
        ids = rd.random_repeat(s, facts.reads.vocab).tolist()
        ref, vs = _ref(ids)
        att, half = ref["attentions"], len(ids) // 2
        prefix.append(
            np.mean([att[..., half + i, i + 1] for i in range(half - 1)], axis=0)
        )
        for c in facts.reads.copying:
            r, k = _copy_by_hand(model, ref, vs, ids, c.head)
            raises.setdefault(c.head, []).append(r)
            ranks.setdefault(c.head, []).append(k)
    np.testing.assert_allclose(facts.reads.prefix, prefix, rtol=0, atol=1e-5)
    mean = np.mean(prefix, axis=0)
    want = np.argsort(-mean, axis=None, kind="stable")[: rd.TOP]
    got = [np.ravel_multi_index(c.head, mean.shape) for c in facts.reads.copying]
    assert got == want.tolist()
    for c in facts.reads.copying:
        r = np.concatenate(raises[c.head])
        assert c.raise_ == pytest.approx(r.mean(), abs=2e-3)
        assert c.positive == pytest.approx((r > 0).mean(), abs=0.03)
        med = float(np.median(np.concatenate(ranks[c.head])))
        assert c.median_rank == pytest.approx(med, rel=0.02)


# ---------------------------------------------------------------- the claims, broken


def _reads(f: ch.CausalHeads, **changes) -> ch.CausalHeads:
    return dataclasses.replace(f, reads=dataclasses.replace(f.reads, **changes))


def _lens(f: ch.CausalHeads, key: str, **changes) -> ch.CausalHeads:
    lens = tuple(
        dataclasses.replace(x, **changes) if x.key == key else x for x in f.reads.lens
    )
    return _reads(f, lens=lens)


def _norms(f: ch.CausalHeads, key: str, fn) -> ch.CausalHeads:
    out = tuple(
        dataclasses.replace(x, norms=fn(x.norms.copy())) if x.key == key else x
        for x in f.reads.reads
    )
    return _reads(f, reads=out)


def _self_to_first(n: np.ndarray) -> np.ndarray:
    """The last token's own norm moved onto the first token: the tokens between keep theirs."""
    n[..., 0] += n[..., -1]
    n[..., -1] = 0
    return n


def _middle_to_self(layers: slice):
    """In ``layers``, the tokens between keep a hundredth of their norm; the rest goes to the
    last token itself (the first token keeps its own)."""

    def move(n: np.ndarray) -> np.ndarray:
        part = n[layers, :, 1:-1]
        n[layers, :, -1] += 0.99 * part.sum(-1)
        n[layers, :, 1:-1] = 0.01 * part
        return n

    return move


def _no_word(w: np.ndarray) -> np.ndarray:
    w[-ch.LAST_LAYERS :, :, 1:-1] = np.minimum(w[-ch.LAST_LAYERS :, :, 1:-1], 0.05)
    return w


def _other_top_on_seed_1(f: ch.CausalHeads) -> ch.CausalHeads:
    p = f.reads.prefix.copy()
    p[1, 0, 0] = 2.0
    return _reads(f, prefix=p)


def _sentence_head_on_top(f: ch.CausalHeads) -> ch.CausalHeads:
    p = f.reads.prefix.copy()
    p[(slice(None), *f.induction_head)] = 2.0
    return _reads(f, prefix=p)


def _copy(f: ch.CausalHeads, **changes) -> ch.CausalHeads:
    first = dataclasses.replace(f.reads.copying[0], **changes)
    return _reads(f, copying=(first, *f.reads.copying[1:]))


READ_BREAKS = [
    (
        "causal_heads.lens_early",
        "the tired sentence's guess first ranks first at the last layer",
        lambda f: _lens(f, "tired", first_top=f.n_layer, n_top=1),
    ),
    (
        "causal_heads.lens_late",
        "the river sentence's guess ranks first from layer 5",
        lambda f: _lens(f, "river", first_top=5),
    ),
    (
        "causal_heads.norm_first_less",
        "the river sentence's last token: its own norm moved onto the first token",
        lambda f: _norms(f, "river", _self_to_first),
    ),
    (
        "causal_heads.norm_middle_more",
        "the tokens in between a hundred times shorter below the last layers, repeated sentence",
        lambda f: _norms(f, ch.REPEAT, _middle_to_self(slice(None, -ch.LAST_LAYERS))),
    ),
    (
        "causal_heads.last_middle_norm",
        "the same in the last layers of the tired sentence",
        lambda f: _norms(f, "tired", _middle_to_self(slice(-ch.LAST_LAYERS, None))),
    ),
    (
        "causal_heads.single_head_word",
        "no head of the last layers gives a word more than 0.05",
        lambda f: _reads(
            f,
            reads=tuple(
                dataclasses.replace(x, weights=_no_word(x.weights.copy()))
                for x in f.reads.reads
            ),
        ),
    ),
    (
        "causal_heads.olsson_same_top",
        "on seed 1 another head is strongest",
        _other_top_on_seed_1,
    ),
    (
        "causal_heads.olsson_not_the_sentence_head",
        "the sentence's head is the strongest prefix matcher too",
        _sentence_head_on_top,
    ),
    (
        "causal_heads.copying_positive",
        "the strongest prefix matcher lowers its token's logit",
        lambda f: _copy(f, raise_=-0.1),
    ),
    (
        "causal_heads.copying_weak",
        "the strongest prefix matcher ranks its token 3rd on median",
        lambda f: _copy(f, median_rank=3.0),
    ),
]
