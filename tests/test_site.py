"""The site as a reader meets it: built with --strict, numbers checked against the package.

These tests read the built HTML; they do not trust the snippets that wrote it.
"""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from attention_workshop.chapters import module_3
from workshop_site import pages

from .conftest import ROOT, build_site, copy_project, only_pages
from .references import wired

pytestmark = pytest.mark.site

#: A cell's content, up to its end (never past it: a listing that is not an excerpt, such as the
#: Source page's 48, fails at its own end instead of scanning on to the page's end, 7 s a run).
_CELL = r"(?:[^<]|<(?!/td>))*"
EXCERPT = re.compile(
    rf'<td class="linenos">(?P<nums>{_CELL})</td><td class="code">(?P<code>{_CELL})</td></tr></table></div>\s*'
    r'<p><small>Quoted from <a href="(?P<href>[^"]+)">results\.log lines (?P<a>\d+)–(?P<b>\d+)</a>',
    re.S,
)


def text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def page_html(site: Path, name: str) -> str:
    return (site / name / "index.html").read_text(encoding="utf-8")


def visible_text(doc: str) -> str:
    return re.sub(
        r"\s+", " ", text_of(re.sub(r"<(script|style)\b.*?</\1>", "", doc, flags=re.S))
    )


def test_every_page_of_the_nav_is_built(built_site):
    for name in ("module-3", "results-log", "source", "reproducing"):
        assert (built_site / name / "index.html").is_file(), name
    assert (built_site / "index.html").is_file()


def test_module_3_numbers_are_the_packages(built_site, results):
    text = visible_text(page_html(built_site, "module-3"))
    gh = results[module_3.GENERAL_HEAD]

    def sci(x: float) -> str:  # 2.78e-16 as a reader sees it: "2.78 × 10−16"
        mantissa, exponent = f"{x:.2e}".split("e")
        return f"{mantissa} × 10{int(exponent)}".replace("10-", "10\u2212")

    # The differences are measured by the run (PyTorch against the package): the page quotes the log's.
    assert (
        f"The largest disagreement is {sci(gh.diff)} without the mask and {sci(gh.diff_causal)} with it"
        in text
    )
    assert f"writes these as {gh.diff:.2e} and {gh.diff_causal:.2e})" in text
    # PyTorch's causal weights of the wired head
    w = wired(results.sentence, causal=True)[3]
    for i, word in enumerate(results.sentence):
        row = " ".join(f"{v:.3f}" for v in w[i])
        assert f"{word} {row}" in text, f"causal row of {word!r} in the table"
    # GPT-2 small, as published
    per_head, attention, total = (3 * 768 * 64, 12 * (4 * 768 * 768), 124_439_808)
    assert f"{per_head:,} learned numbers" in text
    assert f"holds {attention:,} weights" in text
    assert f"or {100 * attention / total:.1f}%" in text


def test_the_head_is_seven_lines_of_maths_after_its_check():
    """Module 3 says: one line that checks the shapes, then seven lines (the if-branch counted as one)."""
    import ast
    import inspect

    from attention_workshop import attention

    body = ast.parse(inspect.getsource(attention)).body[0].body
    body = [
        node
        for node in body
        if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
    ]
    assert "check_head(" in ast.unparse(body[0])
    assert len(body[1:]) == 7, [ast.unparse(n).splitlines()[0] for n in body[1:]]


def test_module_3_shows_the_head_from_the_package_source(built_site):
    import inspect

    from attention_workshop import attention

    text = text_of(page_html(built_site, "module-3"))
    for line in inspect.getsource(attention).splitlines():
        if line.strip():
            assert line.strip() in text, (
                f"source line missing from the page: {line.strip()!r}"
            )


def test_every_results_log_excerpt_quotes_exactly_those_lines(built_site):
    log_lines = (
        (built_site / "generated" / "results.log")
        .read_text(encoding="utf-8")
        .split("\n")
    )
    found = 0
    for page in sorted(built_site.rglob("*.html")):
        doc = page.read_text(encoding="utf-8")
        quoted = doc.count(">results.log lines ")
        matches = list(EXCERPT.finditer(doc))
        assert len(matches) == quoted, (
            f"{page}: every 'results.log lines A–B' follows its excerpt"
        )
        for m in matches:
            a, b = int(m["a"]), int(m["b"])
            nums = [int(n) for n in re.findall(r"\d+", text_of(m["nums"]))]
            assert nums == list(range(a, b + 1)), (
                f"{page}: line numbers shown {nums} for lines {a}–{b}"
            )
            shown = text_of(m["code"]).rstrip("\n").split("\n")
            assert shown == log_lines[a - 1 : b], (
                f"{page}: excerpt {a}–{b} differs from results.log"
            )
            assert m["href"].endswith(f"results-log/#L{a}"), f"{page}: link {m['href']}"
            found += 1
    assert found >= 5, "Module 3 alone quotes five sections"


