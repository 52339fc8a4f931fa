"""CONTRIBUTING.md's recipes, followed word for word in a copy of the project: the guide cannot rot.

Each recipe is a list of steps a reader can follow literally, and this test follows them:

- ``Create `path`:`` then a code block: a new file;
- ``In `path`, after the line `text`, add:`` then a block: lines inserted after the one line holding ``text``;
- ``In `path`, replace the line `text` with:`` then a block: that one line replaced;
- ``At the end of `path`, add:`` then a block: appended;
- ``Check:`` then a ``bash`` block: commands, run after every recipe's steps (each once, in the
  order they first appear; the pytest commands as one run, so the experiment runs once).

Then it checks what a reader would see: the new page with its number, claim and figure, the new
section in captures/, the new exam question, a build without a warning, and ruff's approval.
The expected numbers come from PyTorch (``tests/test_temperature.py``'s reference, recomputed here).
"""

from __future__ import annotations

import json
import math
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
import torch

from .conftest import ROOT, SESSION_SITE, copy_project

GUIDE = ROOT / "CONTRIBUTING.md"

_STEP = re.compile(
    r"^(?:Create `(?P<create>[^`]+)`[^\n]*"
    r"|In `(?P<after_in>[^`]+)`, after the line `(?P<after>[^`]+)`, add"
    r"|In `(?P<replace_in>[^`]+)`, replace the line `(?P<replace>[^`]+)` with"
    r"|At the end of `(?P<append>[^`]+)`, add"
    r"|(?P<check>Check)):$",
    re.M,
)
_FENCE = re.compile(r"^(`{3,})[^\n]*\n(.*?)^\1[ \t]*$", re.M | re.S)


@dataclass(frozen=True)
class Step:
    """One step of a recipe: what to do, to which file, where, with which text."""

    kind: str  # create, after, replace, append, check
    path: str
    anchor: str
    text: str
    line: int  # where the guide says it


def steps(guide: str) -> list[Step]:
    """Every step of every recipe, in the guide's order; each instruction takes the code block after it."""
    found = []
    for m in _STEP.finditer(guide):
        block = _FENCE.search(guide, m.end())
        assert block and guide[m.end() : block.start()].strip() == "", (
            f"CONTRIBUTING.md:{guide.count(chr(10), 0, m.start()) + 1}: no code block after {m.group(0)!r}"
        )
        kind = next(
            k for k in ("create", "after", "replace", "append", "check") if m[k]
        )
        path = m["create"] or m["after_in"] or m["replace_in"] or m["append"] or ""
        anchor = m["after"] or m["replace"] or ""
        line = guide.count("\n", 0, m.start()) + 1
        found.append(Step(kind, path, anchor, block.group(2), line))
    return found


def apply(step: Step, project: Path) -> None:
    """Do one editing step in ``project``; an anchor must stand on exactly one line."""
    where = f"CONTRIBUTING.md:{step.line}"
    path = project / step.path
    if step.kind == "create":
        assert not path.exists(), f"{where}: {step.path} exists already"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(step.text, encoding="utf-8")
        return
    assert path.is_file(), f"{where}: there is no {step.path}"
    text = path.read_text(encoding="utf-8")
    if step.kind == "append":
        path.write_text(text + step.text, encoding="utf-8")
        return
    lines = text.split("\n")
    at = [n for n, line in enumerate(lines) if step.anchor in line]
    assert len(at) == 1, (
        f"{where}: {step.path} has {len(at)} lines holding {step.anchor!r} (one expected)"
    )
    new = step.text.rstrip("\n").split("\n")
    n = at[0]
    lines[n : n + 1] = [lines[n], *new] if step.kind == "after" else new
    path.write_text("\n".join(lines), encoding="utf-8")


