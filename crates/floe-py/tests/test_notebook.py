"""The example notebook (examples/theses.ipynb), executed headless: one figure of each
thesis. Its outputs are not committed: the file in the repository holds none."""

from __future__ import annotations

import nbformat
import pytest
from nbclient import NotebookClient

from conftest import ROOT

NOTEBOOK = ROOT / "examples" / "theses.ipynb"


def test_the_committed_notebook_holds_no_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:60]


def test_the_notebook_runs_and_draws_every_figure():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    svgs = [
        o
        for cell in nb.cells
        if cell.cell_type == "code"
        for o in cell.outputs
        if "image/svg+xml" in o.get("data", {})
    ]
    # a solution, Kluiver's profile, the reach heat map, the census figure, the hardest
    # board's solution, the BoxOff box plots
    assert len(svgs) >= 6
    errors = [o for cell in nb.cells for o in cell.get("outputs", []) if o.output_type == "error"]
    assert errors == []
