"""The site's build: what turns the chapters and the experiment into pages. Not shipped to readers.

- :mod:`.site` is what the MkDocs hooks call, :mod:`.pages` what the snippets call (it runs the
  experiment once per build and compares it with ``captures/``).
- :mod:`.claims` checks every claim the chapters make at every build;
  :mod:`.claim_sentences` that a page's sentence says no more than its claim checks.
- :mod:`.render` and :mod:`.tables` write Markdown and HTML; :mod:`.real_heads_values` and
  :mod:`.exam_page` write the interactive pages' text and JSON (Inside the model's are the
  wheel's, :mod:`attention_workshop.experiment.inside_page`, so that its notebook runs there).
- :mod:`.notation` keeps the one notation, :mod:`.diagrams` the D2 diagrams, :mod:`.fonts` the
  math font's subset, :mod:`.takehome` and :mod:`.downloads` the files a reader takes home.
- :mod:`.sources`, :mod:`.checks` and :mod:`.handtyped` find the line a problem is written on
  and what to write instead; :mod:`.publish` is ``make site``.

It imports the workshop (:mod:`attention_workshop`); nothing in the workshop imports it.
"""
