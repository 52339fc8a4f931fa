"""A way past MkDocs' end: ProperDocs 1.6.7 (the maintained fork of MkDocs 1.6, ``properdocs`` in
requirements.lock) builds the same site from the same mkdocs.yml, hooks, theme and plugins.

Every file of a plain ProperDocs build is compared with a fresh MkDocs build, byte for byte
(tests/test_reproducible.py: one of the builds that test compares is ProperDocs', so that it
costs no build of its own); the one difference allowed is the tag that names the generator
(``<meta name="generator" ...>``), and the test lists the files where it is the only one. This
file holds the comparison and its own test.
"""

from __future__ import annotations

from pathlib import Path

#: The generator tag each one writes into every HTML page (Material adds its own version after it).
TAGS = {
    "mkdocs": b'<meta name="generator" content="mkdocs-1.6.1, ',
    "properdocs": b'<meta name="generator" content="mkdocs-ProperDocs 1.6.7, ',
}


def files(site: Path) -> dict[str, bytes]:
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


def differences(
    mkdocs_site: Path, properdocs_site: Path
) -> tuple[list[str], list[str]]:
    """``(files that differ only in the generator's tag, files that differ otherwise)``: a file
    found in one site only differs otherwise, and so does a tag found more or less than once."""
    a, b = files(mkdocs_site), files(properdocs_site)
    tag_only, other = [], []
    for name in sorted(a.keys() | b.keys()):
        x, y = a.get(name), b.get(name)
        if x == y:
            continue
        if (
            x is not None
            and y is not None
            and x.count(TAGS["mkdocs"]) == 1
            and y.count(TAGS["properdocs"]) == 1
            and y.replace(TAGS["properdocs"], TAGS["mkdocs"]) == x
        ):
            tag_only.append(name)
        else:
            other.append(name)
    return tag_only, other


def test_only_the_generator_tag_may_differ(tmp_path):
    """The comparison itself: a tag is allowed, any other byte, or a missing file, is not."""
    a, b = tmp_path / "a", tmp_path / "b"
    for site, tag in ((a, TAGS["mkdocs"]), (b, TAGS["properdocs"])):
        (site / "x").mkdir(parents=True)
        (site / "x" / "index.html").write_bytes(b"<head>" + tag + b'9.8.2"></head>')
        (site / "page.html").write_bytes(b"<head>" + tag + b'9.8.2"></head><p>1</p>')
        (site / "same.txt").write_bytes(b"same")
    assert differences(a, b) == (["page.html", "x/index.html"], [])
    (b / "page.html").write_bytes(
        b"<head>" + TAGS["properdocs"] + b'9.8.2"></head><p>2</p>'
    )
    (b / "extra.txt").write_bytes(b"")
    assert differences(a, b) == (["x/index.html"], ["extra.txt", "page.html"])
