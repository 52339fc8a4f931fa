"""The layers hold: maths -> chapters -> build, no cycles, and the maths imports NumPy alone.

``lint-imports`` checks the contracts of pyproject.toml; these tests run it on the package,
and on a copy broken on purpose, to show the contracts can fail.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
MATHS = ("core", "validation", "toy", "gpt2", "handcalc", "trained")


def _lint(
    project: Path, contract: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(project / "src")}
    only = ["--contract", contract] if contract else []
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-logo", "--no-cache", *only],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    """The package and its pyproject.toml, copied: a project whose imports a test may break."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(
        ROOT / "src" / "attention_workshop",
        tmp_path / "src" / "attention_workshop",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return tmp_path


def _append(project: Path, module: str, line: str) -> None:
    path = project / "src" / "attention_workshop" / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")


def test_the_package_keeps_every_contract():
    proc = _lint(ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "BROKEN" not in proc.stdout and "KEPT" in proc.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("core.py", "from .build import fmt", "layers"),
        ("toy.py", "from .chapters import module_0", "layers"),
        ("chapters/module_1/simple.py", "from ...build import fmt", "layers"),
        ("gpt2.py", "import matplotlib", "maths-alone"),
        ("chapters/module_3.py", "import torch", "maths-alone"),
        ("build/fmt.py", "from . import render", "no-cycles"),
    ],
    ids=[
        "maths-imports-build",
        "maths-imports-chapters",
        "chapter-imports-build",
        "maths-imports-matplotlib",
        "chapter-imports-torch",
        "cycle-in-build",
    ],
)
def test_an_import_against_the_layers_fails(copy, module, line, contract):
    assert _lint(copy, contract).returncode == 0, (
        f"contract {contract} is broken before the edit"
    )
    _append(copy, module, line)
    proc = _lint(copy, contract)
    assert proc.returncode != 0, (
        f"contract {contract} accepted {line!r} in {module}:\n{proc.stdout}"
    )
    assert "BROKEN" in proc.stdout, proc.stdout


def test_the_maths_imports_without_mkdocs_matplotlib_or_torch():
    code = (
        "import json, sys; import attention_workshop; "
        + "; ".join(f"import attention_workshop.{m}" for m in MATHS)
        + "; print(json.dumps(sorted(sys.modules)))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    loaded = {name.split(".")[0] for name in json.loads(proc.stdout)}
    heavy = loaded & {
        "mkdocs",
        "markdown_exec",
        "matplotlib",
        "torch",
        "mkdocstrings",
        "pymdownx",
    }
    assert not heavy, f"importing the maths layer loads {sorted(heavy)}"
    assert not [
        n
        for n in json.loads(proc.stdout)
        if n.startswith(("attention_workshop.build", "attention_workshop.chapters"))
    ]
