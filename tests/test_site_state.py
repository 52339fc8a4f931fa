"""State the package keeps between builds: each piece is reset by ``build.site.forget`` or known pure.

Under ``mkdocs serve`` the package's modules stay imported from one build to the next while none of
its files changes (hooks/_workshop_imports.py). A module-level cache, counter or table that a build
fills is then still there at the next build: either it depends on nothing but its arguments and the
package's files (``site.KEPT``), or ``site.forget`` resets it (``site.PER_BUILD``). The syntax trees
of the package are searched for every such piece; one in neither list fails here, named.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from attention_workshop.build import site

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "attention_workshop"
_MUTATORS = {
    "append",
    "extend",
    "clear",
    "update",
    "setdefault",
    "pop",
    "add",
    "insert",
    "remove",
    "discard",
    "popitem",
}
#: Module state written only by code that never runs in a build (make bench's table).
OUTSIDE_BUILDS = {"build.bench:_ROWS"}


def _module_names(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def _written(node: ast.AST, names: set[str]) -> set[str]:
    """Module-level names this node writes into: mutated, item or attribute set, ``global``."""
    if isinstance(node, ast.Global):
        return set(node.names)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _MUTATORS
        and isinstance(node.func.value, ast.Name)
    ):
        return {node.func.value.id} & names
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {
            t.value.id
            for t in targets
            if isinstance(t, (ast.Subscript, ast.Attribute))
            and isinstance(t.value, ast.Name)
        } & names
    return set()


def stateful(source: str) -> set[str]:
    """The module-level state of a module's source: cached functions and names its code writes into."""
    tree = ast.parse(source)
    names = _module_names(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            "cache" in ast.unparse(d) for d in node.decorator_list
        ):
            found.add(node.name)
        # writes made inside functions: a module's own top level runs once per import
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                found |= _written(inner, names)
    return found


def package_state() -> set[str]:
    out = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        module = (
            ".".join(p for p in rel.parts if p != "__init__") or "attention_workshop"
        )
        out |= {f"{module}:{name}" for name in stateful(path.read_text("utf-8"))}
    return out


def test_every_piece_of_module_state_is_reset_or_known_pure():
    found = package_state() - OUTSIDE_BUILDS
    listed = set(site.PER_BUILD) | set(site.KEPT)
    unlisted = sorted(found - listed)
    assert not unlisted, (
        "module state that a serve rebuild would inherit (reset it in build.site.forget and "
        f"list it in PER_BUILD, or list it in KEPT with why it is pure): {unlisted}"
    )
    gone = sorted(listed - found)
    assert not gone, f"listed in build/site.py but no longer in the package: {gone}"


def test_the_search_finds_state_it_must_not_miss():
    """A deliberate break: each kind of state the search must see, in a module of its own."""
    source = """
import functools
_SEEN = {}
_LOG = []
_COUNT = 0
_OBJ = object()
CONSTANT = {"a": 1}

@functools.lru_cache(maxsize=None)
def cached(x):
    return x

def work(k):
    global _COUNT
    _COUNT += 1
    _SEEN[k] = 1
    _LOG.append(k)
    _OBJ.name = k
    return CONSTANT[k]
"""
    assert stateful(source) == {"cached", "_COUNT", "_SEEN", "_LOG", "_OBJ"}


# what `mkdocs serve` does: several builds in one process, the package kept between them
FORGET_SCRIPT = r"""
import sys
from attention_workshop.build import cache, cache_key, downloads, pages, site  # noqa: F401

site.context()
pages.RUNS = 7
cache.STATS["x"] = [1, 1]
cache.enable()
cache._stamp()
downloads._SITE.url = "https://example.org/"
site.forget()
assert site._CONTEXT is None and pages._COMMIT is None and not pages._FINGERPRINT
assert pages.RUNS == 0 and not cache.STATS and not cache.enabled() and not cache._BUILD_STAMP
assert cache_key._environment.cache_info().currsize == 0
assert downloads._files.cache_info().currsize == 0 and downloads._SITE.url == ""
print("FORGOTTEN")
"""


@pytest.mark.slow
def test_forget_puts_back_what_a_fresh_import_starts_from(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-c", FORGET_SCRIPT],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == ["FORGOTTEN"]
