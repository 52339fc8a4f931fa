"""MkDocs hook: ``mkdocs serve`` lasts. Memory stays level over rebuilds; every error shows every time.

- Upstream caches that keep every old page alive are cleared when a build starts and again
  when it ends (``mkdocs serve`` rebuilds in one process; without this it grows about 5 MB per
  rebuild):
  markdown-exec's ``_register_headings_processors`` (an unbounded cache keyed on each page's
  Markdown instance, in ``markdown_exec/_internal/rendering.py``) and its per-fence tables
  (``_code_blocks``, ``_sessions_globals``, ``_sessions_counter`` in
  ``markdown_exec/_internal/formatters/python.py``, and the empty module each fence registers in
  ``sys.modules``); griffe's ``_dataclass_parameters`` (keyed on every class mkdocstrings loaded,
  ``griffe/_internal/extensions/dataclasses.py``); mkdocstrings-python's
  ``_test_existing_template`` (keyed on each build's Jinja environment,
  ``mkdocstrings_handlers/python/_internal/rendering.py``). tests/test_faults.py checks they
  are empty after a build; ``python -m attention_workshop.build.serve_memory`` measures.
- A save is noticed within 0.05 s, not 0.5 s, and the build starts 0.05 s after the last save, not
  0.1 s (:func:`on_serve`): the preview keeps up with typing. After the first build the process's
  long-lived objects are frozen out of the garbage collector's full collections (``gc.freeze``).
- MkDocs hides a message it has logged once (``DuplicateFilter`` on ``mkdocs.commands.build``):
  under ``serve`` the second time a hook fails the same way only "Aborted with a BuildError!"
  showed. The filter forgets at each build start, so every rebuild says what is wrong.
"""

from __future__ import annotations

import gc
import importlib
import logging
import sys
from typing import TYPE_CHECKING, Any

from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

# (module, attribute): functools caches, cleared with cache_clear()
CACHED_FUNCTIONS = (
    ("markdown_exec._internal.rendering", "_register_headings_processors"),
    ("griffe._internal.extensions.dataclasses", "_dataclass_parameters"),
    ("mkdocstrings_handlers.python._internal.rendering", "_test_existing_template"),
)
# (module, attribute): dicts, cleared with clear()
CACHED_DICTS = (
    ("markdown_exec._internal.formatters.python", "_code_blocks"),
    ("markdown_exec._internal.formatters.python", "_sessions_globals"),
    ("markdown_exec._internal.formatters.python", "_sessions_counter"),
)
# markdown-exec names each fence's module "_code_block_<id>_" (formatters/python.py)
_FENCE_MODULE = "_code_block_"


def _attribute(module: str, name: str) -> Any:
    """``module.name``, or None when the module is not installed or no longer has it."""
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None


def clear_caches() -> None:
    """Forget what earlier builds left in the upstream caches (see the module's docstring)."""
    for module, name in CACHED_FUNCTIONS:
        cached = _attribute(module, name)
        if cached is not None:
            cached.cache_clear()
    for module, name in CACHED_DICTS:
        table = _attribute(module, name)
        if table is not None:
            table.clear()
    for name in [m for m in sys.modules if m.startswith(_FENCE_MODULE)]:
        del sys.modules[name]
    # markdown-exec numbers its blocks' ids across a process: each build counts from 0, as a
    # `mkdocs build` does (and hooks/render_cache.py's keys hold the count)
    converter = _attribute("markdown_exec._internal.rendering", "MarkdownConverter")
    if converter is not None:
        converter.counter = 0


def _forget_logged_messages() -> None:
    for f in logging.getLogger("mkdocs.commands.build").filters:
        msgs = getattr(f, "msgs", None)
        if type(f).__name__ == "DuplicateFilter" and isinstance(msgs, set):
            msgs.clear()


# the first thing a build does, before any plugin fills a cache again
@event_priority(100)
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    clear_caches()
    _forget_logged_messages()
    return config


#: How often ``mkdocs serve`` looks for a saved file (watchdog's polling observer: 0.5 s by
#: default), and how long it waits for more saves before it builds (0.1 s by default).
POLL_SECONDS = 0.05
SETTLE_SECONDS = 0.05


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    """Polling every :data:`POLL_SECONDS` (a few hundred files' dates cost little), a build
    :data:`SETTLE_SECONDS` after the last save (an editor's save is a burst well inside that).
    What the first build left (MkDocs, the theme, the libraries) is frozen out of the garbage
    collector's sight: a rebuild's full collections no longer walk the whole heap (about 0.3 s)."""
    observer = server.observer
    observer._timeout = POLL_SECONDS
    for emitter in observer.emitters:
        emitter._timeout = POLL_SECONDS
    server.build_delay = SETTLE_SECONDS
    gc.collect()
    gc.freeze()
    return server


# after the plugins' own post-build steps: nothing reads these caches any more
@event_priority(-100)
def on_post_build(config: MkDocsConfig) -> None:
    clear_caches()
