"""build/takehome.py: the experiment's lock, the wheel (same commit, same bytes), the script, sizes."""

from __future__ import annotations

import hashlib
import zipfile

import pytest

from attention_workshop.build import takehome

LOCK = """# a lock
numpy==2.4.6
torch==2.13.0+cpu
matplotlib==3.11.2
contourpy==1.3.3
cycler==0.12.1
fonttools==4.68.0
kiwisolver==1.5.1
packaging==26.4
pillow==13.0.0
pyparsing==3.3.3
python-dateutil==4.0.0
filelock==4.3.1
typing_extensions==4.16.0
setuptools==84.2.1
sympy==1.14.0
mpmath==1.3.0
networkx==3.6.1
Jinja2==3.1.6
MarkupSafe==3.0.4
fsspec==2026.9.0
tzdata==2026.6
mkdocs==1.6.1
pytest==9.2.0
"""


def test_the_lock_is_the_experiments_packages_and_their_dependencies():
    lines = [ln for ln in takehome.experiment_lock(LOCK).splitlines() if "==" in ln]
    names = {ln.split("==")[0].lower() for ln in lines}
    # what the three import, and what their own metadata says they need (PyTorch: sympy, networkx,
    # jinja2, fsspec, filelock; Matplotlib: pyparsing, kiwisolver, pillow, ...), pinned as in the lock
    assert {
        "numpy",
        "torch",
        "matplotlib",
        "sympy",
        "mpmath",
        "jinja2",
        "pyparsing",
    } <= names
    assert "torch==2.13.0+cpu" in lines and "numpy==2.4.6" in lines
    # the site's own tools are not the experiment's
    assert not {"mkdocs", "pytest"} & names
    assert lines == sorted(lines, key=str.lower)


def test_a_dependency_missing_from_the_lock_is_named():
    broken = LOCK.replace("sympy==1.14.0\n", "")
    with pytest.raises(ValueError, match=r"'sympy'.*make lock"):
        takehome.experiment_lock(broken)


def test_the_real_lock_has_everything_the_experiment_needs():
    text = takehome.experiment_lock(takehome.LOCK.read_text(encoding="utf-8"))
    assert "torch==2.13.0+cpu" in text


def test_two_wheels_of_one_commit_are_the_same_bytes(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    a = takehome.build_wheel(tmp_path / "a")
    b = takehome.build_wheel(tmp_path / "b")
    assert a.name == b.name == "attention_workshop-0.1.0-py3-none-any.whl"
    assert (
        hashlib.sha256(a.read_bytes()).digest()
        == hashlib.sha256(b.read_bytes()).digest()
    )
    with zipfile.ZipFile(a) as z:
        names = z.namelist()
        dates = {i.date_time for i in z.infolist()}
    # 1700000000 s after 1970 is 2023-11-14 22:13:20 UTC (zip keeps even seconds)
    assert dates == {(2023, 11, 14, 22, 13, 20)}
    assert "attention_workshop/build/cli.py" in names
    assert "attention_workshop/chapters/final_exam/questions.toml" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_another_date_another_wheel(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    a = takehome.build_wheel(tmp_path / "a").read_bytes()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    b = takehome.build_wheel(tmp_path / "b").read_bytes()
    assert a != b


def test_the_script_runs_the_three_commands_then_compares():
    wheel = "attention_workshop-0.1.0-py3-none-any.whl"
    text = takehome.script(wheel)
    commands = takehome.commands(wheel)
    assert len(commands) == 3
    assert commands[0].startswith("python3 -m venv ")
    assert f"--no-deps -r {takehome.LOCK_NAME} {wheel}" in commands[1]
    assert commands[2].endswith("-m attention_workshop.experiment --out mine")
    assert text.index(commands[2]) > text.index(commands[0])
    assert "cmp mine/results.log results.log" in text


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (0, "0 bytes"),
        (999, "999 bytes"),
        (1000, "1.0 kB"),
        (14_234, "14.2 kB"),
        (112_222, "112.2 kB"),
        (3_123_456, "3.1 MB"),
    ],
)
def test_sizes(n, text):
    assert takehome.human_size(n) == text
