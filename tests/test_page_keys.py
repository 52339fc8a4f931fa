"""build/page_keys.py: a page is rendered again whenever what it shows can have changed.

A page that shows numbers is keyed on what the package's code does; a page that shows the
package's text (the API reference, a function's source, the Source page) on every byte of it.
The expected classification is read off the pages themselves (which snippets they include).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from attention_workshop.build import code_digest, page_keys

ROOT = Path(__file__).resolve().parent.parent
_INCLUDE = re.compile(r"""^\s*-{1,}8<-{1,}\s+["']?([^"'\s]+)["']?\s*$""", re.M)


def _page(name: str) -> tuple[str, list[tuple[str, bytes]]]:
    markdown = (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8")
    includes = [
        (n, (ROOT / "snippets" / n).read_bytes())
        for n in _INCLUDE.findall(markdown)
        if (ROOT / "snippets" / n).is_file()
    ]
    return markdown, includes


@pytest.mark.parametrize(
    ("page", "shows"),
    [
        ("api", True),  # ::: blocks: docstrings
        ("source", True),  # every module's file
        ("module-0", True),  # softmax's source
        ("step-by-step", False),
        ("final-exam", False),
        ("notation", False),
    ],
)
def test_a_page_that_shows_the_packages_text_is_known(page, shows):
    assert page_keys.shows_source(*_page(page)) is shows


def test_no_module_reads_source_unless_a_page_names_how():
    """A module that can read source or docstrings is either the keys' own code or a reader
    whose every source-reading function is a name SHOWS_SOURCE looks for in a page."""
    package = ROOT / "src" / "attention_workshop"
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package.parent).as_posix()
        data = path.read_bytes()
        if not code_digest.READS_SOURCE.search(data) or rel in code_digest.KEY_CODE:
            continue
        assert rel in page_keys.READERS, f"{rel} reads source: add it to READERS"
        for node in ast.walk(ast.parse(data)):
            if isinstance(node, ast.FunctionDef) and code_digest.READS_SOURCE.search(
                ast.unparse(node).encode()
            ):
                assert page_keys.SHOWS_SOURCE.search(node.name), (rel, node.name)


@pytest.fixture()
def package(package_copy):
    return package_copy


def _keys() -> tuple[str, str]:
    return page_keys.code_key(*_page("step-by-step")), page_keys.code_key(
        *_page("module-0")
    )


def test_a_docstring_edit_renders_the_pages_that_show_it_and_no_other(package):
    numbers, source = _keys()
    core = package / "core.py"
    text = core.read_text(encoding="utf-8")
    first = '"""Turn scores into weights'
    assert first in text
    core.write_text(text.replace(first, first + " (said anew)", 1), encoding="utf-8")
    assert _keys()[0] == numbers
    assert _keys()[1] != source
    # a code edit: every page that runs code is rendered again
    core.write_text(core.read_text(encoding="utf-8") + "\nADDED = 1\n", "utf-8")
    assert _keys()[0] != numbers


def test_a_key_blind_to_shown_source_would_be_caught(package, monkeypatch):
    """Deliberate break: if every page were keyed on what code does, a page showing a
    docstring would keep its key when the docstring changes (the test above would fail)."""
    monkeypatch.setattr(page_keys, "shows_source", lambda markdown, includes: False)
    before = page_keys.code_key(*_page("module-0"))
    core = package / "core.py"
    text = core.read_text(encoding="utf-8")
    core.write_text(text.replace('"""Turn scores', '"""Now turn scores', 1), "utf-8")
    assert page_keys.code_key(*_page("module-0")) == before
