"""A notebook's outputs, made in the build's own process as a Jupyter kernel makes them.

:func:`run` executes the code cells top to bottom in one namespace, as a kernel does, with no
kernel: a cell's last expression is its value and becomes an ``execute_result`` with the cell's
execution count (none when the value is None or the line ends with ``;``); ``display(x)``, the
builtin every kernel has, adds a ``display_data``; what the cell prints to stdout is a
``stream``, one per run of prints between two displays. Each bundle is made by IPython's own
:class:`~IPython.core.formatters.DisplayFormatter`, the formatter ipykernel uses, so the outputs
are what a kernel would save. ``tests/test_notebooks.py`` runs every shipped notebook on a fresh
kernel with nbclient and requires the same outputs.

The values the cells show are the build's own (a site build hands its run and its Real heads
files to :func:`attention_workshop.experiment.notebook.reuse`): running them costs little.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import io
from collections.abc import Sequence
from typing import Any

__all__ = ["CellError", "run"]


class CellError(RuntimeError):
    """A code cell raised or wrote to stderr: the message names the cell (by its number) and why."""


class _Outputs(io.TextIOBase):
    """A cell's outputs in order: stdout writes join the stream before them, displays stand apart."""

    def __init__(self, stream: str = "stdout") -> None:
        super().__init__()
        self.stream = stream
        self.items: list[dict[str, Any]] = []

    def write(self, text: str) -> int:
        if not text:
            return 0
        last = self.items[-1] if self.items else None
        if last and last["output_type"] == "stream" and last["name"] == self.stream:
            last["text"] += text
        else:
            self.items.append(
                {"output_type": "stream", "name": self.stream, "text": text}
            )
        return len(text)


def _bundle(formatter: Any, value: object) -> tuple[dict[str, Any], dict[str, Any]]:
    data, metadata = formatter.format(value)
    return dict(data), dict(metadata)


def _display(formatter: Any, out: _Outputs, *objs: object) -> None:
    """What ``display(*objs)`` adds to a cell's outputs: a ``display_data`` for each object."""
    for obj in objs:
        data, metadata = _bundle(formatter, obj)
        out.items.append(
            {"output_type": "display_data", "data": data, "metadata": metadata}
        )


def run(cells: Sequence[str]) -> list[list[dict[str, Any]]]:
    """Each code cell's outputs (nbformat's output dicts), the cells run in order in one namespace.

    Raises:
        CellError: a cell raised, or wrote to stderr.
    """
    import numpy as np

    # NumPy's print options are the process's own: a cell may set them (the practice cells do),
    # and the build's pages are rendered after the notebooks
    with np.printoptions():
        return _run(cells)


def _run(cells: Sequence[str]) -> list[list[dict[str, Any]]]:
    from IPython.core.formatters import DisplayFormatter

    formatter = DisplayFormatter()
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    results = []
    for count, source in enumerate(cells, 1):
        out, err = _Outputs(), _Outputs("stderr")

        namespace["display"] = functools.partial(_display, formatter, out)
        tree = ast.parse(source)
        last = tree.body[-1] if tree.body else None
        value = None
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                if isinstance(last, ast.Expr):
                    exec(
                        compile(
                            ast.Module(tree.body[:-1], []), f"<cell {count}>", "exec"
                        ),
                        namespace,
                    )
                    value = eval(
                        compile(ast.Expression(last.value), f"<cell {count}>", "eval"),
                        namespace,
                    )
                else:
                    exec(compile(tree, f"<cell {count}>", "exec"), namespace)
        except (
            BaseException
        ) as e:  # a cell's SystemExit or KeyboardInterrupt is its failure too
            raise CellError(f"cell {count}: {type(e).__name__}: {e}") from e
        if err.items:
            raise CellError(
                f"cell {count} wrote to stderr: {err.items[0]['text'][:300]}"
            )
        if value is not None and not source.rstrip().endswith(";"):
            data, metadata = _bundle(formatter, value)
            out.items.append(
                {
                    "output_type": "execute_result",
                    "execution_count": count,
                    "data": data,
                    "metadata": metadata,
                }
            )
        results.append(out.items)
    return results
