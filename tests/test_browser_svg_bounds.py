"""Every SVG the site ships, drawn by Chromium at its own size: no text runs past the figure's edge.

The build's overlap check (experiment/overlaps.py) estimates text boxes without a renderer;
here the browser lays each file out and measures every ``<text>`` as drawn (transforms and
the real font included). A reader's own sentence reaches the same code through the command
line of Real heads, so the grid's title is also measured with a sentence far longer than the
site's. The check is shown to fail on a figure whose text runs out on purpose.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from attention_workshop.experiment.head_figures import grid_svg

pytestmark = pytest.mark.browser

#: Each ``<text>`` of the open SVG document that lies, as drawn, outside the SVG's box (1 px of slack).
_OUTSIDE = """() => {
  const s = document.querySelector('svg');
  if (!s) return [];
  const R = s.getBoundingClientRect(), out = [];
  for (const t of s.querySelectorAll('text')) {
    if (!t.textContent.trim()) continue;
    const b = t.getBoundingClientRect();
    if (b.left < R.left - 1 || b.top < R.top - 1 || b.right > R.right + 1 || b.bottom > R.bottom + 1)
      out.push(`"${t.textContent.slice(0, 50)}" drawn at x ${Math.round(b.left - R.left)} to `
        + `${Math.round(b.right - R.left)}, y ${Math.round(b.top - R.top)} to `
        + `${Math.round(b.bottom - R.top)}, in a figure ${Math.round(R.width)} x ${Math.round(R.height)}`);
  }
  return out;
}"""


def _outside(browser, files: list[Path]) -> dict[str, list[str]]:
    """``{file: [text outside, ...]}`` for each SVG file that has any."""
    page = browser.new_page()
    try:
        bad = {}
        for f in files:
            page.goto(f.resolve().as_uri())
            if found := page.evaluate(_OUTSIDE):
                bad[str(f)] = found
        return bad
    finally:
        page.close()


def test_no_text_of_any_shipped_svg_runs_past_its_edge(browser, built_site):
    files = sorted(built_site.rglob("*.svg"))
    assert len(files) > 20, f"only {len(files)} SVG files in the built site"
    bad = _outside(browser, files)
    assert not bad, "text outside its figure:\n" + "\n".join(
        f"{Path(f).relative_to(built_site)}: {texts}" for f, texts in bad.items()
    )


def _grid(title: str, tmp_path: Path) -> Path:
    """A grid of 2 layers of 3 heads over 4 tokens, with ``title``, written to a file."""
    rng = np.random.default_rng(0)
    att = rng.random((2, 3, 4, 4))
    att /= att.sum(-1, keepdims=True)
    labels = [[f"prev\n{h + 1}" for h in range(3)] for _ in range(2)]
    path = tmp_path / "grid.svg"
    path.write_text(grid_svg(att, labels, title, "A test grid."), encoding="utf-8")
    return path


def test_a_long_sentence_title_wraps_inside_the_grid(browser, tmp_path):
    sentence = " ".join(["a long and winding sentence of a reader's own"] * 6)
    path = _grid(f'All heads: "{sentence}"', tmp_path)
    assert _outside(browser, [path]) == {}
    # every word of the title is still drawn, in order, over several lines
    text = path.read_text(encoding="utf-8")
    lines = [
        ln.split(">", 1)[1].removesuffix("</text>")
        for ln in text.splitlines()
        if 'font-size="15"' in ln
    ]
    assert len(lines) > 1
    assert " ".join(lines) == f'All heads: "{sentence}"'


def test_the_check_sees_text_that_runs_out(browser, tmp_path):
    broken = tmp_path / "broken.svg"
    broken.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 40" width="100" height="40">'
        '<text x="8" y="20" font-size="15">a title much too long for this figure</text></svg>'
    )
    bad = _outside(browser, [broken])
    assert list(bad) == [str(broken)] and "a title much too long" in bad[str(broken)][0]
