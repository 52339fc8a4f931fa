"""The one place page reuse reads another library's private state: autorefs' maps.

A reused page registers again, through autorefs' public ``register_anchor``, the anchors autorefs
held on it when it rendered (workshop_site/page_cache.py ``anchors``, which reads the plugin's
private ``_primary_url_map``, ``_secondary_url_map`` and ``_title_map``). These tests fail when
the pinned mkdocs-autorefs changes underneath it: another version, maps of another shape, or a
``register_anchor`` that no longer fills them as ``anchors`` reads them. The whole of a reused
build, the API page's mkdocstrings files included, is held to a ``FRESH=1`` build by
tests/test_sound.py.
"""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs_autorefs import AutorefsPlugin
from mkdocstrings import MkdocstringsPlugin

from workshop_site import page_cache

ROOT = Path(__file__).resolve().parent.parent


def _maps(plugin: AutorefsPlugin) -> tuple[dict, dict, dict]:
    return (plugin._primary_url_map, plugin._secondary_url_map, plugin._title_map)


def test_the_autorefs_it_reads_is_the_pinned_one():
    lock = (ROOT / "requirements.lock").read_text()
    assert re.search(
        rf"^mkdocs-autorefs=={re.escape(page_cache.AUTOREFS)}$", lock, re.M
    )
    assert version("mkdocs-autorefs") == page_cache.AUTOREFS


def test_anchors_read_back_what_register_anchor_put_and_replay_it():
    api, other = SimpleNamespace(url="api/"), SimpleNamespace(url="module-1/")
    first = AutorefsPlugin()
    first.register_anchor(api, "pkg.core.softmax", title="softmax")
    first.register_anchor(api, "pkg.softmax", "pkg.core.softmax", primary=False)
    first.register_anchor(other, "softmax", title="Softmax")
    first.register_anchor(
        api, "softmax", "pkg.core.softmax"
    )  # a second page's anchor of one id
    held = page_cache.anchors(first, "api/")
    assert held == [
        ["pkg.core.softmax", "pkg.core.softmax", "softmax", True],
        ["softmax", "pkg.core.softmax", "softmax", True],  # a title is an address's
        ["pkg.softmax", "pkg.core.softmax", "softmax", False],
    ]
    assert (
        page_cache.anchors(first, "api") == []
    )  # another address, not a prefix of one
    # replayed in the same order of pages, through the public method: the same maps
    again = AutorefsPlugin()
    again.register_anchor(other, "softmax", title="Softmax")
    for identifier, anchor, title, primary in held:
        again.register_anchor(api, identifier, anchor, title=title, primary=primary)
    assert _maps(again) == _maps(first)
    assert again.get_item_url("pkg.softmax", from_url="module-1/")[0] == (
        "../api/#pkg.core.softmax"
    )


def test_another_autorefs_version_is_refused(monkeypatch):
    monkeypatch.setattr(page_cache, "AUTOREFS", "0.0.1")
    with pytest.raises(RuntimeError, match="private maps"):
        page_cache.anchors(AutorefsPlugin(), "api/")


def test_the_api_files_are_mkdocstrings_own():
    assert MkdocstringsPlugin.css_filename == page_cache.API_FILES[0]
    assert page_cache.API_FILES[1] == "objects.inv"
