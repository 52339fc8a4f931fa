"""workshop_site/claims.py, the claims runner: check, verify, ClaimError, and a break for every claim.

Each chapter's test module shows each of its claims failing (its ``BREAKS``); the last test
here gathers them, so a claim added without a deliberate break fails the suite.
"""

from __future__ import annotations

import copy
import importlib
import re
from pathlib import Path

import numpy as np
import pytest

from attention_workshop.chapters import Quantifier
from attention_workshop.chapters.sections import SECTIONS
from workshop_site.claims import CLAIMS, PAGES, SUBJECTS, ClaimError, check, verify

from . import test_causal_heads, test_final_exam, test_inside_the_model, test_real_heads
from .breaks import claim_keys, edit, row


def chapter_tests() -> list:
    """Every chapter's test module: a tests/test_*.py whose BREAKS maps claim keys to tuples of breaks.

    Found by looking, not listed: a new chapter's test module counts as soon as it has BREAKS.
    """
    found = []
    for path in sorted(Path(__file__).resolve().parent.glob("test_*.py")):
        if not re.search(r"^BREAKS\b", path.read_text(encoding="utf-8"), re.M):
            continue
        module = importlib.import_module(f"{__package__}.{path.stem}")
        breaks = module.BREAKS
        if isinstance(breaks, dict) and all(
            isinstance(v, tuple) for v in breaks.values()
        ):
            found.append(module)
    return found


#: The claims a run of another sentence does not check: default-only ones, and the pages' own (PAGES).
SKIPPED_FOR_OTHERS = {c.key for key, c in CLAIMS if c.default_only or key in SUBJECTS}


# the trained models' measures where the session's run kept them; the breaks edit a run's data
pytestmark = pytest.mark.usefixtures("disk_cache")


def test_every_claim_holds_for_the_workshops_sentence(results):
    assert verify(results) == len(CLAIMS)
    assert all(ok for _, ok in check(results))


def test_claims_are_every_chapters_claims_each_once():
    keys = [c.key for _, c in CLAIMS]
    assert len(keys) == len(set(keys)), "two claims share a key"
    pages = {c.key for _, _, claims in PAGES for c in claims}
    assert set(keys) == claim_keys(SECTIONS) | pages
    owner = {c.key: s.key for s in SECTIONS for c in s.claims}
    assert all(owner[c.key] == key for key, c in CLAIMS if key not in SUBJECTS), (
        "a claim is tested against another section's result"
    )


def test_a_false_claim_is_the_only_one_reported(results, monkeypatch):
    r = copy.deepcopy(results)
    edit("price", "per_head", lambda n: n + 1)(r, monkeypatch)
    assert [c.key for c, ok in check(r) if not ok] == ["price.per_head"]


def test_verify_names_every_false_claim_with_its_sentence(results, monkeypatch):
    r = copy.deepcopy(results)
    edit("price", "per_head", lambda n: n + 1)(r, monkeypatch)
    edit("order", "same", lambda s: False)(r, monkeypatch)
    with pytest.raises(ClaimError) as err:
        verify(r)
    msg = str(err.value)
    assert msg.startswith("2 claim(s) the pages make are no longer true")
    assert (
        "  - price.per_head: one GPT-2 head holds 147,456 numbers in W_Q, W_K, W_V"
        in msg
    )
    assert "  - order.blind: bank's output is the same in the reversed sentence" in msg
    assert isinstance(err.value, AssertionError), (
        "a ClaimError is an assertion about the content"
    )


def test_claims_about_the_default_sentence_are_skipped_for_others(results_other):
    checked = {c.key for c, _ in check(results_other)}
    default_only = {c.key for _, c in CLAIMS if c.default_only}
    assert (
        "wired.bank_looks_at_river" in default_only
        and "causal.last_row_unchanged" not in default_only
    )
    assert checked == {c.key for _, c in CLAIMS} - SKIPPED_FOR_OTHERS
    assert verify(results_other) == len(CLAIMS) - len(SKIPPED_FOR_OTHERS)


def test_a_false_general_claim_fails_for_another_sentence_too(
    results_other, monkeypatch
):
    r = copy.deepcopy(results_other)
    edit("causal", "weights", lambda w: w + 1e-9)(r, monkeypatch)
    with pytest.raises(ClaimError, match=r"causal\.future_is_zero"):
        verify(r)


