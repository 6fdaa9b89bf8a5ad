"""The shared numerical core: what more than one chapter computes.

Recurrent steps and trajectories (``cells``, ``simulate``, ``flat``, ``train``, ``lstm_check``,
``truncation``), their dynamics (``lyapunov``, ``contraction``, ``matrix_measures``, ``convergence``,
``linear_memory``, ``systems``) and the fits and searches the claims use (``fits``, ``minima``).
"""
