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


def test_kernels_one_after_another_in_one_process_leave_nothing_behind(monkeypatch, tmp_path):
    import os
    import shutil
    import tempfile

    monkeypatch.setattr(utils, "executenb", utils.executenb)
    short = tempfile.mkdtemp(prefix="rk-", dir="/tmp")           # a socket path must stay under ~100 characters
    monkeypatch.setattr(tempfile, "tempdir", short)
    use_ipc_kernels()
    try:
        for k in range(2):                                        # the second used to collide with the first
            nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(f"{k} + 1")])
            result = utils.single_nb_execution(nb, cwd=str(tmp_path), timeout=60, allow_errors=False)
            assert result.err is None and nb.cells[0].outputs[0]["data"]["text/plain"] == str(k + 1)
        assert list(tmp_path.iterdir()) == []                     # no kernel-ipc-N in the working directory
        assert os.listdir(short) == []                            # each kernel's socket folder removed
    finally:
        shutil.rmtree(short, ignore_errors=True)
