"""From the built site alone: the Reproducing page's three commands recreate its results.log byte for byte.

The test reads the commands from the built Reproducing page, downloads the wheel, the lock and
results.log over HTTP from the served site (no clone, no file of the repository), runs the commands
in a new folder as a reader's shell would (a fresh virtual environment; pip reaches only the package
registry it is configured with), and compares the bytes. It takes about 45 s, nearly all of it pip
unpacking PyTorch's wheel into the new environment.
"""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.site


def _page(built_site: Path) -> str:
    return (built_site / "reproducing" / "index.html").read_text(encoding="utf-8")


def three_commands(doc: str) -> list[str]:
    """The lines of the first code block after the "Three commands" heading, as a reader copies them."""
    section = doc.split('id="three-commands"', 1)[1]
    block = re.search(
        r'<div class="language-bash highlight">.*?<code>(.*?)</code>', section, re.S
    )
    assert block, "no bash block under 'Three commands'"
    text = html.unescape(re.sub(r"<[^>]+>", "", block.group(1)))
    return [line for line in text.splitlines() if line.strip()]


def download_links(doc: str) -> dict[str, str]:
    """``{file name: href}`` of the downloads table of a built page."""
    return {
        html.unescape(name): html.unescape(href)
        for href, name in re.findall(r'<a href="([^"]+)" download>([^<]+)</a>', doc)
    }


def reader_env() -> dict[str, str]:
    """A reader's shell: the build's Python first on PATH, none of the test run's own settings."""
    drop = {
        "VIRTUAL_ENV",
        "PYTHONPATH",
        "PYTHONHOME",
        "ATEN_CPU_CAPABILITY",
        "PYTHONHASHSEED",
    }
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PATH"] = os.pathsep.join(
        [str(Path(sys._base_executable).parent), env.get("PATH", "")]
    )
    env["HF_HUB_OFFLINE"] = "1"
    return env


def test_the_three_commands_recreate_results_log_byte_for_byte(
    built_site, site_url, tmp_path
):
    doc = _page(built_site)
    commands = three_commands(doc)
    assert len(commands) == 3, commands
    links = download_links(doc)
    wheel = next(name for name in links if name.endswith(".whl"))
    for name in (wheel, "requirements-experiment.txt", "results.log"):
        url = site_url + "reproducing/" + links[name]
        (tmp_path / name).write_bytes(urllib.request.urlopen(url, timeout=30).read())
    started = time.monotonic()
    for command in commands:
        run = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            env=reader_env(),
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert run.returncode == 0, (
            f"{command!r} failed:\n{run.stdout[-2000:]}\n{run.stderr[-3000:]}"
        )
    mine = tmp_path / "mine" / "results.log"
    assert mine.read_bytes() == (tmp_path / "results.log").read_bytes(), (
        "the three commands wrote another results.log than the site's"
    )
    # the site's results.log is this build's (the session's build ran the same experiment)
    assert mine.read_bytes() == (built_site / "generated" / "results.log").read_bytes()
    print(f"three commands: {time.monotonic() - started:.1f} s")


def test_the_zip_holds_the_same_files(built_site):
    folder = built_site / "generated" / "take-home"
    with zipfile.ZipFile(folder / "attention-workshop-take-home.zip") as z:
        names = sorted(n.split("/", 1)[1] for n in z.namelist())
        alone = [p.name for p in folder.iterdir() if p.suffix != ".zip"]
        assert names == sorted([*alone, "results.log"])
        for name in names:
            site_file = (
                built_site / "generated" / name
                if name == "results.log"
                else folder / name
            )
            assert z.read(f"attention-workshop/{name}") == site_file.read_bytes(), name


def _sizes(doc: str) -> dict[str, str]:
    """``{href: size text}`` of each row of a built page's downloads table."""
    rows = re.findall(
        r'<td[^>]*><a href="([^"]+)" download>[^<]+</a></td>.*?<td[^>]*>([^<]+)</td>\s*</tr>',
        doc,
        re.S,
    )
    return dict(rows)


@pytest.mark.parametrize("page", ["index.html", "reproducing/index.html"])
def test_every_download_is_listed_with_its_true_size(built_site, page):
    doc = (built_site / page).read_text(encoding="utf-8")
    sizes = _sizes(doc)
    base = (built_site / page).parent
    listed = set()
    for href, size in sizes.items():
        assert not re.match(r"[a-z]+:", href), f"{page}: {href} is on another host"
        path = (base / href).resolve()
        listed.add(path)
        n = path.stat().st_size
        # written out by hand: bytes below 1000, else kB or MB with one decimal
        expected = (
            f"{n} bytes"
            if n < 1000
            else f"{n / 1000:.1f} kB"
            if n < 10**6
            else f"{n / 10**6:.1f} MB"
        )
        assert size.strip() == expected, (
            f"{page}: {href} is {n} bytes, the list says {size}"
        )
    offered = (
        {
            p.resolve()
            for folder in ("take-home", "notebooks")
            for p in (built_site / "generated" / folder).iterdir()
        }
        | {p.resolve() for p in (built_site / "generated").glob("*.svg")}
        | {p.resolve() for p in (built_site / "generated").glob("*.csv")}
        | {(built_site / "generated" / "results.log").resolve()}
    )
    assert offered <= listed, (
        f"{page}: not listed: {sorted(str(p) for p in offered - listed)}"
    )
