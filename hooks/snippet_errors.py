"""MkDocs hook: a snippet that raises is reported with the page it is on, whatever it raises.

markdown-exec says "code block 'id' exited with errors"; this puts ``docs/<page>.md:`` in front.
markdown-exec catches only ``Exception`` around a fence: a snippet that raises ``SystemExit``
(``sys.exit(3)``, ``main(["--help"])``), ``KeyboardInterrupt`` or another ``BaseException``
would end the whole build with no message (exit 0 and an empty site, or ``serve`` stopping).
Here it becomes a :class:`SnippetStopped`, an ordinary failure of that fence, and ``serve``
stays up (``os._exit`` cannot be stopped: ``make site`` and the tests then find no completion
marker, hooks/publish.py). A snippet that raises is also a problem the strict build counts.

**One of the project's two exceptions to "nothing patched"** (the other is in hooks/serve.py):
markdown-exec has no public way to see a ``BaseException``, so its ``exec_python`` is wrapped at
each build, in place of an earlier build's wrapper; when markdown-exec renames it, the build
stops saying so, and tests/test_faults.py's ``SystemExit`` test fails.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import _log_filters
import _workshop_common as common
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

_current_page = {"src": "?", "text": ""}
# where markdown-exec runs a python fence (it looks the name up in this module at each call)
_RUNNER = "markdown_exec._internal.formatters.python"


class SnippetStopped(RuntimeError):
    """A snippet raised a ``BaseException`` that is not an ``Exception`` (``SystemExit``, ...)."""


def _guarded(exec_python: Callable[..., None]) -> Callable[..., None]:
    """``exec_python`` with any ``BaseException`` of the snippet turned into :class:`SnippetStopped`."""

    def exec_guarded(
        code: str, filename: str, exec_globals: dict[str, Any] | None = None
    ) -> None:
        try:
            exec_python(code, filename, exec_globals)
        except BaseException as err:
            _report(filename, err)
            if isinstance(err, Exception):
                raise
            stopped = SnippetStopped(
                f"the snippet raised {err!r}, which would have ended the whole build; "
                "a snippet prints what the page shows and returns"
            )
            # the snippet's own frames, so markdown-exec's report shows its lines
            raise stopped.with_traceback(err.__traceback__) from None

    exec_guarded.workshop_unguarded = exec_python  # type: ignore[attr-defined]
    return exec_guarded


def _report(filename: str, err: BaseException) -> None:
    """A snippet that raised is a problem the project counts (hooks/problems.py), whatever the
    log level: its page, its fence's id and line, and what it raised."""
    page, prefix = _current_page["src"], "<code block: id "
    fence_id = filename[len(prefix) : -1] if filename.startswith(prefix) else filename
    fences = common.sources().fences(_current_page["text"])
    at = next((f":{f.line}" for f in fences if f.id == fence_id), "")
    where = f"docs/{page}{at}"
    common.problem(f"{where}: code block '{fence_id}' raised {err!r}", page=page)


def _guard_snippets() -> None:
    import importlib

    runner = importlib.import_module(_RUNNER)
    current = getattr(runner, "exec_python", None)
    if current is None:
        raise PluginError(
            f"hooks/snippet_errors.py: {_RUNNER}.exec_python is gone (markdown-exec changed); "
            "snippets that raise SystemExit would end the build silently: update the hook"
        )
    # this build's guard, which reports to this build's problems with this build's page (serve
    # loads the hooks again at each build): an earlier build's guard is taken off first
    runner.exec_python = _guarded(getattr(current, "workshop_unguarded", current))


class _NamePage(logging.Filter):
    """Put the page's path in front of markdown-exec's warnings and errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        if (
            record.name.startswith("mkdocs.plugins.markdown_exec")
            and record.levelno >= logging.WARNING
        ):
            record.msg = f"docs/{_current_page['src']}: {record.msg}"
        return True


@event_priority(100)  # before the plugins' on_config, like the other hooks' set-up
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    _guard_snippets()
    _log_filters.install(_NamePage())
    return config


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    # markdown-exec runs the page's fences next
    _current_page["src"], _current_page["text"] = (
        page.file.src_uri,
        page.file.content_string,
    )
    return markdown
