"""workshop_site/claim_sentences.py: a page's sentence says no more than the claim that backs it.

The sentences here are written by hand, and what they quantify is read by a person: "each
token" is every element, "on average" is the mean. The site's own pages must pass, and the
sentence issue 21 found ("at least 0.999 of each token's attention", backed by a mean) must fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from attention_workshop.chapters import Claim, Quantifier
from workshop_site import claim_sentences as cs
from workshop_site.claims import CLAIMS, sentence_problems

Q = Quantifier
DOCS = Path(__file__).resolve().parent.parent / "docs"


def claim(q: Quantifier, sentence: str | None, key: str = "page.claim") -> Claim:
    return Claim(key, "a claim", lambda r: True, quantifier=q, sentence=sentence)


def check(page: str, *claims: Claim) -> list[str]:
    return [m for _, m in cs.problems(claims, lambda c: ["p.md"], lambda p: page)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Each row sums to 1.", [Q.EVERY]),
        ("No head is a self head, in any sentence.", [Q.EVERY, Q.EVERY]),
        ("On average it sends 0.9 of its attention.", [Q.MEAN]),
        ("Averaged over its tokens, it sends 0.9.", [Q.MEAN]),
        ("At least one row changes, and some do not.", [Q.SOME, Q.SOME]),
        ("The largest weight is on itself.", [Q.MAX]),
        ("Both cosines are lowest after the last layer.", [Q.EVERY, Q.MIN]),
        ("The bank sits where water equals money.", []),
    ],
)
def test_each_word_reads_as_its_quantifier(text, expected):
    assert [w.quantifier for w in cs.words(text)] == expected, text


@pytest.mark.parametrize(
    "text",
    [
        "The first row puts all its weight on itself.",
        "It gives all of its attention to the token before it.",
        "The two banks are closer to each other than to the money bank.",
        "It sends at least {{ x.y }} to the token before it.",
        "They differ by at most 1e-15, and the weights do not change at all.",
        "There are 72 heads in all, and it is no longer a bag.",
    ],
)
def test_idioms_and_bounds_are_not_quantifiers(text):
    assert cs.words(text) == [], [w.word for w in cs.words(text)]


def test_placeholders_code_and_formulas_are_not_read():
    text = (
        "It gives {{ real_heads.all_max }} to `any` token, $\\max_i$ [here](each.md)."
    )
    assert cs.words(text) == []


def test_sentences_are_found_with_their_lines_across_wrapped_lines():
    page = (
        "# Title\n\nOne sentence\nwraps here. A second\none (0.5 of it).\n\n"
        "```python\nno. prose. here.\n```\n- A list item."
    )
    assert [(s.text, s.line) for s in cs.sentences(page)] == [
        ("# Title", 1),
        ("One sentence wraps here.", 3),
        ("A second one (0.5 of it).", 4),
        ("- A list item.", 10),
    ]


ISSUE_21 = (
    "- **One head is a previous-token head in every sentence**: {{ real_heads.previous_head }}.\n"
    "  It sends at least {{ real_heads.previous_min }} of each token's attention to the\n"
    "  token before it, the long sentence included. No other head does this.\n"
)


def test_the_sentence_issue_21_found_fails_when_a_mean_backs_it():
    """Before the fix, Real heads said "each token's attention" of a number that is a mean."""
    mean = claim(
        Q.MEAN, "at least {{ real_heads.previous_min }} of each token's", "rh.prev"
    )
    (message,) = check(ISSUE_21, mean)
    assert message.startswith(
        "docs/p.md:2: 'each' says every element, but claim rh.prev"
    )
    assert "checks the mean" in message


def test_a_claim_over_every_element_backs_each():
    every = claim(Q.EVERY, "at least {{ real_heads.previous_min }} of each token's")
    assert check(ISSUE_21, every) == []


def test_a_word_outside_the_fragment_still_needs_a_claim_that_backs_it():
    # the fragment leaves "each" out; the sentence's only claim is a mean: still a problem
    mean = claim(Q.MEAN, "at least {{ real_heads.previous_min }}", "rh.prev")
    assert ["rh.prev" in m and "'each'" in m for m in check(ISSUE_21, mean)] == [True]


def test_in_a_sentence_of_two_claims_each_backs_its_own_words():
    page = "On average it sends 0.99 back, and every token sends at least 0.98.\n"
    mean = claim(Q.MEAN, "On average it sends 0.99 back", "a.mean")
    every = claim(Q.EVERY, "every token sends at least 0.98", "a.every")
    assert check(page, mean, every) == []
    # swapped: the mean claim's fragment now holds "every"
    wrong = claim(Q.MEAN, "every token sends at least 0.98", "a.wrong")
    problems = check(
        page, claim(Q.EVERY, "On average it sends 0.99 back", "a.x"), wrong
    )
    assert len(problems) == 2 and all("docs/p.md:1:" in m for m in problems)


@pytest.mark.parametrize(
    ("claimed", "word", "backed"),
    [
        (Q.EVERY, "each", True),
        (Q.EVERY, "at least one", True),
        (Q.EVERY, "the largest", True),
        (Q.EVERY, "on average", False),
        (Q.MEAN, "on average", True),
        (Q.MEAN, "each", False),
        (Q.MEAN, "some", False),
        (Q.MAX, "the largest", True),
        (Q.MAX, "every", False),
        (Q.MIN, "the smallest", True),
        (Q.MIN, "the largest", False),
        (Q.SOME, "some", True),
        (Q.SOME, "every", False),
        (Q.FACT, "every", False),
        (Q.FACT, "the", True),
    ],
)
def test_which_claims_back_which_words(claimed, word, backed):
    page = f"Here {word} row is 1.\n"
    assert (check(page, claim(claimed, "row is 1")) == []) is backed


def test_a_sentence_no_longer_on_its_page_is_a_problem_naming_the_claim():
    gone = claim(Q.EVERY, "every row sums to 1", "causal.rows")
    (message,) = check("Each row adds up to 1.\n", gone)
    assert message.startswith(
        "docs/p.md: claim causal.rows backs the sentence 'every row sums to 1'"
    )
    assert "not on the page any more" in message


def test_a_claim_without_a_sentence_is_not_looked_for():
    assert check("Nothing here.\n", claim(Q.EVERY, None)) == []


def test_a_claim_must_state_a_quantifier_of_the_closed_set():
    with pytest.raises(TypeError, match="quantifier must be one of EVERY, MEAN"):
        Claim("x.y", "t", lambda r: True, quantifier="each", sentence=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Claim("x.y", "t", lambda r: True)  # type: ignore[call-arg]


def test_every_claim_of_the_site_states_its_quantifier_and_sentence():
    assert len(CLAIMS) >= 90
    assert all(isinstance(c.quantifier, Quantifier) for _, c in CLAIMS)
    named = [c for _, c in CLAIMS if c.sentence is not None]
    assert len(named) >= 70, "most claims name the sentence they back"


def test_the_sites_pages_say_no_more_than_their_claims():
    assert sentence_problems(lambda p: (DOCS / p).read_text(encoding="utf-8")) == []
