"""``mkdocs serve`` runs every hook's file again at each build (hooks/serve.py's ``forget_hooks``
drops them and the helpers they import from ``sys.modules``). What a hook leaves on longer-lived
objects (MkDocs' log handlers, markdown-exec's runner) must then be the latest build's, never an
earlier copy's: an earlier copy's state no longer changes. Found by CI: after a few rebuilds,
serve named the wrong page for a snippet that raised, the problem was counted by a build that
was over (so the page's problem box missed it), and each rebuild put one more page in front of
markdown-exec's report ("docs/module-1.md: docs/module-3.md: docs/?: ...").
tests/test_faults.py's serve test sees the same through a running ``mkdocs serve``."""

from __future__ import annotations

import importlib
import importlib.util
import logging
import sys

import pytest
from mkdocs.plugins import get_plugin_logger

from .conftest import load_hook

RUNNER = "markdown_exec._internal.formatters.python"


def _new_build() -> None:
    """What serve's ``forget_hooks`` does before a build: the hooks' helpers are imported again."""
    helpers = ("_workshop_common", "_workshop_fresh", "_log_filters")
    for helper in [m for m in sys.modules if m in helpers]:
        del sys.modules[helper]


class _Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture()
def kept():
    """A handler on MkDocs' logger, as ``mkdocs serve`` has; markdown-exec's runner put back."""
    runner = importlib.import_module(RUNNER)
    exec_python, handler = runner.exec_python, _Kept()
    top = logging.getLogger("mkdocs")
    top.addHandler(handler)
    yield handler
    top.removeHandler(handler)
    runner.exec_python = exec_python


class _Page:
    def __init__(self, src: str, text: str) -> None:
        self.file = type("F", (), {"src_uri": src, "content_string": text})()


def _fence(fence_id: str) -> str:
    return f'# A page\n\n```python exec="1" id="{fence_id}"\n--8<-- "x/{fence_id}.py"\n```\n'


def test_the_latest_builds_hooks_name_a_failing_snippets_page_and_count_it(kept):
    builds = []
    for page in (
        "first.md",
        "second.md",
        "third.md",
    ):  # three builds of a serve session
        _new_build()
        names, errors = load_hook("fences"), load_hook("snippet_errors")
        assert names.common is errors.common
        names.on_config(None)
        errors.on_config(None)
        text = _fence(page.removesuffix(".md"))
        names.on_page_markdown(text, _Page(page, text), None, None)
        errors.on_page_markdown(text, _Page(page, text), None, None)
        builds.append(errors)
    runner = importlib.import_module(RUNNER)
    with pytest.raises(errors.SnippetStopped):
        runner.exec_python("import sys\nsys.exit(3)\n", "<code block: id third>", {})
    # counted by this build's problems alone, with its page and the fence's line
    said = "docs/third.md:3: code block 'third' raised SystemExit(3)"
    problems = [b.common.PROBLEMS for b in builds]
    assert problems == [{}, {}, {"third.md": [said]}], problems
    # markdown-exec's report: one page in front, the snippet and the fence named once
    get_plugin_logger("markdown_exec").warning(
        "Execution of python code block 'third' exited with errors"
    )
    assert kept.messages[-1] == (
        "docs/third.md: markdown_exec: Execution of python code block 'third' "
        "(snippets/x/third.py, fence at docs/third.md:3) exited with errors"
    ), kept.messages
    kinds = [type(f).__qualname__ for f in kept.filters]
    assert sorted(kinds) == ["_NamePage", "_NameSnippet"], kinds


def test_a_hook_that_does_not_compile_is_named_with_its_line_and_no_traceback(
    tmp_path, monkeypatch
):
    """A save that breaks a hook's syntax fails before any hook runs, so no hook keeps the error:
    serve's page and log then say what Python says, the hook's path in the project (not this
    machine's), its line and a caret under the code; it said "SyntaxError: invalid syntax
    (tables.py, line 105)"."""
    serve = load_hook("serve")
    monkeypatch.setattr(serve, "HOOKS", tmp_path / "hooks")  # a project in tmp_path
    path = tmp_path / "hooks" / "tables.py"
    path.parent.mkdir()
    path.write_text("x = 1\ndef broken(:\n", encoding="utf-8")
    with pytest.raises(SyntaxError) as broken:
        compile(path.read_text(encoding="utf-8"), str(path), "exec")
    said = serve.said(broken.value).splitlines()
    assert said[0].strip() == 'File "hooks/tables.py", line 2', said
    assert said[1].strip() == "def broken(:" and said[2].strip() == "^", said
    assert said[-1] == "SyntaxError: invalid syntax", said
    assert str(tmp_path) not in "\n".join(said), said
    assert serve.said(ValueError("a plain error")) == "ValueError: a plain error"