def test_the_results_log_page_numbers_every_line_with_an_anchor(built_site):
    log_lines = (
        (built_site / "generated" / "results.log")
        .read_text(encoding="utf-8")
        .rstrip("\n")
        .split("\n")
    )
    doc = page_html(built_site, "results-log")
    spans = re.findall(
        r'<span class="log-line" id="L(\d+)"><a class="ln" href="#L\1" data-n="\1"[^>]*></a>(.*?)</span>',
        doc,
    )
    assert [int(n) for n, _ in spans] == list(range(1, len(log_lines) + 1))
    assert [html.unescape(t).rstrip() for _, t in spans] == [
        line.rstrip() for line in log_lines
    ]


def test_the_source_page_includes_the_experiment_file(built_site):
    source = (
        ROOT / "src" / "attention_workshop" / "experiment" / "runner.py"
    ).read_text(encoding="utf-8")
    text = text_of(page_html(built_site, "source"))
    for line in source.splitlines():
        if line.strip():
            assert line.strip() in text, f"missing: {line.strip()!r}"


def test_home_names_the_commit_and_versions(built_site):
    import numpy
    import torch

    text = visible_text((built_site / "index.html").read_text(encoding="utf-8"))
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    if head:
        assert head[:12] in text
    assert numpy.__version__ in text and torch.__version__ in text


def test_reproducing_page_states_the_capture_matches(built_site):
    text = visible_text(page_html(built_site, "reproducing"))
    assert "byte for byte identical" in text


def test_no_placeholder_is_left_unfilled(built_site):
    """No ``{{ ... }}`` in what a reader reads; code may show the syntax itself (the API page documents
    build.site's ``{{ section.name }}`` placeholders, the Source page shows the files that name them), and an
    unfilled one in prose fails the build anyway."""
    for page in built_site.rglob("*.html"):
        doc = re.sub(
            r"<code>[^<]*</code>|<pre\b.*?</pre>",
            "",
            page.read_text(encoding="utf-8"),
            flags=re.S,
        )
        assert "{{" not in visible_text(doc), page


def test_generated_files_are_the_committed_captures(built_site):
    for capture in sorted((ROOT / "captures").iterdir()):
        assert (
            built_site / "generated" / capture.name
        ).read_bytes() == capture.read_bytes(), capture.name


# ---------------------------------------------------------------- the build fails when it should


@pytest.fixture()
def project_copy(tmp_path):
    """A copy of the project (sources only) to break on purpose: a small project whose build
    renders Module 3 alone, the page that holds the problems (a claim's sentence is still read
    from real-heads.md on disk)."""
    return only_pages(copy_project(tmp_path / "project"), "module-3.md")


def line_with(path: Path, needle: str) -> int:
    """The 1-based line of ``path`` that holds ``needle`` (the first one)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    return next(n for n, line in enumerate(lines, 1) if needle in line)


BROKEN_PROSE = """
A value with a typo: {{ general_head.diff_casual }}.

The toy has {{ inside.n_axes }} axes, so each word is a row of 4 numbers.

A formula with a character the math font has no glyph for: $a \u2603 b$.

<a href="generated/missing.csv">a link written in the page</a>

```python exec="1"
--8<-- "broken/leftover.py"
```

