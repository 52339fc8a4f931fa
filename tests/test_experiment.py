"""experiment.py: deterministic, reproducing the committed capture, all or nothing on error."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pytest
import torch

from attention_workshop import experiment

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def results():
    return experiment.run()


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "attention_workshop.experiment", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=300)


def test_two_runs_give_identical_bytes(results):
    again = experiment.run()
    assert again.text == results.text
    assert again.figures == results.figures, "SVG figures must be byte-identical (no dates, no random ids)"
    assert again.tables == results.tables


def test_fresh_run_reproduces_the_committed_capture(results):
    capture = (ROOT / "captures" / "results.log").read_text(encoding="utf-8")
    assert capture == results.text, "captures/results.log is stale: run `make captures` and commit it"
    for name, svg in results.figures.items():
        assert (ROOT / "captures" / name).read_text(encoding="utf-8") == svg, f"captures/{name} is stale"


def test_the_log_stamps_the_versions_first(results):
    head = results.lines[:7]
    assert head[0].startswith("# attention-workshop")
    stamped = dict(line[2:].split(": ", 1) for line in head[1:6])
    assert stamped["python"] == ".".join(map(str, sys.version_info[:3]))
    assert stamped["numpy"] == np.__version__
    assert stamped["torch"] == f"{torch.__version__} (CPU kernels: default)"
    assert torch.backends.cpu.get_cpu_capability() == "DEFAULT", "the portable kernels, on every processor"
    assert stamped["matplotlib"] == matplotlib.__version__
    assert stamped["os"].startswith(os.uname().sysname)


def test_sections_are_labelled_in_order_and_located_exactly(results):
    labels = [s.label for s in results.sections.values()]
    assert labels == [f"S{n}" for n in range(1, len(labels) + 1)]
    for key, s in results.sections.items():
        assert results.lines[s.start - 1] == f"[{s.label}] {s.title}", key
        after = results.lines[s.end] if s.end < len(results.lines) else ""
        assert after == "", f"section {key} should end right before a blank line or the end of the log"
    headers = [n for n, line in enumerate(results.lines, 1) if re.match(r"\[S\d+\] ", line)]
    assert headers == [s.start for s in results.sections.values()]


def test_module_3_sections_are_all_there(results):
    for key in ("general_head", "causal", "order", "price", "multi_head"):
        assert key in results.sections
    text = results.text
    assert "torch.nn.functional.scaled_dot_product_attention" in text
    assert "147,456" in text and "28,311,552" in text


def test_cli_writes_the_log_and_figures(tmp_path, results):
    proc = _cli("--out", str(tmp_path / "out"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "out"
    assert (out / "results.log").read_text(encoding="utf-8") == results.text
    for name in results.figures:
        assert (out / name).read_text(encoding="utf-8").startswith("<?xml"), name
    assert not [p for p in out.iterdir() if p.name.startswith(".tmp-")], "no temporary folder left behind"


def test_cli_with_an_unknown_word_says_which_words_exist_and_writes_nothing(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.log").write_text("the previous capture\n", encoding="utf-8")
    proc = _cli("--out", str(out), "--sentence", "the volcano bank", cwd=tmp_path)
    assert proc.returncode == 2
    assert "volcano" in proc.stderr and "river" in proc.stderr and "savings" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert (out / "results.log").read_text(encoding="utf-8") == "the previous capture\n"
    assert [p.name for p in out.iterdir()] == ["results.log"]


def test_custom_sentence_runs_and_keeps_the_general_claims():
    from attention_workshop import claims

    r = experiment.run("fish swam by the shore")
    assert '"fish swam by the shore"' in r.text
    assert claims.verify(r) > 0
    w = r.data["causal"]["weights"]
    assert w.shape == (5, 5) and w[0, 0] == 1.0


def test_write_is_all_or_nothing(tmp_path, results, monkeypatch):
    out = tmp_path / "out"
    experiment.write(results, out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    broken = experiment.Results(sentence=results.sentence, lines=results.lines, figures={"bad.svg": None})

    with pytest.raises(TypeError):
        experiment.write(broken, out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_no_line_of_the_log_is_longer_than_72_characters(results):
    long = [(n, len(line)) for n, line in enumerate(results.lines, 1) if len(line) > 72]
    assert not long, f"results.log lines longer than 72 characters (line, length): {long}"


def test_sqrt_dk_numbers_recomputed_from_scratch(results):
    """The same draws, in the same order, from numpy's default_rng(SEED); arithmetic in PyTorch float64."""
    d = results.data["sqrt_dk"]
    rng = np.random.default_rng(experiment.SEED)
    for n, d_k in enumerate(experiment.DK_VALUES):
        q = torch.from_numpy(rng.standard_normal((experiment.DK_TRIALS, d_k)))  # (N, d_k)
        k = torch.from_numpy(rng.standard_normal((experiment.DK_TRIALS, experiment.DK_KEYS, d_k)))  # (N, keys, d_k)
        raw = (k @ q.unsqueeze(-1)).squeeze(-1)  # (N, keys, d_k) x (N, d_k, 1) -> (N, keys)
        scaled = raw / d_k ** 0.5
        var = lambda x: float(((x - x.mean()) ** 2).mean())  # population variance, as numpy's var
        assert math.isclose(d["var_raw"][n], var(raw), rel_tol=1e-12), d_k
        assert math.isclose(d["var_scaled"][n], var(scaled), rel_tol=1e-12), d_k
        assert math.isclose(d["max_raw"][n], float(torch.softmax(raw, -1).max(-1).values.mean()), rel_tol=1e-12), d_k
        assert math.isclose(d["max_scaled"][n], float(torch.softmax(scaled, -1).max(-1).values.mean()), rel_tol=1e-12), d_k


