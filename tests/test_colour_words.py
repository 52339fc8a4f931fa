"""The colour-word check (workshop_site.colour_words): a shade or hue word against the colours drawn."""

from __future__ import annotations

from pathlib import Path

import pytest

from workshop_site import colour_words as cw

ASSETS = Path(__file__).resolve().parents[1] / "docs" / "assets"


def _problems(page: str, text: str) -> list[str]:
    return cw.problems(page, f"<p>{text}</p>", ASSETS)


@pytest.mark.parametrize(
    ("colour", "expected"),
    # WCAG 2's own reference points, and mid grey worked by hand: ((0x77/255 + .055) / 1.055) ** 2.4
    [("#ffffff", 1.0), ("#000000", 0.0), ("#777777", 0.18447), ("#ff0000", 0.2126)],
)
def test_luminance_matches_wcag(colour: str, expected: float) -> None:
    assert cw.luminance(colour) == pytest.approx(expected, abs=1e-5)


@pytest.mark.parametrize(
    ("colour", "word"),
    [
        ("#ff0000", "red"),
        ("#1f6feb", "blue"),
        ("#d9480f", "orange"),
        ("#2e7d32", "green"),
        ("#808080", None),
    ],
)
def test_hue_names_the_colour(colour: str, word: str | None) -> None:
    assert cw.hue(colour) == word


def test_css_colours_reads_both_schemes() -> None:
    css = """.a { --x: #111111; --y: #222222; /* --z: #333333 */ }
    [data-md-color-scheme="slate"] .a { --x: #eeeeee; }"""
    assert cw.css_colours(css) == {
        "light": {"--x": "#111111", "--y": "#222222"},
        "dark": {"--x": "#eeeeee", "--y": "#222222"},
    }


@pytest.mark.parametrize(
    "page", ["causal-heads.md", "real-heads.md", "module-1.md", "print.md"]
)
def test_darker_for_more_is_false_in_the_dark_scheme(page: str) -> None:
    found = _problems(page, "A darker cell gives more weight to the token.")
    assert found and all('"darker" is false in the dark scheme' in f for f in found)
    assert all(f.startswith(f"{page}: ") for f in found)


def test_a_shade_said_outright_is_checked_too() -> None:
    # the causal page's caption once said it of its strongest cells, dark blue in the light scheme
    found = _problems(
        "causal-heads.md", "Its bright cells sit just left of the diagonal."
    )
    assert found and all('"bright" is false in the light scheme' in f for f in found)
    assert not _problems(
        "causal-heads.md", "Its strongest cells sit left of the diagonal."
    )


def test_lighter_for_more_is_false_in_the_light_scheme() -> None:
    found = _problems("real-heads.md", "Each row is lighter where a weight is larger.")
    assert found and all("false in the light scheme" in f for f in found)


def test_a_word_for_less_turns_the_shade_round() -> None:
    assert _problems("module-1.md", "A darker cell means a smaller weight.")
    assert all(
        "false in the light scheme" in f
        for f in _problems("module-1.md", "A darker cell means a smaller weight.")
    )
    lighter = _problems("module-1.md", "A lighter cell means a smaller weight.")
    assert lighter and all("false in the dark scheme" in f for f in lighter)


def test_a_sentence_that_says_it_for_each_scheme_passes() -> None:
    each = "Its colour is stronger (darker in the light scheme, lighter in the dark scheme) for more weight."
    for page in ("causal-heads.md", "real-heads.md", "module-2.md", "print.md"):
        assert _problems(page, each) == []


def test_each_part_is_checked_in_its_own_scheme() -> None:
    wrong = "Darker in the dark scheme, lighter in the light scheme, for more weight."
    found = _problems("causal-heads.md", wrong)
    assert any('"darker" is false in the dark scheme' in f for f in found)
    assert any('"lighter" is false in the light scheme' in f for f in found)


def test_alt_texts_and_captions_are_read() -> None:
    page = '<img alt="Every head: brighter for more weight" src="x.svg"><figcaption>ok.</figcaption>'
    assert cw.problems("module-1.md", page, ASSETS)
    assert not cw.problems(
        "module-1.md", "<pre><code>darker for more</code></pre>", ASSETS
    )


def test_hues_against_the_maps_that_draw_them() -> None:
    assert not _problems(
        "inside-the-model.md",
        "The colour (blue for positive, orange for negative) repeats it.",
    )
    assert _problems("inside-the-model.md", "Red for positive.")
    assert _problems(
        "module-1.md", "Orange cells weigh more."
    )  # the heat maps have no orange
