"""experiment/import_closure.py: the one import walker counts every import that can run.

It reads the files (it never imports them): an import anywhere in a module's text counts,
inside a function or an ``else`` too; the body of ``if TYPE_CHECKING:`` (typing's constant,
False whenever code runs) does not, and a name that only looks like it is not trusted.
"""

from __future__ import annotations

from pathlib import Path

from attention_workshop.experiment import import_closure


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in {"pkg/__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


LEAVES = {f"pkg/{n}.py": "" for n in ("typed", "other", "late", "elsewise", "mine")}


def test_what_can_run_is_followed_and_what_only_type_checkers_read_is_not(tmp_path):
    root = _package(
        tmp_path,
        {
            **LEAVES,
            "pkg/entry.py": (
                "from __future__ import annotations\n"
                "import typing\n"
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from . import typed\n"
                "else:\n"
                "    from . import elsewise\n"
                "if typing.TYPE_CHECKING:\n"
                "    from . import typed\n"
                "def f():\n"
                "    from . import late\n"
                "    if TYPE_CHECKING:\n"
                "        from . import typed\n"
                "from . import other\n"
            ),
        },
    )
    found = import_closure.modules("pkg.entry", root)
    assert found == {"pkg", "pkg.entry", "pkg.other", "pkg.late", "pkg.elsewise"}


def test_a_flag_not_typings_own_is_followed(tmp_path):
    root = _package(
        tmp_path,
        {
            **LEAVES,
            # a module's own flag (or typing's under another name) may be true when it runs
            "pkg/entry.py": (
                "TYPE_CHECKING = True\n"
                "if TYPE_CHECKING:\n"
                "    from . import mine\n"
                "from typing import TYPE_CHECKING as CHECKING\n"
                "if CHECKING:\n"
                "    from . import typed\n"
            ),
        },
    )
    assert {"pkg.mine", "pkg.typed"} <= import_closure.modules("pkg.entry", root)