```python exec="1" id="m3-deliberately-broken"
--8<-- "broken/boom.py"
```
"""


def break_everything(project: Path) -> dict[str, int]:
    """Every problem the strict build must report, at once, in a copy; returns where each was written."""
    broken = project / "snippets" / "broken"
    broken.mkdir()
    (broken / "leftover.py").write_text(
        'print("The toy has {{ positions.T }} positions.")\n'
        "print('<a href=\"generated/nowhere.svg\">a link a snippet prints</a>')\n"
    )
    (broken / "boom.py").write_text("raise RuntimeError('deliberately broken')\n")
    page = project / "docs" / "module-3.md"
    page.write_text(page.read_text() + BROKEN_PROSE)
    # the sentence a claim names, reworded: the claim's sentence is no longer on the page
    _replace(page, "Every row still sums to 1:", "All rows still sum to 1:")
    # "each" added to a sentence only a mean backs (the copies' share is averaged)
    heads = project / "docs" / "real-heads.md"
    _replace(
        heads,
        "It is the only head that sends more\nthan half;",
        "It is the only head that sends more\nthan half of each repeated word's attention;",
    )
    # a changed log line: captures/ is now stale, from the line of [price]
    chapter = project / "src" / "attention_workshop" / "chapters" / "module_3.py"
    chapter.write_text(
        chapter.read_text().replace("the price tag at GPT-2 size", "GPT-2's price tag")
    )
    return {
        "unknown": line_with(page, "general_head.diff_casual"),
        "typed": line_with(page, "a row of 4 numbers"),
        "link": line_with(page, "generated/missing.csv"),
        "no_id": line_with(page, '--8<-- "broken/leftover.py"') - 1,
        "boom": line_with(page, 'id="m3-deliberately-broken"'),
        "price": line_with(ROOT / "captures" / "results.log", "[price] "),
        "each": line_with(heads, "It is the only head"),  # where the sentence starts
    }


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (
        f"{path.name} no longer says {old!r}: update the deliberate break"
    )
    path.write_text(text.replace(old, new), encoding="utf-8")


def expected_problems(at: dict[str, int]) -> list[str]:
    """What the build says about each problem of :func:`break_everything`: file, line and fix."""
    return [
        f"captures/results.log differs from this build's from line {at['price']}",
        "Run `make captures` and commit captures/",
        f"docs/module-3.md:{at['unknown']}: unknown value {{{{ general_head.diff_casual }}}}; "
        "the closest known: {{ general_head.diff_causal }}",
        f"docs/module-3.md:{at['typed']}: 4 is typed by hand; the build computes it: write {{{{ inside.n_axes }}}}",
        f"docs/module-3.md:{at['no_id']}: an exec fence has no id (snippets/broken/leftover.py)",
        f"docs/module-3.md:{at['link']}: a link to 'generated/missing.csv', which is not a file of the site",
        "docs/module-3.md (the first page that needs it): a formula draws U+2603 SNOWMAN (\u2603), "
        "and the math font (docs/assets/fonts/latinmodern-math.otf) has no glyph for it",
        f"snippets/broken/leftover.py (a fence without an id, docs/module-3.md:{at['no_id']}): "
        "a link to 'generated/nowhere.svg'",
        f"snippets/broken/leftover.py (a fence without an id, docs/module-3.md:{at['no_id']}): "
        "{{ positions.T }} is left unfilled on the page",
        "docs/module-3.md: claim causal.rows_sum_to_one backs the sentence "
        "'Every row still sums to 1', which is not on the page any more",
    ]


def expected_elsewhere(at: dict[str, int]) -> list[str]:
    """What the strict build says about the problems :func:`break_everything` puts on other pages."""
    return [
        f"docs/real-heads.md:{at['each']}: 'each' says every element, but claim "
        "real_heads.copy_head_alone checks the mean"
    ]


def test_the_strict_build_lists_every_problem_with_the_line_to_edit(
    project_copy, tmp_path
):
    """One copy, eleven problems, one strict build: it fails, and names each problem's file and line."""
    at = break_everything(project_copy)
    proc = build_site(tmp_path / "out", project=project_copy, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "Aborted with" in out, out[-3000:]
    for message in (*expected_problems(at), *expected_elsewhere(at)):
        assert message in out, f"the build did not say: {message}\n\n{out[-6000:]}"
    # a snippet that raises: the page, the fence's id, its snippet file and line, the error
    assert (
        "docs/module-3.md: markdown_exec: Execution of python code block "
        f"'m3-deliberately-broken' (snippets/broken/boom.py, fence at docs/module-3.md:{at['boom']})"
    ) in out, out[-3000:]
    assert "deliberately broken" in out


@pytest.mark.slow
def test_serve_shows_the_same_problems_on_the_page_and_goes_on(project_copy, tmp_path):
    """`mkdocs serve` (not strict) keeps serving; the page opens with a warning box listing its problems."""
    import socket
    import time
    import urllib.request

    at = break_everything(project_copy)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONPATH": str(project_copy / "src"),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "serve",
            "--no-livereload",
            "--dev-addr",
            f"127.0.0.1:{port}",
        ],
        cwd=project_copy,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        doc, deadline = "", time.monotonic() + 180
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/module-3/", timeout=5
                ) as r:
                    doc = r.read().decode("utf-8")
                break
            except OSError:
                time.sleep(0.5)
        assert proc.poll() is None, "mkdocs serve stopped on the problems"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    box = re.search(
        r'<div class="admonition warning workshop-problems".*?</div>', doc, re.S
    )
    assert box, "the page shows no problems box"
    shown = html.unescape(box.group(0))
    for message in expected_problems(at):
        assert message in shown, f"the page does not say: {message}"


def test_the_experiment_runs_once_per_build_and_the_build_has_no_problem(built_site):
    out = (built_site.parent / "build-output.txt").read_text()
    # once, or not at all when its run (claims verified when it was stored) is in the cache
    assert re.search(
        r"experiment ran (1 time\(s\)|0 time\(s\) \(its verified run read from the cache\));",
        out,
    ), out
    assert "WARNING" not in out, out
    assert pages.LOG_PAGE == "results-log.md"
