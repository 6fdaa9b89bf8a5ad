"""The chapter runner's papermill engine (rnnrepro.book.runner._sparing_engine) writes the executed notebook now and
then while a chapter runs, not when every cell starts and ends as papermill's own engine does."""

import nbformat
import pytest
from papermill.engines import NBClientEngine, papermill_engines

from rnnrepro.book import runner


@pytest.fixture
def writes(monkeypatch):
    """Every write of a notebook by papermill's engines (the path written), with a stand-in kernel that starts
    and completes each cell at once."""
    written = []
    monkeypatch.setattr("papermill.engines.write_ipynb", lambda nb, path: written.append(path))

    def run_cells(cls, nb_man, kernel_name, **kwargs):
        for cell in nb_man.nb.cells:
            nb_man.cell_start(cell)
            nb_man.cell_complete(cell)

    monkeypatch.setattr(NBClientEngine, "execute_managed_notebook", classmethod(run_cells))
    return written


def _run(engine_name, path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(f"x = {k}", metadata={"papermill": {}})
                                         for k in range(20)], metadata={"papermill": {}})   # as papermill prepares it
    papermill_engines.get_engine(engine_name).execute_notebook(nb, "python3", output_path=str(path),
                                                               progress_bar=False)


def test_the_notebook_is_written_at_the_start_not_at_every_cell(writes, tmp_path):
    _run(runner._sparing_engine(), tmp_path / "a.ipynb")
    assert len(writes) == 1                         # papermill.execute writes the result itself once it ends
    writes.clear()
    _run("nbclient", tmp_path / "b.ipynb")          # papermill's own engine: at each cell's start and end
    assert len(writes) == 2 + 2 * 20


def test_a_long_run_is_still_written_now_and_then(writes, tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "SAVE_EVERY_S", 0.0)  # every save is due
    _run(runner._sparing_engine(), tmp_path / "a.ipynb")
    assert len(writes) == 2 + 2 * 20
