"""MkDocs hook: the committed captures are this build's run, or the build says to remake them.

``captures/`` holds the experiment's results.log, figures and CSVs as committed; the Reproducing
page promises that a build's run is the same, byte for byte. When the package changed and
``captures/`` did not, that is a problem (the strict build fails; ``mkdocs serve`` shows it on
every page) whose message gives the command that fixes it: ``make captures``, then commit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import _workshop_common as common
from mkdocs.plugins import event_priority

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig


# after hooks/experiment.py has run the experiment (and verified its claims)
@event_priority(-10)
def on_pre_build(config: MkDocsConfig) -> None:
    stale = common.pages().stale_captures()
    if stale:
        common.problem(
            "captures/ is not this build's run (the package changed since the capture was made): "
            + "; ".join(stale)
            + ". Run `make captures` and commit captures/ with your change."
        )
