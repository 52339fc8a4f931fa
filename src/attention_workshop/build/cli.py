"""The experiment's command line: ``python -m attention_workshop.experiment [--out DIR] [--sentence "..."]``
(also installed as ``attention-workshop-experiment``). It checks the sentence, runs every
section, verifies every claim, and only then writes results.log and the figures."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ..toy import SENT_RIVER
from .claim_runner import ClaimError, verify
from .experiment import run, write

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: run the experiment and write its captures."""
    invoked = Path(sys.argv[0]).name
    parser = argparse.ArgumentParser(
        prog="python -m attention_workshop.experiment"
        if invoked in ("experiment.py", "__main__.py")
        else invoked,
        description="Run the attention workshop's experiment and write results.log and figures.",
    )
    parser.add_argument(
        "--out", default="captures", help="folder to write into (default: captures)"
    )
    parser.add_argument(
        "--sentence",
        default=" ".join(SENT_RIVER),
        help='words of the toy vocabulary, e.g. "the river bank" (the default)',
    )
    args = parser.parse_args(argv)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        parser.exit(
            2,
            f"error: --out {args.out} is a file, not a folder; name a folder to write into\n",
        )
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
    except OSError as err:
        parser.exit(2, f"error: cannot write into {args.out}: {err.strerror or err}\n")
    for path in written:
        print(path)
    print(f"{checked} claims the pages make hold for this run", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
