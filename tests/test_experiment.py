"""experiment/runner.py, the runner: the committed capture byte for byte, the same bytes in another process,
sections labelled and located exactly, 72-character lines, and write() all or nothing.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pytest
import torch

from attention_workshop.chapters.sections import SECTIONS
from attention_workshop.experiment import runner as experiment
from attention_workshop.experiment.results import Results

ROOT = Path(__file__).resolve().parent.parent
CAPTURES = ROOT / "captures"


def test_the_run_reproduces_the_committed_capture(results):
    """The capture was written by another process (``make captures``): same log, figures and CSVs, byte for byte."""
    assert (CAPTURES / "results.log").read_text(encoding="utf-8") == results.text, (
        "captures/results.log is stale: run `make captures` and commit it"
    )
    files = {**results.figures, **results.tables}
    assert sorted(files) == sorted(
        p.name for p in CAPTURES.iterdir() if p.name != "results.log"
    )
    for name, text in files.items():
        assert (CAPTURES / name).read_text(encoding="utf-8") == text, (
            f"captures/{name} is stale"
        )


@pytest.mark.slow
def test_another_process_with_another_hash_seed_writes_the_same_bytes(
    results, tmp_path
):
    code = "import sys; from attention_workshop.experiment.runner import run, write; write(run(), sys.argv[1])"
    env = {**os.environ, "PYTHONHASHSEED": "1"}
    proc = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "results.log").read_text(encoding="utf-8") == results.text
    for name, text in {**results.figures, **results.tables}.items():
        assert (tmp_path / name).read_text(encoding="utf-8") == text, (
            f"{name} differs (a date, a random id?)"
        )


def test_the_log_stamps_the_versions_first(results):
    head = results.lines[:7]
    assert head[0] == "# attention-workshop results.log"
    stamped = dict(line[2:].split(": ", 1) for line in head[1:6])
    assert stamped["python"] == ".".join(map(str, sys.version_info[:3]))
    assert stamped["numpy"] == np.__version__
    assert (
        stamped["torch"]
        == f"{torch.__version__} (CPU kernels: default; MKL: compatible)"
    )
    assert torch.backends.cpu.get_cpu_capability() == "DEFAULT", (
        "the portable kernels, on every processor"
    )
    assert stamped["matplotlib"] == matplotlib.__version__
    assert stamped["os"].startswith(os.uname().sysname)
    assert head[6] == '# seed: 0; sentence: "the river bank"'


def test_sections_are_labelled_in_teaching_order(results):
    assert (
        list(results.sections)
        == [s.key for s in SECTIONS]
        == list(results.data)
        == list(results.show)
    )
    # each section is labelled by its key, never by its position
    assert [s.label for s in results.sections.values()] == [s.key for s in SECTIONS]
    assert [s.title for s in results.sections.values()] == [s.title for s in SECTIONS]
    assert all(
        results.show[key]["label"] == s.label for key, s in results.sections.items()
    )


def test_spans_locate_each_section_exactly(results):
    """Spans against the committed capture, read here: a section runs from its [key] line to the line before a blank."""
    lines = (CAPTURES / "results.log").read_text(encoding="utf-8").split("\n")
    starts = [
        n for n, line in enumerate(lines, 1) if re.match(r"\[[a-z][a-z0-9_]*\] ", line)
    ]
    ends = [
        next(m for m in range(s, len(lines) + 1) if m == len(lines) or lines[m] == "")
        for s in starts
    ]
    assert [(s.start, s.end) for s in results.sections.values()] == list(
        zip(starts, ends)
    )
    for key, s in results.sections.items():
        assert results.lines[s.start - 1] == f"[{s.label}] {s.title}", key


def test_no_line_of_the_log_is_longer_than_72_characters(results):
    long = [(n, len(line)) for n, line in enumerate(results.lines, 1) if len(line) > 72]
    assert not long, (
        f"results.log lines longer than 72 characters (line, length): {long}"
    )


def test_the_log_has_no_trailing_spaces_and_ends_with_one_newline(results):
    assert not [n for n, line in enumerate(results.lines, 1) if line != line.rstrip()]
    assert results.text.endswith("\n") and not results.text.endswith("\n\n")


def test_adding_a_section_changes_only_its_own_lines(results, monkeypatch):
    """Labels are section keys, not positions: a new section in the middle adds its lines and nothing else
    (the line numbers after it move; the pages compute them, so no page goes stale)."""
    import difflib

    from attention_workshop.chapters import Section

    def extra(ctx):
        ctx.log("one line of a new section")
        return None

    at = len(SECTIONS) // 2
    added = Section("an_extra_section", "A new section in the middle", extra)
    monkeypatch.setattr(experiment, "SECTIONS", (*SECTIONS[:at], added, *SECTIONS[at:]))
    monkeypatch.setattr(experiment.figures, "draw", lambda r: None)
    longer = experiment.run().lines
    ops = [
        op
        for op in difflib.SequenceMatcher(a=results.lines, b=longer).get_opcodes()
        if op[0] != "equal"
    ]
    assert [(tag, i1 == i2) for tag, i1, i2, _, _ in ops] == [("insert", True)], ops
    _, _, _, j1, j2 = ops[0]
    assert sorted(longer[j1:j2]) == sorted(
        [
            "",
            "[an_extra_section] A new section in the middle",
            "  one line of a new section",
        ]
    )


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        (("causal", "causal"), "two sections share the key 'causal'"),
        (("Causal",), "section key 'Causal'"),
        (("with space",), "section key 'with space'"),
    ],
)
def test_section_keys_that_cannot_label_the_log_are_refused(keys, message):
    from attention_workshop.chapters import Section

    sections = [Section(k, "a title", lambda ctx: None) for k in keys]
    with pytest.raises(ValueError, match=message):
        experiment.check_keys(sections)


def test_another_sentence_is_stamped_and_run(results_other):
    assert results_other.sentence == ("fish", "swam", "by", "the", "shore")
    assert results_other.lines[6] == '# seed: 0; sentence: "fish swam by the shore"'
    assert list(results_other.sections) == [s.key for s in SECTIONS]


def test_an_unknown_word_names_the_words_there_are():
    with pytest.raises(
        ValueError,
        match=r"unknown word\(s\) 'volcano'; the toy vocabulary knows: a, at, bank",
    ):
        experiment.run("the volcano bank")


def test_the_run_context_indents_lines_and_collects_values():
    r = Results(sentence=("the", "bank"))
    ctx = experiment.RunContext(r, "demo", seed=7)
    ctx.log("a", "  b  ", "")
    ctx.show(x="1")
    ctx.show(y="2")
    assert r.lines == ["  a", "    b", ""] and r.show == {"demo": {"x": "1", "y": "2"}}
    assert (ctx.sentence, ctx.seed) == (("the", "bank"), 7)


# --------------------------------------------------------------------------- write


def test_write_puts_every_file_and_leaves_no_temporary_folder(results, tmp_path):
    out = tmp_path / "out"
    written = experiment.write(results, out)
    assert [p.name for p in written] == [
        "results.log",
        *results.figures,
        *results.tables,
    ]
    assert (out / "results.log").read_bytes() == results.text.encode("utf-8")
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in written)


def test_write_is_all_or_nothing(tmp_path, results):
    out = tmp_path / "out"
    experiment.write(results, out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    # a figure that is not text: writing it raises, after results.log was written
    broken = Results(
        sentence=results.sentence, lines=["changed"], figures={"bad.svg": None}
    )
    with pytest.raises(TypeError):
        experiment.write(broken, out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
