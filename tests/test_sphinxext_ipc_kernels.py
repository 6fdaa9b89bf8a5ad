import nbformat
from jupyter_cache.executors import utils

from rnnrepro.site.sphinxext.ipc_kernels import use_ipc_kernels


def test_the_build_executes_notebooks_with_kernels_over_ipc(monkeypatch, capfd):
    monkeypatch.setattr(utils, "executenb", utils.executenb)      # restored after the test
    use_ipc_kernels()
    use_ipc_kernels()                                             # idempotent: wrapped once
    assert utils.executenb.rnnrepro_ipc
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    result = utils.single_nb_execution(nb, cwd=None, timeout=60, allow_errors=False)
    assert result.err is None and nb.cells[0].outputs[0]["data"]["text/plain"] == "2"
    assert "TCP without encryption" not in capfd.readouterr().err
