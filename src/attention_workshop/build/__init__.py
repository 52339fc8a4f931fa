"""The build: what turns the chapters into a site.

- :mod:`.experiment` runs every section into results.log (:mod:`.results` holds what it
  produced), :mod:`.cli` is its command line, :mod:`.torch_refs` the PyTorch references.
- :mod:`.claims` checks every claim the chapters make; :mod:`.fmt` is the one number formatter.
- :mod:`.figures` draws the SVG figures; :mod:`.render` and :mod:`.tables` write Markdown and HTML.
- :mod:`.pages` is what the snippets and the MkDocs hooks call.

Nothing below the build imports it: the maths and the chapters never depend on MkDocs,
Matplotlib or PyTorch.
"""
