"""The "Inside the model" page: one causal head at toy scale beside GPT-2 (to be written)."""

from __future__ import annotations

__all__ = ["site_files"]


def site_files() -> dict[str, str]:
    """Files this page needs in the site, ``{path inside the site: text}``."""
    return {}
