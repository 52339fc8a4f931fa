"""experiment/sources.py: a page's exec fences and their snippets, and where a text is written."""

from __future__ import annotations

from pathlib import Path

from attention_workshop.experiment import sources
from attention_workshop.experiment.sources import (
    Fence,
    chapter_page,
    fences,
    where_written,
)

ROOT = Path(__file__).resolve().parent.parent

PAGE = """# A page

```python exec="1" id="m3-log-causal"
--8<-- "module-3/log_causal.py"
```

````markdown
```python exec="1" id="shown-not-run"
--8<-- "module-3/log_order.py"
```
````

```python exec="on"
--8<-- "module-3/log_price.py"
```

```python exec="0" id="not-run"
print(1)
```

```bash
echo not an exec fence
```
"""


def test_fences_are_the_exec_fences_with_their_line_and_snippet_files():
    assert fences(PAGE) == [
        Fence("m3-log-causal", 3, "python", ("snippets/module-3/log_causal.py",)),
        Fence("", 13, "python", ("snippets/module-3/log_price.py",)),
    ]


def test_every_exec_fence_of_the_site_has_an_id_and_existing_snippets():
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for f in fences(page.read_text(encoding="utf-8")):
            assert f.id, f"{page.name}:{f.line}: an exec fence without an id"
            assert all((ROOT / s).is_file() for s in f.snippets), (page.name, f)


def test_where_written_finds_the_page_line_then_the_snippet():
    assert where_written("module-3.md", PAGE, 'exec="on"') == "docs/module-3.md:13"
    assert where_written("module-3.md", PAGE, 'log_excerpt("causal")') == (
        "snippets/module-3/log_causal.py (fence 'm3-log-causal', docs/module-3.md:3)"
    )
    assert where_written("module-3.md", PAGE, "nowhere at all") == (
        "docs/module-3.md, in the output of one of its snippets ('m3-log-causal')"
    )


def test_chapter_pages_follow_the_module_names():
    assert chapter_page("attention_workshop.chapters.module_3") == "module-3.md"
    assert (
        chapter_page("attention_workshop.chapters.step_by_step.mask")
        == "step-by-step.md"
    )
    assert chapter_page("attention_workshop.chapters.no_such_page") is None
    assert chapter_page("attention_workshop.experiment.figures") is None
    assert sources.DOCS == ROOT / "docs"
