"""workshop_site/notation.py: the site's one notation, checked against the pages' Markdown, and each break of it caught.

The pages are read from docs/ in the navigation's order (mkdocs.yml), as hooks/notation.py reads them;
every kind of break is made on purpose in a copy of their text and must be named.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from workshop_site import notation

ROOT = Path(__file__).resolve().parent.parent


def _nav_files(nav) -> list[str]:
    if isinstance(nav, str):
        return [nav] if nav.endswith(".md") else []
    if isinstance(nav, dict):
        return [f for v in nav.values() for f in _nav_files(v)]
    return [f for v in nav for f in _nav_files(v)]


class _Loader(yaml.SafeLoader):
    """mkdocs.yml with its !!python and !ENV tags (none are needed to read the nav) read as plain values."""


_Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda *a: None)
# !ENV [NAME, default]: an environment value (site_url, repo_url), not part of the nav
_Loader.add_constructor("!ENV", lambda *a: None)


def pages() -> list[tuple[str, str]]:
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), _Loader)
    return [
        (f, (ROOT / "docs" / f).read_text(encoding="utf-8"))
        for f in _nav_files(config["nav"])
    ]


PAGES = pages()


def edit(path: str, old: str, new: str, count: int = 1) -> list[tuple[str, str]]:
    """The pages, with ``old`` replaced by ``new`` on ``path`` (``old`` must be there)."""
    out = []
    for p, md in PAGES:
        if p == path:
            assert old in md, f"{old!r} is not on {path}"
            md = md.replace(old, new, count)
        out.append((p, md))
    return out


def test_the_pages_keep_to_the_notation():
    assert notation.check(PAGES) == []


def test_every_entry_names_a_page_with_its_anchor():
    anchors = {}
    for p, md in PAGES:
        anchors[p] = set(re.findall(r"\{ #([\w-]+) \}", md))
    for e in notation.entries():
        page, _, anchor = e.page.partition("#")
        assert anchor in anchors[page], f"{e.label}: no section #{anchor} on {page}"
        assert bool(e.tex) != bool(e.term), f"{e.name}: a symbol or a term, not both"


def test_the_notation_covers_the_symbols_the_pages_write_alone():
    """Every formula that is one symbol on a Learn page is in the table (or is a number or an index)."""
    known = {e.tex for e in notation.entries() if e.tex}
    learn = [
        md for p, md in PAGES if p.startswith(("module-", "step-by-step", "inside"))
    ]
    alone = {m for md in learn for m in notation.math_segments(md)}
    single = {m for m in alone if re.fullmatch(r"\\?[A-Za-z]+(?:_\{?[\\\w{}]+\}?)?", m)}
    # indices and variables of a sentence (i, j, a, b, x, y) and named functions are not notation
    ordinary = {"i", "j", "a", "b", "x", "y", "m", "e", "w", "q_3", "d"}
    missing = sorted(single - known - ordinary)
    assert not missing, (
        f"symbols the pages write but notation.toml does not list: {missing}"
    )


@pytest.mark.parametrize(
    ("pages", "expected"),
    [
        # a ruled-out spelling, in a formula and in prose
        (
            edit("module-2.md", "$W_Q$", "$W_q$"),
            "module-2.md: writes 'W_q'; the site writes $W_Q$",
        ),
        (
            edit("module-3.md", "inputs:", "inputs (W_v among them):"),
            "module-3.md: writes 'W_v'; the site writes $W_V$",
        ),
        # a symbol written before the page that introduces it
        (
            edit(
                "module-1.md", "the square root of the", "the square root of $d_k$, the"
            ),
            "$d_k$: module-1.md writes it before module-2.md#queries-keys-values introduces it",
        ),
        # an alias outside its page
        (
            edit("module-3.md", "$d_k = {{", "$d_{\\text{head}} = {{"),
            "$d_{\\text{head}}$: module-3.md writes it (another name, used only on inside-the-model.md)",
        ),
        # the introducing page no longer writes it
        (
            [
                (p, md.replace("$X$", "X") if p == "module-0.md" else md)
                for p, md in PAGES
            ],
            "$X$: module-0.md introduces it but never writes it",
        ),
        # a term whose page is gone from the site
        (
            [(p, md) for p, md in PAGES if p != "inside-the-model.md"],
            '"LayerNorm": its page inside-the-model.md is not a page of the site',
        ),
    ],
    ids=[
        "never-in-math",
        "never-in-prose",
        "before",
        "alias",
        "not-written",
        "no-page",
    ],
)
def test_each_break_of_the_notation_is_named(pages, expected):
    assert expected in notation.check(pages)


def test_code_and_results_log_may_keep_their_names():
    """Inline code and code blocks (the package's source, results.log excerpts) are not prose."""
    pages = edit(
        "module-3.md",
        "Its three",
        "The log writes `W_q`, and\n\n```text\nW_q + W_k\n```\n\nIts three",
    )
    assert notation.check(pages) == []


def test_hover_definitions():
    abbr = notation.abbreviations()
    assert (
        "*[softmax]: Turns a row of scores into positive weights that add up to 1.\n"
        in abbr
    )
    assert all(line.startswith("*[") for line in abbr.splitlines())
    titles = notation.symbol_titles()
    assert titles["W_Q"].startswith("W Q, the query matrix. Turns a word's row")
    assert set(titles) == {e.tex for e in notation.entries() if e.tex}


def test_the_table_lists_every_entry_with_its_page():
    table = notation.table()
    rows = table.splitlines()[2:]
    assert len(rows) == len(notation.entries())
    assert "| $W_O$ | **W O, the output projection.**" in table
    assert "[Module 3](module-3.md#price-tag) |" in table
    assert (
        "| *softmax* |" in table
        and "[Inside the model](inside-the-model.md#scale)" in table
    )


def test_every_page_the_table_links_to_is_named_by_its_title():
    """The "Introduced in" column names each page as the navigation does (its title's start),
    never by its file: the causal page's entries read "causal-heads.md"."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:", 1)[1]
    titles = {page: t for t, page in re.findall(r"^\s*- (.+?): (\S+\.md)$", nav, re.M)}
    links = re.findall(r"\[([^\]]+)\]\(([^)#]+)[^)]*\) \|$", notation.table(), re.M)
    assert len(links) == len(notation.entries())
    wrong = {
        (shown, page)
        for shown, page in links
        if not titles.get(page, "").startswith(shown)
    }
    assert not wrong, wrong


@pytest.mark.site
def test_the_pages_carry_the_hover_definitions(built_site):
    """A formula that is one symbol, and a term in the prose, show their meaning on hover."""
    import html

    m2 = (built_site / "module-2" / "index.html").read_text(encoding="utf-8")
    titles = notation.symbol_titles()
    symbols = re.findall(
        r'<abbr class="workshop-symbol" title="([^"]+)"><span class="math">.*?'
        r'<code class="workshop-tex" hidden>(.*?)</code></span></abbr>',
        m2,
        re.S,
    )
    assert symbols, "no symbol on Module 2 carries its definition"
    for title, tex in symbols:
        assert html.unescape(title) == titles[html.unescape(tex)], tex
    assert {"W_Q", "W_K", "d_k"} <= {html.unescape(t) for _, t in symbols}
    m0 = (built_site / "module-0" / "index.html").read_text(encoding="utf-8")
    meaning = next(e.meaning for e in notation.entries() if e.term == "softmax")
    assert f'<abbr title="{html.escape(meaning)}">softmax</abbr>' in m0


def test_real_heads_terms_are_in_the_table_with_their_page():
    """Cosine similarity and the normalised entropy (issue 21, point 6) are listed, introduced on
    Real heads, and each meaning names what its formula divides by."""
    table = notation.table()
    for term, anchor, divides in (
        ("cosine similarity", "bank", "divided by both their lengths"),
        ("normalised entropy", "classes", "divided by ln T"),
    ):
        row = next(r for r in table.splitlines() if r.startswith(f"| *{term}* |"))
        assert f"[Real heads](real-heads.md#{anchor})" in row, row
        assert divides in row, row


def test_a_nav_entry_to_a_missing_page_is_one_clear_line(tmp_path):
    """A small project with the notation hook alone (no site build): a strict build whose nav
    names a page docs/ lacks fails with one line naming the entry and the file, no traceback."""
    import os
    import subprocess
    import sys

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: a small copy\n"
        "nav:\n  - Home: index.md\n  - Learn:\n      - Temperature: temperature.md\n"
        f"hooks:\n  - {ROOT / 'hooks' / 'notation.py'}\n",
        encoding="utf-8",
    )
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", "out"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=120,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert "Traceback" not in out and "FileNotFoundError" not in out, out
    said = [line for line in out.splitlines() if "temperature.md" in line]
    assert said == [
        "ERROR   -  mkdocs.yml: the nav entry 'Learn > Temperature' names temperature.md, "
        "which is not a file of docs/ (create docs/temperature.md, or fix or remove the entry)"
    ], out
