"""experiment/compare.py and ``--compare``: two logs line by line, and only what may differ allowed to.

The logs compared are the session's run and copies of it edited here by hand: a rounding-level
figure moved by two units in its last printed digit, an attention weight changed, a version stamp
replaced, a line cut off. The bounds the test expects are the claims' own words, written out here:
"within a few units of 2^-52" (4 x 2^-52, from ``sys.float_info``), 1e-15 for the naive softmax,
1e-12 for order-blindness.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from attention_workshop.experiment import cli, compare

EPS = sys.float_info.epsilon
#: section, the start of the figure's line (its indent left out), the bound its claim states
FIGURE_LINES = [
    ("softmax", "naive vs max-subtracted on [2, 1, 0]: max |difference| = ", 1e-15),
    ("general_head", "max |difference| = ", 4 * EPS),
    ("general_head", "machine epsilon 2^-52 = 2.22e-16; largest difference = ", 4.0),
    ("order", "(largest difference over all rows: ", 1e-12),
    ("multi_head", "max |difference| = ", 4 * EPS),
]


@pytest.fixture()
def session_run(monkeypatch, results):
    """``cli.run`` answers with the session's run (the experiment is not run again)."""
    monkeypatch.setattr(cli, "run", lambda sentence: results)


def _line_of(lines: list[str], section: str, start: str) -> int:
    """The index of the first line of ``[section]`` whose text starts with ``start``."""
    inside = False
    for i, line in enumerate(lines):
        if line.startswith("["):
            inside = line.startswith(f"[{section}] ")
        elif inside and line.strip().startswith(start):
            return i
    raise AssertionError(f"no line {start!r} in [{section}]")


def _nudged(line: str, units: int) -> str:
    """``line`` with its figure (its last number, 3 significant digits) moved by ``units`` in the
    last printed digit: ``6.66e-16`` -> ``6.68e-16``, ``1.00`` -> ``1.02``. A figure of exactly 0
    (``0.00e+00``: no rounding at all on this run) becomes ``units`` units of 2^-52 instead."""
    m = list(re.finditer(r"(\d)\.(\d\d)(e[-+]\d\d)?", line))[-1]
    if float(m.group(0)) == 0:
        return line[: m.start()] + f"{abs(units) * EPS:.2e}" + line[m.end() :]
    digits = int(m.group(1) + m.group(2)) + units
    assert 100 <= digits <= 999, line  # no carry into another exponent
    new = f"{digits // 100}.{digits % 100:02d}{m.group(3) or ''}"
    return line[: m.start()] + new + line[m.end() :]


def _value(line: str) -> float:
    return float(list(re.finditer(r"\d\.\d\de[-+]\d\d|\d\.\d\d", line))[-1].group(0))


def _compare(tmp_path, expected: str, got: str, capsys) -> tuple[int, str]:
    a, b = tmp_path / "site.log", tmp_path / "mine.log"
    a.write_text(expected, encoding="utf-8")
    b.write_text(got, encoding="utf-8")
    status = cli.main(["--compare", str(a), "--against", str(b)])
    return status, capsys.readouterr().out


@pytest.mark.parametrize(("section", "start", "bound"), FIGURE_LINES)
def test_a_figure_nudged_by_two_units_in_the_last_place_is_within_its_bound(
    results, tmp_path, capsys, section, start, bound
):
    lines = results.text.split("\n")
    i = _line_of(lines, section, start)
    nudged = _nudged(lines[i], 2 if _value(_nudged(lines[i], 2)) <= bound else -2)
    got = "\n".join([*lines[:i], nudged, *lines[i + 1 :]])
    status, out = _compare(tmp_path, results.text, got, capsys)
    assert status == 0, out
    assert f"line {i + 1} [{section}]: a rounding-level figure, within its bound" in out
    assert nudged in out and "every difference is a version stamp" in out


@pytest.mark.parametrize(("section", "start", "bound"), FIGURE_LINES)
def test_a_figure_past_its_bound_fails(
    results, tmp_path, capsys, section, start, bound
):
    lines = results.text.split("\n")
    i = _line_of(lines, section, start)
    figure = f"{bound * 1.01:.2e}" if bound < 1 else f"{bound * 1.01:.2f}"
    m = list(re.finditer(r"\d\.\d\d(e[-+]\d\d)?", lines[i]))[-1]
    past = lines[i][: m.start()] + figure + lines[i][m.end() :]
    assert _value(past) > bound, past
    got = "\n".join([*lines[:i], past, *lines[i + 1 :]])
    status, out = _compare(tmp_path, results.text, got, capsys)
    assert status == 1, out
    assert f"line {i + 1} [{section}]: a rounding-level figure PAST its bound" in out


