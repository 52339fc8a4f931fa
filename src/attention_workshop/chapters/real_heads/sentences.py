"""The sentences the "Real heads" page runs through all-MiniLM-L6-v2, each chosen for what it shows.

Data, like the exam's questions: the sentence, and the few words the page's table says it
was chosen for. The three "bank" sentences put "bank" at the same token position, so the
word goes into the first layer as the very same vector in all three.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Sentence",
    "SENTENCES",
    "BANK",
    "IT_ENDINGS",
    "IT_WORD",
    "NOUNS",
    "REPEAT",
    "LONG",
    "UNRELATED",
]


@dataclass(frozen=True)
class Sentence:
    """One sentence of the page.

    Attributes:
        key: a short stable name (file names, the page's picker, URLs).
        text: the sentence as the model reads it.
        shows: what it was chosen to show, in a few words (the page's table).
    """

    key: str
    text: str
    shows: str


SENTENCES: tuple[Sentence, ...] = (
    Sentence(
        "river",
        "We sat on the grassy river bank and watched the boats go by.",
        "bank beside a river",
    ),
    Sentence(
        "shore",
        "The boat drifted towards the steep bank of the river.",
        "bank beside a river, in another sentence",
    ),
    Sentence(
        "savings",
        "She kept her savings at the bank and never spent a penny.",
        "bank that keeps money",
    ),
    Sentence(
        "tired",
        "The animal didn't cross the street because it was too tired.",
        'what "it" means: the animal',
    ),
    Sentence(
        "wide",
        "The animal didn't cross the street because it was too wide.",
        'what "it" means: the street',
    ),
    Sentence(
        "repeat",
        "The cat sat on the mat, and then the cat sat on the mat again.",
        "a phrase said twice",
    ),
    Sentence(
        "long",
        "When the long winter finally ended, the people of the mountain village "
        "gathered in the square to share bread and plan the spring.",
        "a longer sentence",
    ),
)

#: The bank sentences: bank by a river, bank for money, and bank by a river again.
BANK: tuple[str, str, str] = ("river", "savings", "shore")
#: The coreference pair, by ending: "it" means the animal when tired, the street when wide.
IT_ENDINGS: tuple[str, str] = ("tired", "wide")
#: The word whose attention the pair measures, and the two nouns it may mean (in ending order).
IT_WORD = "it"
NOUNS: tuple[str, str] = ("animal", "street")
#: The sentence with a repeated phrase.
REPEAT = "repeat"
#: The longer sentence.
LONG = "long"
#: Words that have nothing to do with bank, each in its own sentence (none of them a bank
#: sentence): the nouns the baseline of bank's cosines compares bank's vector with.
UNRELATED: tuple[tuple[str, str], ...] = (
    ("tired", "animal"),
    ("tired", "street"),
    ("repeat", "cat"),
    ("repeat", "mat"),
    ("long", "winter"),
    ("long", "people"),
    ("long", "village"),
    ("long", "bread"),
)
