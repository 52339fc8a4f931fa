"""The experiment: every chapter's sections run into ``results.log``, its figures, its checks and
its command lines (``python -m attention_workshop.experiment``, ``attention-workshop-heads``).

- :mod:`.runner` runs every section into results.log (:mod:`.results` holds what it produced),
  :mod:`.cli` is its command line, :mod:`.torch_refs` the PyTorch references, :mod:`.compare`
  compares two logs.
- :mod:`.claim_runner` checks every claim the chapters make (:mod:`.claim_report` says what a
  false one measured); :mod:`.fmt` is the one number formatter.
- :mod:`.figures` draws the SVG figures (:mod:`.plotting`, :mod:`.charts`, :mod:`.grids`).
- :mod:`.heads_cli` is the Real heads page's command line, for a sentence of the reader's own.
- :mod:`.cache` keeps expensive pure results under a key of the bytes of everything they read
  (:mod:`.cache_key`; :mod:`.import_closure` is the one import walker).

It is what a reader installs with the wheel: it imports nothing of MkDocs, Jinja or the site
(the site's build is the separate package ``workshop_site``, not shipped). Nothing is imported
here, so a module of the experiment brings in only what it imports itself (and a cached result
is keyed on just that: :mod:`.cache`).
"""
