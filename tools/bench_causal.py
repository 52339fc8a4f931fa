"""One timing of the "A causal model" page's results, for ``make bench``: ``cold`` or ``warm``.

Run as its own process, so nothing is loaded before it starts. It imports the page's
module first (Matplotlib and the rest of the site's code are not the model's cost), then
times :func:`attention_workshop.experiment.causal_page.facts` with the build's cache on (the environment's
hash, which a build computes once for all its cached results, before the clock starts), and
prints the seconds. ``cold`` sets ``FRESH=1``: SmolLM2 is read from its GGUF file and every sentence
run through it (the cost a build pays when the model's inputs changed). ``warm`` reads the
result that a cold run stored (a build where they did not change). The cache folder is
``WORKSHOP_CACHE``, set by ``tools/bench.py`` to a temporary one.
"""

from __future__ import annotations

import os
import sys
import time


def main(kind: str) -> int:
    if kind not in ("cold", "warm"):
        raise SystemExit(f"usage: bench_causal.py cold|warm, got {kind!r}")
    if kind == "cold":
        os.environ["FRESH"] = "1"
    else:
        os.environ.pop("FRESH", None)
    from attention_workshop.experiment import cache, causal_page

    cache.enable()
    cache.environment()  # computed once per build for every cached result: not this page's cost
    t0 = time.perf_counter()
    causal_page.facts()
    seconds = time.perf_counter() - t0
    hits = sum(h for h, _ in cache.STATS.values())
    # the seconds, then whether the result came from the cache
    print(f"{seconds:.6f} {'hit' if hits else 'miss'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else ""))
