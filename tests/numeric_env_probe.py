"""Run in a subprocess by tests/test_numeric_env.py, under one numeric environment.

``python tests/numeric_env_probe.py OUT`` writes the experiment's files into ``OUT/`` (its
results.log, figures and CSVs, as ``python -m attention_workshop.experiment --out OUT``
writes them) and the Real heads page's files and quoted values into ``OUT/real-heads/``, with the
sha256 of the run box's model file (the float16 weights the site serves: 45 MB, so its hash).
Beside ``OUT``, in ``modules.txt``, it lists the package's modules the experiment's command
loaded, one per line, before anything else is imported (tests/test_source_page.py reads it
from the run in the machine's own environment). With ``--product``, it prints one
kernel-dependent product at full precision instead: the deliberate break that shows the matrix
test can fail.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path


def product() -> str:
    """NumPy's ``@`` (BLAS) on seeded matrices, every bit of it: differs between BLAS kernels."""
    import numpy as np

    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((64, 200)), rng.standard_normal((200, 70))
    return "\n".join(repr(x) for x in (a @ b).ravel()) + "\n"


def main(argv: list[str]) -> int:
    if argv[:1] == ["--product"]:
        out = Path(argv[1])
        out.mkdir(parents=True, exist_ok=True)
        (out / "product.txt").write_text(product(), encoding="utf-8")
        return 0
    from attention_workshop.experiment.cli import main as experiment

    out = Path(argv[0])
    code = experiment(["--out", str(out)])
    if code:
        return int(code)
    loaded = sorted(m for m in sys.modules if m.split(".")[0] == "attention_workshop")
    (out.parent / "modules.txt").write_text("\n".join(loaded) + "\n", encoding="utf-8")

    from attention_workshop.experiment.real_heads_page import site_files
    from attention_workshop.trained import browser
    from workshop_site.real_heads_values import values

    heads = out / "real-heads"
    for name, text in site_files().items():
        path = heads / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    values_text = json.dumps(values(), indent=1, sort_keys=True, ensure_ascii=False)
    (heads / "values.json").write_text(values_text + "\n", encoding="utf-8")
    # made already for the size the page quotes (values above); its bytes were compared only
    # under test_reproducible's one other setting
    weights = hashlib.sha256(browser.weights_file()).hexdigest()
    (heads / "minilm-f16.bin.sha256").write_text(weights + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
