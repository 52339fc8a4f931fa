"""build/code_digest.py: code hashed as what it does. A docstring or comment edit keeps a key;
any edit to what the code does, and any edit at all where code may read its own text, changes it.

Expected outcomes come from Python itself: two files compile to the same behaviour or they do not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from attention_workshop.build import code_digest

BASE = '''"""A module."""

# a comment
def scale(x):
    """Twice ``x``."""
    return 2 * x


class Box:
    """A box."""

    size = 3
'''


def _digest(tmp_path: Path, text: str, other: str = "Y = 1\n") -> str:
    pkg = tmp_path / "pkg"
    pkg.mkdir(exist_ok=True)
    (pkg / "mod.py").write_text(text)
    (pkg / "other.py").write_text(other)
    (pkg / "data.toml").write_text("x = 1\n")
    return code_digest.files_digest(sorted(pkg.iterdir()), tmp_path)


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t.replace('"""Twice ``x``."""', '"""Twice ``x``, said better."""'),
        lambda t: t.replace('"""A module."""', '"""A module, said better."""'),
        lambda t: t.replace('"""A box."""', '"""A box,\n    on two lines."""'),
        lambda t: t.replace("# a comment", "# another comment\n# and one more"),
        lambda t: "\n\n" + t,  # every line moves
    ],
)
def test_an_edit_to_words_only_keeps_the_key(tmp_path, edit):
    assert edit(BASE) != BASE
    assert _digest(tmp_path, edit(BASE)) == _digest(tmp_path, BASE)


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t.replace("2 * x", "3 * x"),
        lambda t: t.replace("size = 3", "size = 4"),
        lambda t: t.replace("def scale(x):", "def scale(x, y=0):"),
        # a string that is not a docstring is data
        lambda t: t.replace("    size = 3", '    size = 3\n    label = "box"'),
        lambda t: t.replace(
            '"""Twice ``x``."""\n    return 2 * x', '"""Twice ``x``."""'
        ),
    ],
)
def test_an_edit_to_what_code_does_changes_the_key(tmp_path, edit):
    assert edit(BASE) != BASE
    assert _digest(tmp_path, edit(BASE)) != _digest(tmp_path, BASE)


@pytest.mark.parametrize(
    "reader", ["import inspect\n", "print(scale.__doc__)\n", "import linecache\n"]
)
def test_where_code_may_read_its_text_every_byte_counts(tmp_path, reader):
    """One file that can read source or docstrings: no file of the set is normalised."""
    edited = BASE.replace('"""Twice ``x``."""', '"""Twice ``x``, said better."""')
    assert _digest(tmp_path, edited, reader) != _digest(tmp_path, BASE, reader)


def test_data_files_count_byte_for_byte(tmp_path):
    before = _digest(tmp_path, BASE)
    (tmp_path / "pkg" / "data.toml").write_text("x = 1\n# a comment\n")
    after = code_digest.files_digest(sorted((tmp_path / "pkg").iterdir()), tmp_path)
    assert after != before


def test_a_normaliser_that_dropped_strings_would_be_caught(tmp_path, monkeypatch):
    """Deliberate break: a normaliser that also drops the strings code uses (not docstrings
    only) would key two programs alike; the test above that adds ``label = "box"`` fails."""

    def careless(data: bytes) -> bytes:
        import ast

        tree = ast.parse(data)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                node.value = ""
        return ast.dump(tree).encode()

    monkeypatch.setattr(code_digest, "code_text", careless)
    base = BASE.replace("    size = 3", '    size = 3\n    label = "box"')
    assert _digest(tmp_path, base) == _digest(tmp_path, base.replace('"box"', '"bag"'))
