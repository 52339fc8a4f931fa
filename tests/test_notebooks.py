"""workshop_site/notebooks.py, and every notebook of the built site run on a fresh kernel against its page.

The unit tests feed small pages with hand-written expectations. The site tests execute each
notebook the build wrote with nbclient (a new kernel per notebook, its saved outputs cleared) and
require the outputs the build saved, and every figure, table and quote to be what the built page
shows, in the page's order; no cell imports the site's build.
"""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path

import pytest

from attention_workshop.experiment import notebook as shown
from workshop_site import notebook_code, notebooks

from .conftest import ROOT

PAGE = """# Title

<link rel="stylesheet" href="assets/w/w.css">
<script type="module" src="assets/w/w.js"></script>

Intro with a [link](module-1.md#softmax) and $x^2$.

Click the widget's buttons
to move it.
{ .screen-only }

## Part { #part }

```python exec="1" id="p-one"
--8<-- "one.py"
```

```bash
echo not a cell
```

!!! note "Keep in mind"

    A note.

??? question "1. Why?"

    **Because.**

??? success "Reveal"

    ```python exec="1" source="tabbed-left" result="text" session="s" id="p-two"
    print(2)
    ```

    After.

![A diagram](diagrams/flow.d2)
"""


def _cells(tmp_path, diagrams=None):
    (tmp_path / "one.py").write_text("print(1)\n")
    return notebooks.cells(
        PAGE, tmp_path, "https://example.invalid/", "module-0", diagrams
    )


def test_exec_fences_become_code_cells_in_page_order(tmp_path):
    cells = _cells(tmp_path)
    code = [c for c in cells if c.kind == "code"]
    assert [c.text for c in code] == ["print(1)", "print(2)"]
    assert code[0].options == {"id": "p-one"}
    assert code[1].options == {
        "source": "tabbed-left",
        "result": "text",
        "session": "s",
        "id": "p-two",
    }
    kinds = [c.kind for c in cells]
    assert kinds == ["markdown", "code", "markdown", "code", "markdown"]


def test_the_prose_becomes_what_jupyter_reads(tmp_path):
    text = "\n\n".join(c.text for c in _cells(tmp_path) if c.kind == "markdown")
    assert "[link](https://example.invalid/module-1/#softmax)" in text
    assert "## Part\n" in text and "{ #part }" not in text
    assert "```bash\necho not a cell\n```" in text
    assert "> **Keep in mind**\n>\n> A note." in text
    assert "<details><summary>1. Why?</summary>\n\n**Because.**\n\n</details>" in text
    # a block that holds code cannot stay a <details>: its title leads
    assert "**Reveal**" in text and "After." in text
    assert "$x^2$" in text
    # what only the site's page can use: its widget's assets, how to work the widget
    assert text.startswith("# Title\n\nIntro with")
    assert "assets/w" not in text and "widget" not in text and "screen-only" not in text


def test_a_diagram_is_attached(tmp_path):
    cells = _cells(tmp_path, {"flow": b"<svg/>"})
    last = cells[-1]
    assert "![A diagram](attachment:flow.svg)" in last.text
    assert base64.b64decode(last.options["attachment:flow.svg"]) == b"<svg/>"
    nb = json.loads(notebooks.notebook("module-0", cells))
    assert nb["cells"][-1]["attachments"] == {
        "flow.svg": {"image/svg+xml": base64.b64encode(b"<svg/>").decode()}
    }
    assert [c["id"] for c in nb["cells"]][:2] == ["module-0-01", "module-0-02"]
    assert all(c.get("outputs", []) == [] for c in nb["cells"])


def test_placeholders_are_filled_and_an_unknown_one_is_left_for_the_page_check():
    assert notebooks.fill("a {{ x.y }} b", {"x.y": "1.5"}, "p") == "a 1.5 b"
    # the page's own check (hooks/values.py) names it with its line; the notebook does not stop the build first
    assert notebooks.fill("{{ x.z }}", {"x.y": "1"}, "p") == "{{ x.z }}"


def test_the_same_cells_give_the_same_bytes(tmp_path):
    cells = _cells(tmp_path)
    assert notebooks.notebook("m", cells) == notebooks.notebook("m", cells)


# ---------------------------------------------------------------- the built notebooks, run


