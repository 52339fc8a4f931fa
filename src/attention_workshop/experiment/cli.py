"""The experiment's command line: ``python -m attention_workshop.experiment [--out DIR] [--sentence "..."]``
(also installed as ``attention-workshop-experiment``). It checks the sentence, runs every
section, verifies every claim, and only then writes results.log and the figures.

``--compare results.log`` runs the experiment in memory (it writes nothing) and compares its log
with the file, line by line (:mod:`.compare`); ``--against mine/results.log`` compares two files
without running anything. It prints ``identical``, or each differing line, and exits 1 unless
every difference is one that may differ between computers.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ..toy import SENT_RIVER
from . import compare
from .atomic import OutDirError, check_out_dir
from .claim_runner import ClaimError, verify
from .runner import MAX_WORDS, check_sentence, run, write

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run the experiment and write its captures."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.compare is not None or args.against is not None:
        return _compare(parser, args)
    args.sentence = " ".join(SENT_RIVER) if args.sentence is None else args.sentence
    out = Path(args.out or "captures")
    # the sentence and the folder are checked before any work
    try:
        check_sentence(args.sentence)
        _check_out(out)
    except ValueError as err:
        parser.exit(2, f"error: {err}\n")
    try:
        results = run(args.sentence)
        checked = verify(results)
    except ValueError as err:
        parser.exit(2, f"error: {err}\n")
    except ClaimError as err:
        parser.exit(1, f"error: nothing was written: {err}\n")
    except ModuleNotFoundError as err:
        parser.exit(2, f"error: {err}. {_NEEDS}\n")
    try:
        written = write(results, out)
    except OutDirError as err:
        parser.exit(2, f"error: nothing was written: {err}\n")
    except OSError as err:
        parser.exit(2, f"error: cannot write into {args.out}: {err.strerror or err}\n")
    for path in written:
        print(path)
    print(f"{checked} claims the pages make hold for this run", file=sys.stderr)
    return 0


_NEEDS = (
    "The experiment needs PyTorch and Matplotlib: "
    "pip install 'attention-workshop[docs]' (or run make site)."
)


def _compare(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``--compare FILE [--against FILE]``: the file against this run (in memory) or another file."""
    if args.compare is None:
        parser.exit(
            2,
            "error: --against needs --compare: "
            "--compare results.log --against mine/results.log\n",
        )
    if args.out is not None:
        parser.exit(2, "error: --compare writes nothing: leave out --out\n")
    if args.against is not None and args.sentence is not None:
        parser.exit(
            2,
            "error: --against compares two files and runs nothing: "
            "leave out --sentence\n",
        )
    try:
        expected = compare.read_log(args.compare)
        if args.against is not None:
            got, name = compare.read_log(args.against), args.against
        else:
            sentence = " ".join(SENT_RIVER) if args.sentence is None else args.sentence
            got, name = run(check_sentence(sentence)).text, "this run"
    except ValueError as err:
        parser.exit(2, f"error: {err}\n")
    except ModuleNotFoundError as err:
        parser.exit(2, f"error: {err}. {_NEEDS}\n")
    text, status = compare.report(
        compare.differences(expected, got), args.compare, name
    )
    print(text)
    return status


def _parser() -> argparse.ArgumentParser:
    """The command line's options, named after how it was invoked."""
    invoked = Path(sys.argv[0]).name
    parser = argparse.ArgumentParser(
        prog="python -m attention_workshop.experiment"
        if invoked in ("experiment.py", "__main__.py")
        else invoked,
        description="Run the attention workshop's experiment and write results.log and figures.",
    )
    parser.add_argument(
        "--out",
        help="folder to write into, replaced as a whole: a new or empty folder, or one "
        "an earlier run wrote (default: captures)",
    )
    parser.add_argument(
        "--sentence",
        help=f"words of the toy vocabulary, at most {MAX_WORDS} of them, "
        'e.g. "the river bank" (the default)',
    )
    parser.add_argument(
        "--compare",
        metavar="FILE",
        help="compare FILE (a results.log) with this run, line by line, writing nothing: "
        "prints identical, or each line that differs; exits 1 unless each may differ "
        "(a version stamp, or a rounding-level figure within its bound)",
    )
    parser.add_argument(
        "--against",
        metavar="FILE",
        help="with --compare: compare with FILE, another results.log, instead of running",
    )
    return parser


def _check_out(out: Path) -> None:
    """Refuse, before the run, a folder that is a file or sits under one, and a folder with
    files but no results.log (not one an earlier run wrote: ``--out .``)."""
    check_out_dir(out)
    if out.is_dir() and any(out.iterdir()) and not (out / "results.log").is_file():
        raise OutDirError(
            f"--out {out} holds other files and no results.log; it would be replaced as "
            "a whole: name a new or empty folder, or one an earlier run wrote"
        )


if __name__ == "__main__":
    sys.exit(main())
