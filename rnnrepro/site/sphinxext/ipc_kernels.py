"""The book build's kernels talk over local IPC sockets, as ``python -m rnnrepro run`` does
(:func:`rnnrepro.book.runner.ipc_kernel_manager`): nothing goes over TCP, and ipykernel no longer prints
"Kernel is running over TCP without encryption" into the build log for every chapter.

myst-nb executes notebooks through ``jupyter_cache.executors.utils.executenb`` (nbclient's ``execute``)
and passes no kernel manager; this wraps that function so that it asks for the IPC kernel manager.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import nbformat
    from sphinx.application import Sphinx


def use_ipc_kernels() -> None:
    """Make myst-nb's notebook execution start its kernels with the IPC kernel manager (idempotent)."""
    from jupyter_cache.executors import utils

    from rnnrepro.book.runner import ipc_kernel_manager

    execute = utils.executenb
    if getattr(execute, "rnnrepro_ipc", False):
        return

    def executenb(nb: nbformat.NotebookNode, *args, **kwargs) -> nbformat.NotebookNode:
        kwargs.setdefault("kernel_manager_class", ipc_kernel_manager())
        return execute(nb, *args, **kwargs)

    executenb.rnnrepro_ipc = True
    utils.executenb = executenb


def setup(app: Sphinx) -> dict:
    use_ipc_kernels()
    return {"parallel_read_safe": True, "parallel_write_safe": True}
