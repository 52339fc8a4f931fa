"""The upstream caches ``mkdocs serve`` clears before each build (hooks/serve.py's docstring says
why; each is a documented exception to "nothing patched", checked against the pinned versions by
tests/test_faults.py). A helper of hooks/serve.py, like ``_workshop_common``: not a hook.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

# (module, attribute): functools caches (cache_clear()), then dicts (clear())
CACHED_FUNCTIONS = (
    ("markdown_exec._internal.rendering", "_register_headings_processors"),
    ("griffe._internal.extensions.dataclasses", "_dataclass_parameters"),
    ("mkdocstrings_handlers.python._internal.rendering", "_test_existing_template"),
    ("mkdocs.config.config_options", "Hooks._load_hook"),
)
CACHED_DICTS = (
    ("markdown_exec._internal.formatters.python", "_code_blocks"),
    ("markdown_exec._internal.formatters.python", "_sessions_globals"),
    ("markdown_exec._internal.formatters.python", "_sessions_counter"),
)
_FENCE_MODULE = "_code_block_"  # markdown-exec's module of a fence: "_code_block_<id>_"


def _attribute(module: str, name: str) -> Any:
    """``module.name``, or None when the module is not installed or no longer has it."""
    try:
        found: Any = importlib.import_module(module)
    except ImportError:
        return None
    for part in name.split("."):  # a class's attribute: "Hooks._load_hook"
        found = getattr(found, part, None)
    return found


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
