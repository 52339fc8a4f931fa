"""The theme's static files listed once per process, not at every build (``mkdocs serve``).

Every build, MkDocs lists every file of the theme's folders to find the static ones it copies
(``Files.add_files_from_theme`` calls the Jinja environment's ``list_templates``): Material's
folder holds some 14,000 files, mostly icons, and the walk and its filter took 0.1 to 0.2 s of
each rebuild. :func:`remember` wraps the environment's ``list_templates`` so that the listing of
a folder inside the Python installation (an installed theme, which does not change while a
process runs) is kept, keyed on the folders and on what the filter depends on; a folder of the
project (``overrides/``) is listed afresh at every build. The list is the same either way.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader

__all__ = ["remember", "installed"]

_LISTINGS: dict[Hashable, list[str]] = {}


def installed(folder: str) -> bool:
    """Whether ``folder`` is inside the Python installation (its files are an installed package's)."""
    path = Path(folder).resolve()
    prefixes = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix)}
    return any(path.is_relative_to(p) for p in prefixes)


def remember(env: Any, settings: Hashable) -> Any:
    """``env`` whose ``list_templates(filter_func=...)`` keeps, for each installed folder of the
    theme, the names its filter lets through, while ``settings`` (what the filter reads) are
    the same; the project's folders are listed and filtered afresh."""
    listing = env.list_templates
    folders = [str(f) for f in getattr(env.loader, "searchpath", ())]

    def list_templates(
        extensions: Any = None, filter_func: Callable[[str], bool] | None = None
    ) -> list[str]:
        if extensions is not None or filter_func is None or not folders:
            return list(listing(extensions=extensions, filter_func=filter_func))
        names: set[str] = set()
        for folder in folders:
            key = (folder, filter_func.__module__, filter_func.__qualname__, settings)
            if key in _LISTINGS:
                names.update(_LISTINGS[key])
                continue
            found = [
                n for n in FileSystemLoader(folder).list_templates() if filter_func(n)
            ]
            if installed(folder):
                _LISTINGS[key] = found
            names.update(found)
        return sorted(names)

    env.list_templates = list_templates
    return env
