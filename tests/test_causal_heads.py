"""chapters/causal_heads: SmolLM2's heads as the "A causal model" page measures them.

Expected values come from outside the chapter: transformers' LlamaForCausalLM on the same GGUF
file (its attentions, scored by this file's own loops), hand-made weight tables, and the FLOPs
counted by hand. Every claim of the page is broken on purpose (:data:`BREAKS`) and must then fail
the build's claims runner, naming itself.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from attention_workshop.chapters import causal_heads as ch
from workshop_site import claims

from . import causal_reference
from .conftest import causal_facts
from .test_causal_reads import READ_BREAKS

# the package reads SmolLM2's measures as a site build does, where the session's run kept them
pytestmark = pytest.mark.usefixtures("disk_cache")


@pytest.fixture(scope="module")
def facts() -> ch.CausalHeads:
    return causal_facts()


@pytest.fixture(scope="module")
def reference_attentions(facts) -> np.ndarray:
    """transformers' attentions on the repeated sentence, float32: ``(L, H, T, T)``."""
    tok = causal_reference.tokenizer()
    ids = tok(facts.run(ch.REPEAT).sentence.text, add_special_tokens=False)["input_ids"]
    return causal_reference.run(causal_reference.llama(np.float32), ids)["attentions"]


def _by_loops_induction(att: np.ndarray, tokens: tuple[str, ...]) -> np.ndarray:
    """The induction score written out with loops: for a token seen before (its first copy at
    j, not just before it), the weight on token j + 1; averaged."""
    L, H = att.shape[:2]
    out = np.zeros((L, H))
    for layer in range(L):
        for h in range(H):
            got = []
            for q in range(len(tokens)):
                firsts = [j for j in range(q) if tokens[j] == tokens[q]]
                if firsts and firsts[0] + 1 < q - 1:
                    got.append(float(att[layer, h, q, firsts[0] + 1]))
            out[layer, h] = sum(got) / len(got)
    return out


@pytest.mark.reference
def test_the_induction_scores_are_transformers_weights_scored_by_hand(
    facts, reference_attentions
):
    tokens = facts.run(ch.REPEAT).tokens
    expected = _by_loops_induction(reference_attentions, tokens)
    np.testing.assert_allclose(facts.induction, expected, rtol=0, atol=1e-5)


@pytest.mark.reference
def test_the_previous_and_first_scores_are_transformers_weights(
    facts, reference_attentions
):
    att, run = reference_attentions.astype(np.float64), facts.run(ch.REPEAT)
    T = att.shape[-1]
    prev = np.mean([att[..., i, i - 1] for i in range(1, T)], axis=0)
    first = np.mean([att[..., i, 0] for i in range(1, T)], axis=0)
    np.testing.assert_allclose(run.previous, prev, rtol=0, atol=1e-5)
    np.testing.assert_allclose(run.first, first, rtol=0, atol=1e-5)


def test_induction_pairs_of_a_hand_made_sentence():
    # a b c a b: the second a (3) looks at b (1), the second b (4) at c (2)
    assert ch.induction_pairs(("a", "b", "c", "a", "b")) == ((3, 1), (4, 2))
    # a a: the target would be the token just before, a previous-token head's job
    with pytest.raises(ValueError, match="no token repeats"):
        ch.induction_pairs(("a", "a", "b"))


def test_scores_of_a_hand_made_head():
    att = np.zeros((1, 1, 3, 3))
    att[0, 0] = [[1, 0, 0], [0.25, 0.75, 0], [0.5, 0.125, 0.375]]
    assert ch.previous_score(att)[0, 0] == (0.25 + 0.125) / 2
    assert ch.first_score(att)[0, 0] == (0.25 + 0.5) / 2
    assert ch.induction_score(att, [(2, 0), (1, 1)])[0, 0] == (0.5 + 0.75) / 2


def test_the_last_row_of_hand_made_layers():
    """Three layers of two heads, three tokens: the last two layers' last rows, averaged by hand."""
    att = np.zeros((3, 2, 3, 3))
    att[:, :, -1] = [0.5, 0.25, 0.25]  # layer 1: ignored
    att[1, 0, -1], att[1, 1, -1] = [1, 0, 0], [0, 0, 1]
    att[2, 0, -1], att[2, 1, -1] = [0.5, 0.5, 0], [0.5, 0, 0.5]
    np.testing.assert_array_equal(
        ch.last_row(att, 2), [(1 + 0 + 0.5 + 0.5) / 4, 0.5 / 4, 1.5 / 4]
    )
    with pytest.raises(ValueError, match=r"layers must be 1 \.\. 3"):
        ch.last_row(att, 4)


