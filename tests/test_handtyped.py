"""workshop_site/handtyped.py, the hand-typed number check: what it reports, what it leaves alone, the allow-list.

The values are made up here (a toy width of 4, a weight of 0.452, GPT-2's 768...): the check
compares text with text, so the tests need no experiment. One test runs it over the real pages
with the real values and the committed allow-list, as the build does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workshop_site import handtyped
from workshop_site.handtyped import Allowed, find, load_allowed, unused

ROOT = Path(__file__).resolve().parent.parent
ALLOW = ROOT / "hooks" / "handtyped_numbers.toml"

VALUES = {
    "toy.n_axes": "4",
    "toy.self_max": "0.452",
    "toy.out": "[0.504, −0.178]",
    "gpt2.n_embd": "768",
    "head.diff": "2.22e-16",
    "head.diff_sci": "2.22 × 10<sup>−16</sup>",
    "price.per_head": "147,456",
    "build.numpy": "2.4.6",
    "toy.lines": "31–57",
}


def reported(markdown: str, allowed=()) -> list[tuple[int, str, tuple[str, ...]]]:
    return [(f.line, f.number, f.placeholders) for f in find(markdown, VALUES, allowed)]


def test_a_toy_width_typed_next_to_the_placeholder_that_gives_it():
    md = "# Page\n\nThe toy has {{ toy.n_axes }} axes, so a word is a row of 4 numbers.\n"
    assert reported(md) == [(3, "4", ("toy.n_axes",))]


def test_a_small_number_written_as_a_value_is_reported_alone_it_is_a_word():
    assert reported("Scores are divided by $\\sqrt{d}$, where $d = 4$.") == [
        (1, "4", ("toy.n_axes",))
    ]
    # no placeholder gives 4 in the paragraph, no "=": four is just a word here
    assert reported("Each word is a row of 4 numbers.") == []
    # names, not quantities, even beside a placeholder that gives 4
    assert reported("Module 4 and step 4, with {{ toy.n_axes }} axes.") == []
    # 0 and 1 are the maths' own: e^0 = 1, rows sum to 1
    assert reported("$e^0 = 1$, and {{ toy.n_axes }} rows sum to 1.") == []


@pytest.mark.parametrize(
    ("typed", "keys"),
    [
        ("0.452", ("toy.self_max",)),
        ("−0.178", ("toy.out",)),  # an entry of a vector the build computes
        ("768", ("gpt2.n_embd",)),
        ("2.22e-16", ("head.diff", "head.diff_sci")),
        ("147,456", ("price.per_head",)),
    ],
)
def test_a_computed_number_typed_in_prose_names_its_placeholders(typed, keys):
    ((line, number, placeholders),) = reported(f"Intro.\n\nIt is {typed} here.\n")
    assert (line, number) == (3, typed.lstrip("−"))
    assert set(placeholders) == set(keys)


def test_a_number_that_looks_computed_is_reported_without_a_match():
    assert reported("The mean is 0.123456 and the count 1,234,567.") == [
        (1, "0.123456", ()),
        (1, "1,234,567", ()),
    ]
    assert reported("A short decimal such as 0.25, or 12 words.") == []


def test_code_comments_links_tags_and_placeholders_are_not_prose():
    md = "\n".join(
        [
            "```python",
            "x = 0.452",
            "```",
            "Inline `0.452`, <!-- 0.452 --> and [a link](page-0.452.md).",
            '<img src="a.svg" width="768" alt="">',
            "{{ toy.self_max }} and GPT-2 and the d2 binary, numpy 2.4.6.",
            "::: attention_workshop",
            "    options:",
            "      heading_level: 768",
            "## A heading { #part-768 }",
        ]
    )
    assert reported(md) == []


def test_an_allowed_number_passes_only_where_it_stands():
    md = "GPT-2's width is 768.\n\nElsewhere 768 again.\n"
    allow = [Allowed("p.md", "768", "GPT-2's width", "a definition")]
    assert reported(md, allow) == [(3, "768", ("gpt2.n_embd",))]
    assert unused(md, VALUES, allow) == []
    stale = Allowed("p.md", "768", "no such line", "gone")
    assert unused(md, VALUES, [stale]) == [stale]


def test_the_message_gives_the_line_the_placeholder_and_the_way_out():
    (finding,) = find("\n\nA width of 768.", VALUES)
    msg = handtyped.message("module-3.md", finding, "hooks/handtyped_numbers.toml")
    assert msg.startswith(
        "docs/module-3.md:3: 768 is typed by hand; the build computes it: write {{ gpt2.n_embd }}."
    )
    assert "hooks/handtyped_numbers.toml" in msg and "A width of 768." in msg


def test_an_allowance_without_a_reason_is_refused(tmp_path):
    path = tmp_path / "allow.toml"
    path.write_text('[[allow]]\npage = "a.md"\nnumber = "2"\ncontext = "d_k = 2"\n')
    with pytest.raises(
        ValueError, match=r"needs page, number, context and a reason; missing: reason"
    ):
        load_allowed(path)


def test_the_pages_type_no_computed_number_and_every_allowance_is_used(served):
    """What the build checks, page by page, with this build's values and the committed allow-list."""
    from workshop_site import site

    values, allowed = site.context(), load_allowed(ALLOW)
    problems, used = [], set()
    for page in sorted((ROOT / "docs").rglob("*.md")):
        name = page.relative_to(ROOT / "docs").as_posix()
        md = page.read_text(encoding="utf-8")
        mine = [a for a in allowed if a.page == name]
        problems += [
            handtyped.message(name, f, "allow-list") for f in find(md, values, mine)
        ]
        used |= {a for a in mine if a not in unused(md, values, mine)}
    assert not problems, "\n".join(problems)
    assert used == set(allowed), f"allowances that match nothing: {set(allowed) - used}"
    assert all(len(a.reason) > 20 for a in allowed), "every allowance says why"


def test_the_check_needs_nothing_outside_the_repository():
    """It used to be a script in a folder beside the clone, and its test skipped without it."""
    for path in [*ROOT.glob("tests/*.py"), *ROOT.glob("hooks/*.py"), ROOT / "Makefile"]:
        if path.resolve() == Path(__file__).resolve():
            continue
        text = path.read_text(encoding="utf-8")
        assert "../shared" not in text and '/ "shared"' not in text, path
