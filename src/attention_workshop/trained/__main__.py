"""``python -m attention_workshop.trained --sentence "..." --out DIR``: one sentence's heads, classified.

The maths layer never imports the experiment; this entry module is the one exception
(listed in pyproject.toml's import-linter ``ignore_imports``): it only hands the
command line to :func:`attention_workshop.experiment.heads_cli.main`, which does the work.
"""

import sys

from attention_workshop.experiment.heads_cli import main

sys.exit(main())
