"""The hooks' own logic, called as MkDocs calls it, without a build: problems shown on the page
when a build is not strict, exec fences without an id, formulas indexed on one line.

(What the strict build says about each problem, end to end, is in test_site.py.)
"""

from __future__ import annotations

import io
import logging
import sys
from types import SimpleNamespace

from .conftest import load_hook


def common():
    """The _workshop_common module the hooks imported (by name, as MkDocs runs them)."""
    return sys.modules["_workshop_common"]


def page(src: str, markdown: str = "") -> SimpleNamespace:
    return SimpleNamespace(file=SimpleNamespace(src_uri=src, content_string=markdown))


def test_a_build_that_is_not_strict_shows_the_pages_problems_and_the_sites():
    problems = load_hook("problems")
    problems.on_pre_build(SimpleNamespace())
    common().problem("captures/ is stale: run `make captures`")
    common().problem("docs/a.md:3: unknown value {{ x.y }}", page="a.md")
    served = problems.on_page_content(
        "<p>body</p>", page("a.md"), SimpleNamespace(strict=False), None
    )
    assert served.startswith(
        '<div class="admonition warning workshop-problems" role="alert">'
    )
    assert "run `make captures`" in served and "unknown value {{ x.y }}" in served
    assert served.endswith("<p>body</p>")
    other = problems.on_page_content(
        "<p>b</p>", page("b.md"), SimpleNamespace(strict=False), None
    )
    assert "make captures" in other and "x.y" not in other
    # the strict build lists them as warnings and fails; its pages stay as they are
    assert (
        problems.on_page_content(
            "<p>body</p>", page("a.md"), SimpleNamespace(strict=True), None
        )
        == "<p>body</p>"
    )
    problems.on_pre_build(SimpleNamespace())
    assert common().PROBLEMS == {}


def test_an_exec_fence_without_an_id_is_a_problem_with_an_id_to_write(caplog):
    fences = load_hook("fences")
    common().PROBLEMS.clear()
    md = "\n".join(
        [
            "# P",
            "",
            '```python exec="1"',
            '--8<-- "module-3/log_causal.py"',
            "```",
            "",
            '```python exec="1" id="a"',
            "print(1)",
            "```",
            '```python exec="1" id="a"',
            "print(2)",
            "```",
        ]
    )
    fences.on_page_markdown(md, page("module-3.md", md), SimpleNamespace(), None)
    assert common().PROBLEMS["module-3.md"] == [
        "docs/module-3.md:3: an exec fence has no id (snippets/module-3/log_causal.py): "
        'write ```python exec="1" id="module-3-log-causal"; the id is how an error names the fence',
        "docs/module-3.md:10: a second exec fence with id 'a': give each fence its own id",
    ]
    common().PROBLEMS.clear()


def test_a_formula_written_over_several_lines_is_indexed_on_one():
    mathml = load_hook("mathml")
    html = '<div class="arithmatex">\\[\n\\text{out} =\n  \\operatorname{softmax}(x)\n\\]</div>'
    out = mathml.on_page_content(html, page("m.md"), SimpleNamespace(), None)
    assert (
        '<code class="workshop-tex" hidden>\\text{out} = \\operatorname{softmax}(x)</code>'
        in out
    )


def test_a_quiet_strict_build_sees_mkdocs_own_warnings_and_stays_quiet():
    """Under ``-q`` MkDocs sets its logger to ERROR and drops warnings before anything counts
    them (mkdocs#4126): the hook lets them through to itself, keeps the terminal's handler
    quiet, leaves the project's own problems to PROBLEMS, and puts every level back."""
    problems = load_hook("problems")
    top, terminal = logging.getLogger("mkdocs"), logging.StreamHandler(io.StringIO())
    before = top.level
    top.addHandler(terminal)
    top.setLevel(logging.ERROR)  # what -q does
    try:
        problems.on_config(SimpleNamespace(strict=False))
        logging.getLogger("mkdocs.structure.pages").warning("not strict: not seen")
        assert problems.SEEN.messages == [] and problems.SEEN not in top.handlers
        problems.on_config(SimpleNamespace(strict=True))
        logging.getLogger("mkdocs.structure.pages").warning("an anchor is missing")
        common().log.warning("a problem of the project's")
        assert problems.SEEN.messages == [
            "mkdocs.structure.pages: an anchor is missing"
        ]
        assert terminal.stream.getvalue() == "", "-q printed a warning"
        problems.on_build_error(error=ValueError("the build raised"))
        assert (top.level, terminal.level) == (logging.ERROR, logging.NOTSET)
        assert problems.SEEN not in top.handlers and problems.SEEN.messages == []
    finally:
        top.removeHandler(terminal)
        top.setLevel(before)
