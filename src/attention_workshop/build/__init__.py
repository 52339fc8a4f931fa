"""The build: what turns the chapters into a site.

- :mod:`.experiment` runs every section into results.log (:mod:`.results` holds what it
  produced), :mod:`.cli` is its command line, :mod:`.torch_refs` the PyTorch references.
- :mod:`.claims` checks every claim the chapters make (:mod:`.claim_report` says what a false
  one measured and where it is stated); :mod:`.fmt` is the one number formatter.
- :mod:`.figures` draws the SVG figures; :mod:`.render` and :mod:`.tables` write Markdown and HTML.
- :mod:`.pages` is what the snippets call, :mod:`.site` what the MkDocs hooks call;
  :mod:`.sources`, :mod:`.checks` and :mod:`.handtyped` find the line a problem is written on
  and what to write instead.

Nothing below the build imports it: the maths and the chapters never depend on MkDocs,
Matplotlib or PyTorch.
"""