def test_a_default_only_claim_is_not_checked_for_another_sentence(
    results_other, monkeypatch
):
    """A break that makes a default-only claim false does not fail a run on another sentence."""
    r = copy.deepcopy(results_other)
    # bank looks nowhere
    edit("wired_head", "weights", lambda w: np.full_like(w, 1 / len(w)))(r, monkeypatch)
    assert verify(r) == len(CLAIMS) - len(SKIPPED_FOR_OTHERS)


def test_every_claim_has_a_deliberate_break():
    """Each claim is shown failing by some chapter's test module: a claim added without a break fails here."""
    gathered: dict[str, int] = {}
    modules = chapter_tests()
    assert {m.__name__.rsplit(".", 1)[1] for m in modules} >= {
        "test_module_0",
        "test_module_3",
        "test_step_by_step",
    }, "the chapters' test modules were not found"
    for module in modules:
        for key, breaks in module.BREAKS.items():
            assert key not in gathered, f"{key} has breaks in two test modules"
            assert breaks, f"{module.__name__}: {key} has an empty tuple of breaks"
            gathered[key] = len(breaks)
    # The pages' own claims: Inside the model and Real heads list (key, how, break); the exam names its claims.
    for key, _, _ in (
        *test_inside_the_model.BREAKS,
        *test_real_heads.BREAKS,
        *test_causal_heads.BREAKS,
    ):
        gathered[key] = gathered.get(key, 0) + 1
    gathered.update({f"final_exam.{name}": 1 for name in test_final_exam.BREAKS})
    keys = {c.key for _, c in CLAIMS}
    assert not keys - set(gathered), (
        "claims no test shows can fail: add a break to BREAKS in the chapter's test module "
        f"(tests/test_<chapter>.py): {sorted(keys - set(gathered))}"
    )
    assert not set(gathered) - keys, (
        f"breaks for claims that do not exist: {sorted(set(gathered) - keys)}"
    )


# ---------------------------------------------------------------- what a false claim reports


def test_a_false_claim_shows_the_value_measured_and_the_pages_that_state_it(
    results, monkeypatch
):
    """The first causal row made [0.5, 0.5, 0]: the report says so, and names Module 3, where the sentence is."""
    r = copy.deepcopy(results)
    edit("causal", "weights", lambda w: row(w, 0, [0.5, 0.5, 0.0]))(r, monkeypatch)
    with pytest.raises(ClaimError) as err:
        verify(r)
    block = str(err.value).split("  - causal.first_row_on_itself: ")[1]
    assert block.splitlines()[1:3] == [
        "      measured: [0.5, 0.5, 0.0]",
        "      stated on: docs/module-3.md",
    ]


def test_without_a_measure_the_report_shows_the_fields_the_test_reads():
    from dataclasses import dataclass

    from attention_workshop.chapters import Claim
    from attention_workshop.experiment.claim_report import measured

    @dataclass(frozen=True)
    class Price:
        per_head: int
        share: float
        unread: str

    claim = Claim(
        "x.y",
        "a price",
        lambda r: r.per_head == 1 and r.share < 0.2,
        quantifier=Quantifier.FACT,
        sentence=None,
    )
    # `and` stops at the first false part: only what the test read is shown
    assert measured(claim, Price(2, 0.5, "never read")) == "per_head = 2"
    assert measured(claim, Price(1, 0.25, "never read")) == "per_head = 1; share = 0.25"
    broken = Claim(
        "x.z",
        "a claim whose measure fails",
        bool,
        quantifier=Quantifier.FACT,
        sentence=None,
        measure=lambda r: 1 / 0,
    )
    assert measured(broken, Price(1, 0.0, "")).startswith(
        "(could not be measured: ZeroDivisionError"
    )


def test_a_section_quoted_on_another_page_is_stated_on_both(results):
    """The PyTorch cross-check is Module 3's section, and Reproducing quotes its values too."""
    from attention_workshop.experiment.sources import stated_on

    assert stated_on("general_head") == ["module-3.md", "reproducing.md"]
    assert stated_on("wired_head") == ["module-2.md"]
    assert stated_on("final_exam") == ["final-exam.md"]
