"""``make bench``'s build figures: whole processes timed from outside, and the floors they are
compared with.

Each figure is a whole process (``mkdocs build``, the experiment's command line), started
afresh for every run, its wall time taken around it and its peak memory (the largest
resident size) as ``/usr/bin/time`` reads it from the operating system. The floors are the
same Markdown built by plain Material (no hooks, no plugin, no extension) and by the site's
own configuration without its hooks, markdown-exec, D2 and mkdocstrings (the fences shown as
code): what any MkDocs site of these pages costs.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Run", "timed", "build_command", "floor_configs", "ROOT"]

ROOT = Path(__file__).resolve().parents[1]
_TIME = Path("/usr/bin/time")


@dataclass(frozen=True)
class Run:
    """One finished process: its wall time (s), peak resident memory (MiB) and exit code."""

    seconds: float
    peak_mib: float
    code: int


def timed(
    cmd: Sequence[str], env: dict[str, str], cwd: Path = ROOT, log: Path | None = None
) -> Run:
    """Run ``cmd`` to its end; output goes to ``log`` (or nowhere)."""
    out = log.open("ab") if log is not None else subprocess.DEVNULL
    # the peak is read by /usr/bin/time, a small parent: a child of this (large) process would
    # inherit its high-water mark across exec, and report it as its own
    fd, peak_file = tempfile.mkstemp(prefix="bench-peak-")
    os.close(fd)
    wrap = ["/usr/bin/time", "-f", "%M", "-o", peak_file] if _TIME.is_file() else []
    try:
        t0 = time.perf_counter()
        proc = subprocess.Popen([*wrap, *cmd], cwd=cwd, env=env, stdout=out, stderr=out)
        # without /usr/bin/time, the child's own accounting (ru_maxrss: KiB on Linux)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
        text = Path(peak_file).read_text().strip().splitlines()
        kib = int(text[-1]) if wrap and text and text[-1].isdigit() else usage.ru_maxrss
    finally:
        Path(peak_file).unlink(missing_ok=True)
        if log is not None and not isinstance(out, int):
            out.close()
    return Run(seconds, kib / 1024, os.waitstatus_to_exitcode(status))


def build_command(
    python: str, dest: Path, config: Path | None = None, strict: bool = True
) -> list[str]:
    """``mkdocs build`` into ``dest`` (quiet; strict unless a floor, whose links may be dead)."""
    cmd = [python, "-m", "mkdocs", "build", "--quiet", "--site-dir", str(dest)]
    if config is not None:
        cmd += ["--config-file", str(config)]
    return cmd + (["--strict"] if strict else [])


def _section(text: str, name: str) -> tuple[int, int]:
    """Where the top-level block ``name:`` of mkdocs.yml starts and ends (line numbers)."""
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith(f"{name}:"))
    end = next(
        (
            n
            for n in range(start + 1, len(lines))
            if lines[n] and not lines[n].startswith((" ", "#"))
        ),
        len(lines),
    )
    return start, end


def _without_hooks_and_exec(text: str) -> str:
    """mkdocs.yml without its hooks (nor the folders serve watches for them), search its only plugin."""
    lines = text.splitlines()
    blocks: tuple[tuple[str, list[str]], ...] = (
        ("watch", []),
        ("hooks", []),
        ("plugins", ["plugins:", "  - search"]),
    )
    for name, keep in blocks:
        start, end = _section("\n".join(lines), name)
        lines[start:end] = keep
    return "\n".join(lines) + "\n"


def _bare(text: str) -> str:
    """Plain Material on the same pages and page tree."""
    start, end = _section(text, "nav")
    nav = "\n".join(text.splitlines()[start:end])
    name = re.search(r"^site_name:.*$", text, re.M)
    head = name.group(0) if name else "site_name: bench"
    return f"{head}\ntheme:\n  name: material\n{nav}\n"


def floor_configs(root: Path = ROOT) -> tuple[Path, dict[str, Path]]:
    """A temporary copy of the pages (docs/, snippets/) and the two floors' configurations in it:
    ``(folder to delete, {floor name: mkdocs.yml})``."""
    tmp = Path(tempfile.mkdtemp(prefix="bench-floor-"))
    for part in ("docs", "snippets", "overrides"):
        if (root / part).is_dir():
            shutil.copytree(root / part, tmp / part)
    text = (root / "mkdocs.yml").read_text(encoding="utf-8")
    configs = {
        "floor: same Markdown, no hooks, no exec": _without_hooks_and_exec(text),
        "floor: bare Material, same Markdown": _bare(text),
    }
    out = {}
    for n, (name, body) in enumerate(configs.items()):
        path = tmp / f"floor-{n}.yml"
        path.write_text(body, encoding="utf-8")
        out[name] = path
    return tmp, out