def _render():
    """Markdown to HTML as the site does it: mkdocs.yml's extensions (what markdown-exec renders output with),
    then hooks/mathml.py's formulas (its ``on_page_content`` gives a page's HTML to ``to_mathml``)."""
    import importlib.util

    import markdown
    from mkdocs.config import load_config

    cfg = load_config(str(ROOT / "mkdocs.yml"))
    md = markdown.Markdown(
        extensions=cfg["markdown_extensions"], extension_configs=cfg["mdx_configs"]
    )
    spec = importlib.util.spec_from_file_location(
        "workshop_mathml", ROOT / "hooks" / "mathml.py"
    )
    mathml = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mathml)

    def render(text: str) -> str:
        md.reset()
        return mathml.to_mathml(md.convert(text), "a notebook's cell")

    return render


def visible(fragment: str) -> str:
    """Text a reader sees: no scripts, styles or hidden TeX; tags dropped; spaces collapsed."""
    fragment = re.sub(
        r"<(script|style)\b.*?</\1>|<code class=\"workshop-tex\" hidden>.*?</code>",
        " ",
        fragment,
        flags=re.S,
    )
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def _svg_file(site: Path, src: str) -> str:
    """A figure the page shows, by its ``src`` (``../generated/words.svg#only-light``)."""
    return (site / src.split("#")[0].removeprefix("../")).read_text(encoding="utf-8")


def page_figures(doc: str) -> list[str]:
    """The light drawings a built page shows from its snippets, in order (the D2 diagrams are
    the prose's, attached to its Markdown cells)."""
    return [
        src
        for src in re.findall(r'<img\b[^>]*?\bsrc="([^"]+#only-light)"', doc)
        if "/diagrams/" not in src
    ]


def _unwhite(svg: str) -> str:
    return svg.replace(shown.WHITE, "", 1)


def first_mismatch(page_text: str, figures: list[str], site: Path, cells, render):
    """None if every code cell's outputs are what the page shows, in the page's order; else what is not.

    A figure is the SVG file the page shows next (light colours, on the notebook's white ground);
    a table or code (``text/markdown``), rendered as the site renders Markdown, or the page's
    static HTML (``text/html``) is the page's next text; a results.log quote (``text/plain``
    alone) is the page's code block of those lines; a practice cell's printout (``stream``) is
    its ``result`` block.
    """
    at, figure = 0, 0
    code = [c for c in cells if c.cell_type == "code"]
    if not code:
        return "no code cell"
    for cell in code:
        fence = cell.metadata["workshop"]
        if fence["id"].endswith("-install"):
            if cell.outputs:
                return f"{fence['id']}: the install cell showed something"
            continue
        if not cell.outputs and not fence.get("source"):
            return f"{fence['id']}: the cell showed nothing"
        for out in cell.outputs:
            if out.output_type == "error":
                return f"{fence['id']}: {out.ename}: {out.evalue}"
            data = out.get("data", {})
            if "image/svg+xml" in data:
                if figure >= len(figures):
                    return f"{fence['id']}: a figure the page does not show"
                if _unwhite(data["image/svg+xml"]) != _svg_file(site, figures[figure]):
                    return (
                        f"{fence['id']}: its figure is not the page's {figures[figure]}"
                    )
                figure += 1
                continue
            if "text/markdown" in data:
                text = visible(render(data["text/markdown"]))
            elif "text/html" in data:  # a page's static HTML, as it is on the page
                text = visible(data["text/html"])
            elif out.output_type == "stream":
                if not fence.get("result"):
                    return f"{fence['id']}: it printed {out.text[:200]!r}, not what the page shows"
                text = visible(render(f"```{fence['result']}\n{out.text}\n```"))
            else:  # a quote of results.log: its lines, without the numbers before them
                lines = [
                    re.sub(r"^\s*\d+  ", "", ln)
                    for ln in data["text/plain"].split("\n")
                ]
                text = " ".join(" ".join(lines).split())
            found = page_text.find(text, at)
            if found < 0:
                return (
                    f"{fence['id']}: its output is not what the page shows after the cell "
                    f"before:\n{text[:500]}"
                )
            at = found + len(text)
    if figure != len(figures):
        return f"the page shows {len(figures)} figures, the notebook {figure}"
    return None