@pytest.mark.reference
def test_the_first_layer_scores_are_transformers_q_k():
    """Layer 1's scores with RoPE, against transformers' own query and key projections and rotation."""
    from attention_workshop.causal import load_smollm

    model, llama = load_smollm(), causal_reference.llama(np.float32)
    ids = np.array([504, 2644, 3290, 335, 260, 2644], dtype=np.int64)
    attn, T = llama.model.layers[0].self_attn, len(ids)
    with torch.no_grad():
        x = llama.model.layers[0].input_layernorm(
            llama.model.embed_tokens(torch.tensor([ids]))
        )
        q = attn.q_proj(x).view(1, T, 9, 64).transpose(1, 2)
        k = attn.k_proj(x).view(1, T, 3, 64).transpose(1, 2)
        cos, sin = llama.model.rotary_emb(x, torch.arange(T)[None])
        from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

        q, k = apply_rotary_pos_emb(q, k, cos, sin)
        k = k.repeat_interleave(3, dim=1)
        expected = (q @ k.transpose(-1, -2))[0].numpy() / 8.0
    np.testing.assert_allclose(ch.scores(model, ids, True), expected, rtol=0, atol=1e-4)


@pytest.mark.reference
def test_every_heads_steps_are_transformers(facts):
    """The seven steps of every head (:mod:`.seven`) from transformers' own hidden states: the
    weights are its attentions, the scores are the logits its softmax takes (each visible row's
    log-weights minus the scores is one constant), and each weighted sum's length is the length of
    that head's slice of the input of its output projection (caught with a hook)."""
    from attention_workshop.causal import load_smollm

    model, llama = load_smollm(), causal_reference.llama(np.float32)
    ids = causal_reference.tokenizer()(
        "The ship left the port at dawn.", add_special_tokens=False
    )["input_ids"]
    T = len(ids)
    caught: list[np.ndarray] = []
    hooks = [
        layer.self_attn.o_proj.register_forward_pre_hook(
            lambda _m, args: caught.append(args[0][0].detach().numpy())
        )
        for layer in llama.model.layers
    ]
    try:
        ref = causal_reference.run(llama, ids)
    finally:
        for hook in hooks:
            hook.remove()
    got = ch.head_steps(model, ref["hidden"])
    np.testing.assert_allclose(got.weights, ref["attentions"], rtol=0, atol=1e-5)
    low = np.tril(np.ones((T, T), dtype=bool))
    gap = np.where(low, np.log(np.maximum(got.weights, 1e-30)) - got.scores, np.nan)
    spread = np.nanmax(gap, axis=-1) - np.nanmin(gap, axis=-1)  # (L, H, T)
    assert float(spread.max()) < 1e-3, float(spread.max())
    y = np.stack(caught).reshape(len(caught), T, model.n_head, model.head_size)
    sizes = np.linalg.norm(y, axis=-1).transpose(0, 2, 1)  # (L, T, H) -> (L, H, T)
    np.testing.assert_allclose(got.sizes, sizes, rtol=1e-4, atol=1e-5)


def test_the_seven_steps_flops_counted_by_hand():
    rows = ch.step_table(17, 576, 9, 3, 64)
    got = {s.step.id: (s.smollm, s.gpt2) for s in rows}
    assert got["projections"] == (2 * 17 * 576 * (576 + 192 + 192), 2 * 17 * 768 * 2304)
    assert got["scores"] == (9 * 2 * 17 * 17 * 64, 12 * 2 * 17 * 17 * 64)
    assert got["causal-mask"] == (0, 0)
    assert got["output-projection"] == (2 * 17 * 576 * 576, 2 * 17 * 768 * 768)


def _run(f: ch.CausalHeads, key: str, **changes) -> ch.CausalHeads:
    runs = tuple(
        dataclasses.replace(r, **changes) if r.sentence.key == key else r
        for r in f.runs
    )
    return dataclasses.replace(f, runs=runs)


def _peek(f: ch.CausalHeads) -> ch.CausalHeads:
    """A weight above the diagonal in the repeated sentence."""
    att = f.run(ch.REPEAT).attentions.copy()
    att[0, 0, 0, 1] = 0.01
    return _run(f, ch.REPEAT, attentions=att)


def _cat_looks_first(f: ch.CausalHeads) -> ch.CausalHeads:
    att = f.run(ch.REPEAT).attentions.copy()
    q, t = f.cat
    row = att[(*f.induction_head, q)]
    row[0], row[t] = row[t], row[0]
    return _run(f, ch.REPEAT, attentions=att)


def _with(
    f: ch.CausalHeads, key: str, field: str, head, value: float
) -> ch.CausalHeads:
    a = getattr(f.run(key), field).copy()
    a[head] = value
    return _run(f, key, **{field: a})


def _position(f: ch.CausalHeads, **changes) -> ch.CausalHeads:
    return dataclasses.replace(f, position=dataclasses.replace(f.position, **changes))


def _last_row_moved(f: ch.CausalHeads) -> ch.CausalHeads:
    """The tired sentence's last token gives 0.3 to the first token in every head, the rest
    to itself."""
    att = f.run("tired").attentions.copy()
    att[..., -1, -1] += att[..., -1, 0] - 0.3
    att[..., -1, 0] = 0.3
    return _run(f, "tired", attentions=att)