def test_sqrt_dk_statistics_match_the_theory(results):
    """Standard normal q and k: var(q.k) = d_k exactly in theory; divided by sqrt(d_k), 1."""
    d = results.data["sqrt_dk"]
    for d_k, vr, vs in zip(d["dk"], d["var_raw"], d["var_scaled"]):
        assert abs(vr / d_k - 1) < 0.05, f"var(q.k) = {vr:.1f} is not within 5% of d_k = {d_k}"
        assert abs(vs - 1) < 0.05, f"scaled variance {vs:.3f} at d_k = {d_k} is not near 1"
    # With equal scores the largest of K weights would be 1/K; raw scores drift far above it, scaled ones stay low.
    assert d["max_raw"][-1] > 0.9 and np.all(d["max_scaled"] < 0.5)
    assert np.all(d["max_scaled"] > 1 / d["keys"])


def test_cli_checks_the_claims_and_says_so(tmp_path):
    proc = _cli("--out", str(tmp_path / "out"), "--sentence", "a boat by the shore", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"\d+ claims the pages make hold for this run", proc.stderr)


def test_cli_out_that_is_a_file_is_a_clear_error(tmp_path):
    target = tmp_path / "not-a-folder"
    target.write_text("keep me\n", encoding="utf-8")
    proc = _cli("--out", str(target), cwd=tmp_path)
    assert proc.returncode == 2 and "is a file, not a folder" in proc.stderr and "Traceback" not in proc.stderr
    assert target.read_text(encoding="utf-8") == "keep me\n"


def test_console_script_names_itself():
    script = Path(sys.executable).with_name("attention-workshop-experiment")
    proc = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("usage: attention-workshop-experiment")


def test_the_pytorch_differences_in_the_log_are_pytorchs(results):
    """Recompute both cross-checks with this test's own PyTorch code; the log must report the same numbers."""
    import math

    import torch.nn.functional as F

    from attention_workshop import attention, embed, multi_head_attention

    gh = results.data["general_head"]
    X = embed(results.sentence)
    for causal, logged in ((False, gh["diff"]), (True, gh["diff_causal"])):
        ours, _ = attention(X, gh["W_q"], gh["W_k"], gh["W_v"], causal=causal)
        q, k, v = (torch.from_numpy(X @ W) for W in (gh["W_q"], gh["W_k"], gh["W_v"]))
        theirs = F.scaled_dot_product_attention(q, k, v, is_causal=causal).numpy()
        assert logged == float(np.max(np.abs(ours - theirs))), f"general head, causal {causal}"
        assert 0 < logged < 1e-14, "a real comparison of two programs differs by rounding, not by nothing"

    mh = results.data["multi_head"]
    x, w_attn, b_attn, w_proj, b_proj = mh["inputs"]
    ours, _ = multi_head_attention(x, w_attn, b_attn, w_proj, b_proj, n_head=mh["n_head"])
    tx, tw, tb, tpw, tpb = (torch.from_numpy(a) for a in (x, w_attn, b_attn, w_proj, b_proj))
    B, T, C = tx.size()
    nh = mh["n_head"]
    q, k, v = (tx @ tw + tb).split(C, dim=2)
    q, k, v = (t.view(B, T, nh, C // nh).transpose(1, 2) for t in (q, k, v))
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
    att = att.masked_fill(~torch.tril(torch.ones(T, T, dtype=torch.bool)), float("-inf"))
    y = (torch.softmax(att, dim=-1) @ v).transpose(1, 2).contiguous().view(B, T, C) @ tpw + tpb
    assert mh["diff"] == float(np.max(np.abs(ours - y.numpy()))), "multi-head cross-check"
    assert 0 < mh["diff"] < 1e-14