def test_the_comparison_fails_on_a_different_output_or_order(tmp_path):
    from nbformat import v4

    (tmp_path / "a.svg").write_text("<svg>a</svg>")

    def cell(i, **data):
        c = v4.new_code_cell("", id=f"c{i}")
        c.metadata = {"workshop": {"id": f"c{i}"}}
        c.outputs = [v4.new_output("display_data", data=data)] if data else []
        return c

    render = _render()
    table = "| a | b |\n|--|--|\n| 1 | 2 |\n"
    page = visible(render(table) + "<p>prose</p>" + render("**0.25**"))

    def check(*cells, figures=("a.svg",)):
        return first_mismatch(page, list(figures), tmp_path, cells, render)

    md = "text/markdown"
    good = (
        cell(1, **{md: table}),
        cell(2, **{"image/svg+xml": "<svg>a</svg>"}),
        cell(3, **{md: "**0.25**"}),
    )
    assert check(*good) is None
    assert "c3: its output" in check(*good[:2], cell(3, **{md: "**0.26**"}))
    assert "c1: its output" in check(good[2], good[1], good[0])
    other = cell(2, **{"image/svg+xml": "<svg>b</svg>"})
    assert "not the page's" in check(good[0], other, good[2])
    assert "2 figures, the notebook 1" in check(*good, figures=("a.svg", "a.svg"))
    assert "showed nothing" in check(cell(9))
    # a page's static HTML is compared as the reader sees it, tags dropped
    static = cell(3, **{"text/html": "<p><strong>0.25</strong></p>"})
    assert check(good[0], good[1], static) is None
    other = cell(3, **{"text/html": "<p><strong>0.26</strong></p>"})
    assert "c3: its output" in check(good[0], good[1], other)


def _run(path: Path, tmp_path: Path):
    """The notebook at ``path``, its outputs cleared, run on a fresh kernel."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        record_timing=False,
        # a kernel sends what a cell prints in as many pieces as its buffer's timer cuts it
        # into: joined, one stream per run of prints, as the build saves it
        coalesce_streams=True,
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    return nb


_FRESH: dict[str, object] = {}


def fresh_run(built_site: Path, page: str, tmp_path: Path):
    """A page's notebook as a fresh kernel runs it (once per test session)."""
    if page not in _FRESH:
        path = built_site / "generated" / "notebooks" / f"{page}.ipynb"
        _FRESH[page] = _run(path, tmp_path)
    return _FRESH[page]


def _shipped(built_site: Path, page: str) -> dict:
    path = built_site / "generated" / "notebooks" / f"{page}.ipynb"
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.site
@pytest.mark.parametrize("page", notebooks.PAGES)
def test_every_notebook_is_shipped_with_the_outputs_of_a_fresh_kernel(
    built_site, tmp_path, page
):
    """What the build saved (computed in its own process, notebook_run.py) is what a kernel gives.

    Compared exactly: every code cell's outputs and execution count. Not compared: the
    notebook's ``language_info``, which a kernel fills in with its Python's version (the
    shipped notebook names the language alone).
    """
    import nbformat

    path = built_site / "generated" / "notebooks" / f"{page}.ipynb"
    saved = nbformat.read(path, as_version=4)
    ran = fresh_run(built_site, page, tmp_path)
    code = [(a, b) for a, b in zip(saved.cells, ran.cells) if a.cell_type == "code"]
    assert any(a.outputs for a, _ in code), f"{page}: no output is saved"
    for a, b in code:
        assert a.execution_count == b.execution_count, f"{page} {a.id}: its number"
        assert a.outputs == b.outputs, (
            f"{page} {a.id}: saved outputs, not a fresh run's"
        )


@pytest.mark.site
@pytest.mark.parametrize("page", notebooks.PAGES)
def test_every_notebook_shows_what_its_page_shows(built_site, tmp_path, page):
    doc = (built_site / page / "index.html").read_text(encoding="utf-8")
    article = doc.split("<article", 1)[1]
    nb = fresh_run(built_site, page, tmp_path)
    figures = page_figures(article)
    mismatch = first_mismatch(
        visible(article), figures, built_site, nb.cells, _render()
    )
    assert mismatch is None, f"{page} {mismatch}"


def _source_as_text(output: dict) -> bool:
    """Whether an output shows the page's Markdown or HTML as text (a figure's tag, a table's rows)."""
    data = output.get("data", {})
    text = "".join(output.get("text", "")) + (
        "".join(data.get("text/plain", "")) if set(data) == {"text/plain"} else ""
    )
    return bool(re.search(r"<figure|<img|<div|^\|.*\|$", text, re.M))