def _last_rows_spread(f: ch.CausalHeads) -> ch.CausalHeads:
    """The river sentence's last token, in the last layers: 0.4 to the first token, 0.38 to
    itself, the rest shared evenly by the tokens between (each well under 0.05)."""
    att = f.run("river").attentions.copy()
    T = att.shape[-1]
    rows = att[-ch.LAST_LAYERS :, :, -1, :]  # a view: (layers, H, T)
    rows[..., 0], rows[..., -1] = 0.4, 0.38
    rows[..., 1:-1] = 0.22 / (T - 2)
    return _run(f, "river", attentions=att)


def _last_looks_at_one_word(f: ch.CausalHeads) -> ch.CausalHeads:
    """The tired sentence's last token, in the last layers: 0.06 more to its second token,
    taken from its own weight."""
    att = f.run("tired").attentions.copy()
    rows = att[-ch.LAST_LAYERS :, :, -1, :]
    rows[..., 1] += 0.06
    rows[..., -1] -= 0.06
    return _run(f, "tired", attentions=att)


def _heads_at(a: np.ndarray, n: int, high: float, low: float) -> np.ndarray:
    """``n`` heads at ``high``, the others at ``low``: ``(L, H)``."""
    out = np.full(a.shape, low)
    out.flat[:n] = high
    return out


def _previous_above(f: ch.CausalHeads) -> ch.CausalHeads:
    """Another head, a layer above the induction head, is the steadiest previous-token head."""
    head = (f.induction_head[0] + 1, 0)
    for key in (r.sentence.key for r in f.runs):
        f = _with(f, key, "previous", head, 0.9)
    return dataclasses.replace(f, previous_head=head)


BREAKS = [
    (
        "causal_heads.gqa_sizes",
        "the file says 4 key/value heads",
        lambda f: dataclasses.replace(f, n_kv_head=4),
    ),
    ("causal_heads.masked", "a weight above the diagonal", _peek),
    (
        "causal_heads.previous_everywhere",
        "the previous head scores 0.4 in the river sentence",
        lambda f: _with(f, "river", "previous", f.previous_head, 0.4),
    ),
    (
        "causal_heads.sink_mean",
        "in the river sentence 100 heads at 0.51, the rest at 0.1",
        lambda f: _run(
            f, "river", first=_heads_at(f.run("river").first, 100, 0.51, 0.1)
        ),
    ),
    (
        "causal_heads.sink_heads",
        "in the tired sentence 90 heads at 1, the rest at 0.3: the mean above half",
        lambda f: _run(f, "tired", first=_heads_at(f.run("tired").first, 90, 1.0, 0.3)),
    ),
    (
        "causal_heads.induction_cat",
        "the second cat looks at the first token",
        _cat_looks_first,
    ),
    (
        "causal_heads.induction_strong",
        "the induction head scores 0.45",
        lambda f: dataclasses.replace(
            f, induction=np.where(f.induction > 0.45, 0.45, f.induction)
        ),
    ),
    (
        "causal_heads.previous_before_induction",
        "the previous-token head a layer above the induction head",
        _previous_above,
    ),
    (
        "causal_heads.not_the_same_head",
        "the induction head is a previous-token head too",
        lambda f: _with(f, ch.REPEAT, "previous", f.induction_head, 0.6),
    ),
    (
        "causal_heads.plain_order_blind",
        "a pair changes without RoPE",
        lambda f: _position(f, plain_diff=f.position.plain_diff + 1e-7),
    ),
    (
        "causal_heads.rope_sees_order",
        "a head whose scores barely change",
        lambda f: _position(f, rope_diff=np.minimum(f.position.rope_diff, 0.2)),
    ),
    (
        "causal_heads.last_to_first",
        "the tired sentence's last token looks elsewhere",
        _last_row_moved,
    ),
    (
        "causal_heads.last_reads_ends",
        "the river sentence's last token spreads its weight in the last layers",
        _last_rows_spread,
    ),
    (
        "causal_heads.last_middle_small",
        "the tired sentence's last token gives 0.06 more to one word",
        _last_looks_at_one_word,
    ),
    *READ_BREAKS,
]


def test_every_page_claim_has_a_break_here():
    assert sorted({k for k, _, _ in BREAKS}) == sorted(c.key for c in ch.CLAIMS)


def test_every_claim_holds(facts):
    false = [c.key for c in ch.CLAIMS if not c.test(facts)]
    assert not false, false


@pytest.mark.parametrize("key,how,brk", BREAKS, ids=[f"{k}-{h}" for k, h, _ in BREAKS])
def test_a_broken_claim_fails_verify_naming_it(
    results, facts, monkeypatch, key, how, brk
):
    broken = brk(facts)
    monkeypatch.setitem(claims.SUBJECTS, ch.SUBJECT, lambda _: broken)
    with pytest.raises(claims.ClaimError, match=rf"- {key}: "):
        claims.verify(results)
    assert [c.key for c, ok in claims.check(results) if not ok] == [key], how
