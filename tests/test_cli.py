"""experiment/cli.py, the experiment's command line: what it writes, what it refuses, and what it says.

Most tests call ``main`` in this process with the session's run standing in for a new one;
the two at the end start the commands a reader types.
"""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest

from attention_workshop.experiment import cli
from attention_workshop.experiment.claim_runner import SECTION_CLAIMS

from .breaks import edit


@pytest.fixture()
def session_run(monkeypatch, results):
    """``cli.run`` answers with the session's run for the workshop's sentence; records the sentences asked for."""
    asked = []

    def run(sentence):
        asked.append(sentence)
        return results

    monkeypatch.setattr(cli, "run", run)
    return asked


def test_writes_the_log_and_figures_and_says_how_many_claims_hold(
    session_run, results, tmp_path, capsys
):
    out = tmp_path / "out"
    assert cli.main(["--out", str(out)]) == 0
    assert session_run == ["the river bank"]
    printed, said = capsys.readouterr()
    assert printed.split() == [
        str(out / n) for n in ("results.log", *results.figures, *results.tables)
    ]
    # the command checks its own run's claims: the sections' (the pages' own are the site build's)
    assert said == f"{len(SECTION_CLAIMS)} claims the pages make hold for this run\n"
    assert (out / "results.log").read_text(encoding="utf-8") == results.text
    assert all(
        (out / name).read_text(encoding="utf-8").startswith("<?xml")
        for name in results.figures
    )


def test_a_false_claim_writes_nothing(monkeypatch, results, tmp_path, capsys):
    broken = copy.deepcopy(results)
    edit("causal", "weights", lambda w: w + 1e-9)(broken, monkeypatch)
    monkeypatch.setattr(cli, "run", lambda sentence: broken)
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.log").write_text("the previous capture\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        cli.main(["--out", str(out)])
    assert stop.value.code == 1
    said = capsys.readouterr().err
    assert "error: nothing was written" in said and "causal.future_is_zero" in said
    assert [p.name for p in out.iterdir()] == ["results.log"]
    assert (out / "results.log").read_text(encoding="utf-8") == "the previous capture\n"


def test_an_unknown_word_says_which_words_exist_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.log").write_text("the previous capture\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        cli.main(["--out", str(out), "--sentence", "the volcano bank"])
    said = capsys.readouterr().err
    assert stop.value.code == 2
    assert (
        "'volcano'" in said
        and "river" in said
        and "savings" in said
        and "Traceback" not in said
    )
    assert (out / "results.log").read_text(encoding="utf-8") == "the previous capture\n"
    assert [p.name for p in out.iterdir()] == ["results.log"]


def test_another_sentence_checks_only_its_claims(
    results_other, monkeypatch, tmp_path, capsys
):
    """``cli.run`` answers with the session's run on another sentence (the same run as
    ``experiment.run`` gives it: conftest's fixture), so the experiment is not run a third time."""
    asked = []
    monkeypatch.setattr(cli, "run", lambda s: asked.append(s) or results_other)
    sentence = "fish swam by the shore"
    assert cli.main(["--out", str(tmp_path / "out"), "--sentence", sentence]) == 0
    assert asked == [sentence]
    general = sum(not c.default_only for _, c in SECTION_CLAIMS)
    assert (
        capsys.readouterr().err
        == f"{general} claims the pages make hold for this run\n"
    )
    assert f'# seed: 0; sentence: "{sentence}"' in (
        tmp_path / "out" / "results.log"
    ).read_text(encoding="utf-8")


def test_out_that_is_a_file_is_a_clear_error(session_run, tmp_path, capsys):
    target = tmp_path / "not-a-folder"
    target.write_text("keep me\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        cli.main(["--out", str(target)])
    assert stop.value.code == 2 and "is a file, not a folder" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "keep me\n" and session_run == []


def test_a_folder_it_cannot_write_is_a_clear_error(
    session_run, monkeypatch, tmp_path, capsys
):
    def refuse(results, out):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cli, "write", refuse)
    with pytest.raises(SystemExit) as stop:
        cli.main(["--out", str(tmp_path / "out")])
    assert stop.value.code == 2
    assert (
        f"error: cannot write into {tmp_path / 'out'}: Permission denied"
        in capsys.readouterr().err
    )


def test_missing_pytorch_says_how_to_install_it(monkeypatch, tmp_path, capsys):
    def run(sentence):
        raise ModuleNotFoundError("No module named 'torch'")

    monkeypatch.setattr(cli, "run", run)
    with pytest.raises(SystemExit) as stop:
        cli.main(["--out", str(tmp_path / "out")])
    assert stop.value.code == 2
    assert "pip install 'attention-workshop[docs]'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


# --------------------------------------------------------------------------- the commands a reader types


def test_python_m_names_itself():
    proc = subprocess.run(
        [sys.executable, "-m", "attention_workshop.experiment", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and proc.stdout.startswith(
        "usage: python -m attention_workshop.experiment"
    )


def test_console_script_names_itself():
    script = Path(sys.executable).with_name("attention-workshop-experiment")
    proc = subprocess.run(
        [str(script), "--help"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0 and proc.stdout.startswith(
        "usage: attention-workshop-experiment"
    )