def test_a_changed_attention_weight_fails_and_names_its_line(results, tmp_path, capsys):
    lines = results.text.split("\n")
    i = _line_of(lines, "causal", "bank ")  # bank's row under the causal mask
    last = lines[i].split()[-1]  # its weight on itself, e.g. 0.349
    changed = lines[i][: -len(last)] + f"{float(last) + 0.001:.3f}"
    got = "\n".join([*lines[:i], changed, *lines[i + 1 :]])
    status, out = _compare(tmp_path, results.text, got, capsys)
    assert status == 1
    assert f"line {i + 1} [causal]: may not differ" in out
    assert f"  expected: {lines[i]}" in out and f"  got:      {changed}" in out
    assert "1 of them may not differ" in out and "does not reproduce" in out


def test_version_stamps_may_differ_and_the_seed_line_may_not(results, tmp_path, capsys):
    text = results.text
    elsewhere = re.sub(r"(?m)^# os: .*$", "# os: Darwin arm64", text)
    elsewhere = re.sub(
        r"(?m)^# torch: .*$", "# torch: 2.13.0 (CPU kernels: default)", elsewhere
    )
    status, out = _compare(tmp_path, text, elsewhere, capsys)
    assert status == 0, out
    assert out.count("a version stamp: may differ on another system") == 2
    other = elsewhere.replace("# seed: 0;", "# seed: 1;")
    status, out = _compare(tmp_path, text, other, capsys)
    assert status == 1 and "line 7: may not differ" in out


def test_a_figure_line_with_other_words_may_not_differ(results, tmp_path, capsys):
    lines = results.text.split("\n")
    i = _line_of(lines, "multi_head", "max |difference| = ")
    got = "\n".join([*lines[:i], lines[i].replace("max", "mean"), *lines[i + 1 :]])
    status, out = _compare(tmp_path, results.text, got, capsys)
    assert status == 1 and f"line {i + 1} [multi_head]: may not differ" in out


def test_a_log_cut_short_names_the_lines_it_lacks(results, tmp_path, capsys):
    lines = results.text.split("\n")
    status, out = _compare(tmp_path, results.text, "\n".join(lines[:-3]), capsys)
    assert status == 1
    assert f"line {len(lines) - 2} [practice]: may not differ" in out
    assert "got:      (no such line" in out


def test_an_identical_log_prints_identical(session_run, results, tmp_path, capsys):
    site = tmp_path / "results.log"
    site.write_bytes(results.text.encode())
    assert cli.main(["--compare", str(site)]) == 0
    assert capsys.readouterr().out == "identical\n"
    assert [p.name for p in tmp_path.iterdir()] == ["results.log"]  # nothing written


def test_the_run_in_memory_is_compared(session_run, results, tmp_path, capsys):
    site = tmp_path / "results.log"
    site.write_text(results.text.replace("0.615", "0.616", 1), encoding="utf-8")
    assert cli.main(["--compare", str(site)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"this run differs from {site} in 1 line:\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--compare", "{tmp}/missing.log"], "error: cannot read {tmp}/missing.log: No such file"),
        (["--compare", "{tmp}"], "error: cannot read {tmp}: Is a directory"),
        (["--compare", "{tmp}/other.txt"], "is not a results.log: its first line is not"),
        (["--compare", "{tmp}/binary.log"], "is not a results.log: it is not UTF-8 text"),
        (["--compare", "{tmp}/results.log", "--against", "{tmp}/missing.log"], "cannot read {tmp}/missing.log"),
        (["--against", "{tmp}/results.log"], "error: --against needs --compare"),
        (["--compare", "{tmp}/results.log", "--out", "{tmp}/out"], "error: --compare writes nothing"),
        (["--compare", "{tmp}/results.log", "--against", "{tmp}/results.log",
          "--sentence", "the bank"], "runs nothing"),
        (["--compare", "{tmp}/results.log", "--sentence", "the moon"], "'moon'"),
    ],
)  # fmt: skip
def test_bad_input_gives_one_clear_line(results, tmp_path, capsys, args, message):
    (tmp_path / "results.log").write_text(results.text, encoding="utf-8")
    (tmp_path / "other.txt").write_text("a shopping list\n", encoding="utf-8")
    (tmp_path / "binary.log").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(SystemExit) as stop:
        cli.main([a.format(tmp=tmp_path) for a in args])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("error: ")
    assert message.format(tmp=tmp_path) in err


def test_a_missing_file_from_the_command_line_is_one_line_and_no_traceback(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "attention_workshop.experiment",
            "--compare",
            "nowhere.log",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == "error: cannot read nowhere.log: No such file or directory\n"


def test_the_report_lists_at_most_twenty_lines_then_counts_the_rest():
    expected = "\n".join(f"line {n}" for n in range(30))
    got = "\n".join(f"other {n}" for n in range(30))
    text, status = compare.report(compare.differences(expected, got), "a", "b")
    assert status == 1
    assert text.count("  expected: ") == 20 and "... and 10 more lines" in text