@pytest.mark.site
@pytest.mark.parametrize("page", notebooks.PAGES)
def test_figures_are_images_and_tables_are_tables_not_their_source(built_site, page):
    """Every figure the page shows is an image/svg+xml output; the tables are text/markdown
    outputs that render as tables; no output is the page's Markdown or HTML as text."""
    nb = _shipped(built_site, page)
    doc = (built_site / page / "index.html").read_text(encoding="utf-8")
    article = doc.split("<article", 1)[1]
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"]]
    svgs = [o for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert len(svgs) == len(page_figures(article)) > 0, f"{page}: figures as images"
    markdown = ["".join(o.get("data", {}).get("text/markdown", "")) for o in outputs]
    render = _render()
    tables = [t for t in markdown if "<table>" in render(t)]
    prose = "\n\n".join(
        "".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"
    )
    # the page's tables: those of its prose, in the notebook's Markdown cells, and its snippets'
    on_page = article.count("<table>") - render(prose).count("<table>")
    assert len(tables) == on_page, f"{page}: {on_page} tables, {len(tables)} as tables"
    shown_as_source = [o for o in outputs if _source_as_text(o)]
    assert not shown_as_source, (
        f"{page}: the page's source as text: {shown_as_source[0]}"
    )


@pytest.mark.site
def test_no_notebook_output_links_to_an_address_of_the_site(built_site):
    """Links a cell shows work where the notebook is read: a web address, a data: or an
    attachment: image, or an anchor in the notebook; never ``page.md`` or ``../page/``."""
    for page in notebooks.PAGES:
        for cell in _shipped(built_site, page)["cells"]:
            for output in cell.get("outputs", []):
                for kind, value in output.get("data", {}).items():
                    if kind == "text/plain":
                        continue
                    text = "".join(value) if isinstance(value, list) else str(value)
                    found = re.findall(
                        r"\]\(([^)\s]+)\)|(?:href|src)=\"([^\"]*)\"", text
                    )
                    for target in (a or b for a, b in found):
                        assert re.match(r"[a-z][a-z0-9+.-]*:|#", target), (
                            f"{page} {cell.get('id')}: {kind} links to {target!r}, "
                            "which leads nowhere outside the site"
                        )


@pytest.mark.site
def test_no_notebook_cell_imports_the_site_build_or_mkdocs(built_site):
    for page in notebooks.PAGES:
        for cell in _shipped(built_site, page)["cells"]:
            if cell["cell_type"] != "code":
                continue
            found = notebook_code.imports("".join(cell["source"]))
            site = {m for m in found if m.split(".")[0] in notebook_code.SITE_ONLY}
            assert not site, f"{page} {cell['id']} imports {site}"


#: The notebook pages that show a trained model's heads (read from the pages: Inside the model's
#: one MiniLM head, Real heads' MiniLM, A causal model's SmolLM2): their install cell installs it.
TRAINED = {"inside-the-model", "real-heads", "causal-heads"}


@pytest.mark.site
def test_the_install_cell_comes_first_and_names_the_site_s_take_home_files(built_site):
    """Built without SITE_URL, the install cell names the unzipped take-home folder and says
    how to get it (no URL that cannot work); every file it installs is in the take-home zip."""
    import zipfile

    home = built_site / "generated" / "take-home"
    with zipfile.ZipFile(home / "attention-workshop-take-home.zip") as z:
        zipped = {n.removeprefix("attention-workshop/") for n in z.namelist()}
    for page in notebooks.PAGES:
        first = next(
            c for c in _shipped(built_site, page)["cells"] if c["cell_type"] == "code"
        )
        src = "".join(first["source"])
        assert first["metadata"]["workshop"]["id"] == f"{page}-install", page
        assert 'FILES = "attention-workshop/"' in src, page
        assert "attention-workshop-take-home.zip" in src, page
        urls = re.findall(r"https?://[^\s\"]+", src)
        assert urls == ["https://download.pytorch.org/whl/cpu"], page
        named = set(re.findall(r'FILES \+ "([^"]+)"', src))
        assert named and named <= zipped, f"{page}: {named - zipped} not in the zip"
        assert ("requirements-model.lock" in named) == (page in TRAINED), page


@pytest.mark.site
def test_no_notebook_holds_a_placeholder_or_a_number_the_page_lacks(built_site):
    for page in notebooks.PAGES:
        nb = json.loads(
            (built_site / "generated" / "notebooks" / f"{page}.ipynb").read_text()
        )
        page_text = visible(
            (built_site / page / "index.html").read_text(encoding="utf-8")
        )
        for cell in nb["cells"]:
            text = "".join(cell["source"])
            assert "{{" not in text, f"{page} {cell['id']}: an unfilled placeholder"
            if cell["cell_type"] != "markdown":
                continue
            prose = re.sub(
                r"\([^)\s]*\)|\$[^$]*\$|<[^>]+>", " ", text
            )  # numbers of the prose alone
            for number in re.findall(r"\d+\.\d+", prose):
                assert number in page_text, (
                    f"{page} {cell['id']}: {number} is not on the page"
                )


@pytest.mark.site
def test_each_notebook_page_has_its_download_button(built_site):
    for page in notebooks.PAGES:
        doc = (built_site / page / "index.html").read_text(encoding="utf-8")
        button = re.search(
            r'<a class="md-button workshop-notebook-button" href="([^"]+)" download>(.*?)</a>',
            doc,
        )
        assert button, f"{page}: no notebook button"
        assert button.group(1) == f"../generated/notebooks/{page}.ipynb"
        size = (built_site / "generated" / "notebooks" / f"{page}.ipynb").stat().st_size
        assert f"({size / 1000:.1f} kB)" in button.group(2)


def test_without_a_published_address_links_keep_their_words_only(tmp_path):
    """A build that does not know its address (SITE_URL unset) writes no link that cannot work."""
    (tmp_path / "one.py").write_text("print(1)\n")
    cells = notebooks.cells(PAGE, tmp_path, "", "module-0", None)
    text = "\n\n".join(c.text for c in cells if c.kind == "markdown")
    assert "](" not in text.replace("](attachment:", ""), text
    assert "link" in text, "the link's words stay"


def test_a_line_range_and_a_block_include_become_the_code_pymdownx_includes(tmp_path):
    """``"name.py:2:3"`` is lines 2 to 3; a block between two ``--8<--`` lines is its files in
    order (a notebook page with either used to fail the build with a FileNotFoundError)."""
    from workshop_site import notebooks as nb

    (tmp_path / "a.py").write_text("one = 1\ntwo = 2\nthree = 3\nfour = 4\n")
    (tmp_path / "b.py").write_text("print(one)\n")
    assert nb._code(['--8<-- "a.py:2:3"'], tmp_path) == "two = 2\nthree = 3"
    block = nb._code(["--8<--", "a.py", "b.py", "--8<--"], tmp_path)
    assert block == "one = 1\ntwo = 2\nthree = 3\nfour = 4\nprint(one)"


def _h1(page_html: str) -> str:
    """The text of a built page's one ``<h1>``, its permalink sign left out."""
    found = re.search(r"<h1\b[^>]*>(.*?)</h1>", page_html, re.S)
    assert found, "the page has no <h1>"
    inner = re.sub(r'<a class="headerlink".*?</a>', "", found.group(1), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", inner)).strip()


@pytest.mark.site
@pytest.mark.parametrize("page", notebooks.PAGES)
def test_a_notebook_opens_with_its_page_s_title_and_no_front_matter(built_site, page):
    """The notebook's first cell is the page's heading as the built page shows it, and the
    page's YAML front matter (``hide: toc``, a ``#`` comment) is in no cell: a comment line of
    Inside the model's front matter was once taken for its title, in the notebook and in the
    downloads tables of the home and Reproducing pages."""
    import nbformat

    title = _h1((built_site / page / "index.html").read_text(encoding="utf-8"))
    nb = nbformat.read(
        built_site / "generated" / "notebooks" / f"{page}.ipynb", as_version=4
    )
    assert nb.cells[0].source.split("\n", 1)[0] == f"# {title}", page
    front = (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")
    if front.startswith("---\n"):
        meta = front.split("\n---\n", 1)[0].splitlines()[1:]
        for cell in nb.cells:
            held = [line for line in meta if line.strip() and line in cell.source]
            assert not held, f"{page}: a cell holds the front matter {held}"
    for listing in ("index.html", "reproducing/index.html"):
        doc = (built_site / listing).read_text(encoding="utf-8")
        row = re.search(
            rf'<a href="(?:\.\./)?{re.escape(page)}/">(.*?)</a> as a Jupyter notebook',
            doc,
        )
        assert row and html.unescape(row.group(1)) == title, (listing, page)
