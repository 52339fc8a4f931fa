"""What the MkDocs hooks ask of the package: the run, the values the prose quotes, the generated files.

The hooks call :func:`results` once per build (the experiment runs and every claim is
verified), :func:`context` to fill ``{{ section.name }}`` placeholders, and
:func:`generated_files` for the files the build adds to the site.

Every build imports the package afresh (hooks/_workshop_common.py), so module state lives for
one build at most.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from attention_workshop.experiment import (
    cache,
    causal_page,
    causal_reads,
    inside_page,
    real_heads_page,
)
from attention_workshop.experiment.results import Results
from attention_workshop.gpt2 import GPT2
from attention_workshop.trained import browser

from . import exam_page, linked, pages, real_heads_values
from .claims import sentence_problems
from .pages import GENERATED, build_info, results, stale_captures

__all__ = [
    "GENERATED",
    "results",
    "runs",
    "context",
    "generated_files",
    "large_files",
    "prehash_large_files",
    "stale_captures",
    "sentence_problems",
    "plain_roles",
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
    ctx.update({f"causal_heads.{k}": v for k, v in causal_page.values().items()})
    ctx.update({f"causal_heads.{k}": v for k, v in causal_reads.values().items()})
    _CONTEXT = (r, ctx)
    return dict(ctx)


#: The last run and its values.
_CONTEXT: tuple[Results, dict[str, str]] | None = None


#: The Real heads page's run box downloads all-MiniLM-L6-v2 from here (only when a reader runs it).
MINILM_PATH = f"{GENERATED}/minilm/{browser.FILE_NAME}"


def large_files() -> dict[str, tuple[str, Callable[[], bytes]]]:
    """The files too large to read whole at every build (the browser's model file), by path in
    the site: the SHA-256 of their bytes (kept on disk, on their code, as the bytes are), and how
    to make the bytes (hooks/experiment.py links the cache's copy, checked against the hash)."""
    weights = functools.partial(cache.call, browser.weights_file)
    sha256 = cache.call(real_heads_values.weights_file_facts)[1]
    return {MINILM_PATH: (sha256, weights)}


def prehash_large_files() -> None:
    """Start hashing the cache's copy of each of :func:`large_files` in the background, for
    hooks/experiment.py's on_files (:func:`.linked.prehash`)."""
    linked.prehash(MINILM_PATH)


def generated_files(large: bool = True) -> dict[str, str | bytes]:
    """Every file the build writes into the site: results.log, figures, CSVs, the JSON of
    the interactive pages, and the browser's model file (bytes, :data:`MINILM_PATH`; left out
    with ``large=False``: :func:`large_files`). Keys are paths inside the site (``generated/...``)."""
    r = results()
    files: dict[str, str | bytes] = {
        f"{GENERATED}/{name}": text
        for name, text in {"results.log": r.text, **r.figures, **r.tables}.items()
    }
    for page in (
        inside_page.site_files(),
        exam_page.site_files(),
        # the Real heads page's figures and JSON, kept on disk on their code (experiment/cache.py)
        cache.call(real_heads_page.site_files),
        # A causal model's figures and JSON, the same way
        cache.call(causal_page.site_files),
        cache.call(causal_reads.site_files),
    ):
        for path, text in page.items():
            if path in files:
                raise ValueError(f"{path!r} is written twice by the build")
            files[path] = text
    # the weights in float16 for the run box, kept on disk on their code as the figures are
    for path, (_, make) in large_files().items() if large else ():
        files[path] = make()
    return files


_ROLE = re.compile(r":(?:func|data|mod|class|meth|attr|exc|obj):(<code>)")


def plain_roles(page_html: str) -> str:
    """A Sphinx role a docstring writes (``:func:`run```) as the code it names: mkdocstrings
    renders docstrings as Markdown, where the role showed as ":func:" before the name."""
    return _ROLE.sub(r"\1", page_html)


def main() -> None:
    """Print every value the prose may quote and what it is in this build:
    ``.venv/bin/python -m workshop_site.site``."""
    for name, text in context().items():
        print(f"{{{{ {name} }}}}  {text}")


if __name__ == "__main__":
    main()
