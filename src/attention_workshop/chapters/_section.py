"""What a chapter declares: its results.log sections, and the claims its page makes.

A **section** is one part of results.log: a key the pages quote it by, a title, and a
function that computes its numbers, writes its lines through a :class:`Context` and
returns them as a typed result (a frozen dataclass). A **claim** is a sentence a page
states about a result ("every row sums to 1") with a test over that result; the build's
claims runner evaluates every claim at every build. A claim also says what its test checks
(its :class:`Quantifier`: every element, the mean, ...) and which sentence of its page it
backs, so the build can tell a sentence that says more than the claim checks
(:mod:`workshop_site.claim_sentences`).

The context is given by the build (:mod:`attention_workshop.experiment.runner`): it holds
the sentence of the run, collects the lines and the values the prose quotes, and carries
the build's one number formatter and its PyTorch references. Chapters see them only
through the protocols below, so a chapter never imports the build.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import KW_ONLY, dataclass
from enum import Enum
from typing import Generic, Protocol, TypeVar

import numpy as np

__all__ = [
    "Claim",
    "Quantifier",
    "EVERY",
    "MEAN",
    "SOME",
    "MAX",
    "MIN",
    "FACT",
    "Section",
    "Context",
    "Fmt",
    "References",
    "R",
]

R = TypeVar("R")


class Fmt(Protocol):
    """The build's number formatter (:mod:`attention_workshop.experiment.fmt`)."""

    def fixed(self, x: float, nd: int = 3) -> str: ...
    def num(self, x: float, nd: int = 3) -> str: ...
    def sci(self, x: float) -> str: ...
    def sci_html(self, x: float) -> str: ...
    def count(self, n: int) -> str: ...
    def signed(self, x: float, nd: int = 3) -> str: ...
    def minus(self, s: str) -> str: ...
    def vec(self, v: Iterable[float], nd: int = 3) -> str: ...
    def short_vec(self, v: Iterable[float], nd: int = 3) -> str: ...
    def table(
        self,
        M: np.ndarray | Sequence[Sequence[float | str]],
        rows: Sequence[str],
        cols: Sequence[str],
        nd: int = 3,
        corner: str = "",
        width: int | None = None,
        label_width: int | None = None,
    ) -> list[str]: ...


class References(Protocol):
    """Reference implementations the experiment compares the package with (PyTorch, float64)."""

    def compare_with_torch(
        self,
        X: np.ndarray,
        W_Q: np.ndarray,
        W_K: np.ndarray,
        W_V: np.ndarray,
        causal: bool,
    ) -> float: ...
    def gpt2_attention_diff(
        self,
        x: np.ndarray,
        params: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        n_head: int,
    ) -> float: ...


class Context(Protocol):
    """What a section writes into, and what it may use."""

    @property
    def sentence(self) -> tuple[str, ...]: ...
    @property
    def seed(self) -> int: ...
    @property
    def fmt(self) -> Fmt: ...
    @property
    def refs(self) -> References: ...
    def log(self, *lines: str) -> None:
        """Append lines to the section (each indented by two spaces in results.log)."""

    def show(self, **values: str) -> None:
        """Values the prose may quote as ``{{ section.name }}``."""


class Quantifier(Enum):
    """What a claim's test checks: which sentences it can back (:mod:`workshop_site.claim_sentences`)."""

    EVERY = "every element"  # each row, every head, no word, in both sentences
    MEAN = "the mean"  # an average over the elements
    SOME = "at least one"  # some element, one or more
    MAX = "the maximum"  # the largest element, or which one it is
    MIN = "the minimum"  # the smallest element, or which one it is
    FACT = "a single fact"  # one number or one relation, nothing quantified


EVERY, MEAN, SOME, MAX, MIN, FACT = (
    Quantifier.EVERY,
    Quantifier.MEAN,
    Quantifier.SOME,
    Quantifier.MAX,
    Quantifier.MIN,
    Quantifier.FACT,
)


@dataclass(frozen=True)
class Claim(Generic[R]):
    """A sentence a page states about a result, and the test that keeps it true.

    Attributes:
        key: a stable name, ``"page_topic.what"``.
        text: the sentence, as the page states it.
        test: true while the sentence holds for a result.
        quantifier: what ``test`` checks (required, keyword): :data:`EVERY` element, the
            :data:`MEAN`, :data:`SOME` (at least one), the :data:`MAX` or :data:`MIN`, or a
            single :data:`FACT`. The page's sentence may not say more (``each`` needs EVERY).
        sentence: the page sentence the claim backs (required, keyword): a fragment of it as
            written in the page's Markdown, placeholders included (``"at least
            {{ real_heads.previous_min }}"``), or None when no sentence of a page states it.
        default_only: true only of the workshop's own sentence (skipped for another ``--sentence``).
        measure: optional: the value(s) the sentence is about, from a result, shown when the claim
            fails (``lambda r: r.weights[0]``). Without it, a failing claim shows the fields of the
            result its test reads.
    """

    key: str
    text: str
    test: Callable[[R], bool]
    _: KW_ONLY
    quantifier: Quantifier
    sentence: str | None
    default_only: bool = False
    measure: Callable[[R], object] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.quantifier, Quantifier):
            names = ", ".join(q.name for q in Quantifier)
            raise TypeError(f"{self.key}: quantifier must be one of {names}")
        if self.sentence is not None and not self.sentence.strip():
            raise ValueError(
                f"{self.key}: sentence is empty (write None for no sentence)"
            )


@dataclass(frozen=True)
class Section(Generic[R]):
    """One section of results.log: ``[key] title``, then the lines ``run`` writes.

    Attributes:
        key: how pages quote it (``log_excerpt("causal")``, ``{{ causal.last_row }}``) and its
            label in results.log (``[causal]``): lower case, digits and ``_``, unique.
        title: the heading line of the section.
        run: computes the section, writes its lines and values through the context, returns its result.
        claims: what the pages claim about the result.
    """

    key: str
    title: str
    run: Callable[[Context], R]
    claims: tuple[Claim[R], ...] = ()
