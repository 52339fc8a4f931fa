"""``python -m attention_workshop.experiment``: the experiment's command line (:mod:`.cli`)."""

import sys

from .cli import main

sys.exit(main())
