"""MkDocs hook: what a reader takes home. The download bundle, the notebooks, the Source page's check.

- ``generated/take-home/`` (the package's wheel, the locks and pins, ``reproduce.sh`` and ``reproduce.ps1``,
  and a zip of them with results.log) and ``generated/notebooks/<page>.ipynb`` become files of the site; the
  notebooks attach the D2 diagrams this build drew and show the Real heads figures it wrote (so this hook
  runs after hooks/diagrams.py and hooks/experiment.py). A notebook whose cells fail to run is a problem
  of its page.
- Each notebook's page gets a download button under its title.
- The Source page must show every module the experiment imports, each exactly as its file is (one
  missing or stale fails the build, naming it); a listing waits in its tab (source_page.deferred).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import _workshop_common as common
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

SOURCE_PAGE = "source.md"
_TITLE = re.compile(r"^# .*$", re.M)
_NOTEBOOKS: dict[str, File] = {}  # by page: filled once the pages are rendered


# once the package is imported and the cache on (hooks/experiment.py, priority 100): setuptools
# builds the wheel in its own process while the build goes on
@event_priority(50)
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    common.downloads().prefetch_wheel()
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    downloads = common.downloads()
    folder = f"{common.pages().GENERATED}/diagrams/"
    diagrams = {
        f.src_uri.removeprefix(folder).removesuffix(".svg"): f.content_bytes
        for f in files
        if f.src_uri.startswith(folder) and f.src_uri.endswith(".svg")
    }
    real_heads = {
        f.src_uri: f.content_string
        for f in files
        if f.src_uri.startswith(f"{common.pages().GENERATED}/real-heads/")
        and f.src_uri.endswith(".svg")
    }
    downloads.configure(config.site_url or "", diagrams, real_heads)
    try:
        made = downloads.takehome_files()
    except (RuntimeError, ValueError) as err:
        raise PluginError(f"attention_workshop: the take-home files: {err}") from err
    for path, data in made.items():
        files.append(File.generated(config, path, content=data))
    # a notebook is made when its page's button asks for its size, or after the pages (on_env):
    # a page's render reads its own notebook's page and snippets, not every page's
    _NOTEBOOKS.clear()
    for page in downloads.notebooks.PAGES:
        _NOTEBOOKS[page] = File.generated(
            config, downloads.notebook_path(page), content=b""
        )
        files.append(_NOTEBOOKS[page])
    return files


@event_priority(-50)  # after hooks/page_reuse.py stops recording the pages' reads
def on_env(env: Any, config: MkDocsConfig, files: Files) -> Any:
    downloads = common.downloads()
    for page, file in _NOTEBOOKS.items():
        try:
            file.content_bytes = downloads.notebook(page)
        except (RuntimeError, ValueError) as err:
            raise PluginError(
                f"docs/{page}.md: its notebook could not be made: {err}"
            ) from err
    for page, message in downloads.FAILED:
        common.problem(
            f"docs/{page}.md: its notebook did not run: {message}", page=f"{page}.md"
        )
    return env


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, files: Files
) -> str:
    # imported here, not at the top: each build's own package (_workshop_common.fresh_pages)
    from workshop_site import notebooks

    name = page.file.src_uri.removesuffix(".md")
    if name not in notebooks.PAGES:
        return markdown
    button = common.downloads().notebook_button(name)
    title = _TITLE.search(markdown)
    if title is None:
        raise PluginError(
            f"docs/{page.file.src_uri}: a notebook's page needs a '# ' title"
        )
    return f"{markdown[: title.end()]}\n\n{button}{markdown[title.end() :]}"


def on_page_content(output: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    if page.file.src_uri == SOURCE_PAGE:
        from workshop_site import source_page
        from workshop_site.page_steps import same

        missing = same(source_page.missing, output)
        if missing:
            raise PluginError(
                f"docs/{SOURCE_PAGE}: the experiment imports {', '.join(missing)}, which the page "
                "does not show as the file is: print it with workshop_site.source_page.source_tabs()"
            )
        return same(source_page.deferred, output)  # a listing waits for its tab
    return output
