"""``python tools/serve_memory.py [REBUILDS]``: does ``mkdocs serve`` last?

Rebuilds the site in one process the way ``mkdocs serve`` does on every edit (the config
loaded anew, the plugins that have ``on_startup`` kept, ``build`` with a serve URL) and
prints the process's memory after rebuild 1, 10, 20, ... The target: memory after 100
rebuilds within 20% of memory after 10 (hooks/serve.py clears the upstream caches that
would otherwise keep every old page). A measurement to read, never a test: it takes a
few minutes.
"""

from __future__ import annotations

import gc
import logging
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rss_mb() -> float:
    """This process's resident memory now, in MB (Linux: /proc/self/status)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise OSError("no VmRSS in /proc/self/status (this measurement needs Linux)")


def main(argv: list[str] | None = None) -> int:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    rebuilds = int((argv if argv is not None else sys.argv[1:] or ["100"])[0])
    logging.basicConfig(level=logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="mkdocs_") as site_dir:

        def config():  # what `mkdocs serve` calls before each build
            cfg = load_config(str(ROOT / "mkdocs.yml"), site_dir=site_dir, strict=True)
            cfg.site_url = "http://127.0.0.1:8000/"
            return cfg

        config().plugins.on_startup(command="serve", dirty=False)
        at: dict[int, float] = {}
        for n in range(1, rebuilds + 1):
            build(config(), serve_url="http://127.0.0.1:8000/")
            gc.collect()
            if n == 1 or n % 10 == 0:
                at[n] = rss_mb()
                print(f"after rebuild {n:>4}: {at[n]:8.1f} MB", flush=True)
    if 10 in at and rebuilds in at and rebuilds > 10:
        growth = at[rebuilds] / at[10] - 1
        verdict = "met" if growth <= 0.20 else "NOT MET"
        print(
            f"after {rebuilds} rebuilds: {growth:+.1%} against rebuild 10 "
            f"(target within 20%: {verdict})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
