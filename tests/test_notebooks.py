"""workshop_site/notebooks.py, and every notebook of the built site run on a fresh kernel against its page.

The unit tests feed small pages with hand-written expectations. The site test executes each
notebook the build wrote with nbclient (a new kernel per notebook) and requires every code
cell's output, rendered by the site's own Markdown settings, to be what the built page shows,
in the page's order.
"""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path

import pytest

from workshop_site import notebooks

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
    then hooks/mathml.py's formulas."""
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
        return mathml.on_page_content(
            md.convert(text), page=None, config=None, files=None
        )

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


def first_mismatch(page_text: str, cells, render) -> str | None:
    """None if every code cell's output, rendered, is on the page in cell order; else what is not."""
    at = 0
    code = [c for c in cells if c.cell_type == "code"]
    if not code:
        return "no code cell"
    for cell in code:
        fence = cell.metadata["workshop"]
        errors = [o for o in cell.outputs if o.output_type == "error"]
        if errors:
            return f"{fence['id']}: {errors[0].ename}: {errors[0].evalue}"
        out = "".join(
            o.text
            for o in cell.outputs
            if o.output_type == "stream" and o.name == "stdout"
        )
        if not out.strip():
            if fence.get("source"):
                # the page shows this fence's code, and its code prints nothing (a definition)
                continue
            return f"{fence['id']}: the cell printed nothing"
        if fence.get("result"):
            out = f"```{fence['result']}\n{out}\n```"
        shown = visible(out if fence.get("html") else render(out))
        found = page_text.find(shown, at)
        if found < 0:
            return f"{fence['id']}: its output is not what the page shows after the cell before:\n{shown[:500]}"
        at = found + len(shown)
    return None


def test_the_comparison_fails_on_a_different_output_or_order():
    from nbformat import v4

    def cell(i, text):
        c = v4.new_code_cell("", id=f"c{i}")
        c.metadata = {"workshop": {"id": f"c{i}"}}
        c.outputs = [v4.new_output("stream", name="stdout", text=text)]
        return c

    render = _render()
    page = visible(
        render("| a | b |\n|--|--|\n| 1 | 2 |\n") + "<p>prose</p>" + render("**0.25**")
    )
    assert (
        first_mismatch(
            page,
            [cell(1, "| a | b |\n|--|--|\n| 1 | 2 |\n"), cell(2, "**0.25**\n")],
            render,
        )
        is None
    )
    assert "c2: its output" in first_mismatch(
        page,
        [cell(1, "| a | b |\n|--|--|\n| 1 | 2 |\n"), cell(2, "**0.26**\n")],
        render,
    )
    assert "c1: its output" in first_mismatch(
        page,
        [cell(2, "**0.25**\n"), cell(1, "| a | b |\n|--|--|\n| 1 | 2 |\n")],
        render,
    )
    assert "printed nothing" in first_mismatch(page, [cell(1, "")], render)


def _run(path: Path, tmp_path: Path) -> dict:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    return nb


@pytest.mark.site
@pytest.mark.parametrize("page", notebooks.PAGES)
def test_every_notebook_runs_on_a_fresh_kernel_and_shows_what_its_page_shows(
    built_site, tmp_path, page
):
    path = built_site / "generated" / "notebooks" / f"{page}.ipynb"
    nb = _run(path, tmp_path)
    page_text = visible(
        (built_site / page / "index.html")
        .read_text(encoding="utf-8")
        .split("<article", 1)[1]
    )
    mismatch = first_mismatch(page_text, nb.cells, _render())
    assert mismatch is None, f"{page} {mismatch}"


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
