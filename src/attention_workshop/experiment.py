"""``python -m attention_workshop.experiment``: the experiment's command line.

The experiment lives in :mod:`attention_workshop.build.experiment`; this module keeps the
command (and :func:`run`, :func:`write`, :func:`main`) where the workshop has always named it.
"""

from __future__ import annotations

import sys

from .build.cli import main
from .build.experiment import SEED, run, write
from .build.results import Results, Span

__all__ = ["SEED", "Results", "Span", "main", "run", "write"]

if __name__ == "__main__":
    sys.exit(main())
