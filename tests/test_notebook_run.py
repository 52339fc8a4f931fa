"""workshop_site/notebook_run.py: a notebook's outputs made in-process, against a fresh Jupyter kernel's.

The kernel (ipykernel, run by nbclient) is the reference: a small notebook that uses every kind
of output the site's notebooks use is run both ways and must give the same outputs.
"""

from __future__ import annotations

import pytest

from workshop_site import notebook_run

CELLS = [
    "import numpy as np\nx = np.arange(3)",  # no value: no output
    "print('a')\nprint('b')\nint(x.sum())",  # one stream, then the value
    "x;",  # a value the semicolon hides
    "class Svg:\n    def _repr_svg_(self):\n        return '<svg/>'\n    def __repr__(self):\n"
    "        return 'alt'\ndisplay(Svg())\nprint('between')\nSvg()",
    "class Md:\n    def _repr_markdown_(self):\n        return '| a |\\n|--|\\n| 1 |'\n"
    "    def __repr__(self):\n        return 'a table'\nMd()",
    "None",
]


def test_outputs_are_numbered_and_made_by_ipython_s_formatter():
    out = notebook_run.run(CELLS)
    assert out[0] == [] and out[2] == [] and out[5] == []
    assert out[1] == [
        {"output_type": "stream", "name": "stdout", "text": "a\nb\n"},
        {
            "output_type": "execute_result",
            "execution_count": 2,
            "data": {"text/plain": "3"},
            "metadata": {},
        },
    ]
    assert [o["output_type"] for o in out[3]] == [
        "display_data",
        "stream",
        "execute_result",
    ]
    assert out[3][0]["data"] == {"image/svg+xml": "<svg/>", "text/plain": "alt"}
    assert out[4][0]["data"]["text/markdown"].startswith("| a |")


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ("1 / 0", "cell 2: ZeroDivisionError"),
        ("import sys\nsys.stderr.write('oops')", "cell 2 wrote to stderr: oops"),
        ("raise SystemExit('stop')", "cell 2: SystemExit: stop"),
    ],
)
def test_a_cell_that_fails_or_writes_to_stderr_names_its_cell(cell, message):
    with pytest.raises(notebook_run.CellError, match=message):
        notebook_run.run(["x = 1", cell])


def test_the_outputs_are_what_a_fresh_kernel_gives():
    import nbformat
    from nbclient import NotebookClient
    from nbformat import v4

    nb = v4.new_notebook()
    nb.cells = [v4.new_code_cell(c) for c in CELLS]
    NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        record_timing=False,
        coalesce_streams=True,
    ).execute()
    mine = notebook_run.run(CELLS)
    for n, (cell, outputs) in enumerate(zip(nb.cells, mine), 1):
        assert cell.execution_count == n
        assert cell.outputs == [nbformat.from_dict(o) for o in outputs], CELLS[n - 1]


def test_numpy_s_print_options_are_the_build_s_again_after_the_cells():
    import numpy as np

    before = np.get_printoptions()
    notebook_run.run(["import numpy as np\nnp.set_printoptions(precision=2)"])
    assert np.get_printoptions() == before
