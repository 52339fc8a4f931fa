"""MkDocs hook: a snippet that raises is reported with the page it is on, whatever it raises.

markdown-exec says "code block 'id' exited with errors"; this puts ``docs/<page>.md:`` in front,
so the message names both the page and the fence.

markdown-exec catches only ``Exception`` around a fence: a snippet that raises ``SystemExit``
(``sys.exit(3)``, or a command line's ``main(["--help"])``), ``KeyboardInterrupt`` or another
``BaseException`` would end the whole build with no message (``mkdocs build`` exiting 0 with an
empty site, ``mkdocs serve`` silently stopping). Here such an exception becomes a
:class:`SnippetStopped`, an ordinary failure of that fence: the strict build fails naming the
page, the fence and the cause, and ``serve`` stays up. (A snippet that calls ``os._exit``
cannot be stopped from inside the process: ``make site`` and the tests then find no completion
marker, see hooks/publish.py.)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

_current_page = {"src": "?"}
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
        except Exception:
            raise
        except BaseException as err:
            stopped = SnippetStopped(
                f"the snippet raised {err!r}, which would have ended the whole build; "
                "a snippet prints what the page shows and returns"
            )
            # the snippet's own frames, so markdown-exec's report shows its lines
            raise stopped.with_traceback(err.__traceback__) from None

    exec_guarded.workshop_guard = True  # type: ignore[attr-defined]
    return exec_guarded


def _guard_snippets() -> None:
    import importlib

    runner = importlib.import_module(_RUNNER)
    current = getattr(runner, "exec_python", None)
    if current is None:
        raise PluginError(
            f"hooks/snippet_errors.py: {_RUNNER}.exec_python is gone (markdown-exec changed); "
            "snippets that raise SystemExit would end the build silently: update the hook"
        )
    if not getattr(current, "workshop_guard", False):
        runner.exec_python = _guarded(current)


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
    for handler in logging.getLogger("mkdocs").handlers:
        if not any(isinstance(f, _NamePage) for f in handler.filters):
            handler.addFilter(_NamePage())
    return config


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    # markdown-exec runs the page's fences next
    _current_page["src"] = page.file.src_uri
    return markdown
