"""The front-matter chapter: recurrent networks as dynamical systems.

Simulation (``simulate``), the example systems (``systems``), truncation (``truncation``), the memory
of a linear RNN (``linear_memory``), how fast trajectories forget (``convergence``, ``forgetting``) and
the LSTM check against ``torch.nn.LSTM`` (``lstm_check``).
"""
