"""workshop_site/fonts.py and hooks/fonts.py: the site serves the math font cut to its formulas' glyphs.

Checked against the full font (read here with fontTools, not through the code under test): every
character a formula of the built site draws has its glyph in the subset (a root's U+221A
included, which no text of the formula holds), the ``MATH`` table and the size variants and
assembly parts of a bracket and of the radical survive, the whole font never reaches the site, and in Chromium
a bracket around a fraction stretches (taller than one around a letter), with the subset loaded,
and every root on every page draws its sign (wider than what it holds) at 1280 and 375 px.
"""

from __future__ import annotations

import functools
import io
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest

from workshop_site import fonts

from .conftest import load_hook
from .sweep import DETAILS, probe

ROOT = Path(__file__).resolve().parent.parent
FULL = ROOT / "docs" / "assets" / "fonts" / "latinmodern-math.otf"


def _page(src: str, dest: str) -> SimpleNamespace:
    """A nav page as hooks/fonts.py reads it: its docs/ source and its file in the site."""
    return SimpleNamespace(file=SimpleNamespace(src_uri=src, dest_uri=dest))


def _font(data: bytes):
    from fontTools.ttLib import TTFont

    return TTFont(io.BytesIO(data))


class _MathText(HTMLParser):
    """The text inside every <math> element, each one-letter <mi>, and a radical sign per root."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth, self.tag, self.text, self.letters = 0, "", [], []

    def handle_starttag(self, tag, attrs):
        self.depth += tag == "math"
        self.tag = tag
        # MathML Core: <msqrt> and <mroot> draw U+221A SQUARE ROOT from the math font
        if self.depth and tag in ("msqrt", "mroot"):
            self.text.append("\u221a")

    def handle_endtag(self, tag):
        self.depth -= tag == "math"

    def handle_data(self, data):
        if self.depth:
            self.text.append(data)
            if self.tag == "mi" and len(data.strip()) == 1:
                self.letters.append(data.strip())


def test_math_text_reads_formulas_and_italic_letters():
    page = "<p>x</p><math><mrow><mi>x</mi><mo>=</mo><mfrac><mn>1</mn><mi>h</mi></mfrac></mrow></math>"
    chars = fonts.math_text(page)
    # U+1D465 MATHEMATICAL ITALIC SMALL X; italic h is U+210E PLANCK CONSTANT
    assert {"x", "=", "1", "h", "\U0001d465", "\u210e"} <= chars
    assert "p" not in chars


def test_a_root_needs_the_radical_sign_though_no_text_holds_it():
    root = "<math><msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt></math>"
    cube = "<math><mroot><mi>x</mi><mn>3</mn></mroot></math>"
    assert "\u221a" in fonts.math_text(root) and "\u221a" in fonts.math_text(cube)
    assert "\u221a" not in fonts.math_text(
        "<math><msub><mi>d</mi><mi>k</mi></msub></math>"
    )


@pytest.mark.site
def test_every_formula_character_has_its_glyph_in_the_subset(built_site):
    subset = _font((built_site / fonts.SUBSET).read_bytes())
    full = _font(FULL.read_bytes())
    parser = _MathText()
    for page in built_site.rglob("*.html"):
        parser.feed(page.read_text(encoding="utf-8"))
    drawn = set("".join(parser.text)) - set(" \n\t")
    # MathML's automatic italic, by Unicode's table: a..z -> U+1D44E.., h -> U+210E
    for letter in parser.letters:
        if "a" <= letter <= "z":
            drawn.add(
                "\u210e" if letter == "h" else chr(0x1D44E + ord(letter) - ord("a"))
            )
        elif "A" <= letter <= "Z":
            drawn.add(chr(0x1D434 + ord(letter) - ord("A")))
    assert len(drawn) > 30, "the site's formulas draw more characters than that"
    in_full = {c for c in drawn if ord(c) in full.getBestCmap()}
    missing = sorted(c for c in in_full if ord(c) not in subset.getBestCmap())
    assert missing == [], f"the subset lacks {missing}"


@pytest.mark.site
@pytest.mark.parametrize("char", ["(", "\u221a"], ids=["bracket", "radical"])
def test_the_subset_keeps_the_math_table_and_the_sizes_of(built_site, char):
    data = (built_site / fonts.SUBSET).read_bytes()
    assert data[:4] == b"wOFF" and len(data) < FULL.stat().st_size / 10
    subset, full = _font(data), _font(FULL.read_bytes())
    assert "MATH" in subset
    glyph = full.getBestCmap()[ord(char)]
    assert subset.getBestCmap().get(ord(char)) == glyph, f"the subset lacks {char!r}"
    variants = full["MATH"].table.MathVariants
    index = variants.VertGlyphCoverage.glyphs.index(glyph)
    construction = variants.VertGlyphConstruction[index]
    sizes = [v.VariantGlyph for v in construction.MathGlyphVariantRecord]
    assert len(sizes) > 3 and set(sizes) <= set(subset.getGlyphOrder()), sizes
    parts = [p.glyph for p in construction.GlyphAssembly.PartRecords]
    assert parts and set(parts) <= set(subset.getGlyphOrder()), parts


@pytest.mark.site
def test_the_site_serves_the_subset_and_never_the_whole_font(built_site):
    assert not list(built_site.rglob("*.otf"))
    css = (built_site / "assets" / "workshop.css").read_text(encoding="utf-8")
    url = re.search(r'url\("([^"]+)"\) format\("woff"\)', css)
    assert url and (built_site / "assets" / url.group(1)).is_file()
    licence = built_site / "assets" / "fonts" / "LICENSE-latinmodern-math.txt"
    assert licence.is_file(), "the font's licence ships beside it"


# ---------------------------------------------------------------- what the shipped font lacks fails the build

#: A page with a root (U+221A, which no text of it holds), and one with stretchy and fixed fences.
ROOT_PAGE = "<p>z</p><math><mfrac><mi>q</mi><msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt></mfrac></math>"
FENCE_PAGE = (
    '<math><mrow><mo stretchy="true" fence="true" form="prefix">(</mo><mi>x</mi>'
    '<mo stretchy="true" fence="true" form="postfix">)</mo><mo stretchy="false">[</mo></mrow></math>'
)
#: U+2603 SNOWMAN, a character Latin Modern Math has no glyph for (checked in the test).
SNOW_PAGE = "<math><mrow><mi>a</mi><mo>\u2603</mo><mi>b</mi></mrow></math>"


@functools.cache
def _cut(chars: str, keep_math: bool = True) -> bytes:
    """The full font cut to ``chars`` by fontTools itself (not build.fonts.subset); without its
    ``MATH`` table when ``keep_math`` is false."""
    from fontTools import subset as ft_subset

    options = ft_subset.Options()
    options.layout_features = ["*"]
    if not keep_math:
        options.drop_tables = [*options.drop_tables, "MATH"]
    font = _font(FULL.read_bytes())
    subsetter = ft_subset.Subsetter(options)
    subsetter.populate(text=chars)
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _drawn(uses, but: str = "") -> str:
    return "".join(sorted({ch for ch, _, _ in uses} - set(but)))


def test_needs_says_how_each_character_is_drawn():
    got = fonts.needs(ROOT_PAGE + FENCE_PAGE)
    assert got["\u221a"] == "radical", got
    assert got["("] == got[")"] == "stretchy", got
    # a fence marked stretchy="false", a letter and its automatic italic (U+1D45E) are characters
    assert got["["] == got["q"] == got["\U0001d45e"] == "character", got
    assert "z" not in got, "text outside the formulas"


def test_the_first_page_in_reading_order_is_named():
    order = [
        ("docs/b.md", FENCE_PAGE),
        ("docs/a.md", ROOT_PAGE),
        ("docs/c.md", ROOT_PAGE),
    ]
    uses = fonts.first_uses(order)
    assert ("\u221a", "radical", "docs/a.md") in uses
    assert ("(", "stretchy", "docs/b.md") in uses
    assert [u for u in uses if u[2] == "docs/c.md"] == [], "c.md draws nothing first"


def test_a_subset_without_the_radical_fails_naming_it_and_the_first_page():
    """The deliberate break of the bug: a subset of every character the formulas draw but U+221A."""
    order = [("docs/module-1.md", FENCE_PAGE), ("docs/module-2.md", ROOT_PAGE)]
    order += [("docs/step-by-step.md", ROOT_PAGE)]
    uses = fonts.first_uses(order)
    full = FULL.read_bytes()
    problems = fonts.lacking(_cut(_drawn(uses, but="\u221a")), full, uses)
    assert [where for where, _ in problems] == ["docs/module-2.md"], problems
    message = problems[0][1]
    assert message.startswith("docs/module-2.md (the first page that needs it): "), (
        message
    )
    assert "U+221A SQUARE ROOT (\u221a) as a root's sign" in message, message
    assert f"lacks it, though docs/{fonts.FONT} has it" in message, message
    # the control: the same subset with U+221A lacks nothing
    assert fonts.lacking(_cut(_drawn(uses)), full, uses) == []


def test_a_subset_without_the_math_tables_sizes_fails_naming_the_lost_glyphs():
    uses = fonts.first_uses([("docs/module-3.md", FENCE_PAGE + ROOT_PAGE)])
    problems = fonts.lacking(
        _cut(_drawn(uses), keep_math=False), FULL.read_bytes(), uses
    )
    full = _font(FULL.read_bytes())
    variants = full["MATH"].table.MathVariants
    said = {}
    for ch in "()\u221a":
        glyph = full.getBestCmap()[ord(ch)]
        grows = variants.VertGlyphConstruction[
            variants.VertGlyphCoverage.glyphs.index(glyph)
        ]
        sizes = [v.VariantGlyph for v in grows.MathGlyphVariantRecord]
        parts = [p.glyph for p in grows.GlyphAssembly.PartRecords]
        (message,) = [m for _, m in problems if f"({ch})" in m]
        said[ch] = message
        assert (
            message.startswith("docs/module-3.md")
            and "lacks the glyphs that make it grow" in message
        )
        missing = [g for g in sizes[1:] + parts if g not in message]
        assert missing == [], f"{ch}: the message names none of {missing}: {message}"
    assert "U+0028 LEFT PARENTHESIS (() as a stretchy operator" in said["("], said
    assert "as a root's sign" in said["\u221a"], said


def test_a_character_the_whole_font_lacks_fails_naming_it_and_the_first_page():
    assert 0x2603 not in _font(FULL.read_bytes()).getBestCmap()
    order = [("docs/module-0.md", FENCE_PAGE), ("docs/module-3.md", SNOW_PAGE)]
    order += [("docs/notation.md", SNOW_PAGE)]
    uses = fonts.first_uses(order)
    problems = fonts.lacking(_cut(_drawn(uses)), FULL.read_bytes(), uses)
    assert problems == [
        (
            "docs/module-3.md",
            "docs/module-3.md (the first page that needs it): a formula draws "
            "U+2603 SNOWMAN (\u2603), and the math font (docs/assets/fonts/latinmodern-math.otf) "
            "has no glyph for it: write the formula without it",
        )
    ]


def test_an_operator_stretched_that_the_font_cannot_grow_fails():
    full = _font(FULL.read_bytes())
    variants = full["MATH"].table.MathVariants
    a = full.getBestCmap()[ord("a")]
    assert (
        a not in variants.VertGlyphCoverage.glyphs + variants.HorizGlyphCoverage.glyphs
    )
    uses = fonts.first_uses([("docs/x.md", '<math><mo stretchy="true">a</mo></math>')])
    problems = fonts.lacking(_cut(_drawn(uses)), FULL.read_bytes(), uses)
    assert [m for _, m in problems] == [
        "docs/x.md (the first page that needs it): a formula draws U+0061 LATIN SMALL LETTER A (a) "
        "as a stretchy operator, and the math font (docs/assets/fonts/latinmodern-math.otf) has "
        "no sizes to grow it with: it cannot stretch"
    ]


def test_the_hook_reports_what_the_subset_lacks_as_a_problem_of_the_first_page(
    tmp_path, monkeypatch
):
    """hooks/fonts.py as MkDocs runs it, the subset cut without U+221A: one problem, on the
    first page of the nav that draws a root (module-2 before module-1 here, against path order)."""
    hook = load_hook("fonts")
    common = sys.modules["_workshop_common"]
    site = tmp_path / "site"
    written = {"index.html": "<p>home</p>", "module-1/index.html": ROOT_PAGE}
    written |= {"module-2/index.html": ROOT_PAGE, "404.html": FENCE_PAGE}
    for dest, text in written.items():
        (site / dest).parent.mkdir(parents=True, exist_ok=True)
        (site / dest).write_text(text, encoding="utf-8")
    order = [("index.md", "index.html"), ("module-2.md", "module-2/index.html")]
    order += [("module-1.md", "module-1/index.html")]
    nav = SimpleNamespace(pages=[_page(src, dest) for src, dest in order])
    monkeypatch.setattr(
        fonts, "subset", lambda font, chars: _cut(chars.replace("\u221a", ""))
    )
    config = SimpleNamespace(
        site_dir=str(site), docs_dir=str(ROOT / "docs"), strict=True
    )
    common.PROBLEMS.clear()
    try:
        hook.on_nav(nav, config, SimpleNamespace(documentation_pages=list))
        hook.on_post_build(config)
        problems = dict(common.PROBLEMS)
    finally:
        common.PROBLEMS.clear()
    assert list(problems) == ["module-2.md"], problems
    (message,) = problems["module-2.md"]
    assert message.startswith("docs/module-2.md (the first page that needs it): ")
    assert "U+221A SQUARE ROOT" in message
    shipped = _font((site / fonts.SUBSET).read_bytes()).getBestCmap()
    assert 0x221A not in shipped and ord("(") in shipped, (
        "the hook ships the subset it checked"
    )


BRACKETS = """
() => {
  const box = document.createElement("div");
  box.className = "md-typeset";
  box.innerHTML = '<p><math id="tall" display="block"><mrow><mo>(</mo>'
    + '<mfrac><mi>a</mi><mi>b</mi></mfrac><mo>)</mo></mrow></math> '
    + '<math id="flat" display="block"><mrow><mo>(</mo><mi>a</mi><mo>)</mo></mrow></math></p>';
  document.querySelector("article").append(box);
  return document.fonts.ready.then(() => {
    const h = (id) => document.querySelector(`#${id} mo`).getBoundingClientRect().height;
    const font = performance.getEntriesByType("resource").map((e) => e.name).filter((n) => n.includes("latinmodern"));
    return { tall: h("tall"), flat: h("flat"), font, loaded: document.fonts.check('16px "Latin Modern Math"') };
  });
}
"""


@pytest.mark.browser
def test_a_bracket_around_a_fraction_stretches(page_and_log, site_url):
    page, log = page_and_log
    page.goto(site_url + "module-3/")
    got = page.evaluate(BRACKETS)
    assert got["loaded"] and [Path(u).name for u in got["font"]] == [
        Path(fonts.SUBSET).name
    ], got
    assert got["tall"] > 1.4 * got["flat"], got
    # the control: in a font without a MATH table the same bracket does not stretch
    heights = page.evaluate(
        """() => [...document.querySelectorAll('#tall mo, #flat mo')].map((m) => {
            m.style.fontFamily = 'serif'; return m.getBoundingClientRect().height; })"""
    )
    assert max(heights) < 1.2 * min(heights), heights
    assert log.console_errors == [] and log.foreign_requests == []


#: On the open page, every details block opened: each root of the page, drawn (its width, and the
#: width of what is under the sign, in ems of its font), a ``d_k`` with and without a root (taken
#: away again after), and the advance of U+221A on a canvas in the math font with two different
#: fallbacks behind it.
ROOTS = """
() => {
  for (const d of document.querySelectorAll("article details")) d.open = true;
  const box = document.createElement("div");
  box.className = "md-typeset";
  box.innerHTML = '<p><math id="with-root"><msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt></math> '
    + '<math id="without-root"><msub><mi>d</mi><mi>k</mi></msub></math></p>';
  document.querySelector("article").append(box);
  return document.fonts.ready.then(() => {
    const em = (e) => parseFloat(getComputedStyle(e).fontSize);
    const width = (e) => e.getBoundingClientRect().width;
    const under = (r) => {
      const boxes = [...r.children].map((c) => c.getBoundingClientRect());
      return Math.max(...boxes.map((b) => b.right)) - Math.min(...boxes.map((b) => b.left));
    };
    const roots = [...document.querySelectorAll("article math msqrt")].filter((r) => width(r) > 0)
      .map((r) => ({ tex: r.closest(".math")?.querySelector("code.workshop-tex")?.textContent ?? "this test's own",
                     extra: (width(r) - under(r)) / em(r) }));
    const ctx = document.createElement("canvas").getContext("2d");
    const advance = (family) => { ctx.font = `40px ${family}`; return ctx.measureText("\\u221a").width; };
    const got = {
      roots, shown: roots.length,
      withRoot: width(document.querySelector("#with-root")),
      withoutRoot: width(document.querySelector("#without-root")),
      em: em(document.querySelector("#with-root")),
      inMathSerif: advance('"Latin Modern Math", serif'),
      inMathMono: advance('"Latin Modern Math", monospace'),
      serif: advance("serif"), mono: advance("monospace"),
    };
    box.remove();  // the page as it was, for the next check that looks at it
    return got;
  });
}
"""


def _root_pages(built_site: Path) -> dict[str, int]:
    """The pages whose formulas take a square root: URL -> how many ``<msqrt>`` its HTML holds."""
    pages = {}
    for p in sorted(built_site.rglob("*.html")):
        if n := p.read_text(encoding="utf-8").count("<msqrt"):
            pages[p.relative_to(built_site).as_posix().removesuffix("index.html")] = n
    return pages


def _has_a_root(visit) -> bool:
    """Whether a formula of the page takes a square root (as :func:`_root_pages` finds them)."""
    return "<msqrt" in visit.html.read_text(encoding="utf-8")


@probe("roots", DETAILS + 20, [("light", 1280), ("light", 375)], _has_a_root)
def _roots(page, visit) -> dict:
    """Every reveal open: :data:`ROOTS`."""
    return page.evaluate(ROOTS)


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 375])
def test_every_root_draws_its_sign(sweep, built_site, width):
    """Chromium draws the radical: a root is wider than what it holds by the sign's width, on
    every page at both widths, and the math font itself has the glyph (a canvas draws U+221A the
    same whichever fallback font follows it). Before the fix, a root was exactly as wide as its
    d_k and the canvas fell back to serif and monospace."""
    pages = _root_pages(built_site)
    assert len(pages) >= 5, pages
    visits = {v.url: v for v in sweep.visits("roots", "light", width)}
    problems = []
    for url, n in pages.items():
        got = visits[url]["roots"]
        # every root of the page is laid out (reveals opened), and this test's own
        assert got["shown"] == n + 1, f"{url}: {got['shown'] - 1} of {n} roots drawn"
        problems += [
            f"{url or 'home'} ({width} px): {r['tex']!r} is only {r['extra']:.2f} em wider "
            "than what its root holds"
            for r in got["roots"]
            if r["extra"] < 0.4
        ]
    assert not problems, "\n".join(problems)
    # the same d_k, with and without its root: the sign adds at least half an em
    assert got["withRoot"] - got["withoutRoot"] > 0.5 * got["em"], got
    # the glyph comes from the math font: no fallback is asked (the two fallbacks differ)
    assert got["serif"] != got["mono"], got
    assert got["inMathSerif"] == got["inMathMono"], got