def make_commands(target: str) -> list[list[str]]:
    """What ``make <target>`` runs in this project (its own lines, not the set-up's), as argument lists."""
    out = subprocess.run(
        ["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    commands = [
        shlex.split(line)
        for line in out.splitlines()
        if line.startswith(".venv/bin/") and "pip install" not in line
    ]
    assert commands, f"make -n {target} runs nothing from .venv/bin"
    return commands


def commands(checks: list[Step]) -> list[list[str]]:
    """Every command of the Check blocks, each once, pytest's merged into one run, which comes
    last: its tests read the site that ``make site`` built of the same tree (conftest's
    ``built_site``, told by :data:`tests.conftest.SESSION_SITE`), not a second build of it."""
    seen: list[str] = []
    for step in checks:
        for line in step.text.splitlines():
            if line.strip() and line.strip() not in seen:
                seen.append(line.strip())
    out: list[list[str]] = []
    tests: list[str] = []
    for line in seen:
        words = shlex.split(line)
        if words[:2] == ["make", "captures"] or words[:2] == ["make", "site"]:
            out += make_commands(words[1])
        elif words[:3] == [".venv/bin/python", "-m", "pytest"]:
            tests += [w for w in words[3:] if w not in tests]
        else:
            raise AssertionError(
                f"CONTRIBUTING.md: a Check command this test cannot run: {line}"
            )
    if tests:
        out.append(
            [".venv/bin/python", "-m", "pytest", "-p", "no:cacheprovider", *tests]
        )
    return out


def run(cmd: list[str], project: Path) -> str:
    """One command in the copy, with the project's own package and this environment's tools
    (pytest's sessions take the copy's ``make site`` output as their site)."""
    venv = str(Path(sys.executable).parent)
    cmd = [
        sys.executable if c == ".venv/bin/python" else c.replace(".venv/bin", venv)
        for c in cmd
    ]
    env = {
        **os.environ,
        "PYTHONPATH": str(project / "src"),
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONHASHSEED": "0",
        "ATEN_CPU_CAPABILITY": "default",
        "SOURCE_DATE_EPOCH": "0",
        SESSION_SITE: str(project / "site"),
    }
    proc = subprocess.run(
        cmd, cwd=project, env=env, capture_output=True, text=True, timeout=900
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"{' '.join(cmd)} failed in the copy:\n{out[-6000:]}"
    return out


def test_the_guide_has_five_recipes_whose_steps_this_test_can_follow():
    guide = GUIDE.read_text(encoding="utf-8")
    titles = re.findall(r"^## Recipe: (.+)$", guide, re.M)
    assert titles == [
        "add a page",
        "add a number",
        "add a claim",
        "add a figure",
        "add an exam question",
    ]
    found = steps(guide)
    assert sum(s.kind == "check" for s in found) == len(titles), (
        "a recipe without Check"
    )
    # every instruction-like line is one this test understands (no step is skipped silently)
    recipes = guide[guide.index("## Recipe: ") : guide.index("## How to read")]
    said = re.findall(r"^(?:Create|In|At the end of) `", recipes, re.M)
    assert len(said) == sum(s.kind != "check" for s in found)


def torch_weights(t: float) -> np.ndarray:
    """The wired head on "the river bank" with the scores divided by t, by PyTorch: (T, T)."""
    from attention_workshop.toy import VOCAB, W_K_WIRED, W_Q_WIRED

    x = torch.tensor([VOCAB[w] for w in ("the", "river", "bank")], dtype=torch.float64)
    q = x @ torch.tensor(W_Q_WIRED.tolist(), dtype=torch.float64)
    k = x @ torch.tensor(W_K_WIRED.tolist(), dtype=torch.float64)
    return torch.softmax(q @ k.T / math.sqrt(2) / t, dim=-1).numpy()


@pytest.mark.site
@pytest.mark.slow
def test_every_recipe_works_when_followed_literally(tmp_path):
    project = copy_project(tmp_path / "project")
    found = steps(GUIDE.read_text(encoding="utf-8"))
    for step in found:
        if step.kind != "check":
            apply(step, project)
    outputs = [
        run(cmd, project) for cmd in commands([s for s in found if s.kind == "check"])
    ]
    build = next(o for o in outputs if "Documentation built" in o or "Aborted" in o)
    assert "WARNING" not in build, build[-4000:]

    # what a reader sees: the page, its number (PyTorch's), its claim, its figure
    page = (project / "site" / "temperature" / "index.html").read_text(encoding="utf-8")
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    cold, warm = torch_weights(0.5)[-1].max(), torch_weights(2.0)[-1].max()
    assert (
        f"At temperature 0.5 the last word's largest weight is {cold:.3f}; "
        f"at 2 it is only {warm:.3f}."
    ) in text
    assert "The colder the temperature, the larger each word's largest weight" in text
    # the page shows the drawing of the reader's scheme: the light one and the dark one
    assert 'src="../generated/temperature-cold.svg#only-light"' in page
    assert 'src="../generated/temperature-cold-dark.svg#only-dark"' in page
    log = (project / "captures" / "results.log").read_text(encoding="utf-8")
    assert "\n[temperature] Temperature: sharper or softer\n" in log
    assert (project / "captures" / "temperature-cold.csv").is_file()
    exam = json.loads((project / "site" / "generated" / "exam.json").read_text())
    assert [q["answer"] for q in exam["questions"] if q["id"] == "masked-cells"] == [
        6.0
    ]
    # the code the recipes add is in the house style
    run([".venv/bin/ruff", "check", "."], project)
    run([".venv/bin/ruff", "format", "--check", "."], project)
