"""The experiment's command line: ``python -m attention_workshop.experiment [--out DIR] [--sentence "..."]``
(also installed as ``attention-workshop-experiment``). It checks the sentence, runs every
section, verifies every claim, and only then writes results.log and the figures."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ..toy import SENT_RIVER
from .atomic import OutDirError, check_out_dir
from .claim_runner import ClaimError, verify
from .experiment import MAX_WORDS, check_sentence, run, write

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run the experiment and write its captures."""
    parser = _parser()
    args = parser.parse_args(argv)
    out = Path(args.out)
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
        parser.exit(
            2,
            f"error: {err}. The experiment needs PyTorch and Matplotlib: "
            "pip install 'attention-workshop[docs]' (or run make site).\n",
        )
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
        default="captures",
        help="folder to write into, replaced as a whole: a new or empty folder, or one "
        "an earlier run wrote (default: captures)",
    )
    parser.add_argument(
        "--sentence",
        default=" ".join(SENT_RIVER),
        help=f"words of the toy vocabulary, at most {MAX_WORDS} of them, "
        'e.g. "the river bank" (the default)',
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
