"""The shared numerical core: what more than one chapter computes (``tests/test_book_layout.py`` checks
that every module here is imported by at least two chapters).

``cells`` (batched RNN, LSTM and linear steps), ``lyapunov`` (largest Lyapunov exponent by tangent
propagation), ``fits`` (exponential and power-law rates, secant slopes), ``language_model`` (the
word-level language model, its corpus, evaluation and checkpointed training) and ``roundoff`` (the
float64 round-off floor a bound is read against).
"""
